#!/usr/bin/env python3
"""Strength study: how strong each trainer gets within a wall-time budget, from no weights.

Arms (each trains ``--game`` from scratch for ``--minutes`` of wall clock, everything it does
counted, its policy snapshotted every ``--every`` minutes):
    ppo         mazzo PPO, ``configs/<game>_ppo.toml`` (its behaviour-cloning start included)
    dmc         mazzo Deep Monte-Carlo, ``configs/<game>_dmc.toml``
    sb3         sb3-contrib MaskablePPO on ``mazzo/<Game>-v0`` (one learning seat, a random seat
                each deal, against heuristic opponents; the settings of bench_train.py)
    ppo_hidden  mazzo PPO with ``critic_sees_hidden = true`` (the hidden-card critic)

Every snapshot is then evaluated by the one evaluator (the arena, ``pairs`` seating, duplicate)
on the first ``--deals`` deals of the committed set ``configs/deals/<game>-2000-s1.jsonl``
against the heuristic and random: the paired margin per deal with its 95% interval. Rows go
to ``docs/study_strength.csv`` (``--docs``); ``plot`` draws ``docs/study_strength_<game>.png``
(the margin against the heuristic over wall time, every arm on one plot; random beside it).

Snapshots and run directories live in ``--work`` (default ``runs/study/``). Each step is a
command, so arms can run one after another or side by side:
    python benchmarks/study_strength.py train --game G --arm ppo --minutes 25
    python benchmarks/study_strength.py evaluate --game G
    python benchmarks/study_strength.py plot --game G
    python benchmarks/study_strength.py all --game G --minutes 25   # all three, in sequence
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

try:  # torch, the trainers and the arena load in the steps, after the arguments are checked
    from mazzo.envs.registry import game_names, get_game
except ImportError as e:
    sys.exit(f"study_strength: cannot import the project ({e}); run it with the project's venv")

if TYPE_CHECKING:
    from mazzo.agents.nets import PolicyValueNet
    from mazzo.agents.neural import NeuralAgent
    from mazzo.training.rl.run import Run

ARMS = ("ppo", "dmc", "sb3", "ppo_hidden")
OPPONENTS = ("heuristic", "random")
DOCS = ROOT / "docs"
COLUMNS = ("game", "arm", "seconds", "decisions", "opponent", "margin", "low", "high", "deals")


# ---------------------------------------------------------------- training
class Snapshots:
    """Saves the policy every ``every`` seconds of the arm's wall clock; says when to stop."""

    def __init__(self, folder: Path, budget: float, every: float) -> None:
        self.folder, self.budget, self.every = folder, budget, every
        folder.mkdir(parents=True, exist_ok=True)
        self.t0, self.cpu0 = time.perf_counter(), time.process_time()
        self.next = 0.0

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def cpu(self) -> float:
        """CPU seconds of this process so far (its threads included)."""
        return time.process_time() - self.cpu0

    def due(self) -> bool:
        t = self.elapsed()
        return t >= self.next or t >= self.budget

    def saved(self) -> bool:
        """Record that a snapshot was just taken; True once the budget is spent."""
        t = self.elapsed()
        while self.next <= t:
            self.next += self.every
        return t >= self.budget

    def path(self, suffix: str) -> Path:
        return self.folder / f"t{self.elapsed():07.1f}{suffix}"


def train_mazzo(game: str, arm: str, folder: Path, budget: float, every: float, seed: int) -> None:
    import torch

    from mazzo.training.rl.config import load_config
    from mazzo.training.rl.dmc import DMCConfig
    from mazzo.training.rl.dmc import train as train_dmc
    from mazzo.training.rl.ppo import PPOConfig
    from mazzo.training.rl.ppo import train as train_ppo

    algo = "dmc" if arm == "dmc" else "ppo"
    cls, train = (DMCConfig, train_dmc) if algo == "dmc" else (PPOConfig, train_ppo)
    overrides: dict[str, Any] = {
        "seed": seed, "total_decisions": 10**12, "eval_every": 0, "checkpoint_minutes": 1e6,
    }  # fmt: skip
    if arm == "ppo_hidden":
        overrides["critic_sees_hidden"] = True
    cfg = load_config(cls, ROOT / "configs" / f"{game}_{algo}.toml", overrides, ("algorithm",))
    snaps = Snapshots(folder, budget, every)

    def hook(net: PolicyValueNet, run: Run) -> bool:
        if not snaps.due():
            return False
        meta = {
            "decisions": run.decisions, "hidden": list(cfg.hidden), "seconds": snaps.elapsed(),
            "cpu_seconds": snaps.cpu(),
        }  # fmt: skip
        path = snaps.path(".pt")
        torch.save(net.state_dict(), path)
        path.with_suffix(".json").write_text(json.dumps(meta))
        return snaps.saved()

    lines: list[str] = []
    train(cfg, folder / "run", log=lines.append, hook=hook)  # type: ignore[arg-type]
    (folder / "log.txt").write_text("\n".join(lines) + "\n")


def train_sb3(
    game: str, folder: Path, budget: float, every: float, seed: int, n_steps: int = 2048
) -> None:
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker

    import mazzo.training.single_agent  # noqa: F401 (registers the Gymnasium ids)

    torch.set_num_threads(1)
    snaps = Snapshots(folder, budget, every)
    env = gym.make(get_game(game).info.gym_id, opponents="heuristic", seat=None)
    env = gym.wrappers.FlattenObservation(gym.wrappers.FilterObservation(env, ["observation"]))
    env = ActionMasker(env, lambda e: e.unwrapped.action_masks())
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=n_steps, batch_size=64, seed=seed, verbose=0,
        policy_kwargs={"net_arch": [256, 256]},
    )  # fmt: skip
    steps, done = 0, False
    while not done:
        if snaps.due():
            path = snaps.path(".zip")
            model.save(path)
            meta = {"decisions": steps, "seconds": snaps.elapsed(), "cpu_seconds": snaps.cpu()}
            path.with_suffix(".json").write_text(json.dumps(meta))
            done = snaps.saved()
            if done:
                break
        model.learn(total_timesteps=n_steps, reset_num_timesteps=steps == 0)
        steps += n_steps


# ---------------------------------------------------------------- evaluation
class MazzoPolicy:
    """A picklable factory of the agent of a mazzo snapshot (``.pt`` of a PolicyValueNet)."""

    def __init__(self, game: str, path: Path) -> None:
        self.game, self.path = game, path

    def __call__(self) -> NeuralAgent:
        import torch

        from mazzo.agents.nets import PolicyValueNet
        from mazzo.agents.neural import NeuralAgent

        g = get_game(self.game)
        encoder = g.encoder(g.rules())
        state = torch.load(self.path, weights_only=True)
        hidden = tuple(json.loads(self.path.with_suffix(".json").read_text())["hidden"])
        extra = state["value_torso.0.weight"].shape[1] if "value_torso.0.weight" in state else 0
        net = PolicyValueNet(encoder.obs_size, encoder.num_actions, hidden, extra)
        net.load_state_dict(state)
        return NeuralAgent(net.eval(), encoder)


class SB3Policy:
    """A picklable factory of the agent of a MaskablePPO snapshot (``.zip``)."""

    def __init__(self, game: str, path: Path) -> None:
        self.game, self.path = game, path

    def __call__(self) -> NeuralAgent:
        import torch
        from sb3_contrib import MaskablePPO

        from mazzo.agents.neural import NeuralAgent

        class SB3Logits(torch.nn.Module):
            """MaskablePPO's policy as ``logits(obs, mask)``: its action logits, illegal ones
            masked (the argmax is ``predict(obs, action_masks=mask, deterministic=True)``)."""

            def __init__(self, policy: Any) -> None:
                super().__init__()
                self.policy = policy

            def logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
                features = self.policy.extract_features(obs)
                latent = self.policy.mlp_extractor.forward_actor(features)
                out: torch.Tensor = self.policy.action_net(latent)
                return out.masked_fill(mask == 0, -1e9)

        g = get_game(self.game)
        model = MaskablePPO.load(self.path, device="cpu")
        return NeuralAgent(SB3Logits(model.policy.eval()), g.encoder(g.rules()))


def deal_file(game: str) -> Path:
    files = sorted((ROOT / "configs" / "deals").glob(f"{game}-*.jsonl"))
    if not files:
        raise ValueError(f"no committed deal set for {game!r} under configs/deals/")
    return files[0]


def margin(game: str, arm: str, source: Any, opponent: str, deals: int) -> tuple[float, ...]:
    """The paired margin of the snapshot over ``opponent`` per deal: (mean, low, high, deals)."""
    from mazzo.arena.evaluate import EvalConfig, evaluate
    from mazzo.arena.plan import Entrant

    config = EvalConfig(
        agents=(Entrant(arm, source), opponent), deals=str(deal_file(game)), n=deals, workers=1,
    )  # fmt: skip
    _, summary = evaluate(config)
    pair = summary.pairs[0]
    sign = 1.0 if pair.a == arm else -1.0
    low, high = sorted((sign * pair.diff.low, sign * pair.diff.high))
    return sign * pair.diff.mean, low, high, summary.n_deals


def read_rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def evaluate_snapshots(game: str, work: Path, deals: int, out: Path) -> int:
    """Evaluate every snapshot of ``game`` under ``work`` that has no row in ``out`` yet;
    returns the rows written."""
    rows = read_rows(out)
    seen = {(r["game"], r["arm"], f"{float(r['seconds']):.1f}", r["opponent"]) for r in rows}
    written = 0
    for arm in ARMS:
        for meta_path in sorted((work / game / arm).glob("t*.json")):
            meta = json.loads(meta_path.read_text())
            pt, zp = meta_path.with_suffix(".pt"), meta_path.with_suffix(".zip")
            source = MazzoPolicy(game, pt) if pt.exists() else SB3Policy(game, zp)
            for opponent in OPPONENTS:
                key = (game, arm, f"{meta['seconds']:.1f}", opponent)
                if key in seen:
                    continue
                m = margin(game, arm, source, opponent, deals)
                write_row(out, (game, arm, f"{meta['seconds']:.1f}", meta["decisions"], opponent,
                           *(f"{v:+.4f}" for v in m[:3]), m[3]))  # fmt: skip
                print(f"{game} {arm} t={meta['seconds']:6.0f}s vs {opponent}: "
                      f"{m[0]:+.3f} [{m[1]:+.3f}, {m[2]:+.3f}]", flush=True)  # fmt: skip
                written += 1
    return written


def write_row(path: Path, row: tuple[Any, ...]) -> None:
    new = not path.exists()
    with path.open("a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(COLUMNS)
        w.writerow(row)


# ---------------------------------------------------------------- report
def plot(game: str, docs: Path) -> Path:
    import matplotlib
    import numpy as np

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in read_rows(docs / "study_strength.csv") if r["game"] == game]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, opponent in zip(axes, OPPONENTS, strict=True):
        later: list[float] = []  # every point but each arm's first (the untrained net)
        for arm in ARMS:
            pts = sorted(
                (float(r["seconds"]) / 60, float(r["margin"]), float(r["low"]), float(r["high"]))
                for r in rows if r["arm"] == arm and r["opponent"] == opponent
            )  # fmt: skip
            if not pts:
                continue
            t, m, lo, hi = (np.array(c) for c in zip(*pts, strict=True))
            ax.plot(t, m, marker="o", label=arm)
            ax.fill_between(t, lo, hi, alpha=0.2)
            later += [*lo[1:], *hi[1:]]
        if later and opponent == "heuristic":  # the untrained nets would squash the rest
            low = min(min(later), 0.0)
            ax.set_ylim(low - 0.25 * (max(max(later), 0.0) - low) - 0.05, None)
        ax.axhline(0.0, color="grey", lw=0.8)
        ax.set_xlabel("wall time (minutes, 2 shared cores)")
        ax.set_ylabel(f"margin per deal vs {opponent}")
        info = get_game(game).info
        ax.set_title(f"{info.title}: margin vs {opponent} ({info.score_unit} per deal)")
        ax.legend()
    fig.tight_layout()
    out = docs / f"study_strength_{game}.png"
    fig.savefig(out, dpi=90)
    return out


def table(game: str, docs: Path) -> str:
    """Each arm's last snapshot: margins with intervals, and when it first beat random."""
    rows = [r for r in read_rows(docs / "study_strength.csv") if r["game"] == game]
    lines = ["| arm | minutes | decisions | vs heuristic | vs random | beat random at |",
             "|---|---|---|---|---|---|"]  # fmt: skip
    for arm in ARMS:
        mine = [r for r in rows if r["arm"] == arm]
        if not mine:
            continue
        last = max(float(r["seconds"]) for r in mine)
        end = {r["opponent"]: r for r in mine if float(r["seconds"]) == last}
        beat = sorted(float(r["seconds"]) for r in mine
                      if r["opponent"] == "random" and float(r["low"]) > 0)  # fmt: skip
        cell = {o: f"{float(r['margin']):+.3f} [{float(r['low']):+.3f}, {float(r['high']):+.3f}]"
                for o, r in end.items()}  # fmt: skip
        lines.append(
            f"| {arm} | {last / 60:.1f} | {int(end[OPPONENTS[0]]['decisions']):,} | "
            f"{cell.get('heuristic', '')} | {cell.get('random', '')} | "
            f"{f'{beat[0] / 60:.1f} min' if beat else 'not yet'} |"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------- CLI
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=("train", "evaluate", "watch", "plot", "table", "all"))
    parser.add_argument("--game", default=game_names()[0], choices=game_names())
    parser.add_argument("--arm", choices=ARMS, help="train: the arm (all: every arm listed)")
    parser.add_argument("--arms", nargs="+", choices=ARMS, default=["ppo", "dmc", "sb3"])
    parser.add_argument("--minutes", type=float, default=25.0, help="wall-time budget per arm")
    parser.add_argument("--every", type=float, default=5.0, help="minutes between snapshots")
    parser.add_argument("--deals", type=int, default=500, help="evaluation deals (of 2,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sb3-steps", type=int, default=2048,
                        help="sb3: MaskablePPO's rollout (n_steps), also the decisions between "
                        "snapshot checks")  # fmt: skip
    parser.add_argument("--games", nargs="+", choices=game_names(), help="watch: these games")
    parser.add_argument("--work", type=Path, default=ROOT / "runs" / "study")
    parser.add_argument("--docs", type=Path, default=DOCS, help="where the CSV and figure go")
    args = parser.parse_args()
    if args.minutes <= 0 or args.every <= 0 or args.deals < 1 or args.sb3_steps < 64:
        parser.error("--minutes and --every must be > 0, --deals >= 1 and --sb3-steps >= 64")
    arms = [args.arm] if args.step == "train" else args.arms
    if args.step == "train" and args.arm is None:
        parser.error("train needs --arm")
    if args.step in ("train", "all"):
        for arm in arms:
            folder = args.work / args.game / arm
            budget, every = 60 * args.minutes, 60 * args.every
            if arm == "sb3":
                train_sb3(args.game, folder, budget, every, args.seed, args.sb3_steps)
            else:
                train_mazzo(args.game, arm, folder, budget, every, args.seed)
    csv_path = args.docs / "study_strength.csv"
    if args.step in ("evaluate", "all"):
        evaluate_snapshots(args.game, args.work, args.deals, csv_path)
    if args.step == "watch":  # every game's snapshots as they come, until ``work/STOP`` exists
        while True:
            stop = (args.work / "STOP").exists()
            games = args.games or game_names()
            n = sum(evaluate_snapshots(g, args.work, args.deals, csv_path) for g in games)
            if stop:
                break
            if not n:
                time.sleep(30)
    if args.step in ("plot", "all"):
        print(f"figure: {plot(args.game, args.docs)}")
    if args.step in ("table", "all"):
        print(table(args.game, args.docs))
    return 0


if __name__ == "__main__":
    sys.exit(main())

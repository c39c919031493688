#!/usr/bin/env python3
"""Why self-play from no weights plateaus: measurements of a run's checkpoints on fixed deals.

For each checkpoint folder (``ckpt-*``) under the given directories (a run directory keeps
only its last three; copy them aside during the run to study the curve), on fixed deals:

- **self-play** (the checkpoint in every seat, sampling from its policy, as training plays):
  per phase, the decisions per deal, the policy's mean entropy (nats, over the legal actions),
  the value head's error against the deal's final return (reward-scaled, as trained: mean
  squared error, the return's variance and the explained variance ``1 - Var(G - V) / Var(G)``),
  and for phases of few distinct actions (the auction, declarations: 12 legal actions seen at
  most) how often each action is taken; per deal, how often it is passed out (every seat
  passes: ``void``) and the contracts bid;
- **against the heuristic** (the arena, ``pairs`` seating, the greedy policy as ``nn:CKPT``
  plays): the paired margin per deal with its 95% interval, the deals passed out and the share
  of games where a seat of the policy is the soloist, by contract.

Rows go to ``--out`` (CSV: one per checkpoint and phase, phase ``all`` for the deal-level
figures); a table is printed. The opponent pool of the run is described by ``pool``: the
share of deals played against each member over the updates, from the config (no play).

    python benchmarks/study_selfplay.py measure RUN_KEEP_DIR --deals 200 --arena 100 --out f.csv
    python benchmarks/study_selfplay.py pool RUN_DIR
    python benchmarks/study_selfplay.py curves RUN_DIR
    python benchmarks/study_selfplay.py rollout CKPT --decisions 8192
    python benchmarks/study_selfplay.py train CONFIG --phase-ent bid=0.2 --run-dir DIR
    python benchmarks/study_selfplay.py baseline --game G --agent heuristic --deals 200
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COLUMNS = (
    "checkpoint", "update", "decisions", "phase", "n", "per_deal", "entropy", "value_mse",
    "return_var", "explained_var", "actions", "void_selfplay", "margin_vs_heuristic", "low",
    "high", "void_vs_heuristic", "policy_soloist", "policy_contracts",
)  # fmt: skip


def checkpoints(dirs: list[str], every: int) -> list[Path]:
    """Every ``every``-th checkpoint folder under ``dirs`` (by update; the last always)."""
    found: dict[str, Path] = {}
    for d in dirs:
        p = Path(d)
        if (p / "meta.json").exists():
            found[p.name] = p
        for c in sorted(p.glob("ckpt-*")):
            if (c / "meta.json").exists():
                found.setdefault(c.name, c)
    items = [found[k] for k in sorted(found)]
    if not items:
        raise SystemExit(f"study_selfplay: no checkpoint under {', '.join(dirs)}")
    picked = items[::every]
    if picked[-1] != items[-1]:
        picked.append(items[-1])
    return picked


def selfplay(agent: Any, meta: dict[str, Any], n_deals: int, seed: int) -> dict[str, Any]:
    """Play ``n_deals`` fixed deals with the policy in every seat, sampling; the figures."""
    import torch

    from mazzo.envs.deal_sets import generate_deals
    from mazzo.envs.registry import get_game

    game = get_game(meta["game"])
    rules = game.rules(meta.get("flags", {}))
    scale = meta["config"].get("reward_scale") or game.reward_scale(rules)
    deals = generate_deals(game, rules, n_deals, seed).deals
    states = [game.new_state(d, rules) for d in deals]
    net, encoder = agent.net, agent.encoder
    rng = np.random.default_rng(seed)
    rows: list[tuple[int, int, int, float, float, str]] = []  # deal, seat, phase, ent, value, label
    few: dict[int, set[int]] = {}
    active = list(range(len(states)))
    with torch.no_grad():
        while active:
            views = [states[i].info_view(states[i].to_play) for i in active]
            obs = np.zeros((len(views), encoder.obs_size), np.float32)
            mask = np.zeros((len(views), encoder.num_actions), np.int8)
            encoder.encode_batch(views, obs, mask)
            x = None
            if net.critic_extra:
                # a critic that sees the hidden cards: its value is not measured here
                x = torch.zeros((len(views), net.critic_extra))
            logits, value = net(torch.from_numpy(obs), torch.from_numpy(mask), x)
            logp = torch.log_softmax(logits, -1)
            p = logp.exp()
            legal = torch.from_numpy(mask) == 1
            ent = -(p * torch.where(legal, logp, 0.0)).sum(-1).numpy()
            probs = p.numpy().astype(np.float64)
            cum = np.cumsum(probs, 1)
            u = rng.random(len(probs)) * cum[:, -1]
            acts = np.minimum((cum < u[:, None]).sum(1), probs.shape[1] - 1)
            for k, i in enumerate(active):
                s, ph, a = states[i], int(views[k].phase), int(acts[k])
                few.setdefault(ph, set()).update(np.flatnonzero(mask[k]).tolist())
                rows.append((i, s.to_play, ph, float(ent[k]), float(value[k]), s.action_label(a)))
                s.apply(a)
            active = [i for i in active if not states[i].is_terminal()]
    returns = np.array([np.asarray(s.returns(), float) * scale for s in states])
    phases = sorted({r[2] for r in rows})
    names = _phase_names(game)
    out: dict[str, Any] = {"phases": {}}
    for ph in phases:
        sel = [r for r in rows if r[2] == ph]
        g = np.array([returns[r[0], r[1]] for r in sel])
        v = np.array([r[4] for r in sel])
        var = float(np.var(g))
        actions = ""
        if len(few[ph]) <= 12:  # the legal actions seen in the phase: few, not cards
            c = Counter(r[5] for r in sel)
            actions = "; ".join(f"{k} {n / len(sel):.1%}" for k, n in c.most_common())
        out["phases"][names.get(ph, str(ph))] = {
            "n": len(sel),
            "per_deal": len(sel) / n_deals,
            "entropy": float(np.mean([r[3] for r in sel])),
            "value_mse": float(np.mean((g - v) ** 2)),
            "return_var": var,
            "explained_var": 1 - float(np.var(g - v)) / var if var > 0 else float("nan"),
            "actions": actions,
        }
    voids = [bool(s.result().get("void", False)) for s in states]
    contracts = Counter(str(s.result().get("contract")) for s in states)
    out["void"] = float(np.mean(voids))
    out["contracts"] = "; ".join(f"{k} {n / n_deals:.1%}" for k, n in contracts.most_common())
    return out


def _phase_names(game: Any) -> dict[int, str]:
    from mazzo.training.rl.run import phase_names

    return phase_names(game, game.rules())


def versus(ckpt: Path, game: str, n_deals: int, seed: int, opponent: str) -> dict[str, Any]:
    """The arena: the greedy policy against ``opponent`` on fixed deals."""
    from mazzo.arena.runner import make_plan, run_arena
    from mazzo.arena.summary import summarize
    from mazzo.envs.deal_sets import generate_deals
    from mazzo.envs.registry import get_game

    rules = get_game(game).rules()
    deals = generate_deals(get_game(game), rules, n_deals, seed)
    plan = make_plan(deals, [f"policy=nn:{ckpt}", opponent], "pairs", seed)
    run = run_arena(plan, 1)
    pair = summarize(run).pairs[0]
    sign = 1.0 if pair.a == "policy" else -1.0
    low, high = sorted((sign * pair.diff.low, sign * pair.diff.high))
    games = [(o, lu) for deal in run.outcomes for o, lu in zip(deal, plan.lineups, strict=True)]
    void = np.mean([o.void for o, _ in games])
    solo = [o for o, lu in games if o.soloist is not None and lu[o.soloist] == 0]
    by = Counter(o.contract for o in solo)
    return {
        "margin": sign * pair.diff.mean, "low": low, "high": high, "void": float(void),
        "soloist": len(solo) / len(games),
        "contracts": "; ".join(f"{k} {n / len(games):.1%}" for k, n in by.most_common()),
    }  # fmt: skip


def cmd_measure(args: argparse.Namespace) -> int:
    import torch

    from mazzo.agents.neural import load_policy

    torch.set_num_threads(1)
    out = Path(args.out) if args.out else None
    rows: list[dict[str, Any]] = []
    for ckpt in checkpoints(args.dirs, args.every):
        agent, meta = load_policy(ckpt)
        sp = selfplay(agent, meta, args.deals, args.seed)
        vs = versus(ckpt, meta["game"], args.arena, args.seed, "heuristic") if args.arena else {}
        base = {"checkpoint": ckpt.name, "update": meta["update"], "decisions": meta["decisions"]}
        rows.append(base | {
            "phase": "all", "void_selfplay": sp["void"], "actions": sp["contracts"],
            "margin_vs_heuristic": vs.get("margin"), "low": vs.get("low"),
            "high": vs.get("high"), "void_vs_heuristic": vs.get("void"),
            "policy_soloist": vs.get("soloist"), "policy_contracts": vs.get("contracts"),
        })  # fmt: skip
        for name, f in sp["phases"].items():
            rows.append(base | {"phase": name} | f)
        _print(rows[-1 - len(sp["phases"]) :])
        if out is not None:
            with out.open("w", newline="") as fh:
                w = csv.DictWriter(fh, COLUMNS)
                w.writeheader()
                w.writerows(rows)
    return 0


def _fmt(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:+.3f}" if abs(x) < 100 else f"{x:.0f}"
    return str(x)


def _print(rows: list[dict[str, Any]]) -> None:
    head = rows[0]
    print(
        f"{head['checkpoint']} (update {head['update']}, {head['decisions']:,} decisions): "
        f"self-play passed out {head['void_selfplay']:.1%} [{head['actions']}]; vs heuristic "
        f"{_fmt(head['margin_vs_heuristic'])} [{_fmt(head['low'])}, {_fmt(head['high'])}], "
        f"passed out {_fmt(head['void_vs_heuristic'])}, policy soloist "
        f"{_fmt(head['policy_soloist'])} [{head['policy_contracts'] or ''}]"
    )
    for r in rows[1:]:
        print(
            f"  {r['phase']:>14}: {r['per_deal']:6.1f}/deal  entropy {r['entropy']:.3f}  value "
            f"mse {r['value_mse']:.4f}  var(G) {r['return_var']:.4f}  EV "
            f"{r['explained_var']:+.2f}  {r['actions']}"
        )
    sys.stdout.flush()


def cmd_pool(args: argparse.Namespace) -> int:
    """The share of deals against each pool member over the updates (from the config)."""
    cfg = json.loads((Path(args.run) / "config.json").read_text())
    sp, every, keep = cfg["self_play"], cfg["snapshot_every"], cfg["max_snapshots"]
    fixed = list(cfg["pool_agents"])
    per_update = cfg["rollout_decisions"]
    total = cfg["total_decisions"] // per_update
    print(
        f"self_play={sp}, fixed members {fixed}, a snapshot every {every} updates, at most "
        f"{keep}; {per_update} decisions per update, {total} updates"
    )
    print("update  snapshots  latest-vs-latest  each fixed member  each snapshot")
    for u in sorted({0, 1, every, 2 * every, 5 * every, keep * every, total}):
        n = min(u // every, keep)
        members = len(fixed) + n
        other = (1 - sp) / members if members else 0.0
        print(f"{u:6d}  {n:9d}  {sp if members else 1.0:16.1%}  {other:17.2%}  "
              f"{other if n else 0:13.2%}")  # fmt: skip
    return 0


def cmd_rollout(args: argparse.Namespace) -> int:
    """One training rollout of a checkpoint with its run's pool: who the deals were against
    and the learner's decisions by phase."""
    import torch

    from mazzo.envs.registry import get_game
    from mazzo.training.rl.checkpoint import load_checkpoint
    from mazzo.training.rl.collect import Collector
    from mazzo.training.rl.opponents import LEARNER, OpponentPool

    torch.set_num_threads(1)
    agent, _ = __import__("mazzo.agents.neural", fromlist=["load_policy"]).load_policy(args.ckpt)
    _, trainer, meta = load_checkpoint(Path(args.ckpt))
    cfg = meta["config"]
    game = get_game(meta["game"])
    rules = game.rules(meta.get("flags", {}))
    pool = OpponentPool(game, tuple(cfg["pool_agents"]), cfg["self_play"],
                        cfg["max_snapshots"])  # fmt: skip
    pool.restore({"snapshots": meta["pool"], "weights": trainer["pool"]})
    drawn: Counter[str] = Counter()
    draw = pool.controllers

    def counted(rng: Any, teams: Any, n_seats: int) -> list[int]:
        out = draw(rng, teams, n_seats)
        members = {c for c in out if c != LEARNER}
        kind = "latest vs latest" if not members else pool.members[members.pop()].name
        drawn["snapshot" if kind.startswith("u") and kind[1:].isdigit() else kind] += 1
        return out

    pool.controllers = counted  # type: ignore[method-assign]
    scale = cfg.get("reward_scale") or game.reward_scale(rules)
    col = Collector(game, rules, cfg["n_envs"], np.random.SeedSequence(args.seed), pool, scale,
                    cfg["gamma"], cfg["lam"])  # fmt: skip
    roll = col.collect(agent.net, args.decisions)
    names = _phase_names(game)
    total = sum(drawn.values())
    print(f"{args.ckpt}: {len(roll):,} learner decisions, {roll.deals} deals finished")
    print("  deals drawn: " + "; ".join(f"{k} {n / total:.1%}" for k, n in drawn.most_common()))
    ph = Counter(int(p) for p in roll.phase.tolist())
    print("  learner decisions by phase: " + "; ".join(
        f"{names.get(k, k)} {n / len(roll):.1%}" for k, n in ph.most_common()))  # fmt: skip
    return 0


def cmd_curves(args: argparse.Namespace) -> int:
    """A run's own curves: its evaluations (``metrics.csv``) and, from its TensorBoard events,
    the policy entropy per phase and the value's explained variance of the training rollouts
    (the mean over the updates between two evaluations)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    run = Path(args.run)
    evals: dict[int, dict[str, str]] = {}
    with (run / "metrics.csv").open() as f:
        for row in csv.DictReader(f):
            m, lo, hi = (float(row[k]) for k in ("margin", "low", "high"))
            evals.setdefault(int(row["decisions"]), {})[row["opponent"]] = (
                f"{m:+.2f} [{lo:+.2f}, {hi:+.2f}]"
            )
    ea = EventAccumulator(str(run), size_guidance={"scalars": 0})
    ea.Reload()
    tags = [t for t in ea.Tags()["scalars"] if t.startswith("charts/entropy_")]
    tags.append("losses/explained_variance")
    series = {t: [(e.step, e.value) for e in ea.Scalars(t)] for t in tags}
    names = [t.removeprefix("charts/entropy_").removeprefix("losses/") for t in tags]
    opponents = sorted({o for v in evals.values() for o in v})
    print("decisions  " + "  ".join(f"vs {o:<22}" for o in opponents) + "  " + "  ".join(
        f"{n[:12]:>12}" for n in names))  # fmt: skip
    prev = 0
    for step in sorted(evals):
        cells = []
        for t in tags:
            vals = [v for s_, v in series[t] if prev < s_ <= step]
            cells.append(f"{np.mean(vals):12.3f}" if vals else f"{'-':>12}")
        print(f"{step:9,}  " + "  ".join(f"{evals[step].get(o, '-'):<25}" for o in opponents)
              + "  " + "  ".join(cells))  # fmt: skip
        prev = step
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    """PPO from a config with an extra entropy bonus per phase (``PPOConfig.phase_ent_coef``,
    ``mazzo.training.rl.phase_entropy``): the measurement harness of that candidate fix (the same
    as ``mazzo train CONFIG --set 'phase_ent_coef={"bid": 0.1}'``). ``--phase-ent`` adds to
    the config's own coefficients (a phase named in both takes the given one)."""
    from mazzo.envs.cards.flags import parse_assignments
    from mazzo.training.rl.config import load_config, read_toml
    from mazzo.training.rl.ppo import PPOConfig, train

    overrides = parse_assignments(args.set, "--set")
    own = overrides.get("phase_ent_coef", read_toml(args.config).get("phase_ent_coef", {}))
    overrides["phase_ent_coef"] = dict(own) | {
        k: float(v) for k, v in (item.split("=") for item in args.phase_ent)
    }
    cfg = load_config(PPOConfig, args.config, overrides, ignore=("algorithm",))
    train(cfg, Path(args.run_dir))
    return 0


def cmd_baseline(args: argparse.Namespace) -> int:
    """How often a fixed agent in every seat passes a deal out, and what it bids."""
    from mazzo.agents.registry import make_agent
    from mazzo.arena.streams import agent_rng
    from mazzo.envs.deal_sets import generate_deals
    from mazzo.envs.registry import get_game

    game = get_game(args.game)
    rules = game.rules()
    agent = make_agent(args.agent, game)
    results = []
    for i, deal in enumerate(generate_deals(game, rules, args.deals, args.seed).deals):
        s = game.new_state(deal, rules)
        while not s.is_terminal():
            s.apply(agent.act(s.info_view(s.to_play), agent_rng(args.seed, i, 0, s.to_play)))
        results.append(s.result())
    voids = np.mean([bool(r.get("void", False)) for r in results])
    contracts = Counter(str(r.get("contract")) for r in results)
    said = "; ".join(f"{k} {n / len(results):.1%}" for k, n in contracts.most_common())
    print(f"{args.agent} in every seat, {args.deals} deals: passed out {voids:.1%} [{said}]")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure", help="measure checkpoints on fixed deals")
    m.add_argument("dirs", nargs="+", help="run or checkpoint directories")
    m.add_argument("--deals", type=int, default=200, help="self-play deals (default 200)")
    m.add_argument("--arena", type=int, default=100, help="deals against the heuristic (0: none)")
    m.add_argument("--seed", type=int, default=5000, help="seed of the deals (default 5000)")
    m.add_argument("--every", type=int, default=1, help="every K-th checkpoint (default 1)")
    m.add_argument("--out", help="CSV file of the rows")
    m.set_defaults(func=cmd_measure)
    q = sub.add_parser("pool", help="the opponent pool's shares over the updates")
    q.add_argument("run", help="a run directory (its config.json)")
    q.set_defaults(func=cmd_pool)
    r = sub.add_parser("rollout", help="one training rollout of a checkpoint with its pool")
    r.add_argument("ckpt", help="a checkpoint folder (with trainer.pt)")
    r.add_argument("--decisions", type=int, default=8192)
    r.add_argument("--seed", type=int, default=7)
    r.set_defaults(func=cmd_rollout)
    c = sub.add_parser("curves", help="a run's evaluations and per-phase entropy over time")
    c.add_argument("run", help="a run directory (metrics.csv and TensorBoard events)")
    c.set_defaults(func=cmd_curves)
    t = sub.add_parser("train", help="PPO with an entropy bonus per phase (a candidate fix)")
    t.add_argument("config", help="a PPO config file")
    t.add_argument(
        "--phase-ent",
        action="append",
        default=[],
        metavar="PHASE=COEF",
        help="extra entropy coefficient of a phase's decisions (repeatable)",
    )
    t.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    t.add_argument("--run-dir", required=True)
    t.set_defaults(func=cmd_train)
    b = sub.add_parser("baseline", help="pass-outs and contracts of an agent in every seat")
    b.add_argument("--game", required=True)
    b.add_argument("--agent", default="heuristic")
    b.add_argument("--deals", type=int, default=200)
    b.add_argument("--seed", type=int, default=5000)
    b.set_defaults(func=cmd_baseline)
    args = p.parse_args(argv)
    try:
        return int(args.func(args))
    except (ValueError, OSError) as e:
        print(f"study_selfplay {args.cmd}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

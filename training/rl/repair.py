"""Gift repair (``algorithm = "repair"``): a trained network taught to stop throwing sure gifts
(``mazzo.arena.gifts``: a counter played last to a trick the other side takes, a card worth
nothing in hand), or any other blunder that module defines (``blunders``: a partner's trick
overtaken, a master lost, an excuse wasted), everything else it does kept.

Why a stage of its own: a sure gift costs its giver only where the settlement hangs on that
counter, so self-play's returns and a search valuing the settlement leave most of them
unpunished, and a network that learned them keeps them (the shipped Calabresella bot threw 1.26
a deal on committed deals, the heuristic 0.08).

Rounds of self-distillation on the positions the network reaches (DAgger's loop), from the
network in ``init_from``:

1. **play**: the network plays ``deals`` fresh deals (seed ``deal_seed + round``) in every
   seat as the bot plays (its most probable action); each decision's observation, mask and
   policy are kept, and each deal's sure gifts are found once it is over;
2. **targets**: the network's own choice as it played (an anchor, one-hot on its most
   probable action: what it does stays; a soft anchor, its whole policy, let near-ties drift
   and changed a seventh of its choices), except at a blunder of the kinds in ``blunders``,
   where the target is the remedy it likes best (``DealPlays.remedies``: a blank card for a
   sure gift, a card that leaves the trick with the partner, a card that is no master, any
   card but the excuse); a gift row counts ``gift_weight`` times, and the gift rows
   of every earlier round stay in (a gift unlearned in one round is not relearned in the next
   from its own anchor); the rows are shuffled (the held-out share is a fair sample);
3. **learning**: ``epochs`` passes of cross-entropy to the targets (``distill.distill``; the
   value head is not trained).

With ``confirm`` (an agent with search values, ``pimc:ms=0,points=0.5``), a gift is moved
only to a blank card the search values at least as the counter from the player's own view;
where it values none so, the gift is kept as it was (some counters are lost either way, and
the blank card is what the network plays for).

A last play measures the repaired network (``deal_seed + rounds``). Each round's figures (the
student's sure gifts a deal as it played, the agreement with the targets on held-out rows) go
to ``metrics.csv``, the log and TensorBoard (``repair/``), and its network to a checkpoint: a
resumed run goes on after its last finished round. The run folder is a checkpoint folder like
any run's (``nn:RUN`` plays it; ``mazzo.training.rl.ship`` makes a bot of it).
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter

from mazzo.agents.nets import PolicyValueNet
from mazzo.agents.neural import load_policy
from mazzo.agents.registry import make_agent
from mazzo.agents.shipped import named_weights
from mazzo.arena.gifts import BLUNDERS, card_values, play_deal
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.protocols import AnyEncoder, RulesLike
from mazzo.envs.registry import AnyGame, get_game
from mazzo.training.rl.checkpoint import check_start, load_checkpoint, save_checkpoint
from mazzo.training.rl.config import config_dict, field_defaults
from mazzo.training.rl.distill import LabelledDecisions, distill

__all__ = ["Played", "RepairConfig", "play_and_label", "train"]

METRICS = (
    "round", "deals", "decisions", "gifts_per_deal", "agreement", "cross_entropy", "wall_s",
    "kept",
)  # fmt: skip


PLURAL = {
    "sure gift": "sure gifts", "partner overtaken": "partners overtaken",
    "master lost": "masters lost", "excuse wasted": "excuses wasted",
}  # fmt: skip


@dataclass(frozen=True)
class RepairConfig:
    """A gift repair of the network in ``init_from``."""

    game: str
    """the game (a name of the registry: mazzo rules lists them)"""
    init_from: str
    """the network to repair: ``bot`` (the shipped bot for these rules), ``bot@N`` (a shipped
    version), or a run, checkpoint or bot folder"""
    flags: dict[str, Any] = field(default_factory=dict)
    """the rule flags (the network's own: it is refused for other rules)"""
    seed: int = 1
    """the torch generator's seed (minibatch order)"""
    rounds: int = 3
    """rounds of play, targets and learning"""
    deals: int = 1000
    """fresh deals the student plays each round"""
    deal_seed: int = 880_000
    """round k plays the deals of seed ``deal_seed + k`` (the last measurement ``+ rounds``)"""
    epochs: int = 2
    """passes over each round's targets"""
    lr: float = 1e-4
    minibatch: int = 1024
    gift_weight: int = 4
    """how many times a gift row counts"""
    confirm: str = ""
    """an agent with search values (``pimc:ms=0,points=0.5``): a gift is moved only to a blank
    card it values at least as the counter ('' moves every gift)"""
    blunders: tuple[str, ...] = ("sure gift",)
    """the kinds of blunder repaired (``mazzo.arena.gifts.BLUNDERS``: sure gift, partner
    overtaken, master lost, excuse wasted); the gift figures count them all"""
    threads: int = 1
    """torch threads"""

    def __post_init__(self) -> None:
        if not self.init_from:
            raise ValueError("init_from must name the network to repair")
        for name in ("rounds", "deals", "epochs", "minibatch", "gift_weight", "threads"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if not self.lr > 0:
            raise ValueError(f"lr must be > 0, got {self.lr}")
        unknown = [k for k in self.blunders if k not in BLUNDERS]
        if unknown or not self.blunders:
            raise ValueError(
                f"blunders {list(self.blunders)!r}: give one or more of {', '.join(BLUNDERS)}"
            )


@dataclass
class Played:
    """One round's play: its decisions with their targets, its gift rows alone (``gifts``
    rows, each once), and what was counted."""

    data: LabelledDecisions
    gift_rows: LabelledDecisions
    deals: int  # deals whose sides could be read (the others count no gifts)
    gifts: int  # the network's sure gifts
    refused: int = 0  # gifts kept: the confirming search valued no blank card as the counter

    @property
    def gifts_per_deal(self) -> float:
        return self.gifts / max(self.deals, 1)


def _net_of(
    path: str | Path, game: AnyGame, rules: RulesLike, encoder: AnyEncoder
) -> tuple[PolicyValueNet, dict[str, Any]]:
    """The policy in ``path`` with its network shape, checked to be this game's, rules' and
    encoding's."""
    agent, meta = load_policy(path)  # the network, built and checked as every loader does
    want = {"game": game.name, "flags": rules.to_flags(), "encoding_version": encoder.version}
    check_start(str(path), meta, want, "this repair's")
    net = agent.net
    assert isinstance(net, PolicyValueNet)
    return net, dict(meta["network"])


@torch.no_grad()
def play_and_label(
    net: PolicyValueNet, game: AnyGame, rules: RulesLike, encoder: AnyEncoder,
    deals: list[Any], gift_weight: int, confirm: Any = None, seed: int = 0,
    blunders: tuple[str, ...] | list[str] = ("sure gift",),
) -> Played:  # fmt: skip
    """Step 1 and 2 of a round (see the module docstring) over ``deals``, every blunder of the
    kinds ``blunders`` moved to a remedy (one kind a card: the first in ``BLUNDERS``' order);
    with ``confirm`` (an agent with ``search``), a blunder is moved only to a remedy the search
    values at least as the card played, and kept where it values none so
    (``Played.refused``)."""
    values = card_values(game)
    obs1 = np.zeros((1, encoder.obs_size), np.float32)
    mask1 = np.zeros((1, encoder.num_actions), np.int8)
    obs_rows: list[np.ndarray] = []
    mask_rows: list[np.ndarray] = []
    targets: list[np.ndarray] = []
    probs: list[np.ndarray] = []
    gifts = sided = refused = 0
    gift_index: list[int] = []
    views: list[Any] = []
    rng = np.random.default_rng(seed)
    for deal in deals:
        first = len(targets)
        views.clear()

        def choose(state: Any) -> int:
            obs1[:] = 0
            mask1[:] = 0
            view = state.info_view(state.to_play)
            views.append(view if confirm is not None else None)
            encoder.encode_batch([view], obs1, mask1)
            logits = net.logits(torch.from_numpy(obs1), torch.from_numpy(mask1))
            action = int(logits.argmax(-1))
            obs_rows.append(obs1[0].astype(np.float16))
            mask_rows.append(mask1[0].copy())
            probs.append(torch.softmax(logits.double(), -1)[0].numpy())
            targets.append(np.eye(encoder.num_actions)[action])
            return action

        found = play_deal(game, game.new_state(deal, rules), choose, values)
        sided += found.sided
        marked: dict[int, list[int]] = {}  # step -> the remedies of its first blunder
        for kind, plays in found.blunders().items():
            for play in plays:
                if kind in blunders and play.step not in marked:
                    marked[play.step] = list(found.remedies(kind, play))
        for step, blanks in sorted(marked.items()):
            gifts += 1
            row = first + step
            if confirm is not None:
                _, searched = confirm.search(views[step], rng)
                played = int(targets[row].argmax())
                blanks = [
                    b for b in blanks if searched.get(b, -np.inf) >= searched.get(played, np.inf)
                ]
                if not blanks:
                    refused += 1
                    continue
            blank = max(blanks, key=lambda a: (probs[row][a], -a))
            targets[row] = np.zeros(encoder.num_actions)
            targets[row][blank] = 1.0
            gift_index.append(row)
    rows = list(range(len(targets))) + gift_index * (gift_weight - 1)
    return Played(
        _decisions(obs_rows, mask_rows, targets, rows),
        _decisions(obs_rows, mask_rows, targets, gift_index), sided, gifts, refused,
    )  # fmt: skip


def _decisions(
    obs: list[np.ndarray], mask: list[np.ndarray], targets: list[np.ndarray], rows: list[int]
) -> LabelledDecisions:
    """The decisions ``rows`` (none at all: empty arrays of the right widths)."""
    n, n_obs, n_act = len(rows), len(obs[0]), len(targets[0])
    target = np.asarray([targets[i] for i in rows], np.float32).reshape(n, n_act)
    return LabelledDecisions(
        obs=np.asarray([obs[i] for i in rows], np.float16).reshape(n, n_obs),
        mask=np.asarray([mask[i] for i in rows], np.int8).reshape(n, n_act),
        action=target.argmax(1).astype(np.int64), target=target,
        ret=np.zeros(len(rows), np.float32),
    )  # fmt: skip


FIELDS = ("obs", "mask", "action", "target", "ret")


def _joined(parts: list[LabelledDecisions]) -> LabelledDecisions:
    return LabelledDecisions(*(np.concatenate([getattr(p, f) for p in parts]) for f in FIELDS))


def _rows(data: LabelledDecisions, order: np.ndarray) -> LabelledDecisions:
    """``data``'s rows in ``order`` (shuffled: ``distill`` holds out the last rows)."""
    return LabelledDecisions(*(getattr(data, f)[order] for f in FIELDS))


def _save_rows(path: Path, rows: LabelledDecisions) -> None:
    """A round's gift rows, for a resumed run (written before the round's checkpoint)."""
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez_compressed(tmp, **{f: getattr(rows, f) for f in FIELDS})
    tmp.replace(path)


def _load_rows(path: Path) -> LabelledDecisions:
    with np.load(path, allow_pickle=False) as npz:
        return LabelledDecisions(*(npz[f] for f in FIELDS))


def train(
    cfg: RepairConfig, run_dir: Path, resume: bool = False, progress: Any = None,
    ray: str | None = None, log: Callable[[str], None] = print,
) -> PolicyValueNet:  # fmt: skip
    """Repair ``cfg.init_from`` into ``run_dir`` (or go on with a stopped repair); returns the
    repaired network."""
    if ray is not None:
        raise ValueError("a gift repair runs on this machine alone: drop --ray/--ray-address")
    torch.set_num_threads(cfg.threads)
    game = get_game(cfg.game)
    rules = game.rules(cfg.flags)
    encoder = game.encoder(rules)
    try:
        folder = named_weights(cfg.init_from, game, rules)
    except ValueError as e:
        raise ValueError(f"init_from {e}") from None
    student, shape = _net_of(folder, game, rules, encoder)
    confirmer = make_agent(cfg.confirm, game) if cfg.confirm else None
    if confirmer is not None and not hasattr(confirmer, "search"):
        raise ValueError(f"confirm {cfg.confirm!r}: not an agent with search values (pimc)")
    start = 0
    if resume:
        model, _trainer, meta = load_checkpoint(run_dir)
        own = {k: v for k, v in config_dict(cfg).items() if k != "rounds"}
        stored = field_defaults(RepairConfig) | dict(meta.get("config", {}))
        theirs = {k: v for k, v in stored.items() if k != "rounds"}
        if meta.get("algorithm") != "repair" or theirs != own:
            raise ValueError(
                f"--resume {str(run_dir)!r}: not this repair's run (a resumed repair may change "
                "rounds only)"
            )
        student.load_state_dict(model)
        start = int(meta["update"])
        log(f"repair: resumed {run_dir} after round {start}")
    elif (run_dir / "latest").exists():
        raise ValueError(f"{run_dir} already holds a run; resume it or choose another dir")
    else:
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "config.json").write_text(json.dumps(config_dict(cfg), indent=1) + "\n")
        with (run_dir / "metrics.csv").open("w", newline="") as f:
            csv.writer(f).writerow(METRICS)
    writer = SummaryWriter(str(run_dir))
    earlier: list[LabelledDecisions] = []  # the gift rows of the rounds before
    kinds = " / ".join(PLURAL[k] for k in cfg.blunders)  # as the log names them
    for k in range(start, cfg.rounds + 1):
        t0 = time.perf_counter()
        deals = list(generate_deals(game, rules, cfg.deals, cfg.deal_seed + k).deals)
        played = play_and_label(
            student.eval(), game, rules, encoder, deals, cfg.gift_weight, confirmer,
            cfg.seed * 1000 + k, cfg.blunders,
        )  # fmt: skip
        if k == cfg.rounds:  # the last play measures the repaired network
            _record(
                run_dir, writer, k, played, {}, time.perf_counter() - t0, log, "measured", kinds
            )
            break
        if len(earlier) < k:  # resumed: the earlier rounds' gift rows, as they were
            earlier = [_load_rows(run_dir / f"gifts-{j:02d}.npz") for j in range(k)]
        data = _joined([played.data, *[e for e in earlier for _ in range(cfg.gift_weight)]])
        data = _rows(data, np.random.default_rng([cfg.seed, k]).permutation(len(data)))
        earlier.append(played.gift_rows)
        _save_rows(run_dir / f"gifts-{k:02d}.npz", played.gift_rows)
        gen = torch.Generator().manual_seed(cfg.seed * 1000 + k)
        opt = torch.optim.Adam(student.parameters(), lr=cfg.lr)
        stats = distill(student.train(), opt, data, cfg.epochs, cfg.minibatch, gen, 0.0)
        _record(run_dir, writer, k, played, stats, time.perf_counter() - t0, log, "learned", kinds)
        meta = {
            "algorithm": "repair", "game": game.name, "flags": rules.to_flags(),
            "encoding_version": encoder.version, "config": config_dict(cfg), "update": k + 1,
            "decisions": len(played.data), "network": shape,
        }  # fmt: skip
        save_checkpoint(run_dir, f"ckpt-{k + 1:07d}", student.state_dict(), {}, meta)
    writer.close()
    return student.eval()


def _record(
    run_dir: Path, writer: SummaryWriter, k: int, played: Played, stats: dict[str, float],
    wall: float, log: Callable[[str], None], what: str, kinds: str,
) -> None:  # fmt: skip
    row = {
        "round": k, "deals": played.deals, "decisions": len(played.data),
        "gifts_per_deal": round(played.gifts_per_deal, 4),
        "agreement": round(stats.get("agreement", float("nan")), 4),
        "cross_entropy": round(stats.get("cross_entropy", float("nan")), 4),
        "wall_s": round(wall, 1), "kept": played.refused,
    }  # fmt: skip
    with (run_dir / "metrics.csv").open("a", newline="") as f:
        csv.writer(f).writerow([row[m] for m in METRICS])
    writer.add_scalar("repair/gifts_per_deal", played.gifts_per_deal, k)
    if stats:
        writer.add_scalar("repair/agreement", stats["agreement"], k)
        writer.add_scalar("repair/cross_entropy", stats["cross_entropy"], k)
    writer.flush()
    log(
        f"repair: round {k} ({what}): {played.gifts} {kinds} on {played.deals} deals "
        f"({played.gifts_per_deal:.2f} a deal"
        + (f", {played.refused} kept: the search prefers them" if played.refused else "")
        + f"), {len(played.data):,} decisions"
        + (f", held-out agreement {stats['agreement']:.1%}" if stats else "")
        + f" [{wall:.0f}s]"
    )

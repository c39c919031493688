"""Would Minchiate's observation teach more with what the play has shown about the hands?
(issue 41). The encoding v1 (docs/encoding.md, 3.5) keeps each seat's played cards as a set and
only the current trick in order, so the voids a player showed in earlier tricks (and what the
King rule and ``must_overtrump`` showed) cannot be read back from it, although the view holds
every completed trick. The search (``pimc``, ``ipimc``) samples its worlds with that knowledge
(``mazzo.agents.minchiate.knowledge.play_exclusions``); a network does not see it.

The study: two networks of one shape, from the same initial weights and through the same
minibatches, learn the same search labels (``mazzo-search-labels/1``: a round's
``labels.jsonl``); one reads the v1 vector, the other the v1 vector and a block of the play's
knowledge: ``voids`` (per seat, relative to the viewer as in the encoding, the plain suits and
trumps it has shown void in: 4 x 5) or ``exclusions`` (per seat the cards the play shows it does
not hold: 4 x 97). Held-out agreement with the labels (the labels' last decisions, later deals)
after each epoch: a block that carries what the search used shows as a higher agreement.

Run: ``python benchmarks/study_minchiate_encoding.py runs/X/round-07/labels.jsonl --feature
voids``. The study does not change the encoding: a new block would be a new encoding version
(docs/encoding.md, 4).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from mazzo.agents.minchiate.knowledge import SUIT_MASK, play_exclusions
from mazzo.agents.nets import PolicyValueNet
from mazzo.envs.minchiate.view import InfoView
from mazzo.envs.registry import get_game
from mazzo.training.rl.distill import LabelledDecisions, _cross_entropy, label_decisions

CARDS, SEATS, SUITS = 97, 4, 5  # plain suits c d s b, then trumps (SUIT_MASK[4])


def exclusions_block(view: InfoView) -> npt.NDArray[np.float32]:
    """Row ``(s - viewer) mod 4`` of 4 x 97: the cards the play shows seat ``s`` does not hold."""
    out = np.zeros((SEATS, CARDS), np.float32)
    for seat, cards in enumerate(play_exclusions(view)):
        row = out[(seat - view.seat) % SEATS]
        for c in range(CARDS):
            if cards >> c & 1:
                row[c] = 1.0
    return out.ravel()


def voids_block(view: InfoView) -> npt.NDArray[np.float32]:
    """Row ``(s - viewer) mod 4`` of 4 x 5: the suits seat ``s`` has shown void in (every card of
    the suit excluded), plain suits then trumps."""
    out = np.zeros((SEATS, SUITS), np.float32)
    for seat, cards in enumerate(play_exclusions(view)):
        for suit in range(SUITS):
            if cards & SUIT_MASK[suit] == SUIT_MASK[suit]:
                out[(seat - view.seat) % SEATS, suit] = 1.0
    return out.ravel()


FEATURES: dict[str, tuple[int, Callable[[InfoView], npt.NDArray[np.float32]]]] = {
    "voids": (SEATS * SUITS, voids_block),
    "exclusions": (SEATS * CARDS, exclusions_block),
}


class WithBlock:
    """The game's encoder with one more block after its vector (the study's arm B)."""

    def __init__(self, base: Any, size: int, block: Callable[[InfoView], Any]) -> None:
        self.base, self.block = base, block
        self.num_actions, self.version = base.num_actions, base.version
        self.obs_size = base.obs_size + size
        self._row = np.zeros((1, base.obs_size), np.float32)

    def encode_batch(self, views: Sequence[InfoView], out: Any, mask: Any) -> None:
        for i, view in enumerate(views):
            self.base.encode_batch([view], self._row, mask[i : i + 1])
            out[i, : self.base.obs_size] = self._row[0]
            out[i, self.base.obs_size :] = self.block(view)


def read(paths: Sequence[Path], feature: str, limit: int | None) -> tuple[LabelledDecisions, int]:
    """The labels' searched decisions encoded with the feature's block after the v1 vector, and
    the v1 vector's size."""
    game = get_game("minchiate")
    base = game.encoder(game.rules({}))
    size, block = FEATURES[feature]
    data = label_decisions(paths, game, game.rules({}), WithBlock(base, size, block), 1.0,
                           soft=0.25, temperature=0.05, limit=limit)  # fmt: skip
    return data, base.obs_size


def agreement(
    net: PolicyValueNet, obs: torch.Tensor, mask: torch.Tensor, act: torch.Tensor
) -> float:
    """The share of rows whose most likely legal action is the label's."""
    hits = 0
    with torch.no_grad():
        for i in range(0, len(act), 8192):
            logits = net.logits(obs[i : i + 8192].float(), mask[i : i + 8192])
            hits += int((logits.argmax(-1) == act[i : i + 8192]).sum())
    return hits / max(len(act), 1)


def learn(
    data: LabelledDecisions, width: int, n_train: int, args: argparse.Namespace
) -> tuple[list[float], int]:
    """One arm: a fresh network on the first ``width`` columns, ``args.epochs`` passes over the
    first ``args.train_share`` of the first ``n_train`` rows (the held-out rows stay the last
    ones whatever the share); the held-out agreement after each, and the rows learned."""
    obs = torch.from_numpy(np.ascontiguousarray(data.obs[:, :width]))
    mask, act = torch.from_numpy(data.mask), torch.from_numpy(data.action)
    target = torch.from_numpy(data.target)
    torch.manual_seed(args.seed)
    net = PolicyValueNet(width, mask.shape[1], args.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    order = torch.Generator().manual_seed(args.seed)  # the same minibatches in both arms
    out = []
    used = max(1, int(n_train * args.train_share))
    for _ in range(args.epochs):
        perm = torch.randperm(used, generator=order)
        for start in range(0, used, args.batch):
            idx = perm[start : start + args.batch]
            logits = net.logits(obs[idx].float(), mask[idx])
            loss = _cross_entropy(logits, mask[idx], target[idx]).mean()  # distill's loss
            opt.zero_grad()
            loss.backward()
            opt.step()
        out.append(agreement(net, obs[n_train:], mask[n_train:], act[n_train:]))
    return out, used


def render(feature: str, size: int, plain: list[float], more: list[float], held: int) -> str:
    """A Markdown table: per epoch, each arm's held-out agreement and the difference."""
    rows = [
        "| epoch | v1 | v1 + " + f"{feature} ({size}) | difference |",
        "| --- | --- | --- | --- |",
    ]
    for k, (a, b) in enumerate(zip(plain, more, strict=True), start=1):
        rows.append(f"| {k} | {100 * a:.2f}% | {100 * b:.2f}% | {100 * (b - a):+.2f} |")
    se = 100 * (0.25 / max(held, 1)) ** 0.5
    rows.append(f"\n{held:,} held-out decisions; one arm's standard error at most {se:.2f} points")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("labels", type=Path, nargs="+", help="Minchiate mazzo-search-labels/1 files")
    p.add_argument("--feature", choices=sorted(FEATURES), default="voids")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--hidden", default="512,512,512", help="the networks' widths (512,512,512)")
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument(
        "--holdout", type=float, default=0.1, help="share of the last decisions held out"
    )
    p.add_argument("--limit", type=int, default=0, help="at most this many decisions (0: all)")
    p.add_argument(
        "--train-share", type=float, default=1.0,
        help="learn from this share of the training decisions only, the held-out ones "
        "unchanged: how agreement grows with the label volume (default 1)",
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args(argv)
    try:
        args.hidden = tuple(int(w) for w in args.hidden.split(","))
    except ValueError:
        p.error(f"--hidden must be widths separated by commas, e.g. 512,512, got {args.hidden!r}")
    if args.epochs < 1 or args.batch < 1 or not 0 < args.holdout < 1 or args.limit < 0:
        p.error("--epochs and --batch must be >= 1, --holdout in (0, 1), --limit >= 0; got "
                f"{args.epochs}, {args.batch}, {args.holdout}, {args.limit}")  # fmt: skip
    if not 0 < args.train_share <= 1:
        p.error(f"--train-share must be in (0, 1], got {args.train_share}")
    missing = [str(f) for f in args.labels if not f.is_file()]
    if missing:
        p.error(f"no labels file at {', '.join(missing)}")
    torch.set_num_threads(1)
    t0 = time.perf_counter()
    try:
        data, base = read(args.labels, args.feature, args.limit or None)
    except ValueError as err:
        p.error(str(err))
    n_train = int(len(data) * (1 - args.holdout))
    if not 0 < n_train < len(data):
        p.error(f"{len(data)} searched decisions: too few to hold {args.holdout} out")
    size = data.obs.shape[1] - base
    plain, used = learn(data, base, n_train, args)
    more, _ = learn(data, base + size, n_train, args)
    shown = float(data.obs[:, base:].astype(np.float32).sum(1).mean())
    files = ", ".join(map(str, args.labels))
    print(f"labels: {files}; {len(data):,} searched decisions, "
          f"{used:,} learned; the block {args.feature}: "
          f"{shown:.1f} of {size} set per decision on average")  # fmt: skip
    print(render(args.feature, size, plain, more, len(data) - n_train))
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

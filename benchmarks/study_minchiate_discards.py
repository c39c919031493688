"""What a Minchiate agent discards (issue 41): the agent plays the deals in every seat, and at
each discard with a choice its discard is set beside the heuristic's on the same view (the
heuristic discards the plain cards of its shortest suits first, to trump them). Reported: how
often the two agree, the share of trumps discarded, and the length of the discarded card's suit
in the hand at that moment (a short suit makes a void sooner).

Run: ``python benchmarks/study_minchiate_discards.py nn:runs/X/bot --n 400`` (the first N deals
of ``configs/deals/minchiate-2000-s1.jsonl``, or ``--deals FILE``).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from mazzo.agents.base import act_each
from mazzo.agents.minchiate.knowledge import MATTO, SUIT, SUIT_MASK
from mazzo.agents.registry import make_agent
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.deal_sets import DealSet, read_deal_set
from mazzo.envs.registry import get_game

DEALS = Path(__file__).resolve().parents[1] / "configs" / "deals" / "minchiate-2000-s1.jsonl"


@dataclass
class Profile:
    """The discards of one agent: the suit length of each plain card (0: a trump or the Matto)."""

    lengths: Counter[int] = field(default_factory=Counter)

    def add(self, card: int, hand: int) -> None:
        plain = card >= 40 and card != MATTO
        self.lengths[(hand & SUIT_MASK[SUIT[card]]).bit_count() if plain else 0] += 1

    def share(self, test: Callable[[int], bool]) -> float:
        n = sum(self.lengths.values())
        return sum(v for k, v in self.lengths.items() if test(k)) / n if n else 0.0

    def mean_length(self) -> float:
        plain = {k: v for k, v in self.lengths.items() if k}
        n = sum(plain.values())
        return sum(k * v for k, v in plain.items()) / n if n else 0.0


def study(agent_spec: str, deals: DealSet, seed: int) -> tuple[int, int, Profile, Profile]:
    """(discards with a choice, agreements, the agent's profile, the heuristic's)."""
    game = get_game("minchiate")
    agent = make_agent(agent_spec, "minchiate", deals.rules)
    heuristic = make_agent("heuristic", "minchiate", deals.rules)
    rng = np.random.default_rng(seed)
    mine, theirs, n, same = Profile(), Profile(), 0, 0
    for deal in deals.deals:
        state = game.new_state(deal, deals.rules)
        while not state.is_terminal():
            view = state.info_view(state.to_play)
            action = act_each(agent, [view], [rng])[0]
            if view.phase.name.startswith("DISCARD") and len(bit_list(view.legal_mask)) > 1:
                other = act_each(heuristic, [view], [rng])[0]
                n, same = n + 1, same + int(action == other)
                mine.add(action, view.hand)
                theirs.add(other, view.hand)
            state.apply(int(action))
    return n, same, mine, theirs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("agent", help="the agent studied (an agent spec)")
    ap.add_argument("--deals", type=Path, default=DEALS, help="a Minchiate deal file")
    ap.add_argument("--n", type=int, default=400, help="the first N deals (default 400)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    try:
        game = get_game("minchiate")
        deals = read_deal_set(args.deals, game).head(args.n)
        n, same, mine, theirs = study(args.agent, deals, args.seed)
    except ValueError as e:
        print(f"study_minchiate_discards: {e}", file=sys.stderr)
        return 2
    print(f"{args.agent} on {len(deals.deals):,} deals: {n:,} discards with a choice, "
          f"the heuristic's on {100 * same / max(n, 1):.1f}% of them")  # fmt: skip
    print("| discarder | trumps | plain, suit of 1 | of 2 | of 3 | of 4 or more | mean length |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, p in ((args.agent, mine), ("heuristic", theirs)):
        cells = [p.share(lambda k: k == 0), *(p.share(lambda k, i=i: k == i) for i in (1, 2, 3))]
        cells.append(p.share(lambda k: k >= 4))
        print(f"| {name} | " + " | ".join(f"{100 * c:.1f}%" for c in cells)
              + f" | {p.mean_length():.2f} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

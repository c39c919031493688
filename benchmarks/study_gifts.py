"""How often an agent gives counters away (issue 27, point 12): over the committed deal files
(``configs/deals/*.jsonl``), one agent in every seat plays each deal, and every card it plays is
checked once its trick is over. A *lost counter* is a card worth something (the deck's
``value``) played into a trick the other side won; it was *avoidable* when a legal card worth
nothing was held; a *sure gift* is an avoidable lost counter played last to the trick (the
trick's fate known, the trick not won by it). The sides are read from the returns (the seats
with the same sign); a deal whose returns are all 0 is left out and counted. The excuse card
``M`` (never captured: it goes back to its owner's side) is no counter here.

Run: ``python benchmarks/study_gifts.py --agents heuristic bot --deals 500``. Nothing here names
a game: every game with a committed deal file is studied through the registry.
"""

from __future__ import annotations

import argparse
import glob
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mazzo.agents.registry import make_agent
from mazzo.envs.deal_sets import read_deal_set
from mazzo.envs.registry import AnyGame

ROOT = Path(__file__).resolve().parents[1]
EXCUSE = "M"  # the card code of an excuse, which its owner's side keeps


@dataclass
class Tally:
    """The counts of one agent on one game."""

    deals: int = 0
    skipped: int = 0  # deals with every return 0 (no sides to read)
    plays: int = 0  # cards played
    counters: int = 0  # counters played
    lost: int = 0  # counters into tricks the other side won
    avoidable: int = 0  # ... with a legal card worth nothing held
    sure: int = 0  # ... and played last to the trick
    lost_value: int = 0
    sure_value: int = 0
    by_card: dict[str, int] = field(default_factory=dict)  # sure gifts by card

    def line(self, name: str) -> str:
        per = max(1, self.deals)
        top = ", ".join(
            f"{c} {n}" for c, n in sorted(self.by_card.items(), key=lambda x: -x[1])[:6]
        )
        return (
            f"{name}: {self.deals} deals ({self.skipped} left out), {self.plays} cards played, "
            f"{self.counters} counters; lost counters {self.lost} ({self.lost / per:.2f} a deal, "
            f"value {self.lost_value}), avoidable {self.avoidable} ({self.avoidable / per:.2f} "
            f"a deal), sure gifts {self.sure} ({self.sure / per:.2f} a deal, value "
            f"{self.sure_value}); sure gifts by card: {top or '-'}"
        )


def _card_value(game: AnyGame) -> dict[str, int]:
    deck = game.info.deck
    return {label: 0 if label == EXCUSE else deck.value[i] for i, label in enumerate(deck.labels)}


def study(game: AnyGame, rules: Any, deals: list[Any], spec: str, seed: int) -> Tally:
    """Play ``deals`` with agent ``spec`` in every seat; the tally of its counters."""
    value = _card_value(game)
    agents = [make_agent(spec, game) for _ in range(game.seats(rules))]
    tally = Tally()
    for k, deal in enumerate(deals):
        rng = np.random.default_rng([seed, k])
        state = game.new_state(deal, rules)
        plays: list[tuple[int, str, bool, bool, int]] = []  # seat, card, avoidable, last, trick
        pending: list[tuple[int, str, bool, int]] = []
        while not state.is_terminal():
            seat = state.to_play
            action = agents[seat].act(state.info_view(seat), rng)
            verb, _, card = state.action_label(action).partition(" ")
            done = len(state.tricks)
            if verb == "play" and card in value:
                others = [state.action_label(a).partition(" ")[2] for a in state.legal_actions()]
                blank = any(value.get(c, 1) == 0 for c in others if c != card)
                pending.append((seat, card, blank, len(state.trick)))
            state.apply(action)
            if len(state.tricks) > done:  # the trick is over: who won it
                size = len(pending)
                winner = state.tricks[-1][2]
                plays += [(s, c, b, i == size - 1, winner) for s, c, b, i in pending]
                pending = []
        returns = state.returns()
        if not any(returns):
            tally.skipped += 1
            continue
        tally.deals += 1
        for seat, card, blank, last, winner in plays:
            tally.plays += 1
            v = value[card]
            if v <= 0:
                continue
            tally.counters += 1
            if (returns[seat] > 0) == (returns[winner] > 0):
                continue  # its own side took it
            tally.lost += 1
            tally.lost_value += v
            if blank:
                tally.avoidable += 1
                if last:
                    tally.sure += 1
                    tally.sure_value += v
                    tally.by_card[card] = tally.by_card.get(card, 0) + 1
    return tally


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", nargs="+", default=["heuristic", "bot"])
    ap.add_argument("--deals", type=int, default=500, help="deals of each file (default 500)")
    ap.add_argument(
        "--files", nargs="*", default=sorted(glob.glob(str(ROOT / "configs/deals/*.jsonl")))
    )
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for path in args.files:
        ds = read_deal_set(Path(path))
        deals = list(ds.deals)[: args.deals]
        for spec in args.agents:
            t0 = time.perf_counter()
            tally = study(ds.game, ds.rules, deals, spec, args.seed)
            took = time.perf_counter() - t0
            print(f"{Path(path).name} {tally.line(spec)} [{took:.0f} s]", flush=True)


if __name__ == "__main__":
    main()

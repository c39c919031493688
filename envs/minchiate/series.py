"""A series of Minchiate deals: dealer rotation and cumulative resti (RULES.md M-4.2, M-8.5).

Owns ``Series``, a small pure layer over ``State`` (like a match): the caller supplies each deal's
97-card stream (randomness stays outside), the series names the dealer, starts the deal, and after
it ends adds its resti and rotates the dealer d -> d+1. A void deal (M-8.5) is redealt by the same
dealer and adds nothing. One deal is the default game; a series is an option.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Sequence

from envs.cards.deal import Deal
from envs.cards.deck import MINCHIATE_97
from envs.minchiate.config import Rules
from envs.minchiate.rules import State

__all__ = ["Series"]


class Series:
    """Deals played in turn, with the dealer rotating and the net resti accumulated.

    Attributes:
        rules: the flags every deal uses.
        dealer: the dealer of the next (or current) deal.
        n_deals: the number of completed (non-void) deals that ends the series, or None.
        resti: team A's cumulative net resti (team B's is ``-resti``).
        deals: completed (non-void) deals so far; ``voids``: void deals redealt so far.
    """

    __slots__ = ("current", "dealer", "deals", "n_deals", "resti", "results", "rules", "voids")

    def __init__(self, rules: Rules | None = None, first_dealer: int = 0, n_deals: int | None = 4):
        if not 0 <= first_dealer < 4:
            raise ValueError(f"first_dealer must be a seat 0..3, got {first_dealer!r}")
        if n_deals is not None and n_deals < 1:
            raise ValueError(f"n_deals must be >= 1 or None, got {n_deals!r}")
        self.rules = rules or Rules()
        self.dealer, self.n_deals = first_dealer, n_deals
        self.resti = self.deals = self.voids = 0
        self.results: list[int] = []
        self.current: State | None = None

    def start(self, stream: Sequence[int]) -> State:
        """Start the next deal from ``stream`` (97 card ids, validated) with the series' dealer.

        Raises:
            ValueError: the series is over, the previous deal is unfinished, or a bad stream.
        """
        if self.is_over():
            raise ValueError("the series is over")
        if self.current is not None and not self.current.is_terminal():
            raise ValueError("the current deal is not finished")
        deal = Deal.from_order(MINCHIATE_97, self.dealer, stream, 4)
        self.current = State.new(deal, self.rules)
        return self.current

    def finish(self) -> None:
        """Book the finished current deal: add its resti and rotate the dealer (a void deal is
        redealt by the same dealer). Raises ValueError if there is no finished deal."""
        state = self.current
        if state is None or not state.is_terminal():
            raise ValueError("no finished deal to book")
        self.current = None
        if state.is_void():
            self.voids += 1
            return
        self.resti += state.R
        self.results.append(state.R)
        self.deals += 1
        self.dealer = (self.dealer + 1) & 3

    def is_over(self) -> bool:
        """True once ``n_deals`` deals are completed."""
        return self.n_deals is not None and self.deals >= self.n_deals

    def returns(self) -> tuple[int, int, int, int]:
        """Cumulative per-seat returns: +resti for team A's seats, -resti for team B's."""
        r = self.resti
        return (r, -r, r, -r)

"""A series of Minchiate deals: dealer rotation and cumulative resti (RULES.md M-4.2, M-8.5).

Owns ``Series``, a small pure layer over ``State`` (the Calabresella ``Match``'s counterpart).
One deal is the default game; a series is an option. Each new deal comes from the ``next_deal``
callable (the environment's generator, or a list of streams), so a series is deterministic given
its deals. After a deal its resti are added and the dealer rotates d -> d+1; a void deal (M-8.5)
is redealt by the same dealer and adds nothing. The series ends after ``n_deals`` completed
deals.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.sequence import DealSequence
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.state import State
from mazzo.envs.minchiate.view import InfoView

__all__ = ["Series"]


class Series(DealSequence):
    """``n_deals`` completed deals, the dealer rotating, the net resti accumulated.

    The engine protocol (``to_play``, ``legal_mask``, ``apply``, ...) is delegated to the current
    deal's ``State``; ``returns()`` is cumulative over the finished deals.

    Attributes:
        rules: the flags every deal uses.
        state: the current deal.
        n_deals: completed deals that end the series.
        resti: team A's cumulative net resti (team B's is ``-resti``).
        finished: the finished deals in order, void ones included.
    """

    __slots__ = ("_next_deal", "finished", "n_deals", "resti", "rules", "state")
    state: State

    def __init__(
        self, rules: Rules, first: Deal, next_deal: Callable[[int], Deal], n_deals: int = 4
    ) -> None:
        """Start with deal ``first``; ``next_deal(dealer)`` supplies the later deals.

        Raises:
            ValueError: ``n_deals`` < 1, or a bad first deal.
        """
        if isinstance(n_deals, bool) or not isinstance(n_deals, int) or n_deals < 1:
            raise ValueError(f"a series needs n_deals >= 1, got {n_deals!r}")
        self.rules, self._next_deal, self.n_deals = rules, next_deal, n_deals
        self.resti = 0
        self.finished: list[State] = []
        self.state = State.new(first, rules)
        self._settle_void_deals()

    def clone(self) -> Self:
        """A copy whose current deal is independent (finished deals are shared)."""
        c = self.__class__.__new__(self.__class__)
        c.rules, c._next_deal, c.n_deals, c.resti = (
            self.rules, self._next_deal, self.n_deals, self.resti,
        )  # fmt: skip
        c.state, c.finished = self.state.clone(), self.finished[:]
        return c

    @property
    def deals(self) -> int:
        """Completed (non-void) deals so far."""
        return sum(not s.is_void() for s in self.finished)

    def is_terminal(self) -> bool:
        """True once ``n_deals`` deals are completed."""
        return self.deals >= self.n_deals

    def returns(self) -> tuple[int, int, int, int]:
        """Cumulative per-seat returns: +resti for team A's seats, -resti for team B's."""
        r = self.resti
        return (r, -r, r, -r)

    def info_view(self, seat: int) -> InfoView:
        """The current deal's view of ``seat``, with the series standing."""
        return self.state.info_view(seat)._replace(series_resti=self.resti, deals_done=self.deals)

    def _end_deal(self) -> None:
        s = self.state
        self.finished.append(s)
        if not s.is_void():
            self.resti += s.R
            if self.is_terminal():
                return
        dealer = s.dealer if s.is_void() else (s.dealer + 1) & 3
        self.state = State.new(self._next_deal(dealer), self.rules)
        self._settle_void_deals()

    def _settle_void_deals(self) -> None:
        """A deal can be void before any decision (M-8.5): redeal at once."""
        while self.state.is_void():
            self.finished.append(self.state)
            self.state = State.new(self._next_deal(self.state.dealer), self.rules)

    def result(self) -> dict[str, Any]:
        """Series summary: resti, completed and void deals, each deal's resti, the last result."""
        done = [s for s in self.finished if not s.is_void()]
        return {
            "resti": self.resti,
            "returns": list(self.returns()),
            "deals": len(done),
            "voids": len(self.finished) - len(done),
            "deal_resti": [s.R for s in done],
            "last_deal": self.finished[-1].result() if self.finished else None,
        }

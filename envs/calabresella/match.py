"""A Calabresella match: deals chained to the target with dealer rotation and all-pass redeals.

Owns C-1.2 (the deal passes to the next seat), C-4.4 and the ``all_pass`` flag (who redeals, and
the no-Chiamo redeal), C-9.1 (game-point totals that never fall, from the raw increments, times
``aperta_payout_factor`` under aperta), and the end of the match under ``match_rule``
(``individual`` C-9.3, ``seed_sum`` C-9.4). Pure: each new deal comes from the ``next_deal``
callable (the environment's generator), so a match is deterministic given its deals.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.state import State
from mazzo.envs.calabresella.view import InfoView
from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.sequence import DealSequence

__all__ = ["Match"]


class Match(DealSequence):
    """Deals until a player (or side, under ``seed_sum``) reaches ``rules.target``.

    The engine protocol (``to_play``, ``legal_mask``, ``apply``, ``returns`` ...) is delegated
    to the current deal's ``State``; ``returns()`` is cumulative over the finished deals.
    """

    __slots__ = ("_next_deal", "_returns", "finished", "rules", "state", "totals", "winners")
    state: State

    def __init__(
        self,
        rules: Rules,
        first: Deal,
        next_deal: Callable[[int], Deal],
        totals: list[float] | None = None,
        no_chiamo: bool = False,
    ) -> None:
        """Start a match with deal ``first``; ``next_deal(dealer)`` supplies the later deals.
        ``totals`` resumes a match from given game-point totals (default all 0);
        ``no_chiamo`` forbids Chiamo in the first deal (a record's option, RULES.md B.4)."""
        self.rules = rules
        self._next_deal = next_deal
        self.state = State.new(first, rules, no_chiamo=no_chiamo)
        self.totals: list[float] = list(totals) if totals is not None else [0] * rules.players
        if len(self.totals) != rules.players:
            raise ValueError(f"totals needs {rules.players} entries, got {len(self.totals)}")
        self._returns: list[float] = [0] * rules.players
        self.finished: list[State] = []
        self.winners: tuple[int, ...] = ()

    def clone(self) -> Self:
        """A copy whose current deal is independent (finished deals are shared, immutable)."""
        c = self.__class__.__new__(self.__class__)
        c.rules, c._next_deal, c.winners = self.rules, self._next_deal, self.winners
        c.state = self.state.clone()
        c.totals, c._returns, c.finished = self.totals[:], self._returns[:], self.finished[:]
        return c

    def is_terminal(self) -> bool:
        """True once the match has a winner."""
        return bool(self.winners)

    def returns(self) -> tuple[float, ...]:
        """Per seat: the sum of the finished deals' settlements (``reward_mode``)."""
        return tuple(self._returns)

    def info_view(self, seat: int) -> InfoView:
        """The current deal's view of ``seat``, with the match totals."""
        return self.state.info_view(seat)._replace(totals=tuple(self.totals))

    def _end_deal(self) -> None:
        s = self.state
        self.finished.append(s)
        d, n = s.deal.dealer, self.rules.players
        if s.is_void():
            how = self.rules.all_pass
            dealer = (d + 1) % n if how == "redeal_next_dealer" else d
            self.state = State.new(
                self._next_deal(dealer), self.rules, no_chiamo=how == "next_deal_no_chiamo"
            )
            return
        factor = self.rules.aperta_payout_factor if self.rules.aperta else 1
        for seat, inc in enumerate(s.raw_increments()):
            self.totals[seat] += inc * factor
        for seat, r in enumerate(s.returns()):
            self._returns[seat] += r * factor
        self.winners = self._winners(s)
        if not self.winners:
            self.state = State.new(self._next_deal((d + 1) % n), self.rules)

    def _winners(self, s: State) -> tuple[int, ...]:
        target, totals = self.rules.target, self.totals
        if self.rules.match_rule == "individual":
            best = max(totals)
            leaders = tuple(i for i, t in enumerate(totals) if t == best)
            return leaders if best >= target and len(leaders) == 1 else ()
        sol_side = {s.seat_of[s.soloist]}
        def_side = {s.seat_of[s.d1], s.seat_of[s.d2]}
        sv = sum(totals[i] for i in sol_side)
        dv = sum(totals[i] for i in def_side)
        if sv >= target and (dv < target or sv > dv):
            return tuple(sorted(sol_side))
        if dv >= target and (sv < target or dv > sv):
            return tuple(sorted(def_side))
        return ()

    def result(self) -> dict[str, Any]:
        """Match summary: totals, winners, number of deals, and the last deal's result."""
        return {
            "totals": list(self.totals),
            "winners": list(self.winners),
            "deals": len(self.finished),
            "last_deal": self.finished[-1].result() if self.finished else None,
        }

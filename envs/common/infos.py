"""The numeric step infos of the card-game AEC envs: one fixed schema that any learner's replay
buffer can store (Tianshou, RLlib, SB3 ...).

Every agent's ``infos[agent]`` holds the keys of ``INFO_KEYS``, on every step of every episode
from ``reset`` on, each a plain Python ``int`` or ``float`` (never a string, ``None`` or a list):

``seat`` (int)          the agent's seat (``player_i`` -> i).
``team`` (int)          the agent's side in the current deal: Minchiate 0 = team A (S0, S2),
                        1 = team B; Calabresella 0 = the soloist, 1 = a defender, -1 while the
                        auction runs, in a void deal, and for the idle dealer of a 4-player deal.
``deal_over`` (int)     1 on the step that ended a deal (played out or void; in a match or a
                        series also each deal inside it), 0 on the other steps.
``deal_score`` (float)  the agent's return in the latest ended deal, in rule units (the reward
                        of that step divided by ``reward_scale``); 0.0 before any deal ended.
``total_score`` (float) the agent's cumulative return over the episode, in rule units.
``deals`` (int)         deals ended in this episode so far, void ones included.
``void`` (int)          1 if the deal(s) ended at the latest deal end were all void, else 0.
``illegal_move`` (int)  1 once ``env()`` ended the episode on an illegal move, else 0.
``offender`` (int)      the seat that played that illegal move; -1 if none.

The rich, JSON-shaped results stay available from the env itself (``result()`` and the match or
series summary) and, as infos, with the ``rich_infos=True`` env option.

Must not import torch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["INFO_KEYS", "NO_TEAM", "EndedDeal", "InfoTracker", "StepInfo"]

INFO_KEYS = (
    "seat",
    "team",
    "deal_over",
    "deal_score",
    "total_score",
    "deals",
    "void",
    "illegal_move",
    "offender",
)
NO_TEAM = -1

StepInfo = dict[str, int | float]


class EndedDeal(Protocol):
    """What the tracker reads from a finished deal (an engine ``State``)."""

    def is_void(self) -> bool: ...
    def result(self) -> dict[str, Any]: ...


class InfoTracker:
    """The values behind the numeric infos of one episode; ``infos()`` builds fresh dicts.

    The env calls ``start`` at reset, ``after_step`` after every applied action (it answers
    whether the infos changed, so they are rebuilt only then) and ``illegal`` when an illegal
    move ends the episode.
    """

    __slots__ = ("deal_over", "deal_scores", "deals", "offender", "teams", "totals", "void")

    def __init__(self, n_players: int) -> None:
        zeros = (0.0,) * n_players
        self.teams: tuple[int, ...] = (NO_TEAM,) * n_players
        self.deal_scores: tuple[float, ...] = zeros
        self.totals: tuple[float, ...] = zeros
        self.deal_over = self.deals = self.void = 0
        self.offender = -1

    def start(
        self, teams: tuple[int, ...], returns: Sequence[float], finished: Sequence[EndedDeal]
    ) -> None:
        """The episode's first infos: ``finished`` are the deals already over at reset (a
        replayed record that ends, or void deals redealt at once)."""
        n = len(self.teams)
        self.teams = teams
        self.totals = tuple(float(r) for r in returns)
        self.deals = len(finished)
        self.deal_scores = self.totals if finished else (0.0,) * n
        self.void = int(bool(finished) and all(s.is_void() for s in finished))
        self.deal_over = int(bool(finished))
        self.offender = -1

    def after_step(
        self,
        teams: tuple[int, ...],
        now: Sequence[float],
        before: Sequence[float],
        finished: Sequence[EndedDeal],
    ) -> bool:
        """Update after an action; True if the infos changed. ``now`` and ``before`` are the
        game's cumulative returns after and before the action."""
        if len(finished) != self.deals:
            new = finished[self.deals :]
            self.void = int(all(s.is_void() for s in new))
            self.deal_scores = tuple(float(a - b) for a, b in zip(now, before, strict=True))
            self.totals = tuple(float(r) for r in now)
            self.deals = len(finished)
            self.deal_over = 1
        elif self.deal_over:
            self.deal_over = 0
        elif teams == self.teams:
            return False
        self.teams = teams
        return True

    def illegal(self, seat: int) -> None:
        """The episode ended on ``seat``'s illegal move."""
        self.offender = seat
        self.deal_over = 0

    def infos(self, agents: Sequence[str]) -> list[StepInfo]:
        """One fresh info dict per seat, in seat order (keys in ``INFO_KEYS`` order)."""
        illegal = int(self.offender >= 0)
        return [
            {
                "seat": seat,
                "team": self.teams[seat],
                "deal_over": self.deal_over,
                "deal_score": self.deal_scores[seat],
                "total_score": self.totals[seat],
                "deals": self.deals,
                "void": self.void,
                "illegal_move": illegal,
                "offender": self.offender,
            }
            for seat in range(len(agents))
        ]

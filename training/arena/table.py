"""One arena game: the engine loop of one deal played by one lineup (``State`` +
``info_view(seat)`` + ``agent.act(view, rng)``), and ``GameOutcome``, what it records.

Owns building the agents of a plan (once per process and per (agent, seat)) and the game loop;
the scheduling of deals over processes is ``pool``'s, the plan ``runner``'s. A game's result
depends only on its deal, its lineup, the agents and the generators of
``streams.agent_rng(seed, deal, lineup, seat)``.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.base import AnyAgent
from agents.registry import make_agent
from envs.cards.deal import Deal
from training.arena.streams import agent_rng

if TYPE_CHECKING:
    from training.arena.runner import ArenaPlan, Entrant

__all__ = ["ArenaError", "GameOutcome", "Stopped", "Table", "build_agent"]


class ArenaError(ValueError):
    """A game could not be played: an agent failed or chose an illegal action."""


class Stopped(Exception):
    """Raised inside a game when the table's ``should_stop`` says so (an interrupt)."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game: one deal played by one lineup.

    Attributes:
        payoffs: the engine's ``returns()`` per seat.
        void: the deal ended without play (a Calabresella all-pass).
        contract: the contract played, if the game has contracts (else None).
        soloist: the soloist's seat, if any.
        success: whether the soloist made the contract, if any.
        decisions: decisions taken per seat.
        seconds: time spent in ``act`` per seat (measured; not reproducible).
    """

    payoffs: tuple[float, ...]
    void: bool
    contract: str | None
    soloist: int | None
    success: bool | None
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]


def build_agent(entrant: Entrant, game: str) -> AnyAgent:
    """The agent of ``entrant`` (from its spec or its factory). Raises ValueError."""
    if isinstance(entrant.source, str):
        return make_agent(entrant.source, game)
    agent = entrant.source()
    if not callable(getattr(agent, "act", None)):
        raise ValueError(f"entrant {entrant.label!r}: its factory did not return an agent")
    return agent


class Table:
    """A process's game loop: the spec, the rules and one agent per (entrant, seat).

    ``should_stop`` (if set) is asked before every decision; when it says yes the game is
    abandoned with ``Stopped``.
    """

    def __init__(self, plan: ArenaPlan, should_stop: Callable[[], bool] | None = None) -> None:
        self.plan = plan
        self.spec = plan.deal_set.spec
        self.rules = plan.deal_set.rules
        self.n_seats = len(plan.lineups[0])
        self.agents = [
            [build_agent(e, plan.deal_set.game) for _ in range(self.n_seats)] for e in plan.entrants
        ]
        self.should_stop = should_stop

    def play_deal(self, index: int, deal: Deal) -> tuple[GameOutcome, ...]:
        """Every lineup of the plan on deal ``index``."""
        return tuple(self._play(index, r, deal) for r in range(len(self.plan.lineups)))

    def _play(self, index: int, r: int, deal: Deal) -> GameOutcome:
        lineup, n, seed = self.plan.lineups[r], self.n_seats, self.plan.seed
        state = self.spec.new_state(deal, self.rules)
        agents = [self.agents[lineup[s]][s] for s in range(n)]
        rngs: list[np.random.Generator | None] = [None] * n
        decisions, seconds = [0] * n, [0.0] * n
        stop = self.should_stop
        while not state.is_terminal():
            if stop is not None and stop():
                raise Stopped
            seat = state.to_play
            rng = rngs[seat]
            if rng is None:
                rng = rngs[seat] = agent_rng(seed, index, r, seat)
            view = state.info_view(seat)
            start = time.perf_counter()
            action = agents[seat].act(view, rng)
            seconds[seat] += time.perf_counter() - start
            decisions[seat] += 1
            try:
                state.apply(operator.index(action))
            except (ValueError, TypeError) as e:
                label = self.plan.entrants[lineup[seat]].label
                raise ArenaError(
                    f"agent {label!r} in seat S{seat} (deal {index}, lineup {r}) "
                    f"chose {action!r}: {e}"
                ) from None
        return _outcome(state.result(), state.returns(), decisions, seconds)


def _outcome(
    result: dict[str, Any], returns: Sequence[float], decisions: list[int], seconds: list[float]
) -> GameOutcome:
    contract = result.get("contract")
    return GameOutcome(
        payoffs=tuple(returns),
        void=bool(result.get("void", False)),
        contract=str(contract) if contract is not None else None,
        soloist=result.get("soloist") if contract is not None else None,
        success=result.get("success") if contract is not None else None,
        decisions=tuple(decisions),
        seconds=tuple(seconds),
    )

"""The arena's games: the engine loops of deals played by lineups (``State`` +
``info_view(seat)`` + ``agent.act(view, rng)``, or one ``act_each`` call for many games), and
``GameOutcome``, what a game records.

Owns building the agents of a plan (once per process and per (agent, seat)) and the game loop;
the scheduling of deals over processes is ``workers``', the plan ``plan``'s. A game's result
depends only on its deal, its lineup, the agents and the generators of
``streams.agent_rng(seed, deal, lineup, seat)``.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from mazzo.agents.base import AnyAgent, EachAgent
from mazzo.agents.registry import make_agent
from mazzo.arena.latency import Histogram, add
from mazzo.arena.streams import agent_rng
from mazzo.envs.cards.deal import Deal
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame

if TYPE_CHECKING:
    from mazzo.arena.plan import ArenaPlan, Entrant

__all__ = ["ArenaError", "GameOutcome", "Played", "Table", "build_agent"]


class ArenaError(ValueError):
    """A game could not be played: an agent failed or chose an illegal action."""


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
        latency: per seat, the histogram of its time per decision as sorted ``(bin, count)``
            pairs (``mazzo.arena.latency``; measured, left out of equality).
    """

    payoffs: tuple[float, ...]
    void: bool
    contract: str | None
    soloist: int | None
    success: bool | None
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]
    latency: tuple[tuple[tuple[int, int], ...], ...] = field(default=(), compare=False)


def build_agent(entrant: Entrant, game: AnyGame, rules: RulesLike | None = None) -> AnyAgent:
    """The agent of ``entrant`` (from its spec, for the table's ``rules``: ``bot`` is the bot
    shipped for them where there is one; or from its factory). Raises ValueError."""
    if isinstance(entrant.source, str):
        return make_agent(entrant.source, game, rules)
    agent = entrant.source()
    if not callable(getattr(agent, "act", None)):
        raise ValueError(f"entrant {entrant.label!r}: its factory did not return an agent")
    return agent


class Table:
    """A process's game loop: the game, the rules and one agent per (entrant, seat).

    ``play_deals`` plays every lineup of a run of deals in lockstep: each round, the games
    whose seat on turn is held by the same agent object are decided together, by one
    ``act_each(views, rngs)`` call when the agent has one (networks: one forward pass), else
    by one ``act(view, rng)`` per game. Every game keeps its own generators
    (``streams.agent_rng``), so the outcome of a game does not depend on which other games
    were played beside it. ``should_stop`` (if set) is asked before every round; when it says
    yes the deals finished so far come back as ``stopped``.
    """

    def __init__(self, plan: ArenaPlan, should_stop: Callable[[], bool] | None = None) -> None:
        self.plan = plan
        self.game = plan.deal_set.game
        self.rules = plan.deal_set.rules
        self.n_seats = len(plan.lineups[0])
        self.agents = [
            [build_agent(e, plan.deal_set.game, plan.deal_set.rules) for _ in range(self.n_seats)]
            for e in plan.entrants
        ]
        self.should_stop = should_stop

    def play_deal(self, index: int, deal: Deal) -> tuple[GameOutcome, ...]:
        """Every lineup of the plan on deal ``index``.

        Raises:
            ArenaError: an agent chose an illegal action (or not an action id).
        """
        played = self.play_deals(index, (deal,))
        if played.error is not None:
            raise ArenaError(played.error)
        return played.outcomes[0]

    def play_deals(self, start: int, deals: Sequence[Deal]) -> Played:
        """Every lineup of the plan on deals ``start``, ``start + 1``, ... together.

        Returns the outcomes of the first deals in order: all of them, or those before the
        first deal (in deal order) on which an agent failed, with that failure's message, or,
        when stopped, those finished by then.
        """
        games = [
            _Game(start + j, r, self.game.new_state(deal, self.rules), self.plan.lineups[r])
            for j, deal in enumerate(deals)
            for r in range(len(self.plan.lineups))
        ]
        failed: dict[tuple[int, int], str] = {}
        active = [g for g in games if not g.state.is_terminal()]
        stopped = False
        while active:
            if self.should_stop is not None and self.should_stop():
                stopped = True
                break
            for agent, group in self._groups(active):
                self._decide(agent, group, failed)
            if failed:  # games after the first failure in deal order no longer matter
                first = min(failed)
                active = [g for g in active if (g.index, g.r) < first]
            active = [g for g in active if not g.done and not g.state.is_terminal()]
        return self._collect(start, games, failed, stopped)

    def _groups(self, games: list[_Game]) -> list[tuple[AnyAgent, list[_Game]]]:
        """The games to decide this round, by the agent object on turn in each."""
        groups: dict[int, tuple[AnyAgent, list[_Game]]] = {}
        for g in games:
            seat = g.state.to_play
            agent = self.agents[g.lineup[seat]][seat]
            groups.setdefault(id(agent), (agent, []))[1].append(g)
        return list(groups.values())

    def _decide(
        self, agent: AnyAgent, games: list[_Game], failed: dict[tuple[int, int], str]
    ) -> None:
        seats = [g.state.to_play for g in games]
        views = [g.state.info_view(s) for g, s in zip(games, seats, strict=True)]
        rngs = [g.rng(self.plan.seed, s) for g, s in zip(games, seats, strict=True)]
        actions, seconds = _act_timed(agent, views, rngs)
        if len(actions) != len(games):
            label = self.plan.entrants[games[0].lineup[seats[0]]].label
            raise ArenaError(
                f"agent {label!r} answered {len(actions)} actions for {len(games)} views"
            )
        for g, seat, action, dt in zip(games, seats, actions, seconds, strict=True):
            g.decisions[seat] += 1
            g.seconds[seat] += dt
            add(g.latency[seat], dt)
            try:
                g.state.apply(operator.index(action))
            except (ValueError, TypeError) as e:
                label = self.plan.entrants[g.lineup[seat]].label
                failed[(g.index, g.r)] = (
                    f"agent {label!r} in seat S{seat} (deal {g.index}, lineup {g.r}) "
                    f"chose {action!r}: {e}"
                )
                g.done = True

    def _collect(
        self, start: int, games: list[_Game], failed: dict[tuple[int, int], str], stopped: bool
    ) -> Played:
        n_lineups = len(self.plan.lineups)
        error = failed[min(failed)] if failed else None
        last = min(failed)[0] if failed else start + len(games) // n_lineups
        outcomes: list[tuple[GameOutcome, ...]] = []
        for index in range(start, last):
            deal_games = games[(index - start) * n_lineups : (index - start + 1) * n_lineups]
            if not all(g.state.is_terminal() for g in deal_games):
                break  # stopped: only the deals finished in order come back
            outcomes.append(tuple(g.outcome() for g in deal_games))
        return Played(outcomes, error, stopped)


@dataclass(frozen=True)
class Played:
    """What ``Table.play_deals`` played: the first deals' outcomes, in order; the message of
    the first failure in deal order, if any; whether it was stopped."""

    outcomes: list[tuple[GameOutcome, ...]]
    error: str | None
    stopped: bool


class _Game:
    """One game being played: its deal index, lineup, engine, generators and counters."""

    __slots__ = (
        "decisions", "done", "index", "latency", "lineup", "r", "rngs", "seconds", "state",
    )  # fmt: skip

    def __init__(self, index: int, r: int, state: Any, lineup: Sequence[int]) -> None:
        self.index, self.r, self.state, self.lineup = index, r, state, lineup
        n = len(lineup)
        self.rngs: list[np.random.Generator | None] = [None] * n
        self.decisions, self.seconds = [0] * n, [0.0] * n
        self.latency: list[Histogram] = [{} for _ in range(n)]
        self.done = False

    def rng(self, seed: int, seat: int) -> np.random.Generator:
        rng = self.rngs[seat]
        if rng is None:
            rng = self.rngs[seat] = agent_rng(seed, self.index, self.r, seat)
        return rng

    def outcome(self) -> GameOutcome:
        s = self.state
        latency = tuple(tuple(sorted(h.items())) for h in self.latency)
        return _outcome(s.result(), s.returns(), self.decisions, self.seconds, latency)


def _act_timed(
    agent: AnyAgent, views: list[Any], rngs: list[np.random.Generator]
) -> tuple[Sequence[Any], list[float]]:
    """The agent's actions for ``views`` (``views[i]`` deciding with ``rngs[i]``) and the
    time each took (a batched call's time split evenly over its views)."""
    if isinstance(agent, EachAgent):
        began = time.perf_counter()
        batch = agent.act_each(views, rngs)
        share = (time.perf_counter() - began) / max(len(views), 1)
        return batch, [share] * len(views)
    actions: list[Any] = []
    seconds: list[float] = []
    for view, rng in zip(views, rngs, strict=True):
        began = time.perf_counter()
        actions.append(agent.act(view, rng))
        seconds.append(time.perf_counter() - began)
    return actions, seconds


def _outcome(
    result: dict[str, Any], returns: Sequence[float], decisions: list[int], seconds: list[float],
    latency: tuple[tuple[tuple[int, int], ...], ...] = (),
) -> GameOutcome:  # fmt: skip
    contract = result.get("contract")
    return GameOutcome(
        payoffs=tuple(returns),
        void=bool(result.get("void", False)),
        contract=str(contract) if contract is not None else None,
        soloist=result.get("soloist") if contract is not None else None,
        success=result.get("success") if contract is not None else None,
        decisions=tuple(decisions),
        seconds=tuple(seconds),
        latency=latency,
    )

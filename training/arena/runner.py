"""Playing the arena's games: every lineup of the seating scheme on every deal of the set,
driving the engines directly (``State`` + ``info_view(seat)`` + ``agent.act(view, rng)``), in
parallel over chunks of deals.

Owns the plan (deals, entrants, lineups, seed), the game loop, the worker processes and the
merge. A game's result depends only on its deal, its lineup, the agents and the generators of
``streams.agent_rng(seed, deal, lineup, seat)``, and results are merged in deal order, so the
outcome is identical for any number of workers and any chunking.

Agents are built once per worker process and per (agent, seat), and must act as functions of
(view, rng) (the agent protocol): one that kept state across games could make results depend
on how deals are chunked.
"""

from __future__ import annotations

import math
import multiprocessing
import operator
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from agents.base import AnyAgent
from agents.registry import make_agent, parse_spec
from envs.cards.deal import Deal
from training.arena.deals import DealSet
from training.arena.seating import Lineup, lineups_for, units_for
from training.arena.streams import agent_rng, check_seed

__all__ = [
    "ArenaError",
    "ArenaPlan",
    "ArenaRun",
    "Entrant",
    "GameOutcome",
    "make_plan",
    "parse_entrant",
    "run_arena",
]


class ArenaError(ValueError):
    """A game could not be played: an agent failed or chose an illegal action."""


@dataclass(frozen=True)
class Entrant:
    """One agent of the arena.

    Attributes:
        label: its name in reports (unique within a plan).
        source: an agent spec string (``agents.registry``), or a picklable zero-argument
            callable returning an agent (for trainers evaluating a policy in memory).
    """

    label: str
    source: str | Callable[[], AnyAgent]


def parse_entrant(text: str) -> Entrant:
    """``'spec'`` or ``'label=spec'`` (a ``=`` before the first ``:``) -> Entrant.

    Raises:
        ValueError: an empty label or a malformed spec.
    """
    head, colon, tail = text.partition(":")
    label, eq, name = head.partition("=")
    if eq:
        if not label.strip():
            raise ValueError(f"empty label in agent {text!r} (expected label=spec)")
        spec = name + colon + tail
        parse_spec(spec)
        return Entrant(label.strip(), spec.strip())
    parse_spec(text)
    return Entrant(text.strip(), text.strip())


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


@dataclass(frozen=True)
class ArenaPlan:
    """Everything that determines the games: deals, entrants, lineups and the seed.

    Attributes:
        deal_set: the deals and rules.
        entrants: the agents; lineups refer to them by index.
        scheme: the seating scheme's name (``seating.SCHEMES``).
        lineups: the agent index of every seat, per lineup; each deal is played once per lineup.
        seed: base seed of the agents' generators.
    """

    deal_set: DealSet
    entrants: tuple[Entrant, ...]
    scheme: str
    lineups: tuple[Lineup, ...]
    seed: int

    @property
    def labels(self) -> tuple[str, ...]:
        """The entrants' labels, by index."""
        return tuple(e.label for e in self.entrants)

    @property
    def n_games(self) -> int:
        """Games to play: deals times lineups."""
        return len(self.deal_set.deals) * len(self.lineups)


@dataclass(frozen=True)
class ArenaRun:
    """A played plan.

    Attributes:
        plan: what was played.
        outcomes: ``outcomes[i][r]`` is deal ``i`` played by lineup ``r``.
        seconds: wall-clock time of the play.
        workers: worker processes used.
    """

    plan: ArenaPlan
    outcomes: tuple[tuple[GameOutcome, ...], ...]
    seconds: float
    workers: int


def make_plan(
    deal_set: DealSet,
    agents: Sequence[str | Entrant],
    scheme: str = "pairs",
    seed: int = 0,
) -> ArenaPlan:
    """Check the agents (each is built once here) and lay out the lineups.

    Repeated labels get ``#2``, ``#3`` ... so that an agent may play a copy of itself.

    Raises:
        ValueError: an unknown or malformed agent spec, fewer than two agents, an unknown
            scheme or a bad seed.
    """
    check_seed(seed)
    entrants: list[Entrant] = []
    seen: dict[str, int] = {}
    for item in agents:
        entrant = parse_entrant(item) if isinstance(item, str) else item
        _build(entrant, deal_set.game)
        seen[entrant.label] = seen.get(entrant.label, 0) + 1
        if seen[entrant.label] > 1:
            entrant = Entrant(f"{entrant.label}#{seen[entrant.label]}", entrant.source)
        entrants.append(entrant)
    units = units_for(deal_set.spec, deal_set.rules)
    lineups = lineups_for(scheme, len(entrants), units)
    return ArenaPlan(deal_set, tuple(entrants), scheme, lineups, seed)


def _build(entrant: Entrant, game: str) -> AnyAgent:
    if isinstance(entrant.source, str):
        return make_agent(entrant.source, game)
    agent = entrant.source()
    if not callable(getattr(agent, "act", None)):
        raise ValueError(f"entrant {entrant.label!r}: its factory did not return an agent")
    return agent


# ---------------------------------------------------------------- playing
class _Table:
    """A worker's game loop: the spec, the rules and one agent per (entrant, seat)."""

    def __init__(self, plan: ArenaPlan) -> None:
        self.plan = plan
        self.spec = plan.deal_set.spec
        self.rules = plan.deal_set.rules
        self.n_seats = len(plan.lineups[0])
        self.agents = [
            [_build(e, plan.deal_set.game) for _ in range(self.n_seats)] for e in plan.entrants
        ]

    def play_deal(self, index: int, deal: Deal) -> tuple[GameOutcome, ...]:
        return tuple(self._play(index, r, deal) for r in range(len(self.plan.lineups)))

    def _play(self, index: int, r: int, deal: Deal) -> GameOutcome:
        lineup, n, seed = self.plan.lineups[r], self.n_seats, self.plan.seed
        state = self.spec.new_state(deal, self.rules)
        agents = [self.agents[lineup[s]][s] for s in range(n)]
        rngs: list[np.random.Generator | None] = [None] * n
        decisions, seconds = [0] * n, [0.0] * n
        while not state.is_terminal():
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


class Progress(Protocol):
    """What the runner reports progress to (``progress.ProgressBar`` is one)."""

    def start(self, total: int) -> None: ...
    def advance(self, n: int) -> None: ...


_WORKER: _Table | None = None  # the table of this worker process (set by the initializer)
_Chunk = tuple[int, tuple[Deal, ...]]
_Played = tuple[int, list[tuple[GameOutcome, ...]], str | None]


def _init_worker(plan: ArenaPlan) -> None:
    global _WORKER
    _WORKER = _Table(plan)


def _play_chunk_with(table: _Table, chunk: _Chunk) -> _Played:
    """Play a chunk's deals in order; stop at the first failure and return its message."""
    start, deals = chunk
    played: list[tuple[GameOutcome, ...]] = []
    try:
        for j, deal in enumerate(deals):
            played.append(table.play_deal(start + j, deal))
    except ArenaError as e:
        return start, played, str(e)
    return start, played, None


def _play_chunk(chunk: _Chunk) -> _Played:
    assert _WORKER is not None, "worker not initialised"
    return _play_chunk_with(_WORKER, chunk)


def _chunks(deals: tuple[Deal, ...], workers: int) -> list[_Chunk]:
    """Contiguous chunks, about 8 per worker (at most 64 deals), so progress moves steadily."""
    size = max(1, min(64, math.ceil(len(deals) / (8 * workers))))
    return [(start, deals[start : start + size]) for start in range(0, len(deals), size)]


def run_arena(plan: ArenaPlan, workers: int = 1, progress: Progress | None = None) -> ArenaRun:
    """Play every lineup of ``plan`` on every deal, with ``workers`` processes.

    If an agent fails, the error reported is that of the first failing deal in deal order,
    whatever the number of workers (later chunks are cancelled, earlier ones finish).

    Raises:
        ArenaError: an agent chose an illegal action (or not an action id).
        ValueError: ``workers < 1``.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    deals = plan.deal_set.deals
    workers = min(workers, len(deals))
    chunks = _chunks(deals, workers)
    if progress is not None:
        progress.start(len(deals))
    start_time = time.perf_counter()
    if workers == 1:
        table = _Table(plan)
        done = _collect((_play_chunk_with(table, c) for c in chunks), progress)
    else:
        done = _play_parallel(plan, chunks, workers, progress)
    outcomes = tuple(o for start in sorted(done) for o in done[start])
    return ArenaRun(plan, outcomes, time.perf_counter() - start_time, workers)


def _collect(
    results: Iterable[_Played], progress: Progress | None
) -> dict[int, list[tuple[GameOutcome, ...]]]:
    done = {}
    for start, played, error in results:
        if error is not None:
            raise ArenaError(error)
        done[start] = played
        if progress is not None:
            progress.advance(len(played))
    return done


def _play_parallel(
    plan: ArenaPlan, chunks: list[_Chunk], workers: int, progress: Progress | None
) -> dict[int, list[tuple[GameOutcome, ...]]]:
    """Chunks over a process pool. Workers are never killed mid-chunk (a worker killed while
    sending its results could leave the pool waiting for ever): on a failure, chunks after
    the failing one are cancelled and the others allowed to finish."""
    done: dict[int, list[tuple[GameOutcome, ...]]] = {}
    errors: dict[int, str] = {}
    ctx = multiprocessing.get_context()
    with ProcessPoolExecutor(workers, ctx, initializer=_init_worker, initargs=(plan,)) as pool:
        futures = {pool.submit(_play_chunk, c): c[0] for c in chunks}
        try:
            for future in as_completed(futures):
                if future.cancelled():
                    continue
                start, played, error = future.result()
                if error is not None:
                    errors[start + len(played)] = error
                    for other, first in futures.items():
                        if first > start:
                            other.cancel()
                    continue
                done[start] = played
                if progress is not None:
                    progress.advance(len(played))
        finally:
            for other in futures:
                other.cancel()
    if errors:
        raise ArenaError(errors[min(errors)])
    return done

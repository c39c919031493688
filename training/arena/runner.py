"""Playing the arena's games: every lineup of the seating scheme on every deal of the set,
driving the engines directly (``State`` + ``info_view(seat)`` + ``agent.act(view, rng)``), in
parallel over chunks of deals.

Owns the plan (deals, entrants, lineups, seed), the run and the merge; the game loop is
``table``'s, the worker processes ``pool``'s. A game's result depends only on its deal, its
lineup, the agents and the generators of ``streams.agent_rng(seed, deal, lineup, seat)``, and
results are merged in deal order, so the outcome is identical for any number of workers and
any chunking. An interrupted run raises ``ArenaInterrupted`` carrying the finished prefix of
the deals as a run of its own: the same games as a plan of just those deals.

Agents are built once per worker process and per (agent, seat), and must act as functions of
(view, rng) (the agent protocol): one that kept state across games could make results depend
on how deals are chunked.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agents.base import AnyAgent
from agents.registry import parse_spec
from training.arena.deals import DealSet
from training.arena.pool import Done, Progress, play_parallel, play_serial
from training.arena.seating import Lineup, lineups_for, units_for
from training.arena.streams import check_seed
from training.arena.table import ArenaError, GameOutcome, build_agent

__all__ = [
    "ArenaError",
    "ArenaInterrupted",
    "ArenaPlan",
    "ArenaRun",
    "Entrant",
    "GameOutcome",
    "Progress",
    "make_plan",
    "parse_entrant",
    "run_arena",
]


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
        planned: when the run was interrupted, the number of deals of the plan it was cut
            from (``plan`` then holds only the finished first deals); None when complete.
    """

    plan: ArenaPlan
    outcomes: tuple[tuple[GameOutcome, ...], ...]
    seconds: float
    workers: int
    planned: int | None = None


class ArenaInterrupted(KeyboardInterrupt):
    """A run stopped by an interrupt (Ctrl-C).

    Attributes:
        run: the finished first deals as a run of their own (``run.planned`` is the number of
            deals asked for), or None when no deal was finished.
        planned: the number of deals of the plan.
    """

    def __init__(self, run: ArenaRun | None, planned: int) -> None:
        super().__init__(f"interrupted after {len(run.outcomes) if run else 0} of {planned} deals")
        self.run, self.planned = run, planned


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
        build_agent(entrant, deal_set.game)
        seen[entrant.label] = seen.get(entrant.label, 0) + 1
        if seen[entrant.label] > 1:
            entrant = Entrant(f"{entrant.label}#{seen[entrant.label]}", entrant.source)
        entrants.append(entrant)
    units = units_for(deal_set.spec, deal_set.rules)
    lineups = lineups_for(scheme, len(entrants), units)
    return ArenaPlan(deal_set, tuple(entrants), scheme, lineups, seed)


def run_arena(plan: ArenaPlan, workers: int = 1, progress: Progress | None = None) -> ArenaRun:
    """Play every lineup of ``plan`` on every deal, with ``workers`` processes.

    If an agent fails, the error reported is that of the first failing deal in deal order,
    whatever the number of workers (later chunks are cancelled, earlier ones finish).

    Raises:
        ArenaError: an agent chose an illegal action (or not an action id).
        ArenaInterrupted: Ctrl-C (a ``KeyboardInterrupt``), with the finished deals.
        ValueError: ``workers < 1``.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    n = len(plan.deal_set.deals)
    workers = min(workers, n)
    if progress is not None:
        progress.start(n)
    start_time = time.perf_counter()
    done: Done = {}
    try:
        if workers == 1:
            play_serial(plan, done, progress)
        else:
            play_parallel(plan, workers, done, progress)
    except KeyboardInterrupt:
        seconds = time.perf_counter() - start_time
        raise ArenaInterrupted(_prefix(plan, done, seconds, workers), n) from None
    outcomes = tuple(done[i] for i in range(n))
    return ArenaRun(plan, outcomes, time.perf_counter() - start_time, workers)


def _prefix(plan: ArenaPlan, done: Done, seconds: float, workers: int) -> ArenaRun | None:
    """The finished first deals as a run of their own (None if deal 0 is not finished)."""
    k = 0
    while k in done:
        k += 1
    if k == 0:
        return None
    head = dataclasses.replace(plan, deal_set=plan.deal_set.head(k))
    outcomes = tuple(done[i] for i in range(k))
    return ArenaRun(head, outcomes, seconds, workers, planned=len(plan.deal_set.deals))

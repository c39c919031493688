"""Playing the arena's games: every lineup of the seating scheme on every deal of the set,
driving the engines directly (``State`` + ``info_view(seat)`` + ``agent.act(view, rng)``), in
parallel over chunks of deals.

Owns making and running a plan and the merge (the plan types are ``plan``'s); the game loop
is ``table``'s, the worker processes ``workers``', the workers on Ray ``ray_workers``'. A
game's result depends only on its deal, its lineup, the agents and the generators of
``streams.agent_rng(seed, deal, lineup, seat)``, and results are merged in deal order, so the
outcome is identical for any number of workers, any chunking, and locally or on Ray. An
interrupted run raises ``ArenaInterrupted`` carrying the finished prefix of the deals as a run
of its own: the same games as a plan of just those deals.

Agents are built once per worker process and per (agent, seat), and must act as functions of
(view, rng) (the agent protocol): one that kept state across games could make results depend
on how deals are chunked.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

from mazzo.agents.distributed import ray_session
from mazzo.agents.trained_rules import check_rules_fit
from mazzo.arena.journal import Journal, JournaledDone
from mazzo.arena.plan import ArenaPlan, Entrant, parse_entrant
from mazzo.arena.ray_workers import play_ray
from mazzo.arena.seating import lineups_for, units_for
from mazzo.arena.table import GameOutcome, build_agent
from mazzo.arena.workers import Done, Progress, play_parallel, play_serial
from mazzo.envs.deal_sets import DealSet
from mazzo.envs.deals import check_seed

__all__ = ["ArenaInterrupted", "ArenaRun", "make_plan", "run_arena"]


@dataclass(frozen=True)
class ArenaRun:
    """A played plan.

    Attributes:
        plan: what was played.
        outcomes: ``outcomes[i][r]`` is deal ``i`` played by lineup ``r``.
        seconds: wall-clock time of the play.
        workers: worker processes (or Ray actors) used.
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
    foreign_rules: bool = False,
) -> ArenaPlan:
    """Check the agents (each is built once here, and a trained one must have been trained for
    the deal set's rules, unless ``foreign_rules``) and lay out the lineups.

    Repeated labels get ``#2``, ``#3`` ... so that an agent may play a copy of itself.

    Raises:
        ValueError: an unknown or malformed agent spec, fewer than two agents, an unknown
            scheme or a bad seed; ``ForeignRules``: a trained agent under other rules than its
            own (each differing flag named).
    """
    check_seed(seed)
    entrants: list[Entrant] = []
    notes: list[str] = []
    seen: dict[str, int] = {}
    for item in agents:
        entrant = parse_entrant(item) if isinstance(item, str) else item
        agent = build_agent(entrant, deal_set.game, deal_set.rules)
        note = check_rules_fit(agent, entrant.label, deal_set.game, deal_set.rules, foreign_rules)
        if note is not None:
            notes.append(note)
        seen[entrant.label] = seen.get(entrant.label, 0) + 1
        if seen[entrant.label] > 1:
            entrant = Entrant(f"{entrant.label}#{seen[entrant.label]}", entrant.source)
        entrants.append(entrant)
    units = units_for(deal_set.game, deal_set.rules)
    lineups = lineups_for(scheme, len(entrants), units)
    return ArenaPlan(deal_set, tuple(entrants), scheme, lineups, seed, tuple(notes))


def run_arena(
    plan: ArenaPlan, workers: int | None = 1, progress: Progress | None = None,
    ray: str | None = None, journal: Journal | None = None,
) -> ArenaRun:  # fmt: skip
    """Play every lineup of ``plan`` on every deal, with ``workers`` processes (None: one per
    core), or with ``ray`` (an address: ``mazzo.agents.distributed``) on ``workers`` Ray actors
    (None: one per CPU of the cluster). The outcomes are the same in every case. With an
    opened ``journal`` (``mazzo.arena.journal``) every finished deal is booked in it as the
    run goes, and the deals it already holds are not played again (their play time counts).

    If an agent fails, the error reported is that of the first failing deal in deal order,
    whatever the number of workers (later chunks are cancelled, earlier ones finish).

    Raises:
        ArenaError: an agent chose an illegal action (or not an action id).
        ArenaInterrupted: Ctrl-C (a ``KeyboardInterrupt``), with the finished deals.
        ValueError: ``workers < 1``; Ray asked for but not installed or not reachable.
    """
    bad = isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    if workers is not None and bad:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    n = len(plan.deal_set.deals)
    done: Done = JournaledDone(journal) if journal is not None else {}
    before = journal.seconds if journal is not None else 0.0
    start_time = time.perf_counter() - before
    k = 0
    try:
        if ray is not None:
            with ray_session(ray) as cluster:
                k = min(workers or cluster.cpus, n)
                start_time = time.perf_counter() - before  # the play's, not the runtime's
                if isinstance(done, JournaledDone):
                    done.restart_clock()
                _start(progress, n, len(done))
                play_ray(plan, k, done, progress)
        else:
            k = min(workers or os.cpu_count() or 1, n)
            _start(progress, n, len(done))
            if k == 1:
                play_serial(plan, done, progress)
            else:
                play_parallel(plan, k, done, progress)
    except KeyboardInterrupt:
        seconds = time.perf_counter() - start_time
        raise ArenaInterrupted(_prefix(plan, done, seconds, k), n) from None
    outcomes = tuple(done[i] for i in range(n))
    return ArenaRun(plan, outcomes, time.perf_counter() - start_time, k)


def _start(progress: Progress | None, n: int, done: int) -> None:
    if progress is not None:
        progress.start(n)
        if done:
            progress.advance(done)


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

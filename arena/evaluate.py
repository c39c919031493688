"""One evaluation from a config: load or generate the deals, lay out the lineups, play, and
compute the statistics. The CLI's ``mazzo eval`` and the trainers' periodic evaluations both
come through here.

Owns ``EvalConfig`` (a dataclass; unknown keys in a config mapping are errors), ``evaluate``
and ``EvalInterrupted``: an interrupted evaluation still gives the statistics of the deals it
finished (the first ``k`` deals: the same numbers as a run of ``--n k``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mazzo.agents.distributed import check_address, import_ray
from mazzo.arena.journal import Journal
from mazzo.arena.plan import Entrant
from mazzo.arena.runner import ArenaInterrupted, ArenaRun, make_plan, run_arena
from mazzo.arena.seating import SCHEMES
from mazzo.arena.summary import Summary, summarize
from mazzo.arena.workers import Progress
from mazzo.envs.deal_sets import DealSet, game_of_file, generate_deals, read_deal_set, read_records
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, all_games, get_game

__all__ = [
    "DEFAULT_DEALS",
    "EvalConfig",
    "EvalInterrupted",
    "default_game",
    "evaluate",
    "load_deals",
]

DEFAULT_DEALS = 1000  # deals generated when neither a file nor a count is given


@dataclass(frozen=True)
class EvalConfig:
    """What to evaluate and how.

    Attributes:
        agents: agent specs (``random``, ``heuristic@1``, ``label=pimc:samples=64``) or
            entrants; at least two.
        game: the game; by default the deal file's, else the registry's first.
        deals: a deal set file; without one, deals are generated from ``seed``.
        n: number of deals (the first ``n`` of the file; default: all of it, or
            ``DEFAULT_DEALS`` generated).
        seed: seeds the generated deals and every agent's generator.
        rules: the game's rules (with a deal file, the file's flags must agree; default: the
            file's, or the game's defaults); they need ``game``.
        seating: the seating scheme (``pairs`` or ``mixed``; see ``seating``).
        workers: worker processes (default: ``os.cpu_count()``), or with ``ray`` Ray actors
            (default: the cluster's CPUs).
        ray: play on Ray: ``"local"`` starts a runtime here, any other value is the address
            of a running cluster (``mazzo.agents.distributed``); None plays on local processes.
        confidence: level of every interval.
        bootstrap: bootstrap resamples for additional percentile intervals (0: none).
        anchor: the agent label rated 0 Elo (default: ratings centred on their mean).
        foreign_rules: let trained agents play rules they were not trained for (refused
            otherwise, naming each differing flag); the run's ``plan.notes`` then say so.
    """

    agents: tuple[str | Entrant, ...] = ()
    game: AnyGame | None = None
    deals: str | None = None
    n: int | None = None
    seed: int = 0
    rules: RulesLike | None = None
    seating: str = "pairs"
    workers: int | None = None
    ray: str | None = None
    confidence: float = 0.95
    bootstrap: int = 0
    anchor: str | None = None
    foreign_rules: bool = False

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> EvalConfig:
        """Build from a mapping (a config file: ``game`` a registry name, ``flags`` a table of
        rule flags, the other keys the fields'). Raises ValueError naming unknown keys, an
        unknown game or a bad flag."""
        known = ({f.name for f in dataclasses.fields(cls)} - {"rules"}) | {"flags"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown eval config key(s) {unknown}; known: {sorted(known)}")
        values = dict(data)
        if "agents" in values:
            values["agents"] = tuple(values["agents"])
        flags = values.pop("flags", None)
        if values.get("game") is not None:
            values["game"] = get_game(values["game"])
        if flags is not None:
            values["game"] = game = values.get("game") or default_game(values.get("deals"))
            values["rules"] = game.rules(flags)
        return cls(**values)

    def check(self) -> None:
        """Cheap checks before anything is loaded. Raises ValueError naming the problem."""
        if len(self.agents) < 2:
            raise ValueError(f"the arena needs at least two agents, got {len(self.agents)}")
        if self.seating not in SCHEMES:
            raise ValueError(f"unknown seating {self.seating!r}; known: {', '.join(SCHEMES)}")
        if not 0.0 < self.confidence < 1.0:
            raise ValueError(f"confidence must lie strictly between 0 and 1, got {self.confidence}")
        if self.bootstrap < 0:
            raise ValueError(f"bootstrap resamples must be >= 0, got {self.bootstrap}")
        if self.workers is not None and self.workers < 1:
            raise ValueError(f"workers must be >= 1, got {self.workers}")
        if self.ray is not None:
            check_address(self.ray)
            import_ray()  # without the extra: say how to install it before any work
        if self.n is not None and self.n < 1:
            raise ValueError(f"the number of deals must be >= 1, got {self.n}")
        if self.rules is not None:
            if self.game is None:
                raise ValueError("rules need their game (EvalConfig.game)")
            self.game.check_rules(self.rules)


class EvalInterrupted(KeyboardInterrupt):
    """An evaluation stopped by an interrupt (Ctrl-C).

    Attributes:
        run: the finished first deals as a run (``run.planned`` deals were asked for), or None.
        summary: their statistics, or None when no deal was finished.
        planned: the number of deals asked for.
    """

    def __init__(self, run: ArenaRun | None, summary: Summary | None, planned: int) -> None:
        done = len(run.outcomes) if run is not None else 0
        super().__init__(f"interrupted after {done} of {planned} deals")
        self.run, self.summary, self.planned, self.done = run, summary, planned, done


def default_game(deals: str | None) -> AnyGame:
    """The game of an evaluation that names none: the deal file's, else the registry's first.
    Raises ValueError for an unreadable deal file."""
    if deals is not None:
        return game_of_file(read_records(deals))
    return all_games()[0]


def load_deals(config: EvalConfig) -> DealSet:
    """The deal set a config asks for (read from its file or generated from its seed)."""
    if config.deals is not None:
        deal_set = read_deal_set(config.deals, config.game, config.rules)  # None: the file's
        return deal_set.head(config.n) if config.n is not None else deal_set
    game = config.game or all_games()[0]
    rules = config.rules if config.rules is not None else game.rules()
    return generate_deals(game, rules, config.n or DEFAULT_DEALS, config.seed)


def evaluate(
    config: EvalConfig,
    progress: Progress | None = None,
    journal: Path | None = None,
    resume: bool = False,
) -> tuple[ArenaRun, Summary]:
    """Run the evaluation ``config`` describes; with ``journal`` (a file path), book every
    finished deal there as the run goes (``mazzo.arena.journal``), and with ``resume`` first
    read back the deals it holds instead of playing them. The journal stays when the run is
    interrupted; the caller removes it (``Journal.remove``) once the results are safe.

    Raises:
        ValueError: a bad config, agent spec, flag or deal file, or an agent that chose an
            illegal action (``runner.ArenaError``).
        EvalInterrupted: Ctrl-C during play, with the statistics of the finished deals.
        OSError: the deal file cannot be read; FileExistsError: ``journal`` exists and
            ``resume`` is false; FileNotFoundError: ``resume`` without a journal.
        JournalMismatch: the journal was written for another run (the field named).
    """
    config.check()
    deal_set = load_deals(config)
    plan = make_plan(deal_set, config.agents, config.seating, config.seed, config.foreign_rules)
    if config.anchor is not None and config.anchor not in plan.labels:
        raise ValueError(f"unknown rating anchor {config.anchor!r}; agents: {plan.labels}")
    booked = None
    if journal is not None:
        booked = Journal(journal, plan)
        booked.open(resume)
    elif resume:
        raise ValueError("resume needs the journal of the run to continue")
    try:
        run = run_arena(plan, config.workers, progress, config.ray, booked)
    except (ValueError, OSError):  # nothing played (a cluster that cannot be joined): no journal
        if booked is not None and not resume and not booked.done:
            booked.remove()
        raise
    except ArenaInterrupted as e:
        part = e.run
        summary = None
        if part is not None:
            summary = summarize(part, config.confidence, config.bootstrap, config.anchor)
        raise EvalInterrupted(part, summary, e.planned) from None
    return run, summarize(run, config.confidence, config.bootstrap, config.anchor)

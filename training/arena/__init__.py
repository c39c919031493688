"""The evaluation arena: agents against agents on fixed deal sets, duplicate style.

Modules, each with one job: ``streams`` (every random stream, from one seed), ``deals`` (deal
sets: generate, read, write), ``seating`` (lineups and rotation schemes), ``runner`` (the plan
and the run), ``table`` (one game's engine loop), ``pool`` (deals over worker processes,
interrupts), ``stats`` (t, bootstrap, Bradley-Terry), ``summary`` (the arena's
numbers from the games), ``report`` (table, JSON, CSV), ``progress`` (the progress bar),
``evaluate`` (one evaluation from a config). See docs/arena.md.
"""

from training.arena.deals import DealSet, generate_deals, read_deal_set, write_deal_set
from training.arena.evaluate import EvalConfig, EvalInterrupted, evaluate
from training.arena.runner import (
    ArenaError,
    ArenaInterrupted,
    ArenaPlan,
    ArenaRun,
    Entrant,
    make_plan,
    run_arena,
)
from training.arena.summary import Summary, summarize

__all__ = [
    "ArenaError",
    "ArenaInterrupted",
    "ArenaPlan",
    "ArenaRun",
    "DealSet",
    "Entrant",
    "EvalConfig",
    "EvalInterrupted",
    "Summary",
    "evaluate",
    "generate_deals",
    "make_plan",
    "read_deal_set",
    "run_arena",
    "summarize",
    "write_deal_set",
]

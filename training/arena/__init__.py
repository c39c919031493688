"""The evaluation arena: agents against agents on fixed deal sets, duplicate style.

Modules, each with one job: ``streams`` (every random stream, from one seed), ``deals`` (deal
sets: generate, read, write), ``seating`` (lineups and rotation schemes), ``runner`` (playing
the games in parallel), ``stats`` (t, bootstrap, Bradley-Terry), ``summary`` (the arena's
numbers from the games), ``report`` (table, JSON, CSV), ``progress`` (the progress bar),
``evaluate`` (one evaluation from a config). See docs/arena.md.
"""

from training.arena.deals import DealSet, generate_deals, read_deal_set, write_deal_set
from training.arena.evaluate import EvalConfig, evaluate
from training.arena.runner import ArenaError, ArenaPlan, ArenaRun, Entrant, make_plan, run_arena
from training.arena.summary import Summary, summarize

__all__ = [
    "ArenaError",
    "ArenaPlan",
    "ArenaRun",
    "DealSet",
    "Entrant",
    "EvalConfig",
    "Summary",
    "evaluate",
    "generate_deals",
    "make_plan",
    "read_deal_set",
    "run_arena",
    "summarize",
    "write_deal_set",
]

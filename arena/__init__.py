"""The evaluation arena: agents against agents on fixed deal sets, duplicate style.

Modules, each with one job: ``streams`` (every random stream of a run, from one seed),
``plan`` (the entrants and the plan: deals, lineups, seed), ``seating`` (lineups and rotation
schemes), ``table`` (one game's engine loop), ``workers`` (deals over worker processes,
interrupts), ``runner`` (making and running a plan, the merge), ``stats`` (t and bootstrap
by SciPy, Bradley-Terry), ``summary`` (the arena's numbers from the games), ``report`` (table,
JSON, CSV), ``progress`` (the progress bar, by tqdm), ``units`` (durations and rates as people
read them), ``evaluate`` (one evaluation from a config). The deal
sets it plays are ``mazzo.envs.deal_sets``'. The trainers and the ``mazzo`` command both use it. See
docs/arena.md.
"""

from mazzo.arena.evaluate import EvalConfig, EvalInterrupted, evaluate
from mazzo.arena.plan import ArenaPlan, Entrant
from mazzo.arena.runner import ArenaInterrupted, ArenaRun, make_plan, run_arena
from mazzo.arena.summary import Summary, summarize
from mazzo.arena.table import ArenaError

__all__ = [
    "ArenaError",
    "ArenaInterrupted",
    "ArenaPlan",
    "ArenaRun",
    "Entrant",
    "EvalConfig",
    "EvalInterrupted",
    "Summary",
    "evaluate",
    "make_plan",
    "run_arena",
    "summarize",
]

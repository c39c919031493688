"""Arena tables for the Ray tests, importable by Ray's workers: one that says which process
built it and plays slowly enough to be killed mid-run, one that kills its process on a deal."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mazzo.arena.plan import ArenaPlan
from mazzo.arena.table import Played, Table
from mazzo.envs.cards.deal import Deal


class _Slow:
    def __init__(self, table: Table, seconds: float) -> None:
        self.table, self.seconds = table, seconds

    def play_deals(self, start: int, deals: Sequence[Deal]) -> Played:
        time.sleep(self.seconds * len(deals))
        return self.table.play_deals(start, deals)


@dataclass(frozen=True)
class PidTable:
    """A ``Table`` that writes its process id into ``folder`` when built and spends
    ``seconds`` per deal more."""

    folder: str
    seconds: float = 0.01

    def __call__(self, plan: ArenaPlan, should_stop: Callable[[], bool] | None) -> _Slow:
        Path(self.folder, str(os.getpid())).touch()
        return _Slow(Table(plan, should_stop), self.seconds)


class _Deadly:
    def __init__(self, table: Table, deal: int) -> None:
        self.table, self.deal = table, deal

    def play_deals(self, start: int, deals: Sequence[Deal]) -> Played:
        if start <= self.deal < start + len(deals):
            os._exit(1)  # the process dies as if killed
        return self.table.play_deals(start, deals)


@dataclass(frozen=True)
class DeadlyTable:
    """A ``Table`` whose process dies when asked to play deal ``deal``."""

    deal: int

    def __call__(self, plan: ArenaPlan, should_stop: Callable[[], bool] | None) -> _Deadly:
        return _Deadly(Table(plan, should_stop), self.deal)

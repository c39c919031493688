"""A training run's progress on a terminal: one line redrawn in place (the bar, the update,
decisions done, decisions per second, the latest margin against the heuristic with its 95%
interval, the time left), with the run's other messages (imitation, evaluations, the end)
printed above it. Off a terminal the trainer logs one line per update instead
(``mazzo.training.rl.run``).

Owns the line's text only: tqdm (``mazzo.arena.progress.TextLine``) counts the decisions,
throttles the redraws and draws the bar, and writes the messages above the line
(``tqdm.external_write_mode``, which also clears any other bar on the terminal). The run tells
it what happened, with its own rate and time left. The clock is injectable so tests can drive
it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from tqdm import tqdm

from mazzo.arena.progress import ERASE_LINE, TextLine
from mazzo.arena.units import format_duration

__all__ = ["TrainProgress"]


class TrainProgress:
    """The single-line progress of a training run.

    Args:
        stream: where to draw (default ``sys.stdout``).
        width: characters of the bar itself.
        interval: minimum seconds between redraws (messages always redraw).
        clock: seconds since some origin (default ``time.monotonic``).
        opponent: the evaluation opponent whose margin the line shows.
    """

    def __init__(
        self, stream: TextIO | None = None, width: int = 20, interval: float = 0.2,
        clock: Callable[[], float] = time.monotonic, opponent: str = "heuristic",
    ) -> None:  # fmt: skip
        self.stream = stream if stream is not None else sys.stdout
        self.width, self.interval, self.clock, self.opponent = width, interval, clock, opponent
        self.update_no, self.decisions, self.total = 0, 0, 0
        self.rate, self.eta = 0.0, 0.0
        self.margin_text = ""
        self._bar: TextLine | None = None

    def update(self, update: int, decisions: int, total: int, rate: float, eta: float) -> None:
        """An update finished: ``decisions`` of ``total`` done at ``rate`` per second."""
        self.update_no, self.decisions, self.total = update, decisions, total
        self.rate, self.eta = rate, eta
        bar = self._line()
        first, bar.shown, bar.total = not bar.shown, True, total
        drawn = bar.update(decisions - bar.n) if decisions > bar.n else None
        if drawn is None and (first or decisions >= total):  # the first and last always drawn
            bar.refresh()
            bar.last_print_n, bar.last_print_t = bar.n, self.clock()

    def margin(self, opponent: str, mean: float, low: float, high: float) -> None:
        """An evaluation's paired margin; shown when it is against the bar's opponent."""
        if opponent == self.opponent:
            self.margin_text = f"vs {opponent} {mean:+.3f} [{low:+.3f}, {high:+.3f}]"

    def message(self, text: str) -> None:
        """Print ``text`` on a line of its own above the bar."""
        with tqdm.external_write_mode(file=self.stream):
            self.stream.write("\r" + ERASE_LINE + text + "\n")
            self.stream.flush()

    def line(self) -> str:
        """The bar's current text."""
        frac = min(1.0, self.decisions / self.total) if self.total else 0.0
        bar = tqdm.format_meter(
            max(0, min(self.decisions, self.total)) if self.total else 0, self.total or 1, 0.0,
            bar_format=f"{{bar:{self.width}}}", ascii=".#",
        )  # fmt: skip
        parts = [
            f"train [{bar}] {frac:4.0%}",
            f"update {self.update_no}",
            f"{_count(self.decisions)}/{_count(self.total)} decisions",
            f"{self.rate:,.0f}/s",
        ]
        if self.margin_text:
            parts.append(self.margin_text)
        parts.append(f"ETA {format_duration(self.eta)}")
        return "  ".join(parts)

    def close(self) -> None:
        """End the bar's line (the next output starts on a line of its own)."""
        if self._bar is not None:
            self._bar.close()  # tqdm draws the last state and ends the line, if it was shown
            self._bar = None

    def _line(self) -> TextLine:
        if self._bar is None:
            self._bar = TextLine(
                self._text, self.clock, total=self.total, file=self.stream,
                mininterval=self.interval, miniters=1, smoothing=0, leave=True,
            )  # fmt: skip
        return self._bar

    def _text(self, fields: Mapping[str, Any]) -> str:
        return self.line()


def _count(n: int) -> str:
    """``8_417_000`` -> ``8.42M``; ``52_300`` -> ``52.3k``; below a thousand as is."""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= scale:
            return f"{n / scale:.3g}{suffix}"
    return str(n)

"""A training run's progress on a terminal: one line redrawn in place (the bar, the update,
decisions done, decisions per second, the latest margin against the heuristic with its 95%
interval, the time left), with the run's other messages (imitation, evaluations, the end)
printed above it. Off a terminal the trainer logs one line per update instead
(``training.rl.run``).

Owns drawing only: the run tells it what happened. The clock is injectable so tests can
drive it; no dependency beyond the standard library.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from agents.arena.progress import format_duration

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
        self._last_draw = -float("inf")
        self._shown = False

    def update(self, update: int, decisions: int, total: int, rate: float, eta: float) -> None:
        """An update finished: ``decisions`` of ``total`` done at ``rate`` per second."""
        self.update_no, self.decisions, self.total = update, decisions, total
        self.rate, self.eta = rate, eta
        now = self.clock()
        if now - self._last_draw >= self.interval or decisions >= total:
            self._draw(now)

    def margin(self, opponent: str, mean: float, low: float, high: float) -> None:
        """An evaluation's paired margin; shown when it is against the bar's opponent."""
        if opponent == self.opponent:
            self.margin_text = f"vs {opponent} {mean:+.3f} [{low:+.3f}, {high:+.3f}]"

    def message(self, text: str) -> None:
        """Print ``text`` on a line of its own above the bar."""
        self.stream.write("\r\x1b[K" + text + "\n")
        if self._shown:
            self._draw(self.clock())
        else:
            self.stream.flush()

    def line(self) -> str:
        """The bar's current text."""
        frac = min(1.0, self.decisions / self.total) if self.total else 0.0
        filled = int(frac * self.width)
        parts = [
            f"train [{'#' * filled}{'.' * (self.width - filled)}] {frac:4.0%}",
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
        if self._shown:
            self._draw(self.clock())
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False

    def _draw(self, now: float) -> None:
        self._last_draw = now
        self._shown = True
        self.stream.write("\r" + self.line() + "\x1b[K")
        self.stream.flush()


def _count(n: int) -> str:
    """``8_417_000`` -> ``8.42M``; ``52_300`` -> ``52.3k``; below a thousand as is."""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= scale:
            return f"{n / scale:.3g}{suffix}"
    return str(n)

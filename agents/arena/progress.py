"""A tiny progress bar on a text stream (stderr by default), with no dependency.

Owns drawing ``label [#####.....]  45%  900/2000 deals  120/s  ETA 7s`` on one line,
redrawn at most every ``interval`` seconds and once more at the end. The clock is injectable so
tests can drive it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["ProgressBar", "format_duration", "format_rate"]


def format_duration(seconds: float) -> str:
    """``75.2`` -> ``1m15s``; ``3725`` -> ``1h02m``; under a minute ``9s``."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


def format_rate(per_second: float, unit: str = "") -> str:
    """A rate readable at any speed: ``120/s``, ``5.0/s``, ``2.6/min``, ``0.5/h`` (with
    ``unit``: ``2.6 games/min``); two significant digits below 10 per second."""
    unit = f" {unit}" if unit else ""
    for scale, per in ((1.0, "s"), (60.0, "min"), (3600.0, "h")):
        r = per_second * scale
        if r >= 1 or per == "h":
            text = f"{r:.0f}" if r >= 10 else f"{r:#.2g}".rstrip(".")
            return f"{text}{unit}/{per}"
    raise AssertionError("unreachable")


class ProgressBar:
    """Counts units of work towards ``total`` and draws a bar.

    The total may be given later, by :meth:`start` (the runner calls it once it knows how many
    deals it plays). Nothing is drawn before the first :meth:`advance` or :meth:`close` after a
    start.

    Args:
        total: units of work expected (0: unknown until :meth:`start`).
        label: text before the bar.
        unit: name of a unit (``deals``).
        stream: where to draw (default ``sys.stderr``).
        width: characters of the bar itself.
        interval: minimum seconds between redraws.
        clock: seconds since some origin (default ``time.monotonic``).
    """

    def __init__(
        self,
        total: int = 0,
        label: str = "",
        unit: str = "",
        stream: TextIO | None = None,
        width: int = 30,
        interval: float = 0.2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total, self.label, self.unit = max(0, total), label, unit
        self.stream = stream if stream is not None else sys.stderr
        self.width, self.interval, self.clock = width, interval, clock
        self.done = 0
        self.started = clock()
        self._last_draw = -float("inf")
        self._closed = False
        self._active = self.total > 0

    def start(self, total: int) -> None:
        """Begin (again) with ``total`` units expected; the clock restarts."""
        self.total, self.done, self.started = max(0, total), 0, self.clock()
        self._active = True

    def advance(self, n: int = 1) -> None:
        """Record ``n`` more units done; redraw if the interval has passed."""
        self.done = min(self.total, self.done + n)
        now = self.clock()
        if now - self._last_draw >= self.interval or self.done >= self.total:
            self._draw(now)

    def line(self, now: float | None = None) -> str:
        """The bar's current text."""
        now = self.clock() if now is None else now
        frac = self.done / self.total if self.total else 1.0
        filled = int(frac * self.width)
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        parts = [
            f"{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {frac:4.0%}".lstrip(),
            f"{self.done}/{self.total}{' ' + self.unit if self.unit else ''}",
            format_rate(rate),
        ]
        if self.done >= self.total:
            parts.append(f"in {format_duration(elapsed)}")
        elif rate > 0:
            parts.append(f"ETA {format_duration((self.total - self.done) / rate)}")
        return "  ".join(parts)

    def _draw(self, now: float) -> None:
        self._last_draw = now
        self.stream.write("\r" + self.line(now) + "\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        """Draw the final state and end the line."""
        if self._active and not self._closed:
            self._closed = True
            self._draw(self.clock())
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

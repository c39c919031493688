"""The arena's progress bar on a text stream (stderr by default), drawn by tqdm.

Owns the line ``label [#####.....]  45%  900/2000 deals  120/s  ETA 7s``: tqdm counts the
units, keeps the clock, throttles the redraws to one per ``interval`` seconds and draws the
bar (``bar_format``, an ASCII ``.#`` bar), trimmed to a terminal's width; this module writes
the line as it always was (``\\r``, the text, erase to the end of the line), draws the last
step whatever the interval, and writes durations and rates with ``mazzo.arena.units``.
Nothing is drawn before the first :meth:`ProgressBar.advance` (or :meth:`ProgressBar.close`)
after a start. The clock is injectable so tests can drive it.

Needs tqdm (the ``eval`` extra); the callers import it only when they draw.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from tqdm import tqdm

from mazzo.arena.units import format_duration, format_rate

__all__ = ["ERASE_LINE", "ProgressBar", "TextLine", "format_duration", "format_rate"]

ERASE_LINE = "\x1b[K"  # erase from the cursor to the end of the line


class TextLine(tqdm):  # type: ignore[type-arg]
    """A tqdm bar drawn as one line redrawn in place: ``\\r`` + the text + erase to the end of
    the line (tqdm's own pads with spaces). ``text`` makes the line from tqdm's
    ``format_dict``; the clock is ``clock`` from the start.

    Draws nothing until :attr:`shown` is set (the owner sets it on its first real draw), so
    tqdm's draw at construction and its redraws after a message are no-ops before then.
    """

    monitor_interval = 0  # no monitor thread: every redraw comes from the owner's calls

    def __init__(
        self, text: Callable[[Mapping[str, Any]], str], clock: Callable[[], float], **kwargs: Any
    ) -> None:
        self.shown = False
        self._text = text
        super().__init__(**kwargs)
        self._time = clock
        self.start_t = self.last_print_t = clock()

    def render(self) -> str:
        """The current line, untrimmed."""
        return self._text(self.format_dict)

    def display(self, msg: str | None = None, pos: int | None = None) -> None:
        if not self.shown:
            return
        line = self.render() if msg is None else msg
        if self.ncols:  # a terminal: a line wider than it would wrap and break the redraw
            line = line[: self.ncols - 1]
        self.fp.write("\r" + line + ERASE_LINE)
        self.fp.flush()

    def clear(self, nolock: bool = False) -> None:
        """Messages written through tqdm erase the line themselves (``\\r\\x1b[K``)."""

    def close(self) -> None:
        """End the line (tqdm draws the last state first); a line never shown stays unwritten."""
        if not self.shown:
            self.leave = False  # tqdm then clears the line instead, and a clear draws nothing
        super().close()


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
        self.label, self.unit = label, unit
        self.stream = stream if stream is not None else sys.stderr
        self.width, self.interval, self.clock = width, interval, clock
        self._bar: TextLine | None = None
        self._closed = False
        if total > 0:
            self.start(total)

    @property
    def total(self) -> int:
        """Units of work expected (0 before a start)."""
        return int(self._bar.total or 0) if self._bar is not None else 0

    @property
    def done(self) -> int:
        """Units of work done since the start."""
        return int(self._bar.n) if self._bar is not None else 0

    def start(self, total: int) -> None:
        """Begin (again) with ``total`` units expected; the clock restarts."""
        if self._bar is not None:
            self._bar.shown = False
            self._bar.close()  # a line drawn before ends; one never drawn stays unwritten
        self._closed = False
        self._bar = TextLine(
            self._format, self.clock, total=max(0, total), file=self.stream,
            mininterval=self.interval, miniters=1, smoothing=0, leave=True,
            bar_format=f"{{bar:{self.width}}}", ascii=".#",
        )  # fmt: skip

    def advance(self, n: int = 1) -> None:
        """Record ``n`` more units done; redraw if the interval has passed (the last unit is
        always drawn)."""
        bar = self._bar
        if bar is None:
            return
        bar.shown = True
        if bar.update(max(0, min(n, self.total - self.done))) is None and self.done >= self.total:
            bar.refresh()
            bar.last_print_n, bar.last_print_t = bar.n, self.clock()

    def line(self, now: float | None = None) -> str:
        """The bar's current text."""
        if self._bar is None:
            return self._format({"n": 0, "total": 0, "elapsed": 0.0})
        fields = dict(self._bar.format_dict)
        if now is not None:
            fields["elapsed"] = now - self._bar.start_t
        return self._format(fields)

    def _format(self, fields: Mapping[str, Any]) -> str:
        done, total, elapsed = int(fields["n"]), int(fields["total"] or 0), fields["elapsed"]
        rate = done / elapsed if elapsed > 0 else 0.0
        if done >= total:
            tail = f"in {format_duration(elapsed)}"
        elif rate > 0:
            tail = f"ETA {format_duration((total - done) / rate)}"
        else:
            tail = ""
        prefix = f"{self.label} " if self.label else ""
        bar = tqdm.format_meter(
            done if total else 1, total or 1, elapsed, prefix=prefix, ascii=".#",
            bar_format=f"{{desc}}[{{bar:{self.width}}}] {{percentage:3.0f}}%",
        )  # fmt: skip
        count = f"{done}/{total}{' ' + self.unit if self.unit else ''}"
        return "  ".join(part for part in (bar, count, format_rate(rate), tail) if part)

    def close(self) -> None:
        """Draw the final state and end the line."""
        bar = self._bar
        if bar is not None and not self._closed:
            self._closed = True
            bar.shown = True
            bar.close()  # tqdm draws the last state and ends the line

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

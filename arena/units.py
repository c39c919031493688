"""How the arena and the trainers write a duration and a rate for people: ``1m15s``,
``2.4/min``. Pure formatting, no dependency (the progress bars, the report and the trainers'
logs all use it, so a run reads the same everywhere).
"""

from __future__ import annotations

__all__ = ["format_duration", "format_rate"]


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

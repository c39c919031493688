"""The distribution of an agent's time per decision, kept as a log-spaced histogram: the arena
reports each agent's median and 95th percentile beside its mean (a search's slow decisions,
the bids and the first tricks, hide in a mean).

A histogram is a mapping ``bin -> count`` (sparse), its bins ``BINS_PER_DECADE`` to a decade
from ``FLOOR`` seconds up (12% wide: a quantile is read to within a bin, its centre),
so that a game's decisions cost a few integers, whatever their number, and the games of any
number of workers merge by addition. Measured, not reproducible: kept out of the arena's
deterministic results.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

__all__ = ["BINS_PER_DECADE", "FLOOR", "Histogram", "add", "bin_of", "merge", "quantile"]

BINS_PER_DECADE = 20
FLOOR = 1e-7  # seconds: the lower edge of bin 0 (faster decisions are counted there)

Histogram = dict[int, int]


def bin_of(seconds: float) -> int:
    """The bin of a duration (0 for anything up to ``FLOOR``)."""
    if not seconds > FLOOR:
        return 0
    return int(math.log10(seconds / FLOOR) * BINS_PER_DECADE)


def add(histogram: Histogram, seconds: float) -> None:
    """Count one decision of ``seconds`` in ``histogram``."""
    b = bin_of(seconds)
    histogram[b] = histogram.get(b, 0) + 1


def merge(into: Histogram, pairs: Iterable[tuple[int, int]]) -> None:
    """Add the ``(bin, count)`` pairs of another histogram into ``into``."""
    for b, n in pairs:
        into[b] = into.get(b, 0) + n


def quantile(histogram: Mapping[int, int], q: float) -> float:
    """The ``q`` quantile (0 < q <= 1) in seconds: the geometric centre of the bin holding the
    decision of rank ``ceil(q * n)``. NaN for an empty histogram.

    Raises:
        ValueError: ``q`` outside (0, 1].
    """
    if not 0 < q <= 1:
        raise ValueError(f"quantile {q!r}: must be in (0, 1]")
    total = sum(histogram.values())
    if total == 0:
        return math.nan
    rank = math.ceil(q * total)
    seen = 0
    for b in sorted(histogram):
        seen += histogram[b]
        if seen >= rank:
            return float(FLOOR * 10 ** ((b + 0.5) / BINS_PER_DECADE))
    raise AssertionError("unreachable: the ranks add up to the total")

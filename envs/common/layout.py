"""Observation layouts: named blocks of an observation vector and their offsets.

Both encoders describe their vector as a sequence of ``(name, size)`` blocks; this module turns
such a layout into the offset of each block, once, at import.

Must not import torch.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["offsets"]


def offsets(layout: Sequence[tuple[str, int]]) -> dict[str, int]:
    """Offset of every named block of ``layout`` (blocks laid end to end, in order).

    Raises:
        ValueError: a name is repeated or a size is not positive.
    """
    out: dict[str, int] = {}
    at = 0
    for name, size in layout:
        if name in out or size <= 0:
            raise ValueError(f"bad layout block {name!r} of size {size}")
        out[name] = at
        at += size
    return out

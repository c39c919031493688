"""Bitmask helpers: hands, piles and legal sets are Python ``int`` bitmasks over card/action ids.

Owns iteration over set bits, conversion between bitmasks and id lists, and uniform choice of a
set bit. The lists come from byte tables built at import, so listing a 12-card hand costs a few
table lookups rather than a loop per bit.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

__all__ = ["bit_list", "iter_bits", "lowest", "mask_of"]

_MAX_BYTES = 16  # masks up to 128 bits (the largest action space is 99)

# _BYTE_BITS[k][b]: the ids of the set bits of byte value b sitting at byte offset k.
_BYTE_BITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * k + i for i in range(8) if (b >> i) & 1) for b in range(256))
    for k in range(_MAX_BYTES)
)


def iter_bits(mask: int) -> Iterator[int]:
    """Yield the ids of the set bits of ``mask`` in increasing order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bit_list(mask: int) -> list[int]:
    """The ids of the set bits of ``mask`` in increasing order, as a new list."""
    out: list[int] = []
    k = 0
    while mask:
        b = mask & 0xFF
        if b:
            out += _BYTE_BITS[k][b]
        mask >>= 8
        k += 1
    return out


def mask_of(ids: Iterable[int]) -> int:
    """Ids -> bitmask."""
    mask = 0
    for i in ids:
        mask |= 1 << i
    return mask


def lowest(mask: int) -> int:
    """Id of the lowest set bit (``-1`` for an empty mask)."""
    return (mask & -mask).bit_length() - 1

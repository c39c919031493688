"""Bitmask <-> NumPy conversions at the edge of the engines.

An observation's binary part is assembled as one Python int (blocks shifted into place), then
unpacked once: far cheaper than filling many small arrays.

Imports numpy; must not import torch.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["bits_to_array", "mask_to_int8"]


def bits_to_array(bits: int, n: int) -> npt.NDArray[np.uint8]:
    """The low ``n`` bits of ``bits`` as a uint8 0/1 array of length ``n`` (bit i -> index i)."""
    raw = np.frombuffer(bits.to_bytes((n + 7) >> 3, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=n, bitorder="little")


def mask_to_int8(mask: int, n: int) -> npt.NDArray[np.int8]:
    """Legal-action bitmask -> ``np.int8[n]`` (the dtype PettingZoo and Gymnasium masks use)."""
    return bits_to_array(mask, n).view(np.int8)

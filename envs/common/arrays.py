"""Bitmask <-> NumPy conversions at the edge of the engines, one at a time and in batches.

An observation's binary part is assembled as one Python int (blocks shifted into place), then
unpacked once: far cheaper than filling many small arrays. A batch joins the bytes of all its
ints and unpacks them in one NumPy call.

Imports numpy; must not import torch.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["bits_to_array", "bits_to_rows", "mask_to_int8"]


def bits_to_array(bits: int, n: int) -> npt.NDArray[np.uint8]:
    """The low ``n`` bits of ``bits`` as a uint8 0/1 array of length ``n`` (bit i -> index i)."""
    raw = np.frombuffer(bits.to_bytes((n + 7) >> 3, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=n, bitorder="little")


def mask_to_int8(mask: int, n: int) -> npt.NDArray[np.int8]:
    """Legal-action bitmask -> ``np.int8[n]`` (the dtype PettingZoo and Gymnasium masks use)."""
    return bits_to_array(mask, n).view(np.int8)


def bits_to_rows(bits: Sequence[int], n: int) -> npt.NDArray[np.uint8]:
    """The low ``n`` bits of each of ``bits`` as the rows of a uint8 0/1 array ``(len(bits), n)``
    (row i, column j = bit j of ``bits[i]``): one join of the ints' bytes and one unpack.

    Raises:
        OverflowError: an int needs more than ``n`` bits rounded up to whole bytes.
    """
    nbytes = (n + 7) >> 3
    raw = b"".join([b.to_bytes(nbytes, "little") for b in bits])
    rows = np.frombuffer(raw, dtype=np.uint8).reshape(len(bits), nbytes)
    return np.unpackbits(rows, axis=1, count=n, bitorder="little")

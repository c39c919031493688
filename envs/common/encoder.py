"""The shared body of the games' encoders (``mazzo.envs.protocols.Encoder``): an observation is a
binary part, built from a view as one Python int, followed by a few float scalars.

A game's encoder subclasses ``BitsEncoder`` and supplies ``bits(view)`` and
``scalars(view)``, and ``scalar_bytes(view)`` (the same scalars packed as float32, typically
remembered per distinct value); one view is encoded by unpacking its int, a batch of
B views by joining the bytes of their B ints and unpacking them in one NumPy call
(``mazzo.envs.common.arrays``), with the scalars joined as float32 bytes into one ``(B, k)`` block
and the legal masks unpacked the same way.

That Python code is the reference. Where the game's compiled encoder is built
(``mazzo.envs.common.compiled``; ``compiled`` is then set), ``encode_into`` and ``encode_batch``
hand C-contiguous float32 / int8 outputs to it instead, with the same entries;
``reference()`` is the same encoder on its Python code alone (what the parity tests compare
against).

Imports numpy; must not import torch.
"""

from __future__ import annotations

import copy
import struct
from collections.abc import Callable, Hashable, Sequence
from operator import attrgetter
from typing import Any, ClassVar, Generic, Self, TypeVar

import numpy as np
import numpy.typing as npt

from mazzo.envs.common.arrays import bits_to_array, bits_to_rows
from mazzo.envs.common.compiled import CompiledEncoder
from mazzo.envs.protocols import AnyView

__all__ = ["BitsEncoder", "PackedScalars"]

V = TypeVar("V", bound=AnyView)


class BitsEncoder(Generic[V]):
    """An encoder whose observation is ``n_binary`` 0/1 entries then ``obs_size - n_binary``
    scalars. Subclasses set the class attributes, ``bits`` and ``scalars``.

    Attributes:
        version: the encoding version.
        obs_size: the observation length.
        num_actions: the action-space size (the mask length).
        n_binary: the length of the binary part.
    """

    version: ClassVar[int]
    obs_size: ClassVar[int]
    num_actions: ClassVar[int]
    n_binary: ClassVar[int]

    bits: Callable[[V], int]
    """view -> the binary part of its observation as an int (bit i is entry i); a plain
    function (a ``staticmethod`` in the subclass), called once per view."""
    scalars: Callable[[V], tuple[float, ...]]
    """view -> the ``obs_size - n_binary`` scalar entries of its observation."""
    scalar_bytes: Callable[[V], bytes]
    """view -> ``scalars(view)`` packed as little-endian float32, what ``encode_batch`` joins
    (typically remembered per distinct value; a test holds it equal to the packed
    ``scalars``)."""
    legal_of: Callable[[V], int] = attrgetter("legal_mask")
    """view -> its legal-action bitmask (an ``operator.itemgetter`` for a named tuple view)."""
    compiled: CompiledEncoder | None = None
    """The game's compiled encoder (``mazzo.envs.common.compiled.load_compiled``), or None: the
    Python code above does all the work."""

    @property
    def accelerated(self) -> bool:
        """Rows are written by the game's compiled encoder (where the output allows)."""
        return self.compiled is not None

    def reference(self) -> Self:
        """This encoder on its Python code alone (the reference the compiled one must equal)."""
        ref = copy.copy(self)
        ref.compiled = None
        return ref

    def obs_high(self) -> npt.NDArray[np.float32]:
        """Upper bounds of the observation (its shape is the observation's)."""
        raise NotImplementedError(f"{type(self).__name__} must supply obs_high (each game's "
                                  "encoder does)")  # fmt: skip

    def encode(self, view: V) -> npt.NDArray[np.float32]:
        """One view -> a fresh ``float32[obs_size]`` row."""
        row = np.empty(self.obs_size, np.float32)
        self.encode_into(view, row)
        return row

    def encode_into(self, view: V, row: npt.NDArray[np.float32]) -> None:
        """Write ``view``'s observation into ``row`` (``float32[obs_size]``)."""
        compiled = self.compiled
        if compiled is not None and _c_rows(row, np.float32, 1, self.obs_size):
            compiled.encode_rows((view,), row.reshape(1, self.obs_size))
            return
        n = self.n_binary
        row[:n] = bits_to_array(self.bits(view), n)
        row[n:] = self.scalars(view)

    def encode_batch(
        self,
        views: Sequence[V],
        obs: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8] | None = None,
    ) -> None:
        """Write ``len(views)`` rows into ``obs[:B]`` (and the legal masks into ``masks[:B]``).

        Raises:
            ValueError: ``obs`` (or ``masks``) has the wrong width or fewer than B rows.
        """
        b, n = len(views), self.n_binary
        _check_out("obs", obs, b, self.obs_size)
        if b == 0:
            return
        if masks is not None:
            _check_out("masks", masks, b, self.num_actions)
        compiled = self.compiled
        if (
            compiled is not None
            and _c_rows(obs, np.float32, 2, self.obs_size)
            and (masks is None or _c_rows(masks, np.int8, 2, self.num_actions))
        ):
            compiled.encode_rows(views, obs, masks)
            return
        bits, scalar_bytes = self.bits, self.scalar_bytes
        obs[:b, :n] = bits_to_rows([bits(v) for v in views], n)
        scalars = b"".join([scalar_bytes(v) for v in views])
        obs[:b, n:] = np.frombuffer(scalars, "<f4").reshape(b, self.obs_size - n)
        if masks is not None:
            legal = list(map(self.legal_of, views))
            masks[:b] = bits_to_rows(legal, self.num_actions).view(np.int8)


class PackedScalars(Generic[V]):
    """A game's scalars packed as little-endian float32 bytes (``BitsEncoder.scalar_bytes``),
    remembered per key: the game computes a key that fixes the scalars, then
    ``memo.get(key) or memo.store(key, view)``. Bounded: cleared once ``cap`` keys are held.

    Attributes:
        get: ``dict.get`` of the remembered bytes (bound once: the hit is the hot path).
    """

    def __init__(self, scalars: Callable[[V], tuple[float, ...]], width: int, cap: int) -> None:
        self._scalars = scalars
        self._pack = struct.Struct(f"<{width}f").pack
        self._cache: dict[Hashable, bytes] = {}
        self._cap = cap
        self.get = self._cache.get

    def pack(self, view: V) -> bytes:
        """The view's scalars packed (not remembered)."""
        return self._pack(*self._scalars(view))

    def store(self, key: Hashable, view: V) -> bytes:
        """Pack the view's scalars and remember them under ``key``."""
        if len(self._cache) >= self._cap:
            self._cache.clear()
        got = self._cache[key] = self._pack(*self._scalars(view))
        return got


def _check_out(name: str, out: Any, rows: int, width: int) -> None:
    shape = getattr(out, "shape", None)
    if shape is None or len(shape) != 2 or shape[1] != width or shape[0] < rows:
        raise ValueError(f"{name} must be an array of shape (>= {rows}, {width}), got {shape!r}")


def _c_rows(out: Any, dtype: type[np.generic], ndim: int, width: int) -> bool:
    """``out`` is an array the compiled encoder can write: C-contiguous rows of ``width``
    entries of ``dtype`` (anything else takes the Python path, which writes any array)."""
    return (
        type(out) is np.ndarray
        and out.dtype == dtype
        and out.ndim == ndim
        and out.shape[-1] == width
        and out.flags.c_contiguous
        and out.flags.writeable
    )

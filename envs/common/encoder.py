"""An ``Encoder`` (``envs.protocols``) built from a game's row encoder: one view to one float32
row, a batch of views into a preallocated ``(B, obs_size)`` array, and the legal masks as int8.

Imports numpy; must not import torch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from envs.common.arrays import bits_to_array

__all__ = ["RowEncoder"]


@dataclass(frozen=True)
class RowEncoder:
    """An encoder from ``encode_row(view) -> float32[obs_size]``.

    Attributes:
        version: the encoding version.
        obs_size: the observation length.
        num_actions: the action-space size (the mask length).
        high: the observation's upper bounds.
        encode_row: view -> a fresh row.
    """

    version: int
    obs_size: int
    num_actions: int
    high: npt.NDArray[np.float32]
    encode_row: Callable[[Any], npt.NDArray[np.float32]]

    def obs_high(self) -> npt.NDArray[np.float32]:
        return self.high.copy()

    def encode(self, view: Any) -> npt.NDArray[np.float32]:
        return self.encode_row(view)

    def encode_batch(
        self,
        views: Sequence[Any],
        obs: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8] | None = None,
    ) -> None:
        for i, view in enumerate(views):
            obs[i] = self.encode_row(view)
            if masks is not None:
                masks[i] = bits_to_array(view.legal_mask, self.num_actions)

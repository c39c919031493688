"""The contracts between the layers, as ``typing.Protocol``s checked by mypy: what every game's
rules (``RulesLike``), engine state (``GameState``), per-seat view (``InfoView``) and encoder
(``Encoder``) offer to the layers above (agents, the vector runner, the arena, the trainers).

Each is generic over the game's own types, so mypy sees through the seam: a game's ``State``
is a ``GameState[Rules, InfoView]`` of its own ``Rules`` and view, its encoder an
``Encoder[InfoView]`` of its own view, and ``mazzo.envs.registry.Game`` carries the three. A game's
own classes satisfy these structurally; nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Self, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt

from mazzo.envs.cards.deal import Deal

__all__ = ["AnyEncoder", "AnyState", "AnyView", "Encoder", "GameState", "InfoView", "RulesLike"]

R_co = TypeVar("R_co", bound="RulesLike", covariant=True)
V_co = TypeVar("V_co", bound="InfoView[Any]", covariant=True)
V_contra = TypeVar("V_contra", bound="InfoView[Any]", contravariant=True)


class RulesLike(Protocol):
    """A game's frozen rule flags (validated on construction)."""

    @classmethod
    def from_flags(cls, flags: Mapping[str, Any]) -> Self:
        """The rules of ``flags`` (the defaults for the others). Raises ValueError."""
        ...

    def to_flags(self) -> dict[str, Any]:
        """The flags that differ from the defaults, JSON-ready."""
        ...


class InfoView(Protocol[R_co]):
    """Everything one seat may know at one point of a deal, nothing more (immutable), under the
    game's ``Rules`` ``R_co``."""

    @property
    def seat(self) -> int: ...
    @property
    def to_play(self) -> int: ...
    @property
    def legal_mask(self) -> int: ...
    @property
    def hand(self) -> int:
        """The seat's own cards (a bitmask of card ids)."""
        ...

    @property
    def phase(self) -> int:
        """The decision phase (the game's ``Phase``, an ``IntEnum``)."""
        ...

    @property
    def rules(self) -> R_co: ...


class GameState(Protocol[R_co, V_co]):
    """One deal of a game (or a layer chaining deals): the DESIGN engine contract, under the
    game's ``Rules`` ``R_co``, its seats seeing views ``V_co``."""

    @property
    def to_play(self) -> int:
        """The seat on turn, -1 at the end."""
        ...

    @property
    def rules(self) -> R_co: ...

    @property
    def deal(self) -> Deal:
        """The deal being played (dealer and card order)."""
        ...

    def legal_mask(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: int) -> None: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> tuple[int, ...]: ...
    def clone(self) -> Self: ...
    def info_view(self, seat: int) -> V_co: ...
    def action_label(self, action: int) -> str: ...
    def parse_action(self, label: str) -> int: ...
    def result(self) -> dict[str, Any]:
        """The full, JSON-ready result (the deal so far before the end)."""
        ...


class Encoder(Protocol[V_contra]):
    """Observation vectors and action masks from the game's views ``V_contra`` (seat-relative,
    versioned)."""

    @property
    def version(self) -> int: ...
    @property
    def obs_size(self) -> int: ...
    @property
    def num_actions(self) -> int: ...

    def obs_high(self) -> npt.NDArray[np.float32]:
        """Upper bounds of the observation (its shape is the observation's)."""
        ...

    def encode(self, view: V_contra) -> npt.NDArray[np.float32]:
        """One view -> a fresh ``float32[obs_size]`` row."""
        ...

    def encode_into(self, view: V_contra, row: npt.NDArray[np.float32]) -> None:
        """Write one view's observation into ``row`` (``float32[obs_size]``)."""
        ...

    def encode_batch(
        self,
        views: Sequence[V_contra],
        obs: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8] | None = None,
    ) -> None:
        """Write ``len(views)`` rows into ``obs[:B]`` (and the legal masks into ``masks[:B]``)."""
        ...


AnyView: TypeAlias = InfoView[Any]
"""A view of a game the caller does not know by type (the layers above ``envs/``)."""
AnyState: TypeAlias = GameState[Any, Any]
"""A state of a game the caller does not know by type."""
AnyEncoder: TypeAlias = Encoder[Any]
"""An encoder of a game the caller does not know by type."""

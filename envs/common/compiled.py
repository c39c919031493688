"""Loading a game's compiled encoder: the optional C twin of its Python encoder.

A game may ship ``envs/<game>/_cencode.c`` (built by ``pip install``, see ``setup.py``), a
module with ``LAYOUT`` (the names of the ints it needs: offsets, constants, the positions of the
view's fields), ``configure(layout)`` and ``encode_rows(views, obs, masks=None)``, which writes
the same rows as the game's Python encoder; that stays the reference (the parity tests in
``tests/vector/test_compiled_encoder.py`` hold the two equal). The game hands its layout over
by name, so the block table is written once, in Python. ``load_compiled`` imports and
configures it, and returns None where it was not built (no C compiler at install time) or
where the environment variable ``MAZZO_PURE_PYTHON`` is set to anything but ``""`` or ``0``;
the encoder then runs its Python code, with the same results, only slower.

Imports nothing outside the standard library.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

__all__ = ["CompiledEncoder", "layout_of", "load_compiled", "pure_python_requested"]


class CompiledEncoder(Protocol):
    """What a game's ``_cencode`` module offers (``envs/common/cencode.h``)."""

    LAYOUT: tuple[str, ...]

    def configure(self, layout: tuple[int, ...], /) -> None:
        """Hand over the layout: offsets, constants and field positions, in the module's order."""

    def encode_rows(self, views: Sequence[Any], obs: Any, masks: Any = None, /) -> None:
        """Write view i's observation into ``obs[i]`` (float32, C-contiguous) and its legal
        mask into ``masks[i]`` (int8), for every view."""


def layout_of(
    namespace: Mapping[str, Any],
    view_fields: Sequence[str],
    names: Sequence[str] = (),
    **values: int,
) -> dict[str, int]:
    """The values a compiled encoder's ``LAYOUT`` names, from the encoder module's
    ``globals()`` (``namespace``): ``N_BINARY``, ``OBS_SIZE``, ``NUM_ACTIONS``, every ``O_*``
    offset and the constants ``names``; then ``values`` as given, the position of each view
    field as ``F_<field>`` and the view's length as ``N_FIELDS``."""
    taken = ("N_BINARY", "OBS_SIZE", "NUM_ACTIONS", *names)
    return {
        **{name: int(namespace[name]) for name in taken},
        **{name: value for name, value in namespace.items() if name.startswith("O_")},
        **values,
        **{f"F_{field}": i for i, field in enumerate(view_fields)},
        "N_FIELDS": len(view_fields),
    }


def pure_python_requested() -> bool:
    """``MAZZO_PURE_PYTHON`` is set (to anything but ``""`` or ``0``)."""
    return os.environ.get("MAZZO_PURE_PYTHON", "") not in ("", "0")


def load_compiled(module: str, layout: Mapping[str, int]) -> CompiledEncoder | None:
    """The compiled encoder ``module`` configured with the values ``layout`` gives its
    ``LAYOUT`` names, or None where it is not built or ``MAZZO_PURE_PYTHON`` asks for the
    Python encoders.

    Raises:
        KeyError: ``layout`` lacks a name the module needs (the module and the game disagree).
    """
    if pure_python_requested():
        return None
    try:
        compiled: CompiledEncoder = importlib.import_module(module)
    except ImportError:
        return None
    missing = [name for name in compiled.LAYOUT if name not in layout]
    if missing:
        raise KeyError(f"{module} needs layout values the encoder does not give: {missing}")
    compiled.configure(tuple(int(layout[name]) for name in compiled.LAYOUT))
    return compiled

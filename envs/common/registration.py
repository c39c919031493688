"""What a game's registration module (``envs/<game>/game.py``) needs beyond its own functions
to fill the registry's ``mazzo.envs.registry.GameOps``: the observation slices from an encoder
layout.

(The check that the rules handed to the registry are the game's own is ``Game.check_rules``,
written once in ``mazzo.envs.registry``.)

Must not name a game, nor import a game's package.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["obs_slices"]


def obs_slices(
    offset: Mapping[str, int], layout: Iterable[tuple[str, int]]
) -> dict[str, tuple[int, int]]:
    """Per block of an encoder ``layout`` (name, size), its ``(start, stop)`` in the vector."""
    return {name: (offset[name], offset[name] + size) for name, size in layout}

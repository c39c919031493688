"""The games mazzo knows, as one table the CLI and the trainers read: each game's PettingZoo
module, rules type, D.3 record format, replay and rendering functions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from envs import calabresella_v0
from envs.calabresella.config import Rules as CalabresellaRules
from envs.calabresella.record import FORMAT as CALABRESELLA_FORMAT
from envs.calabresella.record import replay as calabresella_replay
from envs.calabresella.render import render_state as calabresella_render

__all__ = ["GAMES", "GameSpec", "game_spec"]


@dataclass(frozen=True)
class GameSpec:
    """One game's entry points."""

    name: str
    module: ModuleType
    rules_type: type
    record_format: str
    replay: Callable[[Any], Any]
    render: Callable[[Any], str]


GAMES: dict[str, GameSpec] = {
    "calabresella": GameSpec(
        "calabresella",
        calabresella_v0,
        CalabresellaRules,
        CALABRESELLA_FORMAT,
        calabresella_replay,
        calabresella_render,
    ),
}


def game_spec(name: str) -> GameSpec:
    """The spec of game ``name``. Raises ValueError naming the known games."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None

"""The bots shipped with mazzo: where they are (``SHIPPED``: ``checkpoints/`` of a clone, or the
package's copy of it), their versions (``checkpoints/<game>/vN/`` is ``bot@N``, the folder itself
the latest), the bots trained for other rule sets (``checkpoints/<game>/rules/<flags>/``) and
the strength levels (``checkpoints/<game>/levels/<N>/``: ``bot:level=N``).

Must not import torch or training/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NamedTuple

from mazzo.envs.cards.flags import resolved_flags
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, get_game

__all__ = [
    "LEVELS_FOLDER",
    "RULES_FOLDER",
    "SHIPPED",
    "Level",
    "bot_for_rules",
    "named_weights",
    "rules_bots",
    "shipped_bots",
    "shipped_levels",
    "shipped_rule_sets",
]

SHIPPED = Path(__file__).resolve().parents[1] / "checkpoints"
"""The shipped bots' folder (``checkpoints/``; installed, the package's ``mazzo/checkpoints``)."""

RULES_FOLDER = "rules"
"""``checkpoints/<game>/rules/<flags>/``: the bots shipped for other rule sets than the default,
one folder each (a shipped folder: ``meta.json`` names its rules' flags)."""


def rules_bots(root: Path, game: str) -> dict[str, Path]:
    """The bots shipped for rule sets other than the default: their folder by name (the
    flags, ``players=4``), sorted. Empty when there is none."""
    folder = root / game / RULES_FOLDER
    if not folder.is_dir():
        return {}
    return {d.name: d for d in sorted(folder.iterdir()) if (d / "meta.json").is_file()}


def shipped_rule_sets(game: str) -> list[dict[str, object]]:
    """The flags of each rule set a bot is shipped for besides the default (``rules_bots``)."""
    return [
        dict(json.loads((folder / "meta.json").read_text()).get("flags", {}))
        for folder in rules_bots(SHIPPED, game).values()
    ]


def bot_for_rules(game: AnyGame | str, rules: RulesLike) -> Path | None:
    """The folder of the bot shipped for ``rules`` when they are not the default bot's (None
    for the default rules, or rules no shipped bot was trained for)."""
    g = get_game(game) if isinstance(game, str) else game
    wanted = resolved_flags(rules)
    if wanted == resolved_flags(g.rules()):
        return None
    for folder in rules_bots(SHIPPED, g.name).values():
        meta = json.loads((folder / "meta.json").read_text())
        if resolved_flags(g.rules(meta.get("flags", {}))) == wanted:
            return folder
    return None


def named_weights(name: str, game: AnyGame, rules: RulesLike) -> Path:
    """The folder a trainer's ``init_from`` names: ``bot`` the shipped bot for ``rules`` (the
    default rules' bot where none is shipped for them), ``bot@N`` the shipped version N,
    anything else a path (a checkpoint or run directory).

    Raises:
        ValueError: a ``bot@N`` the game does not ship.
    """
    match = re.fullmatch(r"bot(?:@(\d+))?", name)
    if match is None:
        return Path(name)
    versions = shipped_bots(SHIPPED, game.name)
    if not versions:
        raise ValueError(f"{name!r}: {game.name} ships no bot")
    if match.group(1) is None:
        return bot_for_rules(game, rules) or versions[max(versions)]
    if int(match.group(1)) not in versions:
        raise ValueError(f"{name!r}: {game.name} ships versions {sorted(versions)} of its bot")
    return versions[int(match.group(1))]


def shipped_bots(root: Path, game: str) -> dict[int, Path]:
    """The shipped bot's versions, oldest first: ``root/<game>/v<N>/`` hold the earlier ones
    (each a shipped folder with its ``meta.json``); ``root/<game>/`` itself holds the latest,
    numbered one past the highest earlier version (1 when there is none). Empty when the game
    ships no bot."""
    folder = root / game
    if not (folder / "meta.json").exists():
        return {}
    earlier = {
        int(d.name[1:]): d
        for d in folder.glob("v*")
        if d.name[1:].isdigit() and (d / "meta.json").exists()
    }
    return dict(sorted(earlier.items())) | {max(earlier, default=0) + 1: folder}


LEVELS_FOLDER = "levels"
"""``checkpoints/<game>/levels/<N>/``: the strength levels (``bot:level=N``), each a shipped
folder whose ``meta.json`` holds its ``level`` entry: the recipe's round it is and its rating."""


class Level(NamedTuple):
    """One strength level of a game's bot.

    Attributes:
        level: its number (1 is the weakest).
        folder: its shipped folder.
        rating: its Elo on the scale of the levels' round robin (with the heuristic and PIMC;
            the heuristic at 0), None where not measured.
        note: what it is, in a few words (``recipe round 2``).
    """

    level: int
    folder: Path
    rating: float | None
    note: str


def shipped_levels(root: Path, game: str) -> dict[int, Level]:
    """The strength levels shipped for ``game``, by number (empty when there is none)."""
    folder = root / game / LEVELS_FOLDER
    if not folder.is_dir():
        return {}
    levels = {}
    for d in sorted(folder.iterdir()):
        if d.name.isdigit() and (d / "meta.json").is_file():
            entry = json.loads((d / "meta.json").read_text()).get("level", {})
            rating = entry.get("rating")
            levels[int(d.name)] = Level(
                int(d.name), d, None if rating is None else float(rating), entry.get("note", "")
            )
    return dict(sorted(levels.items()))

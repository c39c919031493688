"""``mazzo rules``: a game's rule flags with their defaults, choices, meanings and RULES.md
sections (from the game's registry entry: nothing here names a game).
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from mazzo.envs.registry import game_names, get_game

__all__ = ["add", "cmd_rules"]


def add(sub: Any) -> None:
    p = sub.add_parser(
        "rules", help="list a game's rule flags: default, choices, meaning, RULES.md section"
    )
    p.add_argument("--game", default=game_names()[0], choices=game_names())
    p.set_defaults(func=cmd_rules)


def cmd_rules(args: argparse.Namespace) -> int:
    info = get_game(args.game).info
    print(f"{info.title} rule flags (--flag NAME=VALUE; RULES.md sections in [ ]):")
    for f in dataclasses.fields(info.rules_type):
        choices = f.metadata.get("choices") or f.metadata.get("items")
        kind = "subset of" if "items" in f.metadata else "choices"
        extra = f"  ({kind}: {', '.join(map(str, choices))})" if choices else ""
        print(f"{f.name} = {_default(f)!r}{extra}")
        meaning, section = info.flag_help.get(f.name, ("(no description)", "RULES.md C.3"))
        print(f"    {meaning}  [{section}]")
    return 0


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    factory = f.default_factory
    return factory() if factory is not dataclasses.MISSING else None

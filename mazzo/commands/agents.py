"""``mazzo agents``: the agents of each game (the agent table, ``mazzo.agents.registry``) with
the shape of their specs and every parameter.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from mazzo.agents.registry import agents_of
from mazzo.envs.registry import game_names

__all__ = ["add", "agents_text", "cmd_agents"]


def add(sub: Any) -> None:
    p = sub.add_parser("agents", help="list the agents of each game with their parameters")
    p.add_argument("--game", choices=game_names(), help="one game (default: all)")
    p.set_defaults(func=cmd_agents)


def cmd_agents(args: argparse.Namespace) -> int:
    print(agents_text([args.game] if args.game else list(game_names())), end="")
    return 0


def agents_text(games: Sequence[str]) -> str:
    """Each game's agents: the spec's shape, what it is, and every parameter."""
    lines = ["agent specs: NAME[@VERSION][:KEY=VALUE,...] (e.g. pimc:samples=64,ms=500)"]
    for game in games:
        lines += ["", f"{game}:"]
        for a in agents_of(game):
            lines.append(f"  {a.usage()}")
            if a.help:
                lines.append(f"      {a.help}")
            for p in a.params:
                lines.append(f"      {p.describe()}: {p.help}")
    return "\n".join(lines) + "\n"

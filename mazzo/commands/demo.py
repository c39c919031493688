"""``mazzo demo``: a few deals between random agents, each table shown (after each deal, or
after every move with ``--flag render_mode=human``) and the total rewards. Ctrl-C prints the
totals of the deals it finished and exits with status 130.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

from mazzo.agents.base import RandomAgent
from mazzo.commands.options import (
    EXIT_INTERRUPTED,
    add_flag_option,
    count,
)
from mazzo.envs.cards.flags import parse_assignments
from mazzo.envs.registry import game_names, get_game

__all__ = ["add", "cmd_demo"]


def add(sub: Any) -> None:
    p = sub.add_parser("demo", help="play a few deals between random agents and show them")
    p.add_argument("--game", default=game_names()[0], choices=game_names())
    p.add_argument("--deals", type=count(1), default=2, help="number of deals (default 2)")
    p.add_argument("--seed", type=count(0), default=0, help="seed of the first deal (default 0)")
    add_flag_option(p, "a rule flag, e.g. --flag players=4 (repeatable; see mazzo rules)")
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    flags = parse_assignments(args.flag, "--flag")  # rule flags and env options (render_mode)
    render_mode = flags.pop("render_mode", "ansi")
    if render_mode not in ("ansi", "human"):
        raise ValueError(
            f"demo shows the table: render_mode must be 'ansi' (after each deal, the default) "
            f"or 'human' (after every move), got {render_mode!r}"
        )
    env = get_game(args.game).env(render_mode=render_mode, **flags)
    rng = np.random.default_rng(args.seed)
    agent = RandomAgent()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    finished = 0
    try:
        for deal in range(args.deals):
            print(f"=== deal {deal + 1} of {args.deals} (seed {args.seed + deal}) ===")
            deal_totals = _demo_deal(env, args.seed + deal, agent, rng)
            for name, reward in deal_totals.items():
                totals[name] += reward
            finished += 1
            if render_mode == "ansi":  # "human" printed the table after every move
                print(env.unwrapped.render())
            print()
    except KeyboardInterrupt:
        print(f"\ninterrupted after {finished} of {args.deals} deals")
        _print_totals(totals, f" of the {finished} finished deals")
        print(f"mazzo demo: interrupted after {finished} of {args.deals} deals", file=sys.stderr)
        return EXIT_INTERRUPTED
    _print_totals(totals, "")
    return 0


def _demo_deal(
    env: Any, seed: int, agent: RandomAgent, rng: np.random.Generator
) -> dict[str, float]:
    env.reset(seed=seed)
    raw = env.unwrapped
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for name in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        totals[name] += reward
        if term or trunc:
            env.step(None)
            continue
        view = raw.game.info_view(raw.possible_agents.index(name))
        env.step(agent.act(view, rng))
    return totals


def _print_totals(totals: dict[str, float], which: str) -> None:
    print(f"Total rewards{which}: " + "  ".join(f"{a} {r:+.4g}" for a, r in totals.items()))

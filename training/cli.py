"""The ``mazzo`` command line: one entry point, one subcommand per job.

Subcommands (more arrive with later work): ``demo`` plays a few deals between agents and shows
the table; ``replay`` replays a RULES.md D.3 record and prints its result; ``rules`` lists a
game's rule flags with their defaults and choices.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import RandomAgent
from agents.registry import make_agent
from training.games import GAMES, game_spec
from training.play import HumanQuit, play_session

__all__ = ["main"]


def _parse_flags(items: Sequence[str]) -> dict[str, Any]:
    flags: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SystemExit(f"mazzo: --flag expects key=value, got {item!r}")
        try:
            flags[key] = json.loads(value)
        except json.JSONDecodeError:
            flags[key] = value
    return flags


def cmd_demo(args: argparse.Namespace) -> int:
    spec = game_spec(args.game)
    env = spec.module.env(render_mode="ansi", **_parse_flags(args.flag))
    rng = np.random.default_rng(args.seed)
    agent = RandomAgent()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for deal in range(args.deals):
        env.reset(seed=args.seed + deal)
        raw = env.unwrapped
        for name in env.agent_iter():
            _, reward, term, trunc, _ = env.last()
            totals[name] += reward
            if term or trunc:
                env.step(None)
                continue
            view = raw.game.info_view(raw.possible_agents.index(name))
            env.step(agent.act(view, rng))
        print(f"=== deal {deal + 1} of {args.deals} (seed {args.seed + deal}) ===")
        print(raw.render())
        print()
    print("Total rewards: " + "  ".join(f"{a} {r:+.4g}" for a, r in totals.items()))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    spec = game_spec(args.game)
    rules = spec.rules_type.from_flags(_parse_flags(args.flag))
    n = spec.n_players(rules)
    if not 0 <= args.seat < n:
        raise ValueError(f"--seat must be 0..{n - 1}, got {args.seat}")
    agents = [make_agent(args.opponents, spec.name) for _ in range(n)]

    def read() -> str:
        line = sys.stdin.readline()
        if not line:
            raise HumanQuit
        return line

    try:
        play_session(
            spec, rules, args.seat, agents, args.seed, args.deals, Path(args.save), read, sys.stdout
        )
    except HumanQuit:
        print("\nbye")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    text = Path(args.file).read_text()
    record = json.loads(text)
    spec = game_spec(args.game or spec_for_format(record.get("format", "")))
    state = spec.replay(record)
    print(spec.render(state))
    if state.is_terminal():
        print(json.dumps(state.result(), indent=2))
    return 0


def spec_for_format(fmt: str) -> str:
    for name, spec in GAMES.items():
        if spec.record_format == fmt:
            return name
    raise SystemExit(f"mazzo: unknown record format {fmt!r}; pass --game")


def cmd_rules(args: argparse.Namespace) -> int:
    spec = game_spec(args.game)
    for f in dataclasses.fields(spec.rules_type):
        choices = f.metadata.get("choices") or f.metadata.get("items")
        extra = f"  choices: {list(choices)}" if choices else ""
        print(f"{f.name} = {f.default!r}{extra}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mazzo",
        description="mazzo: reinforcement learning for Italian trick-taking card games "
        f"({', '.join(GAMES)}).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a few deals between random agents and show them")
    demo.add_argument("--game", default="calabresella", choices=sorted(GAMES))
    demo.add_argument("--deals", type=int, default=2, help="number of deals (default 2)")
    demo.add_argument("--seed", type=int, default=0, help="seed of the first deal (default 0)")
    demo.add_argument("--flag", action="append", default=[], metavar="KEY=VALUE",
                      help="a rule flag, e.g. --flag players=4 (repeatable)")  # fmt: skip
    demo.set_defaults(func=cmd_demo)
    play = sub.add_parser("play", help="play in the terminal against agents")
    play.add_argument("--game", default="calabresella", choices=sorted(GAMES))
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--opponents", default="heuristic", help="agent spec for the other seats")
    play.add_argument("--deals", type=int, default=1, help="number of deals (default 1)")
    play.add_argument("--seed", type=int, default=0, help="seed of the deals and agents")
    play.add_argument("--save", default="mazzo_deal.json", help="where the played deals go")
    play.add_argument("--flag", action="append", default=[], metavar="KEY=VALUE",
                      help="a rule flag (repeatable)")  # fmt: skip
    play.set_defaults(func=cmd_play)
    replay = sub.add_parser("replay", help="replay a D.3 deal record (JSON) and print it")
    replay.add_argument("file", help="path to the JSON record")
    replay.add_argument("--game", choices=sorted(GAMES), help="default: from the record's format")
    replay.set_defaults(func=cmd_replay)
    rules = sub.add_parser("rules", help="list a game's rule flags, defaults and choices")
    rules.add_argument("--game", default="calabresella", choices=sorted(GAMES))
    rules.set_defaults(func=cmd_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mazzo`` console script."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (ValueError, OSError) as e:
        print(f"mazzo {args.command}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

"""The ``mazzo`` command line: one entry point, one subcommand per job.

Subcommands (more arrive with later work): ``demo`` plays a few deals between agents and shows
the table; ``play`` lets a person play in the terminal against agents; ``replay`` replays a
RULES.md D.3 record and prints its result; ``rules`` lists a game's rule flags with their
defaults, choices, meanings and RULES.md sections; ``agents`` lists the agents with their
parameters; ``eval`` benchmarks agents against each other on a fixed deal set, duplicate style
(``training.arena``); ``dealset`` writes a deal set file. ``demo``, ``rules``, ``agents`` and
``eval`` live in ``training.cli_commands``.

Bad input (an unknown agent, flag or game, a malformed deal file) ends with a message on stderr
and exit status 2; Ctrl-C with a line saying so and exit status 130, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.registry import make_agent
from envs.registry import Game, game_for_format, game_names, get_game
from training.arena.deals import generate_deals, rules_from_flags, write_deal_set
from training.cli_commands import EXIT_INTERRUPTED, add_agents, add_demo, add_eval, add_rules
from training.cli_commands import parse_flags as _parse_flags
from training.play import HumanQuit, play_session

__all__ = ["main"]


def cmd_play(args: argparse.Namespace) -> int:
    spec = get_game(args.game)
    rules = spec.rules(_parse_flags(args.flag))
    n = spec.seats(rules)
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
    spec = get_game(args.game) if args.game else _game_of_record(record)
    state = spec.replay(record, None)
    print(spec.render_state(state))
    if state.is_terminal():
        print(json.dumps(state.result(), indent=2))
    return 0


def _game_of_record(record: Any) -> Game:
    fmt = record.get("format", "") if isinstance(record, dict) else ""
    try:
        return game_for_format(fmt)
    except ValueError as e:
        raise SystemExit(f"mazzo: {e}; pass --game") from None


def cmd_dealset(args: argparse.Namespace) -> int:
    rules = rules_from_flags(args.game, _parse_flags(args.flag))
    deal_set = generate_deals(args.game, rules, args.n, args.seed)
    if args.out == "-":
        sys.stdout.write(deal_set.to_jsonl())
        return 0
    write_deal_set(deal_set, args.out)
    flags = rules.to_flags()
    print(
        f"wrote {args.n} {args.game} deals (seed {args.seed}, "
        f"{'flags ' + json.dumps(flags) if flags else 'default rules'}, "
        f"sha256 {deal_set.digest()[:12]}) to {args.out}"
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mazzo",
        description="mazzo: reinforcement learning for Italian trick-taking card games "
        f"({', '.join(game_names())}).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    add_demo(sub)
    play = sub.add_parser("play", help="play in the terminal against agents")
    play.add_argument("--game", default=game_names()[0], choices=game_names())
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
    replay.add_argument("--game", choices=game_names(), help="default: from the record's format")
    replay.set_defaults(func=cmd_replay)
    add_rules(sub)
    add_agents(sub)
    add_eval(sub)
    _add_dealset(sub)
    return parser


def _add_dealset(sub: Any) -> None:
    p = sub.add_parser(
        "dealset",
        help="write a reusable deal set (JSON Lines of D.3 records) generated from a seed",
    )
    p.add_argument("--game", default=game_names()[0], choices=game_names())
    p.add_argument("--n", type=int, required=True, help="number of deals")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument(
        "--flag",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule flag, stored in every record (repeatable)",
    )
    p.add_argument("--out", default="-", metavar="FILE", help="output file (default: stdout)")
    p.set_defaults(func=cmd_dealset)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mazzo`` console script."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (ValueError, OSError) as e:
        print(f"mazzo {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\nmazzo {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())

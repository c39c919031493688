"""The ``mazzo`` command line: one entry point, one subcommand per job.

Subcommands (more arrive with later work): ``demo`` plays a few deals between agents and shows
the table; ``play`` lets a person play in the terminal against agents; ``replay`` replays a
RULES.md D.3 record and prints its result; ``rules`` lists a game's rule flags with their
defaults and choices; ``eval`` benchmarks agents against each other on a fixed deal set,
duplicate style (``training.arena``); ``dealset`` writes a deal set file.

Bad input (an unknown agent, flag or game, a malformed deal file) ends with a message on stderr
and exit status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import RandomAgent
from agents.registry import make_agent
from envs.registry import Game, game_for_format, game_names, get_game
from training.arena.deals import generate_deals, rules_from_flags, write_deal_set
from training.arena.evaluate import EvalConfig, evaluate
from training.arena.progress import ProgressBar
from training.arena.report import format_table, write_outputs
from training.play import HumanQuit, play_session
from training.train_cli import add_train_command

__all__ = ["main"]


def _parse_flags(items: Sequence[str]) -> dict[str, Any]:
    flags: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--flag expects key=value, got {item!r}")
        try:
            flags[key] = json.loads(value)
        except json.JSONDecodeError:
            flags[key] = value
    return flags


def cmd_demo(args: argparse.Namespace) -> int:
    env = get_game(args.game).env(render_mode="ansi", **_parse_flags(args.flag))
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


def cmd_rules(args: argparse.Namespace) -> int:
    for f in dataclasses.fields(get_game(args.game).info.rules_type):
        choices = f.metadata.get("choices") or f.metadata.get("items")
        extra = f"  choices: {list(choices)}" if choices else ""
        print(f"{f.name} = {f.default!r}{extra}")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    config = EvalConfig(
        agents=tuple(args.agents),
        game=args.game,
        deals=args.deals,
        n=args.n,
        seed=args.seed,
        flags=_parse_flags(args.flag),
        seating=args.seating,
        workers=args.workers,
        confidence=args.confidence,
        bootstrap=args.bootstrap,
        anchor=args.anchor,
    )
    config.check()
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = ProgressBar(label="eval", unit="deals") if show else None
    try:
        run, summary = evaluate(config, bar)
    finally:
        if bar is not None:
            bar.close()
    print(format_table(summary), end="")
    if args.out:
        paths = write_outputs(summary, run, args.out)
        print(f"wrote {', '.join(str(p) for p in paths)}")
    return 0


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
    demo = sub.add_parser("demo", help="play a few deals between random agents and show them")
    demo.add_argument("--game", default=game_names()[0], choices=game_names())
    demo.add_argument("--deals", type=int, default=2, help="number of deals (default 2)")
    demo.add_argument("--seed", type=int, default=0, help="seed of the first deal (default 0)")
    demo.add_argument("--flag", action="append", default=[], metavar="KEY=VALUE",
                      help="a rule flag, e.g. --flag players=4 (repeatable)")  # fmt: skip
    demo.set_defaults(func=cmd_demo)
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
    rules = sub.add_parser("rules", help="list a game's rule flags, defaults and choices")
    rules.add_argument("--game", default=game_names()[0], choices=game_names())
    rules.set_defaults(func=cmd_rules)
    _add_eval(sub)
    _add_dealset(sub)
    add_train_command(sub)
    return parser


def _add_eval(sub: Any) -> None:
    p = sub.add_parser(
        "eval",
        help="benchmark agents against each other on fixed deals, duplicate style",
        description="Play every agent in every seat of every deal (seats rotated duplicate "
        "style) and report mean payoffs and win rates with confidence intervals, paired "
        "differences, Elo ratings and, in games with contracts, the contracts. See docs/arena.md.",
    )
    p.add_argument(
        "agents",
        nargs="+",
        metavar="AGENT",
        help="agent spec (random, heuristic@1, pimc:samples=64) or label=spec",
    )
    p.add_argument(
        "--game",
        choices=game_names(),
        help=f"default: the deal file's game, else {game_names()[0]}",
    )
    p.add_argument(
        "--deals",
        metavar="FILE",
        help="deal set (JSON Lines of D.3 records); default: generate from --seed",
    )
    p.add_argument(
        "--n",
        type=int,
        metavar="N",
        help="number of deals: the first N of the file (default all), "
        "or N generated (default 1000)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of generated deals and of every agent's generator (default 0)",
    )
    p.add_argument(
        "--flag",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule flag, e.g. --flag players=4 (repeatable)",
    )
    p.add_argument(
        "--seating",
        default="pairs",
        choices=("pairs", "mixed"),
        help="rotation scheme (default pairs: every pair head to head)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help=f"worker processes (default: all cores, {os.cpu_count()} here)",
    )
    p.add_argument(
        "--confidence",
        type=float,
        default=0.95,
        help="confidence level of the intervals (default 0.95)",
    )
    p.add_argument(
        "--bootstrap",
        type=int,
        default=0,
        metavar="B",
        help="also give percentile bootstrap intervals from B resamples",
    )
    p.add_argument("--anchor", metavar="LABEL", help="agent rated 0 Elo (default: mean 0)")
    p.add_argument("--out", metavar="DIR", help="write summary.json and CSV files here")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )
    p.set_defaults(func=cmd_eval)


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


if __name__ == "__main__":
    sys.exit(main())

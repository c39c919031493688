"""The ``mazzo`` command line: one entry point, one subcommand per job.

Subcommands (more arrive with later work): ``demo`` plays a few deals between agents and shows
the table; ``play`` lets a person play in the terminal against agents (each deal saved as a D.3
record, JSON Lines); ``replay`` replays the RULES.md D.3 records of a deal file and prints each
table and result; ``rules`` lists a game's rule flags with their defaults, choices, meanings and
RULES.md sections; ``agents`` lists the agents with their parameters; ``eval`` benchmarks
agents against each other on a fixed deal set, duplicate style (``mazzo.agents.arena``);
``dealset`` writes a deal set file; ``serve`` serves bots over the bot protocol
(``mazzo.serve_command``). ``replay`` and ``eval --deals`` read the same family of deal
files (``mazzo.envs.deal_sets.read_records``). ``demo``, ``rules``, ``agents`` and ``eval``
live in ``mazzo.commands``, ``train`` in ``mazzo.train_command``, ``export`` (a trained
bot as an ONNX bundle) in ``mazzo.export_command``, ``labels`` (a search agent's decisions on
a deal set, for distillation) in ``mazzo.labels_command``, ``belief`` (a belief model for
the learned-inference search ``ipimc``) in ``mazzo.belief_command``.

Bad input (an unknown agent, flag or game, a malformed or missing deal file, a save path that
cannot be written) ends with a message on stderr naming it and exit status 2; so does a job
whose extra is not installed (``mazzo.extras``: one line naming the extra to install). Ctrl-C
ends with a short message and exit status 130, without a traceback; ``mazzo train`` stopped by
SIGINT or SIGTERM writes its checkpoint first and exits with 130 or 143.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mazzo.agents.registry import make_agent
from mazzo.agents.trained_rules import check_rules_fit
from mazzo.belief_command import add_belief_command
from mazzo.commands import (
    EXIT_INTERRUPTED,
    add_agents,
    add_demo,
    add_eval,
    add_foreign_rules_option,
    add_rules,
)
from mazzo.commands import count as at_least
from mazzo.envs.deal_sets import (
    game_of_record,
    generate_deals,
    read_records,
    write_deal_set,
)
from mazzo.envs.registry import AnyGame, game_names, get_game
from mazzo.exploit_command import add_exploit_command
from mazzo.export_command import add_export_command
from mazzo.extras import EXIT_MISSING_EXTRA, MissingExtra, extra_for_module
from mazzo.labels_command import add_labels_command
from mazzo.play import DEFAULT_SAVE, HumanQuit, claim_save_path, count, play_session
from mazzo.serve_command import add_serve_command
from mazzo.train_command import add_train_command

__all__ = ["main"]


def cmd_play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    rules = game.parse_flags(args.flag)
    n = game.seats(rules)
    if not 0 <= args.seat < n:
        raise ValueError(f"--seat must be 0..{n - 1}, got {args.seat}")
    if args.deals < 1:
        raise ValueError(f"--deals must be at least 1, got {args.deals}")
    print(f"Starting {game.info.title}: loading the opponents ({args.opponents})...", flush=True)
    agents = [make_agent(args.opponents, game, rules) for _ in range(n)]
    note = check_rules_fit(agents[0], args.opponents, game, rules, args.foreign_rules)
    if note is not None:
        print(note)
    save = claim_save_path(args.save, args.force)  # before dealing: a bad path loses nothing
    print(f"The deals are saved to {save} (JSON Lines, one record per deal).")
    seed = args.seed
    if seed is None:
        seed = int(np.random.default_rng().integers(2**31))  # a fresh game, printed to replay
        print(f"Seed {seed} (mazzo play --seed {seed} deals these cards again).")

    def read() -> str:
        line = sys.stdin.readline()
        if not line:
            raise HumanQuit
        return line

    try:
        play_session(game, rules, args.seat, agents, seed, args.deals, save, read, sys.stdout)
    except HumanQuit:
        print("\nbye")
    except KeyboardInterrupt:
        print("\ninterrupted; bye")
        return EXIT_INTERRUPTED
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    file = read_records(args.file)
    indices = range(len(file.entries))
    if args.index is not None:
        if not 1 <= args.index <= len(file.entries):
            raise ValueError(
                f"--index {args.index}: {args.file} ({file.kind}) holds "
                f"{count(len(file.entries), 'record')}; choose 1..{len(file.entries)}"
            )
        indices = range(args.index - 1, args.index)
    for i in indices:
        where = file.where(i)
        record = file.entries[i][1]
        game = get_game(args.game) if args.game else _game_of_record(record, where)
        try:
            state = game.replay(record, None)
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
        if len(file.entries) > 1:
            print(f"=== record {i + 1} of {len(file.entries)} ({where}) ===")
        print(game.render_state(state))
        if state.is_terminal():
            print(json.dumps(state.result(), indent=2))
        else:
            done = len(record.get("actions") or [])
            print(f"(unfinished: {count(done, 'action')} so far; S{state.to_play} to play)")
    return 0


def _game_of_record(record: Any, where: str) -> AnyGame:
    try:
        return game_of_record(record, where)
    except ValueError as e:
        raise ValueError(f"{e}; pass --game") from None


def cmd_dealset(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    rules = game.parse_flags(args.flag)
    deal_set = generate_deals(game, rules, args.n, args.seed)
    if args.out == "-":
        sys.stdout.write(deal_set.to_jsonl())
        return 0
    write_deal_set(deal_set, args.out)
    flags = rules.to_flags()
    print(
        f"wrote {count(args.n, args.game + ' deal')} (seed {args.seed}, "
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
    play.add_argument(
        "--seed", type=at_least(0), default=None,
        help="seed of the deals and agents (default: a fresh one each time, printed so the "
        "game can be played again)",
    )  # fmt: skip
    play.add_argument(
        "--save",
        metavar="FILE",
        help=f"where the played deals go, as JSON Lines (default: {DEFAULT_SAVE}, or "
        f"{Path(DEFAULT_SAVE).stem}-2{Path(DEFAULT_SAVE).suffix}, ... when taken); "
        "an existing FILE needs --force",
    )
    play.add_argument("--force", action="store_true", help="overwrite the --save file if it exists")
    play.add_argument("--flag", action="append", default=[], metavar="KEY=VALUE",
                      help="a rule flag (repeatable)")  # fmt: skip
    add_foreign_rules_option(play)
    play.set_defaults(func=cmd_play)
    replay = sub.add_parser(
        "replay",
        help="replay D.3 deal records and print them",
        description="Replay the deal records of FILE (a single JSON record, JSON Lines of "
        "records as mazzo play --save and mazzo dealset write, or a JSON list of records) and "
        "print each table and result; every record in turn unless --index picks one.",
    )
    replay.add_argument("file", metavar="FILE", help="the deal file")
    replay.add_argument(
        "--index", type=int, metavar="N", help="replay only record N (1 = the first)"
    )
    replay.add_argument("--game", choices=game_names(), help="default: from the record's format")
    replay.set_defaults(func=cmd_replay)
    add_rules(sub)
    add_agents(sub)
    add_eval(sub)
    _add_dealset(sub)
    add_train_command(sub)
    add_serve_command(sub)
    add_export_command(sub)
    add_labels_command(sub)
    add_belief_command(sub)
    add_exploit_command(sub)
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
    except MissingExtra as e:
        print(e, file=sys.stderr)
        return EXIT_MISSING_EXTRA
    except ModuleNotFoundError as e:  # found missing later: a network agent's torch
        extra = extra_for_module(e.name)
        if extra is None:
            raise
        print(MissingExtra(args.command, extra, e.name or extra), file=sys.stderr)
        return EXIT_MISSING_EXTRA
    except (ValueError, OSError) as e:
        print(f"mazzo {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:  # a trainer's stop says which signal (130 or 143)
        print(f"\nmazzo {args.command}: interrupted", file=sys.stderr)
        return int(getattr(e, "exit_status", EXIT_INTERRUPTED))


if __name__ == "__main__":
    sys.exit(main())

"""``mazzo replay``: the D.3 records of a deal file replayed, each table and result printed
(``mazzo.envs.deal_sets.read_records`` reads the same family of files as ``eval --deals``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from mazzo.envs.deal_sets import game_of_record, read_records
from mazzo.envs.registry import AnyGame, game_names, get_game
from mazzo.play import count as count_of

__all__ = ["add", "cmd_replay"]


def add(sub: Any) -> None:
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


def cmd_replay(args: argparse.Namespace) -> int:
    file = read_records(args.file)
    indices = range(len(file.entries))
    if args.index is not None:
        if not 1 <= args.index <= len(file.entries):
            raise ValueError(
                f"--index {args.index}: {args.file} ({file.kind}) holds "
                f"{count_of(len(file.entries), 'record')}; choose 1..{len(file.entries)}"
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
            print(f"(unfinished: {count_of(done, 'action')} so far; S{state.to_play} to play)")
    return 0


def _game_of_record(record: Any, where: str) -> AnyGame:
    try:
        return game_of_record(record, where)
    except ValueError as e:
        raise ValueError(f"{e}; pass --game") from None

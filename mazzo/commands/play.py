"""``mazzo play``: a person plays in the terminal against agents (``mazzo.play``), every deal
saved as a D.3 record (JSON Lines) to a file claimed before the first card is dealt.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from mazzo.agents.registry import make_agent
from mazzo.agents.trained_rules import check_rules_fit
from mazzo.commands.options import (
    EXIT_INTERRUPTED,
    add_foreign_rules_option,
    count,
)
from mazzo.envs.registry import game_names, get_game
from mazzo.play import DEFAULT_SAVE, HumanQuit, claim_save_path, play_session

__all__ = ["add", "cmd_play"]


def add(sub: Any) -> None:
    play = sub.add_parser("play", help="play in the terminal against agents")
    play.add_argument("--game", default=game_names()[0], choices=game_names())
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--opponents", default="heuristic", help="agent spec for the other seats")
    play.add_argument("--deals", type=int, default=1, help="number of deals (default 1)")
    play.add_argument(
        "--seed", type=count(0), default=None,
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

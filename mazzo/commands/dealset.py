"""``mazzo dealset``: a reusable deal set (JSON Lines of D.3 records) generated from a seed."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mazzo.envs.deal_sets import generate_deals, write_deal_set
from mazzo.envs.registry import game_names, get_game
from mazzo.play import count as count_of

__all__ = ["add", "cmd_dealset"]


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
        f"wrote {count_of(args.n, args.game + ' deal')} (seed {args.seed}, "
        f"{'flags ' + json.dumps(flags) if flags else 'default rules'}, "
        f"sha256 {deal_set.digest()[:12]}) to {args.out}"
    )
    return 0


def add(sub: Any) -> None:
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

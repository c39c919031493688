"""How often an agent gives counters away, and its other blunders (issues 27 and 41): over the
committed deal files (``configs/deals/*.jsonl``), one agent in every seat plays each deal, and
every card it plays is checked once its trick is over (``mazzo.arena.gifts``, the one
definition of each): a *lost counter* is a card worth something played into a trick the other
side won; it was *avoidable* when a legal card worth nothing was held; a *sure gift* is an
avoidable lost counter played last to the trick. The other blunders a card player notices are
counted beside them: a partner's trick overtaken, a master lost and an excuse (the Matto)
wasted. A deal whose returns are all 0 (no sides to read) is left out and counted.

Run: ``python benchmarks/study_gifts.py --agents heuristic bot --deals 500``. Nothing here names
a game: every game with a committed deal file is studied through the registry. Fresh deals of
any rules instead: ``--game calabresella --flag players=4 --fresh 300 --deal-seed 7171`` (``bot``
is then the bot shipped for those rules, as at every table).
"""

from __future__ import annotations

import argparse
import glob
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mazzo.agents.registry import make_agent
from mazzo.agents.trained_rules import check_rules_fit
from mazzo.arena.gifts import BLUNDERS, card_values, play_deal
from mazzo.envs.deal_sets import generate_deals, read_deal_set
from mazzo.envs.registry import AnyGame, game_names, get_game

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Tally:
    """The counts of one agent on one game."""

    deals: int = 0
    skipped: int = 0  # deals with every return 0 (no sides to read)
    plays: int = 0  # cards played
    counters: int = 0  # counters played
    lost: int = 0  # counters into tricks the other side won
    avoidable: int = 0  # ... with a legal card worth nothing held
    sure: int = 0  # ... and played last to the trick
    lost_value: int = 0
    sure_value: int = 0
    by_card: dict[str, int] = field(default_factory=dict)  # sure gifts by card
    blunders: dict[str, int] = field(default_factory=lambda: dict.fromkeys(BLUNDERS, 0))

    def line(self, name: str) -> str:
        per = max(1, self.deals)
        top = ", ".join(
            f"{c} {n}" for c, n in sorted(self.by_card.items(), key=lambda x: -x[1])[:6]
        )
        return (
            f"{name}: {self.deals} deals ({self.skipped} left out), {self.plays} cards played, "
            f"{self.counters} counters; lost counters {self.lost} ({self.lost / per:.2f} a deal, "
            f"value {self.lost_value}), avoidable {self.avoidable} ({self.avoidable / per:.2f} "
            f"a deal), sure gifts {self.sure} ({self.sure / per:.2f} a deal, value "
            f"{self.sure_value}); sure gifts by card: {top or '-'}; other blunders a deal: "
            + ", ".join(f"{k} {n / per:.2f}" for k, n in self.blunders.items() if k != BLUNDERS[0])
        )


def study(
    game: AnyGame, rules: Any, deals: list[Any], spec: str, seed: int, foreign: bool = False
) -> Tally:
    """Play ``deals`` with agent ``spec`` in every seat; the tally of its counters. A network
    trained for other rules is refused unless ``foreign`` (or its spec's foreign_rules)."""
    value = card_values(game)
    agents = [make_agent(spec, game, rules) for _ in range(game.seats(rules))]
    note = check_rules_fit(agents[0], spec, game, rules, allow=foreign)
    if note:
        print(note, flush=True)
    tally = Tally()
    for k, deal in enumerate(deals):
        rng = np.random.default_rng([seed, k])

        def choose(state: Any, rng: np.random.Generator = rng) -> int:
            return int(agents[state.to_play].act(state.info_view(state.to_play), rng))

        found = play_deal(game, game.new_state(deal, rules), choose, value)
        if not found.sided:
            tally.skipped += 1
            continue
        tally.deals += 1
        for kind, plays in found.blunders().items():
            tally.blunders[kind] += len(plays)
        for p in found.plays:
            tally.plays += 1
            if p.value <= 0:
                continue
            tally.counters += 1
            if not found.lost(p):
                continue  # its own side took it
            tally.lost += 1
            tally.lost_value += p.value
            if p.blanks:
                tally.avoidable += 1
                if p.last:
                    tally.sure += 1
                    tally.sure_value += p.value
                    tally.by_card[p.card] = tally.by_card.get(p.card, 0) + 1
    return tally


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", nargs="+", default=["heuristic", "bot"])
    ap.add_argument("--deals", type=int, default=500, help="deals of each file (default 500)")
    ap.add_argument(
        "--files", nargs="*", default=sorted(glob.glob(str(ROOT / "configs/deals/*.jsonl")))
    )
    ap.add_argument("--seed", type=int, default=0, help="the agents' seed (default 0)")
    ap.add_argument("--game", choices=game_names(), help="with --fresh: the game")
    ap.add_argument("--flag", action="append", default=[], metavar="KEY=VALUE",
                    help="with --fresh: a rule flag (repeatable)")  # fmt: skip
    ap.add_argument("--fresh", type=int, metavar="N",
                    help="N fresh deals of --game and --flag instead of the files")  # fmt: skip
    ap.add_argument("--deal-seed", type=int, default=0, help="with --fresh: the deals' seed")
    ap.add_argument("--foreign-rules", action="store_true",
                    help="let trained bots play rules other than their own")  # fmt: skip
    args = ap.parse_args()
    if args.fresh is None and (args.game or args.flag):
        ap.error("--game and --flag go with --fresh N (the files carry their own rules)")
    runs: list[tuple[str, AnyGame, Any, list[Any]]] = []
    if args.fresh is not None:
        if args.fresh < 1 or not args.game:
            ap.error("--fresh N needs N >= 1 and --game")
        game = get_game(args.game)
        try:
            rules = game.parse_flags(args.flag)
        except ValueError as e:
            ap.error(str(e))
        deals = list(generate_deals(game, rules, args.fresh, args.deal_seed).deals)
        flags = ",".join(args.flag) or "default rules"
        runs.append((f"{game.name} ({flags}), seed {args.deal_seed}", game, rules, deals))
    else:
        for path in args.files:
            ds = read_deal_set(Path(path))
            runs.append((Path(path).name, ds.game, ds.rules, list(ds.deals)[: args.deals]))
    for name, game, rules, deals in runs:
        for spec in args.agents:
            t0 = time.perf_counter()
            try:
                tally = study(game, rules, deals, spec, args.seed, args.foreign_rules)
            except ValueError as e:
                ap.error(str(e))
            took = time.perf_counter() - t0
            print(f"{name} {tally.line(spec)} [{took:.0f} s]", flush=True)


if __name__ == "__main__":
    main()

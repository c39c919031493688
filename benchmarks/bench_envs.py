#!/usr/bin/env python3
"""Speed benchmark of mazzo's engines and AEC environments beside the peer environments.

Measures random legal play in complete deals, the same way ``../shared/bench/peers.py`` measures
OpenSpiel, RLCard and PettingZoo, and runs that peer script in the same invocation so the
figures can be compared as ratios (the machine is shared and noisy: never compare absolute
figures from different runs).

Cases:
    mazzo:<game>:engine  the bare engine: a shuffled deal, then ``legal_actions()`` +
                         ``random.Random.choice`` + ``apply()`` until the end (auction,
                         exchanges, discards and declarations included), like ``os:<game>:raw``.
    mazzo:<game>:aec     the PettingZoo loop of ``env()`` (all wrappers): ``agent_iter()``,
                         ``last()`` (observation + int8 mask), ``np.flatnonzero(mask)``, a random
                         choice, ``step()``, like ``pz:<env>``.

Targets (issue 2/3): engine >= 1.0x ``os:skat:raw`` (Calabresella) / ``os:hearts:raw``
(Minchiate); AEC loop >= 1.5x ``pz:connect_four_v3``.

Usage:
    python benchmarks/bench_envs.py                       # mazzo cases + peers, 10 s x 3 reps
    python benchmarks/bench_envs.py --seconds 3 --reps 1  # quick
    python benchmarks/bench_envs.py --no-peers            # mazzo only
The peers need their own venv: ``bash ../shared/bench/setup-peers.sh /tmp/mazzo-peers``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

try:
    import numpy as np
    from _peers import add_peer_arguments, peers_available, run_peers

    from mazzo.envs.cards.deal import Deal
    from mazzo.envs.registry import Game, game_names, get_game
except ImportError as e:  # run with a Python that lacks the project's dependencies
    sys.exit(
        f"bench_envs: cannot import the project ({e}); run it with the project's venv, "
        "e.g. .venv/bin/python benchmarks/bench_envs.py"
    )

AEC_PEER = "pz:connect_four_v3"  # the PettingZoo loop every AEC case is set beside
TARGETS = {"engine": 1.0, "aec": 1.5}


def peer_for(game: Game, kind: str) -> str:
    """The peer case of ``kind`` (``engine``: the game's comparable raw engine; ``aec``)."""
    return game.info.peers["engine"] if kind == "engine" else AEC_PEER


def _engine_case(game: Game, seed: int) -> Callable[[], int]:
    rng = random.Random(seed)
    choice = rng.choice
    rules = game.rules()
    size, n = game.info.deck.size, game.seats(rules)
    new_state = game.new_state
    order = list(range(size))
    deals = [0]

    def play_one() -> int:
        rng.shuffle(order)
        s = new_state(Deal(deals[0] % n, tuple(order)), rules)
        deals[0] += 1
        dec = 0
        while not s.is_terminal():
            s.apply(choice(s.legal_actions()))
            dec += 1
        s.returns()
        return dec

    return play_one


def _aec_case(game: Game, seed: int) -> Callable[[], int]:
    env = game.env()
    env.reset(seed=seed)
    choice = random.Random(seed).choice

    def play_one() -> int:
        env.reset()
        dec = 0
        for _agent in env.agent_iter():
            obs, _rew, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(choice(np.flatnonzero(obs["action_mask"]))))
            dec += 1
        return dec

    return play_one


def measure(play_one: Callable[[], int], seconds: float, reps: int) -> dict[str, float]:
    play_one()  # warm-up
    rates, games = [], []
    for _ in range(reps):
        dec = n = 0
        t0 = time.perf_counter()
        while True:
            dec += play_one()
            n += 1
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds:
                break
        rates.append(dec / elapsed)
        games.append(n / elapsed)
    return {
        "decisions_per_s": statistics.median(rates),
        "games_per_s": statistics.median(games),
        "decisions_per_game": statistics.median(rates) / statistics.median(games),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(game_names()), choices=game_names())
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=12345)
    add_peer_arguments(parser)
    args = parser.parse_args()

    ours: dict[str, dict[str, float]] = {}
    for name in args.games:
        game = get_game(name)
        cases = {"engine": _engine_case(game, args.seed), "aec": _aec_case(game, args.seed)}
        for kind, play_one in cases.items():
            case = f"mazzo:{name}:{kind}"
            ours[case] = measure(play_one, args.seconds, args.reps)
            r = ours[case]
            rate, games, per = r["decisions_per_s"], r["games_per_s"], r["decisions_per_game"]
            print(f"{case:28s} {rate:>10,.0f} dec/s {games:>9,.1f} games/s {per:6.1f} dec/game")

    peers: dict[str, float] = {}
    if not args.no_peers:
        wanted = sorted({peer_for(get_game(g), k) for g in args.games for k in TARGETS})
        if peers_available(args.peers_python, args.peers_script):
            peers = run_peers(args.peers_python, args.peers_script, wanted, args.seconds, args.reps)

    print("\n| case | decisions/s | peer | peer decisions/s | ratio | target |")
    print("|---|---|---|---|---|---|")
    for case, r in ours.items():
        _, game, kind = case.split(":")
        peer = peer_for(get_game(game), kind)
        pv = peers.get(peer)
        ratio = f"{r['decisions_per_s'] / pv:.2f}x" if pv else "n/a"
        pv_text = f"{pv:,.0f}" if pv else "n/a"
        print(f"| {case} | {r['decisions_per_s']:,.0f} | {peer} | {pv_text} | {ratio} | "
              f">= {TARGETS[kind]}x |")  # fmt: skip
    out = ROOT / "benchmarks" / "results" / "bench_envs.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"mazzo": ours, "peers": peers, "seconds": args.seconds,
                               "reps": args.reps, "time": time.time()}, indent=2))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

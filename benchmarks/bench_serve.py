#!/usr/bin/env python3
"""Load test of ``mazzo serve`` on loopback (a benchmark; its short form runs as a test).

Starts ``mazzo serve --port`` in a subprocess with the bots asked for, then opens many
WebSocket connections, each keeping several table games open: bots at every seat but one, the
client seat (a random one) answered by the benchmark with random legal moves. For a fixed time
finished games are replaced by new ones (up to ``--limit`` games); then the open games are
played out. It fails (exit status 1) on any error message, on a game that never ended (stuck or
lost) and on a final record that does not replay to its result; it reports the latency
percentiles of the move -> next turn (or end) round trips per bot, and the games and moves per
second.

Usage:
    python benchmarks/bench_serve.py --bot heuristic --bot bot --connections 32 --games 4
    python benchmarks/bench_serve.py --bot GAME1/onnx=onnx:DIR1 --bot GAME2/onnx=onnx:DIR2
    python benchmarks/bench_serve.py --bot heuristic --connections 2 --games 2 --seconds 2
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from mazzo.envs.registry import game_for_format, game_names, get_game  # noqa: E402
from mazzo.serve.bots import parse_bot_option  # noqa: E402


@dataclass
class Stats:
    """What one bot's phase saw."""

    latencies: list[float] = field(default_factory=list)
    started: int = 0
    ended: int = 0
    moves: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    stuck: int = 0
    bad_records: int = 0


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation."""
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(bots: list[str], port: int, args: argparse.Namespace) -> subprocess.Popen[str]:
    """``mazzo serve --port`` in a subprocess, once it accepts connections."""
    command = [
        sys.executable, "-m", "mazzo", "serve", "--port", str(port),
        "--max-connections", str(args.connections + 4),
        "--max-games", str(args.games + 1),
        "--max-server-games", str(args.connections * (args.games + 1)),
        "--workers", str(args.workers), "--log-level", "warning",
    ]  # fmt: skip
    for bot in bots:
        command += ["--bot", bot]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"bench_serve: the server did not start: {proc.stderr.read()}")  # type: ignore[union-attr]
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("bench_serve: the server did not start within 120 s")


class Player:
    """One connection: keeps ``games`` table games open until ``deadline``."""

    def __init__(self, ws: ClientConnection, index: int, bot: str, args: argparse.Namespace,
                 stats: Stats) -> None:  # fmt: skip
        self.ws, self.bot, self.args, self.stats = ws, bot, args, stats
        self.rng = np.random.default_rng([args.seed, index])
        self.games = args.game or list(game_names())
        self.ids = itertools.count()
        self.sent: dict[str, float] = {}
        self.active = 0
        self.deadline = 0.0

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def open_one(self) -> None:
        name = self.games[int(self.rng.integers(len(self.games)))]
        game = get_game(name)
        n = game.seats(game.rules())
        client = int(self.rng.integers(n))
        seats = ["client" if s == client else self.bot for s in range(n)]
        seed = int(self.rng.integers(2**31))
        self.active += 1
        await self.send({"type": "open", "mode": "table", "game": name, "seats": seats,
                         "seed": seed, "id": next(self.ids)})  # fmt: skip

    async def run(self, deadline: float, drain: float) -> None:
        self.deadline = deadline
        for _ in range(self.args.games):
            await self.open_one()
        while self.active > 0:
            wait = max(deadline - time.monotonic(), 0.0) + drain
            try:
                raw = await asyncio.wait_for(self.ws.recv(), wait)
            except TimeoutError:
                self.stats.stuck += self.active
                return
            await self.on_message(json.loads(raw), time.perf_counter())

    async def on_message(self, m: dict[str, Any], now: float) -> None:
        kind, gid = m["type"], m.get("game")
        if kind == "opened":
            self.stats.started += 1
        elif kind == "error":
            self.stats.errors.append(m)
            self.active -= 1
        elif kind in ("turn", "end"):
            if gid in self.sent:
                self.stats.latencies.append(now - self.sent.pop(gid))
            if kind == "turn":
                legal = m["legal"]
                action = legal[int(self.rng.integers(len(legal)))]
                self.sent[gid] = time.perf_counter()
                self.stats.moves += 1
                await self.send({"type": "move", "game": gid, "action": action})
            else:
                self.end(m)
                await self.send({"type": "close", "game": gid})
                self.active -= 1
                if time.monotonic() < self.deadline and self.stats.started < self.args.limit:
                    await self.open_one()

    def end(self, m: dict[str, Any]) -> None:
        self.stats.ended += 1
        if self.args.check_records:
            record = m["record"]
            state = game_for_format(record["format"]).replay(record, None)
            if state.result() != m["result"]:
                self.stats.bad_records += 1


async def phase(url: str, bot: str, args: argparse.Namespace) -> tuple[Stats, float]:
    stats = Stats()
    start = time.monotonic()
    deadline = start + args.seconds

    async def one(i: int) -> None:
        async with connect(url, max_size=None) as ws:
            await Player(ws, i, bot, args, stats).run(deadline, args.drain)

    await asyncio.gather(*(one(i) for i in range(args.connections)))
    return stats, time.monotonic() - start


def report(bot: str, stats: Stats, wall: float) -> dict[str, Any]:
    ms = [x * 1000 for x in stats.latencies] or [float("nan")]
    return {
        "bot": bot,
        "games_started": stats.started,
        "games_ended": stats.ended,
        "moves": stats.moves,
        "errors": len(stats.errors),
        "first_errors": stats.errors[:3],
        "stuck_games": stats.stuck,
        "bad_records": stats.bad_records,
        "seconds": round(wall, 2),
        "games_per_s": round(stats.ended / wall, 1),
        "moves_per_s": round(stats.moves / wall, 1),
        "p50_ms": round(percentile(ms, 0.50), 2),
        "p95_ms": round(percentile(ms, 0.95), 2),
        "p99_ms": round(percentile(ms, 0.99), 2),
        "max_ms": round(max(ms), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="[GAME/]NAME=SPEC",
        help="a bot of the server, as mazzo serve --bot (repeatable; one phase per bot name; "
        "default: heuristic and bot)",
    )
    parser.add_argument(
        "--game",
        action="append",
        choices=game_names(),
        help="a game to play (repeatable; default: every game, at random)",
    )
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--games", type=int, default=4, help="open games per connection")
    parser.add_argument("--seconds", type=float, default=20.0, help="time per bot phase")
    parser.add_argument(
        "--limit",
        type=int,
        default=20000,
        help="games per bot phase at most (then no new ones are opened)",
    )
    parser.add_argument(
        "--drain",
        type=float,
        default=60.0,
        help="seconds a game may go silent before it counts as stuck",
    )
    parser.add_argument("--workers", type=int, default=8, help="the server's bot threads")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--no-check-records",
        dest="check_records",
        action="store_false",
        help="skip replaying every final record",
    )
    parser.add_argument("--out", help="also write the JSON report to this file")
    args = parser.parse_args(argv)
    bots = args.bot or ["heuristic", "bot"]
    names = list(dict.fromkeys(parse_bot_option(b).name for b in bots))
    port = free_port()
    server = start_server(bots, port, args)
    try:
        results = []
        for name in names:
            stats, wall = asyncio.run(phase(f"ws://127.0.0.1:{port}/ws", name, args))
            results.append(report(name, stats, wall))
            print(json.dumps(results[-1]), file=sys.stderr)
    finally:
        server.terminate()
        server.wait(30)
    out = {
        "connections": args.connections, "games_per_connection": args.games,
        "seconds_per_bot": args.seconds, "workers": args.workers, "cpus": os.cpu_count(),
        "results": results,
    }  # fmt: skip
    text = json.dumps(out, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    bad = [r for r in results if r["errors"] or r["stuck_games"] or r["bad_records"]]
    lost = [r for r in results if r["games_ended"] != r["games_started"] or not r["games_ended"]]
    if bad or lost:
        print(f"bench_serve: FAILED: {json.dumps(bad or lost)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

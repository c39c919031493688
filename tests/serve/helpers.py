"""Helpers of the serve tests: a server with the cheap bots, a direct client of a ``Server``,
random legal play of a table game, and a uvicorn server on a free loopback port."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import numpy as np
import uvicorn

from mazzo.serve.bots import Bots
from mazzo.serve.protocol import Limits
from mazzo.serve.server import Server
from mazzo.serve.web import make_app, ws_max_size

BOTS = [("heuristic", "heuristic"), ("random", "random")]
_BOTS: Bots | None = None


def bots() -> Bots:
    global _BOTS
    if _BOTS is None:
        _BOTS = Bots(BOTS)
    return _BOTS


def make_server(**limits: Any) -> Server:
    return Server(bots(), Limits(**limits))


class Direct:
    """A client of a ``Server`` object (no transport)."""

    def __init__(self, server: Server, peer: str = "test") -> None:
        self.server = server
        self.conn = server.connect(peer)

    def send(self, message: Any) -> list[dict[str, Any]]:
        line = message if isinstance(message, str | bytes) else json.dumps(message)
        return self.server.handle(self.conn, line)

    def one(self, message: Any) -> dict[str, Any]:
        out = self.send(message)
        assert len(out) == 1, out
        return out[0]


def last(out: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``turn`` or ``end`` that closes a reply (pushes end with one of them)."""
    assert out and out[-1]["type"] in ("turn", "end"), out
    return out[-1]


def table(game: str, seats: list[str], seed: int = 0, **more: Any) -> dict[str, Any]:
    return {"type": "open", "mode": "table", "game": game, "seats": seats, "seed": seed, **more}


def play_out(client: Direct, out: list[dict[str, Any]], seed: int = 0) -> list[dict[str, Any]]:
    """Answer every turn with a random legal move until the end; every message received."""
    rng = np.random.default_rng(seed)
    seen = list(out)
    while last(out)["type"] == "turn":
        turn = last(out)
        action = turn["legal"][int(rng.integers(len(turn["legal"])))]
        out = client.send({"type": "move", "game": turn["game"], "action": action})
        seen += out
    return seen


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Uvicorn:
    """``server`` behind uvicorn on a free loopback port, in a thread (a context manager)."""

    def __init__(
        self, server: Server, workers: int = 4, static: Any = None,
        allow_origins: tuple[str, ...] | list[str] = (),
    ) -> None:  # fmt: skip
        self.server = server
        self.port = free_port()
        config = uvicorn.Config(
            make_app(server, workers, static, allow_origins), host="127.0.0.1", port=self.port,
            log_level="warning",
            ws_max_size=ws_max_size(server), lifespan="on",
        )  # fmt: skip
        self.uvicorn = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.uvicorn.run, daemon=True)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Uvicorn:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.uvicorn.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(30)


def wait_until(condition: Any, what: str, limit: float = 30.0) -> None:
    """Poll ``condition()`` until true (a state change, not a speed check)."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.02)

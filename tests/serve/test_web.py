"""The WebSocket endpoint and the HTTP API under uvicorn on a loopback port: concurrent games,
an oversized frame, too many connections, an idle client, a vanished client, and the stateless
``POST /api/move``; after each, the other connections' games go on."""

import asyncio
import contextlib
import json
import threading
import urllib.error
import urllib.request

import numpy as np
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from mazzo.agents.base import RandomAgent
from mazzo.envs.registry import get_game
from mazzo.serve.bots import Bot, Bots
from mazzo.serve.protocol import Limits
from mazzo.serve.server import Server
from tests.serve.helpers import Uvicorn, make_server, table, wait_until


async def recv(ws) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), 60))


async def until(ws, *kinds) -> list[dict]:
    out = [await recv(ws)]
    while out[-1]["type"] not in kinds:
        out.append(await recv(ws))
    return out


async def send(ws, message, *kinds) -> list[dict]:
    await ws.send(message if isinstance(message, str) else json.dumps(message))
    return await until(ws, *kinds) if kinds else [await recv(ws)]


async def play(ws, out, seed) -> list[dict]:
    """Random legal moves to the end; every message."""
    rng = np.random.default_rng(seed)
    seen = list(out)
    while out[-1]["type"] == "turn":
        turn = out[-1]
        action = turn["legal"][int(rng.integers(len(turn["legal"])))]
        out = await send(
            ws, {"type": "move", "game": turn["game"], "action": action}, "turn", "end"
        )
        seen += out
    return seen


def check_end(messages):
    end = messages[-1]
    assert end["type"] == "end"
    game = get_game(end["record"]["format"].split("-deal")[0])
    state = game.replay(end["record"], None)
    assert state.result() == end["result"]
    events = [m for m in messages if m["type"] == "event" and m["game"] == end["game"]]
    assert len(events) == len(end["record"]["actions"])


async def open_and_play(url, name, seats, seed):
    async with connect(url) as ws:
        out = await send(ws, table(name, seats, seed), "turn", "end")
        messages = await play(ws, out, seed)
        check_end(messages)
        return messages[-1]


@pytest.fixture(scope="module")
def web():
    with Uvicorn(make_server(max_connections=4, max_games=2, max_bytes=4096)) as web:
        yield web


def run(coro):
    return asyncio.run(coro)


def test_concurrent_games_over_websocket(web):
    async def main():
        return await asyncio.gather(
            open_and_play(web.url, "calabresella", ["client", "heuristic", "heuristic"], 1),
            open_and_play(web.url, "minchiate", ["heuristic", "client", "random", "heuristic"], 2),
            open_and_play(web.url, "calabresella", ["random", "random", "client"], 3),
        )

    ends = run(main())
    assert len({e["game"] for e in ends}) == 3
    wait_until(lambda: web.server.connections == 0, "the sockets were let go")
    assert web.server.open_games == 0


async def _with_other_game(url, trouble):
    """Open a game on one socket, run ``trouble`` on another, then finish the first."""
    async with connect(url) as ws:
        out = await send(ws, table("calabresella", ["client", "heuristic", "heuristic"], 7), "turn")
        result = await trouble()
        view = await send(ws, {"type": "view", "game": out[0]["game"]})
        assert view[0]["view"] == out[-1]["view"]
        check_end(await play(ws, out, 7))
        return result


def test_an_oversized_frame_gets_too_big_and_a_close(web):
    async def trouble():
        async with connect(web.url, max_size=None) as ws:
            await send(ws, table("calabresella", ["client", "random", "random"]), "turn")
            await ws.send(json.dumps({"type": "hello", "pad": "x" * 10_000}))
            reply = await recv(ws)
            with pytest.raises(ConnectionClosed) as closed:
                await recv(ws)
            return reply, closed.value.rcvd.code

    reply, code = run(_with_other_game(web.url, trouble))
    assert reply["code"] == "too_big" and "4096 bytes" in reply["message"]
    assert code == 1009


def test_too_many_connections_are_refused(web):
    async def trouble():
        sockets = [await connect(web.url) for _ in range(3)]  # 4 with the other game's
        try:
            async with connect(web.url) as late:
                reply = await recv(late)
                with pytest.raises(ConnectionClosed) as closed:
                    await recv(late)
            await sockets[0].close()
            wait_until(lambda: web.server.connections == 3, "a socket was let go")
            async with connect(web.url) as again:
                hello = await send(again, {"type": "hello"})
            return reply, closed.value.rcvd.code, hello[0]
        finally:
            for s in sockets:
                await s.close()

    reply, code, hello = run(_with_other_game(web.url, trouble))
    assert reply["code"] == "too_many_connections" and code == 1013
    assert hello["type"] == "hello"


def test_too_many_games_on_one_socket(web):
    async def trouble():
        async with connect(web.url) as ws:
            for _ in range(2):
                await send(ws, table("minchiate", ["client", "random", "random", "random"]), "turn")
            return (await send(ws, table("minchiate", ["client", "random", "random", "random"])))[0]

    assert run(_with_other_game(web.url, trouble))["code"] == "too_many_games"


def test_a_vanished_client_has_its_games_dropped(web):
    async def trouble():
        ws = await connect(web.url)
        await send(
            ws, table("minchiate", ["client", "heuristic", "client", "heuristic"], 5), "turn"
        )
        assert web.server.open_games == 2
        ws.transport.abort()  # gone without a close handshake
        await asyncio.to_thread(
            wait_until, lambda: web.server.open_games == 1, "the vanished client's game dropped"
        )

    run(_with_other_game(web.url, trouble))


class Waiting:
    """A random agent that first waits for a go-ahead (a bot thinking for a long time)."""

    name = "waiting"

    def __init__(self):
        self.go = threading.Event()
        self.started = threading.Event()

    def act(self, view, rng):
        self.started.set()
        assert self.go.wait(120), "never let go"
        return RandomAgent().act(view, rng)


def test_a_thinking_bot_does_not_stall_other_connections():
    bots = Bots([("heuristic", "heuristic")])
    agent = Waiting()
    bots.add("minchiate", Bot("waiting", "random", "waits for the test", agent))
    game = get_game("minchiate")
    rules = game.rules()
    seed = next(  # a deal that a bot starts, so that the open itself waits for it
        s for s in range(100)
        if game.new_state(game.deal_random(np.random.default_rng(s), rules), rules).to_play != 3
    )  # fmt: skip
    with Uvicorn(Server(bots)) as web:

        async def main():
            async with connect(web.url) as slow:
                seats = ["waiting", "waiting", "waiting", "client"]
                await slow.send(json.dumps(table("minchiate", seats, seed)))
                assert await asyncio.to_thread(agent.started.wait, 60)
                # while that bot thinks, another connection plays a whole game
                end = await open_and_play(
                    web.url, "calabresella", ["client", "heuristic", "heuristic"], 3
                )
                assert not agent.go.is_set()
                agent.go.set()
                out = await until(slow, "turn", "end")
                check_end(await play(slow, out, 1))
                return end

        assert run(main())["type"] == "end"


def test_an_idle_client_is_closed():
    with Uvicorn(Server(Bots([("random", "random")]), Limits(idle_timeout=0.3))) as quick:

        async def main():
            async with connect(quick.url) as ws:
                await send(ws, table("calabresella", ["client", "random", "random"]), "turn")
                reply = await recv(ws)
                with pytest.raises(ConnectionClosed) as closed:
                    await recv(ws)
                return reply, closed.value.rcvd.code

        reply, code = run(main())
        assert reply["code"] == "timeout" and code == 1008
        wait_until(lambda: quick.server.open_games == 0, "the idle client's game dropped")


# ---------------------------------------------------------------------------------- HTTP
def http(web, path, body=None):
    data = (
        None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    )
    request = urllib.request.Request(web.http + path, data=data, method="POST" if data else "GET")
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_hello_and_bots_over_http(web):
    status, hello = http(web, "/api/hello")
    assert status == 200 and hello["protocol"] == "mazzo-bot/1"
    status, bots = http(web, "/api/bots")
    assert status == 200 and [b["name"] for b in bots["bots"]["minchiate"]] == [
        "heuristic",
        "random",
    ]


def test_a_move_for_a_record_so_far(web):
    game = get_game("calabresella")
    rules = game.rules()
    state = game.new_state(game.deal_random(np.random.default_rng(2), rules), rules)
    state.apply(state.legal_actions()[0])
    record = game.write_record(state)
    ask = {
        "game": "calabresella",
        "record": record,
        "seat": state.to_play,
        "bot": "heuristic",
        "id": 9,
    }
    status, move = http(web, "/api/move", ask)
    assert status == 200 and move["type"] == "move" and move["id"] == 9 and move["step"] == 1
    assert state.parse_action(move["action"]) in state.legal_actions()
    for change, code in [
        ({"seat": (state.to_play + 1) % 3}, "not_your_turn"),
        ({"bot": "oracle"}, "unknown_bot"),
        ({"game": "go"}, "unknown_game"),
        ({"flags": {"players": 4}}, "bad_field"),
        ({"flags": {"zz": 1}}, "bad_flags"),
        ({"record": {**record, "actions": [["S9", "bid", "pass"]]}}, "bad_field"),
        ({"seat": "S0"}, "bad_field"),
        ({"extra": 1}, "bad_field"),
    ]:
        status, reply = http(web, "/api/move", {**ask, **change})
        assert (status, reply["code"]) == (400, code), (change, reply)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    status, reply = http(web, "/api/move", {**ask, "record": game.write_record(state)})
    assert (status, reply["code"]) == (400, "over")
    assert http(web, "/api/move", b"{nope")[1]["code"] == "bad_json"
    assert http(web, "/api/move", b"[1]")[1]["code"] == "not_object"
    status, reply = http(web, "/api/move", b" " * 5000)
    assert (status, reply["code"]) == (413, "too_big")
    status, reply = http(web, "/api/move", b"[" * 2000 + b"]" * 2000)
    assert (status, reply["code"]) == (400, "bad_json") and "nested too deeply" in reply["message"]


def test_a_huge_move_request_is_refused_before_it_is_read(web):
    """A body over the limit is refused from its Content-Length before any of it is read, and
    a body without one (chunked) as soon as it passes the limit: a huge body never sits in the
    server's memory."""
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(web.http)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
    conn.putrequest("POST", "/api/move")
    conn.putheader("Content-Length", str(400 * 1024 * 1024))  # declared, never sent
    conn.endheaders(b"{")
    reply = conn.getresponse()
    assert reply.status == 413 and json.loads(reply.read())["code"] == "too_big"
    conn.close()

    def chunks():
        for _ in range(64):  # 64 chunks of 4 KB, past the 4,096-byte limit at the second
            yield b" " * 4096

    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
    # the server may answer and close before the client has sent everything
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        conn.request("POST", "/api/move", body=chunks(), encode_chunked=True)
    reply = conn.getresponse()
    assert reply.status == 413 and "over 4096 bytes" in json.loads(reply.read())["message"]
    conn.close()


def test_static_files_when_asked_for(tmp_path):
    (tmp_path / "index.html").write_text("<h1>mazzo</h1>")
    with Uvicorn(make_server(), static=tmp_path) as page:
        with urllib.request.urlopen(page.http + "/", timeout=60) as r:
            assert "<h1>mazzo</h1>" in r.read().decode()
            # kept by a browser but asked for again: an upgrade's scripts are never stale
            assert r.headers["Cache-Control"] == "no-cache"
        assert http(page, "/api/hello")[1]["type"] == "hello"
    with Uvicorn(make_server()) as bare:
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(bare.http + "/", timeout=60)
        assert e.value.code == 404

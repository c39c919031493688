"""Only programs and the server's own page drive a local ``mazzo serve`` (``mazzo.serve.origins``):
a WebSocket or API request from another web origin, or one whose ``Host`` is not this loopback
server (DNS rebinding), is refused with 403 before the protocol starts; ``--allow-origin`` lets
an origin in. And ``--port`` is checked: out of range is refused by the parser, a port in use is
an error at once, before anything is announced."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request

import pytest
import websockets.sync.client as ws_client
from websockets.exceptions import InvalidStatus

from mazzo.serve.origins import OriginGuard, check_origin_option, is_loopback
from tests.cli_runner import run_cli
from tests.serve.helpers import free_port


@pytest.fixture(scope="module")
def served():
    """A server on loopback that also lets http://localhost:3000 in."""
    from tests.serve.helpers import Uvicorn, make_server

    with Uvicorn(make_server(), allow_origins=["http://localhost:3000"]) as running:
        yield running.port


def _ws(port: int, **headers: str):
    return ws_client.connect(f"ws://127.0.0.1:{port}/ws", additional_headers=headers,
                             open_timeout=10)  # fmt: skip


def _hello(conn) -> dict:
    conn.send(json.dumps({"type": "hello", "id": 1}))
    return json.loads(conn.recv(timeout=10))


def test_programs_and_the_same_origin_are_let_in(served):
    with _ws(served) as conn:  # no Origin: a program
        assert _hello(conn)["type"] == "hello"
    with _ws(served, Origin=f"http://127.0.0.1:{served}") as conn:  # the server's own page
        assert _hello(conn)["type"] == "hello"
    with _ws(served, Origin="http://localhost:3000") as conn:  # --allow-origin
        assert _hello(conn)["type"] == "hello"


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "http://127.0.0.1:1"},  # another port is another origin
        {"Origin": "null"},
        # DNS rebinding: the page's own name (the WebSocket client sets Host itself, so the
        # Host check is shown on the API and in the guard's own test below)
        {"Origin": "http://rebind.example:1"},
    ],
)
def test_other_pages_are_refused_before_the_protocol(served, headers):
    with pytest.raises(InvalidStatus) as caught, _ws(served, **headers):
        pass
    assert caught.value.response.status_code == 403


def test_the_api_is_guarded_the_same_way_and_static_files_are_not(served):
    def get(path: str, **headers: str) -> tuple[int, str]:
        request = urllib.request.Request(f"http://127.0.0.1:{served}{path}", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    assert get("/api/hello")[0] == 200
    status, body = get("/api/hello", Origin="http://evil.example")
    assert status == 403 and json.loads(body)["code"] == "bad_origin"
    assert "evil.example" in json.loads(body)["message"]
    assert get("/api/bots", Host="evil.example")[0] == 403


def test_the_guard_decides_by_origin_and_host():
    guard = OriginGuard(lambda *a: None, allowed=["https://app.example"], loopback_only=True)

    def scope(**headers: str) -> dict:
        return {"type": "http", "path": "/api/hello",
                "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]}  # fmt: skip

    assert guard.refusal(scope(Host="127.0.0.1:8765")) is None
    assert guard.refusal(scope(Host="localhost:8765", Origin="http://localhost:8765")) is None
    assert guard.refusal(scope(Host="[::1]:8765", Origin="https://app.example")) is None
    assert "Origin 'http://x.example'" in guard.refusal(
        scope(Host="127.0.0.1:1", Origin="http://x.example")
    )
    assert "Host 'x.example'" in guard.refusal(scope(Host="x.example"))
    public = OriginGuard(lambda *a: None, loopback_only=False)  # --host 0.0.0.0: any Host
    assert public.refusal(scope(Host="cards.example:8765")) is None
    assert (
        public.refusal(scope(Host="cards.example:8765", Origin="http://cards.example:8765")) is None
    )
    assert is_loopback("127.0.0.2") and is_loopback("[::1]") and not is_loopback("0.0.0.0")
    with pytest.raises(ValueError, match="expected an origin"):
        check_origin_option("evil.example/path")


def test_a_bad_port_is_refused_and_a_port_in_use_said_at_once():
    out = run_cli("serve", "--port", "99999")
    assert out.returncode == 2 and "a port is 1..65535" in out.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = run_cli("serve", "--port", str(port), "--bot", "random")
    assert out.returncode == 2, out.stderr
    assert f"cannot listen on 127.0.0.1:{port}: it is in use" in out.stderr
    assert "ws://" not in out.stderr  # nothing was announced
    bad = run_cli("serve", "--port", str(free_port()), "--allow-origin", "evil.example/x")
    assert bad.returncode == 2 and "--allow-origin 'evil.example/x'" in bad.stderr

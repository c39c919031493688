"""``mazzo serve --stdio`` as a subprocess, and its line reader: whole games, errors that leave
the game as it was, an oversized line and an idle client (both end the session cleanly)."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from mazzo.serve.protocol import ProtocolError
from mazzo.serve.stdio import LineReader
from tests.serve.helpers import table

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVE = [sys.executable, "-m", "mazzo", "serve", "--stdio", "--bot", "heuristic",
         "--bot", "random"]  # fmt: skip


class Stdio:
    """A ``mazzo serve --stdio`` subprocess, spoken to line by line."""

    def __init__(self, *options: str) -> None:
        env = {**os.environ, "PYTHONPATH": ROOT}
        self.proc = subprocess.Popen(
            [*SERVE, *options], cwd=ROOT, env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip

    def write(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text)
        self.proc.stdin.flush()

    def read(self) -> dict:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"the server ended: {self.finish()[1]}"
        return json.loads(line)

    def until(self, *kinds: str) -> list[dict]:
        """Messages up to and including the next one of ``kinds``."""
        out = [self.read()]
        while out[-1]["type"] not in kinds:
            out.append(self.read())
        return out

    def send(self, message, *kinds: str) -> list[dict]:
        self.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
        return self.until(*kinds) if kinds else [self.read()]

    def finish(self) -> tuple[int, str]:
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        rc = self.proc.wait(60)
        assert self.proc.stderr is not None
        return rc, self.proc.stderr.read()


def play(client: Stdio, out: list[dict], seed: int) -> dict:
    rng = np.random.default_rng(seed)
    while out[-1]["type"] == "turn":
        turn = out[-1]
        action = turn["legal"][int(rng.integers(len(turn["legal"])))]
        out = client.send({"type": "move", "game": turn["game"], "action": action}, "turn", "end")
    return out[-1]


def test_a_session_with_errors_between_the_moves():
    client = Stdio()
    hello = client.send({"type": "hello", "id": 1})[0]
    assert hello["type"] == "hello" and hello["id"] == 1
    out = client.send(table("calabresella", ["client", "heuristic", "random"], 3), "turn", "end")
    assert out[0]["type"] == "opened" and out[0]["game"] == "g1"
    other = client.send(
        table("minchiate", ["client", "heuristic", "random", "heuristic"], 4), "turn", "end"
    )
    for bad, code in [
        ("not json", "bad_json"),
        ("[1]", "not_object"),
        ('{"type":"fly"}', "unknown_type"),
        ('{"type":"hello","protocol":"mazzo-bot/0"}', "bad_version"),
        ('{"type":"move","game":"g1"}', "bad_field"),
        ('{"type":"move","game":"g9","action":"pass"}', "unknown_session"),
        ('{"type":"move","game":"g1","action":"play Zz"}', "illegal"),
        (json.dumps(table("calabresella", ["client", "nobody", "random"])), "unknown_bot"),
        (json.dumps(table("tarot", ["client"])), "unknown_game"),
        (json.dumps(table("calabresella", ["client"] * 3, flags={"players": "x"})), "bad_flags"),
    ]:
        reply = client.send(bad)[0]
        assert reply["type"] == "error" and reply["code"] == code, (bad, reply)
    client.write("\n  \n")  # blank lines are skipped: the next answer is the hello's
    assert client.send({"type": "hello", "id": 2})[0]["id"] == 2
    end = play(client, out, 1)
    assert end["type"] == "end" and end["game"] == "g1"
    assert play(client, other, 2)["game"] == "g2"
    assert client.send({"type": "close", "game": "g1"})[0] == {"type": "closed", "game": "g1"}
    rc, log = client.finish()
    assert rc == 0
    assert "bad_json" in log and "unknown_bot" in log and "connection 1 closed" in log


def test_an_oversized_line_ends_the_session_with_too_big():
    client = Stdio("--max-bytes", "200")
    out = client.send(table("calabresella", ["client", "heuristic", "random"], 3), "turn")
    assert out[-1]["type"] == "turn"
    client.write('{"type":"hello","pad":"' + "x" * 5000 + '"}\n')
    reply = client.read()
    assert reply["code"] == "too_big" and "200 bytes" in reply["message"]
    rc, log = client.finish()
    assert rc == 1 and "too_big" in log and "1 open game(s) dropped" in log


def test_an_idle_client_is_told_and_let_go():
    client = Stdio("--idle-timeout", "0.3")
    client.send({"type": "hello"})
    reply = client.read()
    assert reply["code"] == "timeout" and "idle timeout" in reply["message"]
    rc, log = client.finish()
    assert rc == 1 and "idle" in log


def test_a_bad_bot_option_is_refused():
    proc = subprocess.run(
        [*SERVE[:4], "--bot", "x=nosuchagent"], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": ROOT}, timeout=120, input="",
    )  # fmt: skip
    assert proc.returncode == 2
    assert "no game has agent 'nosuchagent'" in proc.stderr


def test_the_line_reader():
    r, w = os.pipe()
    os.write(w, b'{"a":1}\r\n{"b"')
    reader = LineReader(r, 20)
    assert reader.next_line(5) == b'{"a":1}'
    with pytest.raises(TimeoutError):
        reader.next_line(0.01)
    os.write(w, b":2}\n" + b"y" * 30)
    assert reader.next_line(5) == b'{"b":2}'
    with pytest.raises(ProtocolError) as e:
        reader.next_line(5)
    assert e.value.code == "too_big"
    os.close(w)
    r2, w2 = os.pipe()
    os.write(w2, b"last")
    os.close(w2)
    tail = LineReader(r2, 20)
    assert tail.next_line(5) == b"last"
    assert tail.next_line(5) is None
    os.close(r)
    os.close(r2)


def test_web_without_the_page_is_refused(monkeypatch, tmp_path, capsys):
    from mazzo import cli
    from mazzo.serve import web

    monkeypatch.setattr(web, "STATIC", tmp_path / "static")
    assert cli.main(["serve", "--web", "--bot", "random"]) == 2
    assert "the web page is not installed" in capsys.readouterr().err


def test_serve_help_names_the_protocol():
    proc = subprocess.run(
        [*SERVE[:4], "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": ROOT},
    )  # fmt: skip
    assert (
        proc.returncode == 0
        and "mazzo-bot/1" in proc.stdout
        and "--bot [GAME/]NAME=SPEC" in proc.stdout
    )

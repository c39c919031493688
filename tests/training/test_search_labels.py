"""Search labels (``mazzo.training.search_labels``, ``mazzo labels``): the format, the search's values
(their argmax is the decision; ``search`` decides as ``act``), resuming after an interrupt or
a crash (byte for byte the uninterrupted file), independence of the worker count, the same
games as the arena, and the command's answers to bad input and Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from mazzo.agents.registry import make_agent
from mazzo.arena.runner import make_plan, run_arena
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import game_names, get_game
from mazzo.training.search_labels import (
    FORMAT,
    LabelsInterrupted,
    _plan,
    read_labels,
    write_search_labels,
)
from tests.cli_runner import ROOT, run_cli

SEARCHER = "pimc:samples=2,ms=0"
GAMES = game_names()


def _deals(game, n=2, seed=3):
    return generate_deals(get_game(game), get_game(game).rules(), n, seed)


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    """Per game: an uninterrupted labels file of 3 deals against the heuristic (its bytes)."""
    out = {}
    for game in GAMES:
        path = tmp_path_factory.mktemp(game) / "full.jsonl"
        write_search_labels(_deals(game, 3), [SEARCHER, "heuristic"], path)
        out[game] = path.read_bytes()
    return out


@pytest.mark.parametrize("game", GAMES)
def test_format(game, full, tmp_path):
    path = tmp_path / "labels.jsonl"
    path.write_bytes(full[game])
    header, lines = read_labels(path)
    assert header["format"] == FORMAT and header["game"] == game
    assert header["searcher"] == SEARCHER and header["opponents"] == ["heuristic"]
    assert header["deals"] == 3 and len(header["deals_sha256"]) == 64
    spec = get_game(game)
    searched = 0
    ends = [line["deal"] for line in lines if line["deal_end"]]
    assert ends == [0, 1, 2]
    for i, line in enumerate(lines):
        lineup = header["lineups"][line["lineup"]]
        assert lineup[line["seat"]] == 0  # a searcher's seat
        state = spec.replay(line["record"], None)  # the position, as a D.3 record
        assert state.to_play == line["seat"] and not state.is_terminal()
        assert line["step"] == len(line["record"]["actions"])
        legal = state.info_view(line["seat"]).legal_mask
        assert line["legal"] == [a for a in range(spec.info.num_actions) if legal >> a & 1]
        assert line["action"] in line["legal"]
        assert line["label"] == state.action_label(line["action"])
        assert set(map(int, line["values"])) <= set(line["legal"])
        searched += bool(line["values"])
        assert isinstance(line["outcome"], float)
        assert line["deal_end"] == (i + 1 == len(lines) or lines[i + 1]["deal"] != line["deal"])
        assert list(line) == ["deal", "lineup", "seat", "step", "action", "label", "values",
                              "legal", "outcome", "deal_end", "record"]  # fmt: skip
    assert searched > len(lines) // 2
    # Each decision the search valued is the first candidate of the highest value.
    for line in lines:
        if line["values"]:
            best = max(line["values"].values())
            assert line["action"] == min(int(a) for a, v in line["values"].items() if v == best)


@pytest.mark.parametrize("game", GAMES)
def test_search_decides_as_act(game):
    """``search`` draws from the generator as ``act`` does and returns its action."""
    spec = get_game(game)
    agent = make_agent(SEARCHER, game)
    deal = _deals(game, 1).deals[0]
    state = spec.new_state(deal, spec.rules())
    steps = 0
    while not state.is_terminal() and steps < 30:
        view = state.info_view(state.to_play)
        a, b = np.random.default_rng(steps), np.random.default_rng(steps)
        chosen, values = agent.search(view, a)
        assert chosen == agent.act(view, b)
        assert a.bit_generator.state == b.bit_generator.state
        if values:
            assert chosen in values
        state.apply(chosen)
        steps += 1


@pytest.mark.parametrize("game", GAMES)
def test_the_games_are_the_arenas(game, full, tmp_path):
    path = tmp_path / "labels.jsonl"
    path.write_bytes(full[game])
    _, lines = read_labels(path)
    run = run_arena(_plan(_deals(game, 3), [SEARCHER, "heuristic"], "pairs", 0))
    for line in lines:
        payoffs = run.outcomes[line["deal"]][line["lineup"]].payoffs
        assert line["outcome"] == payoffs[line["seat"]]


class _StopAfter:
    """A progress sink that presses Ctrl-C once ``n`` deals are reported."""

    def __init__(self, n):
        self.n, self.seen = n, 0

    def start(self, total):
        pass

    def advance(self, n):
        self.seen += n
        if self.seen >= self.n:
            raise KeyboardInterrupt


@pytest.mark.parametrize("game", GAMES)
def test_interrupt_then_resume_is_the_uninterrupted_file(game, full, tmp_path):
    path = tmp_path / "labels.jsonl"
    with pytest.raises(LabelsInterrupted) as e:
        write_search_labels(_deals(game, 3), [SEARCHER, "heuristic"], path, progress=_StopAfter(1))
    assert 1 <= e.value.run.deals < 3
    assert full[game].startswith(path.read_bytes())
    run = write_search_labels(_deals(game, 3), [SEARCHER, "heuristic"], path)
    assert run.resumed_at == e.value.run.deals and run.deals == 3
    assert path.read_bytes() == full[game]
    again = write_search_labels(_deals(game, 3), [SEARCHER, "heuristic"], path)  # complete
    assert again.decisions == 0 and path.read_bytes() == full[game]


@pytest.mark.parametrize("game", GAMES)
def test_resume_after_a_crash_drops_the_unfinished_deal(game, full, tmp_path):
    """A file cut anywhere (mid-line, mid-deal, after the header) is completed exactly."""
    text = full[game]
    header_end = text.index(b"\n") + 1
    first_end = text.index(b'"deal_end":true')
    first_end = text.index(b"\n", first_end) + 1
    path = tmp_path / "labels.jsonl"
    for cut in (header_end, header_end + 17, first_end, first_end + 5, first_end - 3,
                len(text) - 1):  # fmt: skip
        path.write_bytes(text[:cut])
        write_search_labels(_deals(game, 3), [SEARCHER, "heuristic"], path)
        assert path.read_bytes() == text, cut


@pytest.mark.parametrize("game", GAMES)
def test_worker_count_does_not_change_the_file(game, full, tmp_path):
    path = tmp_path / "labels.jsonl"
    write_search_labels(_deals(game, 3), [SEARCHER, "heuristic"], path, workers=2)
    assert path.read_bytes() == full[game]


def test_the_searcher_alone_holds_every_seat(tmp_path):
    game = GAMES[0]
    path = tmp_path / "solo.jsonl"
    write_search_labels(_deals(game, 1), [SEARCHER], path)
    header, lines = read_labels(path)
    seats = get_game(game).seats(get_game(game).rules())
    assert header["scheme"] == "solo" and header["lineups"] == [[0] * seats]
    assert header["opponents"] == []
    assert {line["seat"] for line in lines} == set(range(seats))


@pytest.mark.parametrize("game", GAMES)
def test_two_opponents_meet_only_the_searcher(game, tmp_path):
    """With a pool of opponents every lineup seats the searcher: the scheme's games of two
    opponents against each other would label nothing and are not played."""
    path = tmp_path / "pool.jsonl"
    write_search_labels(_deals(game, 1), [SEARCHER, "heuristic", "random"], path)
    header, lines = read_labels(path)
    assert header["opponents"] == ["heuristic", "random"]
    lineups = [tuple(lu) for lu in header["lineups"]]
    assert lineups and all(0 in lu for lu in lineups)
    assert {a for lu in lineups for a in lu} == {0, 1, 2}  # both opponents met
    arena = make_plan(_deals(game, 1), [SEARCHER, "heuristic", "random"])
    assert [lu for lu in arena.lineups if 0 in lu] == lineups  # in the arena's order
    assert len(arena.lineups) > len(lineups)  # the arena also plays 1 against 2
    assert {line["lineup"] for line in lines} == set(range(len(lineups)))


# ---------------------------------------------------------------- the command
def test_cli_writes_and_continues(tmp_path):
    out = tmp_path / "l.jsonl"
    args = ("labels", SEARCHER, "heuristic", "--n", "2", "--seed", "3", "--out", str(out))
    r = run_cli(*args, "--workers", "1")
    assert r.returncode == 0, r.stderr
    assert re.search(r"holds 2 of 2 deals; \d+ decisions written now", r.stdout)
    header, lines = read_labels(out)
    assert header["game"] == GAMES[0] and lines
    r = run_cli(*args, "--workers", "1")
    assert r.returncode == 0 and "(continued from deal 2); 0 decisions" in r.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["heuristic"], "cannot be the searcher"),
        (["nosuchagent"], "nosuchagent"),
        (["pimc:nosuch=1"], "unknown parameter 'nosuch'"),
        (["pimc", "--n", "0"], "--n: '0': must be an integer >= 1"),
        (["pimc", "--workers", "0"], "--workers"),
        (["pimc", "--deals", "/no/such/file.jsonl"], "/no/such/file.jsonl"),
        (["pimc", "--flag", "nosuchflag=1"], "nosuchflag"),
    ],
)
def test_cli_bad_input(tmp_path, args, message):
    r = run_cli("labels", *args, "--out", str(tmp_path / "x.jsonl"))
    assert r.returncode == 2, r.stderr
    assert message in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "x.jsonl").exists()


def test_cli_refuses_a_file_of_another_run(tmp_path):
    out = tmp_path / "l.jsonl"
    assert run_cli("labels", SEARCHER, "--n", "1", "--out", str(out)).returncode == 0
    before = out.read_bytes()
    r = run_cli("labels", "pimc:samples=3,ms=0", "--n", "1", "--out", str(out))
    assert r.returncode == 2 and "holds the labels of another run (searcher: file" in r.stderr
    other = tmp_path / "other.txt"
    other.write_text("not labels\n")
    r = run_cli("labels", SEARCHER, "--n", "1", "--out", str(other))
    assert r.returncode == 2 and f"is not a {FORMAT} file" in r.stderr
    r = run_cli("labels", SEARCHER, "--n", "1", "--out", str(tmp_path))
    assert r.returncode == 2 and "is a directory" in r.stderr
    assert out.read_bytes() == before and other.read_text() == "not labels\n"


def test_ctrl_c_keeps_what_was_written_and_the_rerun_completes_it(tmp_path):
    out = tmp_path / "l.jsonl"
    args = ["labels", "pimc:samples=1,ms=0", "--n", "40", "--workers", "2", "--progress",
            "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "mazzo", *args], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    fd, seen, deadline = proc.stderr.fileno(), b"", time.monotonic() + 120
    while not re.search(rb"([2-9]|\d\d+)/40 deals", seen) and time.monotonic() < deadline:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        seen += chunk
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    err = (seen + err).decode()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    done = int(re.search(r"interrupted; \S+ holds (\d+) of 40 deals", err).group(1))
    assert done >= 1
    _, lines = read_labels(out)
    assert lines[-1]["deal_end"] and lines[-1]["deal"] == done - 1
    r = run_cli(*args[:-1], str(out), "--no-progress")
    assert r.returncode == 0 and f"continued from deal {done}" in r.stdout, r.stderr
    whole = tmp_path / "whole.jsonl"
    assert run_cli(*args[:-1], str(whole), "--workers", "1").returncode == 0
    assert out.read_bytes() == whole.read_bytes()

"""``mazzo eval`` and ``mazzo dealset``: output files, byte-identical JSON for 1 and 2 workers,
deal files round-tripping through the CLI, and exit status 2 with a clear message on bad input.
The runs with worker processes are real subprocesses, as a user starts them; the others run the
console script's ``main`` in process (``tests.cli_runner``)."""

import csv
import json
import subprocess
import sys

import pytest

from tests.cli_runner import run_cli


def mazzo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mazzo", *args], capture_output=True, text=True, timeout=120
    )


def test_help_lists_eval_and_dealset():
    out = run_cli("--help")
    assert out.returncode == 0 and "eval" in out.stdout and "dealset" in out.stdout
    out = run_cli("eval", "--help")
    assert out.returncode == 0 and "--workers" in out.stdout and "--seating" in out.stdout


def test_eval_is_byte_identical_for_one_and_two_workers(tmp_path):
    outs = []
    for workers in ("1", "2"):
        d = tmp_path / f"w{workers}"
        run = mazzo("eval", "random", "random", "--n", "30", "--seed", "3",
                    "--workers", workers, "--bootstrap", "100", "--out", str(d))  # fmt: skip
        assert run.returncode == 0, run.stderr
        outs.append(d)
    for name in ("summary.json", "agents.csv", "pairs.csv", "contracts.csv", "games.csv"):
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name
    summary = json.loads((outs[0] / "summary.json").read_text())
    assert summary["games"] == 30 * 6 and summary["zero_sum"] is True
    assert [a["label"] for a in summary["agents"]] == ["random", "random#2"]
    timing = json.loads((outs[1] / "timing.json").read_text())
    assert timing["workers"] == 2 and timing["agents"][0]["decisions"] > 0
    with (outs[0] / "games.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 180 and {r["lineup"] for r in rows} == {str(i) for i in range(6)}
    assert all(sum(int(r[f"payoff_s{s}"]) for s in range(3)) == 0 for r in rows)


def test_dealset_then_eval_plays_the_same_deals(tmp_path):
    path = tmp_path / "deals" / "c4.jsonl"
    made = run_cli("dealset", "--n", "8", "--seed", "2", "--flag", "players=4", "--out", str(path))
    assert made.returncode == 0, made.stderr
    assert "wrote 8 calabresella deals" in made.stdout and '"players": 4' in made.stdout
    assert len(path.read_text().splitlines()) == 8
    stdout = run_cli("dealset", "--n", "8", "--seed", "2", "--flag", "players=4")
    assert stdout.stdout == path.read_text()
    # The same agent seed: the file's deals are the generated ones, so the games are the same.
    from_file = run_cli("eval", "random", "random", "--deals", str(path), "--workers", "1",
                      "--seed", "2", "--out", str(tmp_path / "a"))  # fmt: skip
    generated = run_cli("eval", "random", "random", "--n", "8", "--seed", "2", "--workers", "1",
                      "--flag", "players=4", "--out", str(tmp_path / "b"))  # fmt: skip
    assert from_file.returncode == 0 and generated.returncode == 0, from_file.stderr
    a = json.loads((tmp_path / "a" / "summary.json").read_text())
    b = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert a["deals"]["sha256"] == b["deals"]["sha256"] and a["flags"] == {"players": 4}
    assert a["agents"] == b["agents"] and a["pairs"] == b["pairs"]
    assert "calabresella (players=4): 8 deals" in from_file.stdout
    assert "paired differences" in from_file.stdout and "contracts as soloist" in from_file.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["random", "nobody"], "unknown agent 'nobody' for calabresella"),
        (["random", "random:depth=2"], "calabresella agent 'random': unknown parameter 'depth'"),
        (["random"], "at least two agents"),
        (["random", "random", "--flag", "colour=red"], "unknown calabresella flag 'colour'"),
        (["random", "random", "--flag", "players"], "--flag expects key=value"),
        (["random", "random", "--anchor", "zz", "--n", "2"], "unknown rating anchor 'zz'"),
        (["random", "random", "--deals", "/nonexistent/deals.jsonl"], "No such file"),
        (["random", "random", "--n", "0"], "argument --n: '0': must be an integer >= 1"),
    ],
)
def test_eval_bad_input_exits_2(args, message):
    out = run_cli("eval", *args)
    assert out.returncode == 2 and message in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def test_eval_rejects_a_malformed_deal_file(tmp_path):
    path = tmp_path / "bad.jsonl"
    good = run_cli("dealset", "--n", "2").stdout.splitlines()
    path.write_text(good[0] + "\n" + good[1].replace('"dealer":1', '"dealer":5') + "\n")
    out = run_cli("eval", "random", "random", "--deals", str(path))
    assert (
        out.returncode == 2
        and f"{path}: a JSON Lines deal set, line 2: dealer must be a seat 0..2" in out.stderr
    )
    out = run_cli("eval", "random", "random", "--deals", str(path), "--flag", "players=4")
    assert out.returncode == 2 and "line 1: the deal's flags differ" in out.stderr
    assert run_cli("dealset", "--n", "-3").returncode == 2


def test_eval_two_players_mixed_seating_and_progress(tmp_path):
    out = mazzo("eval", "x=random", "y=random", "--n", "4", "--flag", "players=2",
                "--seating", "mixed", "--workers", "2", "--progress")  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "seating 'mixed': 2 lineups per deal, 8 games" in out.stdout
    assert "4/4 deals" in out.stderr and out.stderr.endswith("\n")

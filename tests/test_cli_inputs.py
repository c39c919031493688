"""Every input a user can give ``mazzo`` gets a clear answer: agent parameters checked against
each agent's declared schema, counts checked by argparse, Ctrl-C answered with exit status 130,
a message and the work kept (never a traceback), and ``mazzo rules`` / ``mazzo agents``
explaining every flag and parameter. The answers to bad input are checked in process
(``tests.cli_runner``: the console script's ``main``); the interrupts and the README's example
run in real subprocesses."""

import ast
import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mazzo.agents import registry
from mazzo.agents.params import Param
from mazzo.agents.registry import agents_of, make_agent, register
from mazzo.agents.specs import parse_spec
from mazzo.envs.registry import all_games, game_names
from tests.cli_runner import ROOT, run_cli

# A ``mazzo`` that also knows a ``slow`` agent (random play after a sleep), for interrupts.
SLOW_MAZZO = """
import sys
from mazzo.agents import registry
from mazzo.agents.params import Param
from mazzo.agents.registry import register
from mazzo.envs.registry import game_names
from tests.arena.agents import SlowAgent
for game in game_names():
    register(game, "slow", params=(Param("ms", float, 5.0, "sleep per decision", low=0),))(
        lambda version, ms: SlowAgent(ms)
    )
from mazzo.cli import main
sys.exit(main(sys.argv[1:]))
"""


mazzo = run_cli


def usage_error(out: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr
    for needle in needles:
        assert needle in out.stderr, (needle, out.stderr)


# ---------------------------------------------------------------- agent parameters
PIMC_KNOWN = (
    "known: samples (int >= 1, default 24), ms (float >= 0, default 800), "
    "exact (int 0..4, default 3), candidates (int >= 1, default 6), "
    "points (float >= 0, default 0)"
)


@pytest.mark.parametrize(
    ("spec", "needles"),
    [
        ("pimc:foo=1", ["calabresella agent 'pimc': unknown parameter 'foo'", PIMC_KNOWN]),
        ("pimc:candidates=0", ["'candidates=0': out of range", "candidates (int >= 1, default 6)"]),
        ("pimc:samples=abc", ["'samples=abc': not an integer", "samples (int >= 1, default 24)"]),
        ("pimc:samples=1.5", ["'samples=1.5': not an integer", "samples (int >= 1"]),
        ("pimc:ms=true", ["'ms=true': not a number", "ms (float >= 0, default 800)"]),
        ("pimc:ms=nan", ["'ms=nan': not a finite number"]),
        ("pimc:exact=5", ["'exact=5': out of range", "exact (int 0..4, default 3)"]),
        ("pimc:samples=2,samples=3", ["gives 'samples' twice"]),
        ("heuristic@9", ["calabresella agent 'heuristic' has no version 9", "versions: 1"]),
        ("heuristic@x", ["bad version 'x' in agent spec 'heuristic@x'"]),
        ("heuristic:depth=2", ["unknown parameter 'depth'; it takes no parameters"]),
        ("random:fast", ["bad item 'fast' in 'random:fast' (expected key=value)"]),
        (
            "nobody",
            [
                "unknown agent 'nobody' for calabresella; known: bot, heuristic, ipimc, nn, onnx, pimc, random"
            ],
        ),
    ],
)
def test_eval_rejects_bad_agent_parameters(spec, needles):
    usage_error(mazzo("eval", spec, "random", "--n", "1"), *needles)


def test_minchiate_parameters_have_their_own_schema():
    """Each game's search declares its own parameters: Minchiate's ``discards`` is unknown to
    Calabresella's, and a name both have keeps each game's own range and default."""
    usage_error(
        mazzo("eval", "pimc:discards=search", "random", "--game", "calabresella", "--n", "1"),
        "calabresella agent 'pimc': unknown parameter 'discards'; known: samples (int >= 1, "
        "default 24), ms (float >= 0, default 800), exact (int 0..4, default 3), candidates "
        "(int >= 1, default 6)",
    )
    usage_error(
        mazzo("eval", "pimc:candidates=-1", "random", "--game", "minchiate", "--n", "1"),
        "minchiate agent 'pimc': 'candidates=-1': out of range; allowed: candidates (int >= 0, "
        "default 0)",
    )
    usage_error(
        mazzo("eval", "pimc:candidates=0", "random", "--game", "calabresella", "--n", "1"),
        "allowed: candidates (int >= 1, default 6)",
    )


def test_values_are_parsed_by_the_declared_type():
    agent = make_agent("pimc:samples=+8,ms=0,exact=0,candidates=2", "calabresella")
    assert (agent.samples, agent.ms, agent.exact_tricks, agent.max_candidates) == (8, 0.0, 0, 2)
    assert isinstance(agent.ms, float)
    assert parse_spec("pimc@1:samples=8").params == {"samples": "8"}  # kept as typed


def test_the_schema_serves_path_and_named_agents(tmp_path, monkeypatch):
    """A future ``nn:PATH`` spec (a positional, must-exist path) and a named shipped bot use
    the same machinery."""
    agents_of("calabresella")  # the built-in agents are registered; the test's are undone
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    made = []
    register(
        "calabresella", "test-nn", positional="path",
        params=(Param("path", Path, required=True, must_exist=True, help="checkpoint"),
                Param("temperature", float, 1.0, "softmax temperature", low=0)),
    )(lambda version, path, temperature: made.append((path, temperature)) or make_agent(
        "random", "calabresella"))  # fmt: skip
    register("calabresella", "test-bot-2026", help="a shipped bot")(
        lambda version: make_agent("heuristic", "calabresella")
    )
    checkpoint = tmp_path / "model.pt"
    with pytest.raises(
        ValueError,
        match=r"test-nn': '/.*/model.pt': no such file; allowed: path \(path, required\)",
    ):
        make_agent(f"test-nn:{checkpoint}", "calabresella")
    checkpoint.write_text("weights")
    make_agent(f"test-nn:{checkpoint},temperature=0.5", "calabresella")
    assert made == [(checkpoint, 0.5)]
    with pytest.raises(ValueError, match="test-nn': path is required"):
        make_agent("test-nn", "calabresella")
    assert make_agent("test-bot-2026", "calabresella").name.startswith("heuristic")
    with pytest.raises(ValueError, match="it takes no parameters"):
        make_agent("test-bot-2026:x=1", "calabresella")
    info = {a.name: a for a in agents_of("calabresella")}["test-nn"]
    assert info.usage() == "test-nn[@1][:PATH,temperature=1]"


def test_mazzo_agents_and_eval_help_list_every_parameter():
    listing = mazzo("agents")
    assert listing.returncode == 0, listing.stderr
    assert "pimc[@1][:samples=24,ms=800,exact=3,candidates=6,points=0,others=own]" in listing.stdout
    assert "candidates (int >= 1, default 6): cards considered" in listing.stdout
    assert "points (float >= 0, default 0.1)" in listing.stdout  # minchiate's pimc
    one = mazzo("agents", "--game", "minchiate")
    assert "calabresella" not in one.stdout and "minchiate:" in one.stdout
    helped = mazzo("eval", "--help")
    assert helped.returncode == 0 and "samples (int >= 1, default 24)" in helped.stdout
    for game in game_names():
        for a in agents_of(game):
            assert a.usage() in listing.stdout
            assert all(p.describe() in listing.stdout for p in a.params)


# ---------------------------------------------------------------- counts
@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["demo", "--deals", "0"], "argument --deals: '0': must be an integer >= 1"),
        (["demo", "--deals", "-2"], "argument --deals: '-2': must be an integer >= 1"),
        (["demo", "--deals", "two"], "argument --deals: 'two' is not an integer (must be >= 1)"),
        (["demo", "--seed", "-1"], "argument --seed: '-1': must be an integer >= 0"),
        (["eval", "random", "random", "--n", "0"], "argument --n: '0': must be an integer >= 1"),
        (["eval", "random", "random", "--workers", "0"], "argument --workers: '0'"),
        (["eval", "random", "random", "--bootstrap", "-5"], "argument --bootstrap: '-5'"),
        (["eval", "random", "random", "--seed", "-3"], "argument --seed: '-3'"),
        (["eval", "random", "random", "--confidence", "1.5"], "confidence must lie strictly"),
    ],
)
def test_counts_are_checked(args, needle):
    usage_error(mazzo(*args), needle)


# ---------------------------------------------------------------- interrupts
def _start(args, stream):
    return subprocess.Popen(
        args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


def _read_until(proc, stream, pattern, limit=120.0):
    """Read ``stream`` of ``proc`` until ``pattern`` matches (raises if it ends first)."""
    fd, seen, deadline = stream.fileno(), b"", time.monotonic() + limit
    while time.monotonic() < deadline:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        seen += chunk
        match = re.search(pattern, seen)
        if match:
            return seen, match
    raise AssertionError(f"never saw {pattern!r}: {seen[-500:]!r}")


def _ctrl_c(proc):
    """What a terminal's Ctrl-C does: SIGINT to the whole process group (workers included)."""
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return out.decode(), err.decode()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_in_eval_keeps_the_finished_deals(tmp_path, workers):
    out_dir = tmp_path / "partial"
    args = ["eval", "slow:ms=3", "random", "--n", "400", "--workers", workers, "--progress",
            "--out", str(out_dir)]  # fmt: skip
    proc = _start([sys.executable, "-c", SLOW_MAZZO, *args], "stderr")
    seen, _ = _read_until(proc, proc.stderr, rb"([3-9]|\d\d+)/400 deals")
    out, err = _ctrl_c(proc)
    err = seen.decode() + err
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    done = int(re.search(r"mazzo eval: interrupted after (\d+) of 400 deals", err).group(1))
    assert done >= 1 and f"written to {out_dir} (marked partial)" in err
    assert f"PARTIAL RESULTS: interrupted after {done} of 400 deals" in out
    assert "paired differences" in out  # the report of the finished deals
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["partial"]["deals_done"] == done == summary["deals"]["n"]
    assert summary["partial"]["deals_planned"] == 400
    assert summary["games"] == done * 6
    # The partial report is the report of --n done: the same games.
    again = tmp_path / "again"
    rerun = subprocess.run(
        [sys.executable, "-c", SLOW_MAZZO, "eval", "slow:ms=3", "random", "--n", str(done),
         "--workers", "1", "--out", str(again)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert rerun.returncode == 0, rerun.stderr
    full = json.loads((again / "summary.json").read_text())
    del summary["partial"]
    assert summary == full


def test_ctrl_c_then_resume_gives_the_results_of_an_uninterrupted_run(tmp_path):
    """``--out`` journals the finished deals; after a Ctrl-C, the same command is refused
    (the journal is kept) until ``--resume`` is added, which plays only the rest; its
    summary is the uninterrupted run's, and the journal is gone once the results are written."""
    out_dir = tmp_path / "run"
    args = ["eval", "slow:ms=3", "random", "--n", "30", "--workers", "2", "--out", str(out_dir)]
    proc = _start([sys.executable, "-c", SLOW_MAZZO, *args, "--progress"], "stderr")
    seen, _ = _read_until(proc, proc.stderr, rb"([3-9]|\d\d+)/30 deals")
    _out, err = _ctrl_c(proc)
    err = seen.decode() + err
    assert proc.returncode == 130, err
    assert "continue it with the same arguments and --resume" in err
    journal = out_dir / "journal.jsonl"
    booked = len(journal.read_text().splitlines()) - 1
    assert 3 <= booked < 30

    def mazzo(*extra):
        return subprocess.run(
            [sys.executable, "-c", SLOW_MAZZO, *extra], capture_output=True, text=True,
            timeout=300, cwd=ROOT,
        )  # fmt: skip

    again = mazzo(*args)
    assert again.returncode == 2 and "pass --resume to continue it" in again.stderr
    assert len(journal.read_text().splitlines()) - 1 == booked  # untouched
    mixed = mazzo(*args, "--seating", "mixed", "--resume")
    assert mixed.returncode == 2 and 'its scheme is "pairs", this run\'s "mixed"' in mixed.stderr
    resumed = mazzo(*args, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert not journal.exists()
    whole = mazzo(*args[:-1], str(tmp_path / "whole"))
    assert whole.returncode == 0, whole.stderr
    for name in ("summary.json", "games.csv", "pairs.csv"):
        assert (out_dir / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
    nothing = mazzo(*args[:-2], "--resume")
    assert nothing.returncode == 2 and "--resume continues the run journaled in --out" in (
        nothing.stderr
    )


def test_ctrl_c_in_demo_says_what_was_done():
    proc = _start([sys.executable, "-m", "mazzo", "demo", "--deals", "100000"], "stdout")
    seen, _ = _read_until(proc, proc.stdout, rb"=== deal 3 of 100000")
    out, err = _ctrl_c(proc)
    out = seen.decode() + out
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    done = int(re.search(r"mazzo demo: interrupted after (\d+) of 100000 deals", err).group(1))
    assert done >= 2 and f"Total rewards of the {done} finished deals: " in out


# ---------------------------------------------------------------- rules
@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_flag_has_a_meaning_and_a_section(game):
    fields = [f.name for f in dataclasses.fields(game.info.rules_type)]
    assert sorted(game.info.flag_help) == sorted(fields)
    for name, (meaning, section) in game.info.flag_help.items():
        assert meaning.strip() and re.search(r"\b[ABC]\.\d+", section), (name, section)
    out = mazzo("rules", "--game", game.name)
    assert out.returncode == 0, out.stderr
    for name in fields:
        meaning, section = game.info.flag_help[name]
        assert re.search(rf"^{name} = .+\n    {re.escape(meaning)}  \[{re.escape(section)}\]$",
                         out.stdout, re.M), name  # fmt: skip


def test_rules_prints_defaults_with_choices():
    out = mazzo("rules", "--game", "calabresella").stdout
    assert "players = 3  (choices: 3, 2, 4)" in out
    assert "aperta = False\n" in out and "(subset of: chiamo, solo, solissimo" in out


# ---------------------------------------------------------------- the README and its docs
README = (ROOT / "README.md").read_text()
ENVIRONMENTS = (ROOT / "docs" / "environments.md").read_text()


def test_readme_environment_example_plays_a_deal():
    (example,) = [b for b in re.findall(r"```python\n(.*?)```", README, re.S) if "env()" in b]
    out = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)  # fmt: skip
    assert out.returncode == 0, out.stderr
    total = ast.literal_eval(out.stdout.strip())
    assert sorted(total) == ["player_0", "player_1", "player_2"]
    assert abs(sum(total.values())) < 1e-9 and all(-1 <= r <= 1 for r in total.values())


def test_the_engine_example_shows_a_played_deal():
    blocks = re.findall(r"```python\n(.*?)```", ENVIRONMENTS, re.S)
    (example,) = [b for b in blocks if "State.new" in b]
    out = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True,
                         timeout=120, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert out.returncode == 0, out.stderr
    printed = out.stdout.strip()
    assert printed == "S1 played dividete and made it; returns (-8, 16, -8)"
    assert f"# {printed}" in example  # the comment shows what it prints


def test_readme_commands_parse_as_written():
    """Every ``mazzo`` line of the README's shell blocks is accepted by the parser, and the
    README says to activate the venv before using bare ``mazzo``."""
    import shlex

    from mazzo.cli import build_parser

    assert "source .venv/bin/activate" in README
    lines = [
        line.split("#")[0].strip()
        for block in re.findall(r"```bash\n(.*?)```", README, re.S)
        for line in block.splitlines()
        if line.startswith("mazzo ")
    ]
    assert len(lines) >= 4
    for line in lines:
        build_parser().parse_args(shlex.split(line)[1:])


DEEP = "[" * 3000 + "]" * 3000


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "{file}"],
        ["eval", "random", "random", "--deals", "{file}"],
        ["labels", "pimc", "--deals", "{file}", "--out", "x.jsonl"],
        ["train", "{toml}"],
        ["train", "calabresella_quick", "--set", f"hidden={DEEP}"],
        ["train", "calabresella_quick", "--flag", f"players={DEEP}"],
    ],
    ids=["replay", "eval", "labels", "toml", "set", "flag"],
)
def test_input_nested_too_deeply_is_refused_with_a_message(args, tmp_path):
    """Deeply nested JSON or TOML (over Python's recursion limit) is bad input: a message and
    exit status 2, never a traceback."""
    (tmp_path / "deep.jsonl").write_text(DEEP + "\n")
    (tmp_path / "deep.toml").write_text(f"x = {DEEP}\n")
    given = [a.format(file="deep.jsonl", toml="deep.toml") for a in args]
    out = run_cli(*given, cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "usage", "hint"),
    [
        (["eval", "heuristic", "random", "--dealz", "5"], "usage: mazzo eval", "'--deals'"),
        (["train", "calabresella_quick", "--sett", "lr=1"], "usage: mazzo train", "'--set'"),
        (["serve", "--portt", "1"], "usage: mazzo serve", "'--port'"),
    ],
)
def test_a_mistyped_option_gets_the_commands_usage_and_the_closest_option(args, usage, hint):
    out = run_cli(*args)
    assert out.returncode == 2
    assert usage in out.stderr and f"unrecognized arguments: {' '.join(args[-2:])}" in out.stderr
    assert f"did you mean {hint}?" in out.stderr
    assert "{demo,play" not in out.stderr  # not the top-level usage

"""Smoke tests of every ``mazzo`` subcommand, run as a user would (a subprocess); the answers
to bad deal files, many runs each, call the console script's ``main`` in process
(``tests.cli_runner``)."""

import json
import os
import stat
import subprocess
import sys

import pytest

from tests.calabresella.test_env import record_of
from tests.calabresella.test_golden import SOLO2_SCRIPT
from tests.cli_runner import run_cli


def mazzo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mazzo", *args], capture_output=True, text=True, timeout=120
    )


def test_help_lists_the_subcommands():
    out = mazzo("--help")
    assert out.returncode == 0
    for sub in ("demo", "replay", "rules"):
        assert sub in out.stdout


@pytest.mark.parametrize("flags", [[], ["--flag", "players=4"], ["--flag", "players=2"]])
def test_demo(flags):
    out = mazzo("demo", "--deals", "2", "--seed", "1", *flags)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("=== deal") == 2 and "Total rewards" in out.stdout


def test_demo_rejects_unknown_flag():
    out = mazzo("demo", "--flag", "colour=red")
    assert out.returncode == 2 and "unknown calabresella flag 'colour'" in out.stderr
    near = run_cli("demo", "--flag", "player=4")
    assert near.returncode == 2 and "flag 'player' (did you mean 'players'?)" in near.stderr


def test_replay(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record_of(SOLO2_SCRIPT)))
    out = mazzo("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert (
        '"pairwise": [\n    -2,\n    4,\n    -2\n  ]' in out.stdout
        and "Result: solo made" in out.stdout
    )
    path.write_text(json.dumps(record_of([(1, "pass")])))
    out = mazzo("replay", str(path))
    assert out.returncode == 2 and "S0 is on turn (BID), not S1" in out.stderr


def test_rules_lists_flags():
    out = mazzo("rules", "--game", "calabresella")
    assert (
        out.returncode == 0 and "players = 3" in out.stdout and "aperta_payout_factor" in out.stdout
    )


def _played(game: str, seed: int, stop: int | None = None) -> dict:
    """A written record of a deal of ``game`` played by random legal actions."""
    import numpy as np

    from mazzo.envs.cards.bits import bit_list
    from mazzo.envs.registry import get_game

    g = get_game(game)
    rules = g.rules()
    rng = np.random.default_rng(seed)
    state = g.new_state(g.deal_random(rng, rules), rules)
    while not state.is_terminal() and (stop is None or len(state.history) < stop):
        state.apply(int(rng.choice(bit_list(state.legal_mask()))))
    return json.loads(json.dumps(g.write_record(state)))


def test_replay_reads_every_format_of_the_deal_file_family(tmp_path):
    first, second = _played("calabresella", 1), _played("minchiate", 2, stop=30)
    jsonl = tmp_path / "two.jsonl"
    jsonl.write_text(json.dumps(first) + "\n\n" + json.dumps(second) + "\n")
    out = run_cli("replay", str(jsonl))
    assert out.returncode == 0, out.stderr
    assert "=== record 1 of 2 (" in out.stdout and "=== record 2 of 2 (" in out.stdout
    assert f"{jsonl}: a JSON Lines deal set, line 3" in out.stdout
    assert "(unfinished: 30 actions so far;" in out.stdout
    out = run_cli("replay", str(jsonl), "--index", "2")
    assert out.returncode == 0 and "record 1 of" not in out.stdout and "Dealer S" in out.stdout
    out = run_cli("replay", str(jsonl), "--index", "3")
    assert out.returncode == 2
    assert "--index 3:" in out.stderr and "holds 2 records; choose 1..2" in out.stderr
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(first, indent=2))
    old_list = tmp_path / "old_list.json"  # what mazzo play --deals 2 wrote before
    old_list.write_text(json.dumps([first, first], indent=1))
    for path, headers in [(pretty, 0), (old_list, 2)]:
        out = run_cli("replay", str(path))
        assert out.returncode == 0, out.stderr
        assert out.stdout.count("=== record") == headers and '"returns"' in out.stdout


def test_replay_errors_name_the_file_and_exit_2(tmp_path):
    good = json.dumps(_played("calabresella", 3))
    bad_line = json.loads(good)
    bad_line["actions"] = [["S9", "play", "Ac"]]
    cases = {
        "lines.jsonl": (good + "\n" + good + "\n", None),
        "broken.jsonl": (
            good + "\n" + json.dumps(bad_line) + "\n",
            "a JSON Lines deal set, line 2: action #0 ['S9', 'play', 'Ac']: bad seat 'S9'",
        ),
        "garbage.json": ("this is not JSON", "not valid JSON"),
        "empty.json": ("{}", "a single record, line 1: cannot tell the game from format None"),
        "half.jsonl": (good + "\n{oops\n", "a JSON Lines deal set, line 2: not valid JSON"),
        "number.json": ("42", "expected a single record (a JSON object) or a JSON Lines"),
    }
    for name, (text, message) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        out = run_cli("replay", str(path))
        if message is None:
            assert out.returncode == 0, out.stderr
            continue
        assert out.returncode == 2, (name, out.stderr)
        assert out.stderr.startswith(f"mazzo replay: error: {path}: "), out.stderr
        assert message in out.stderr, out.stderr
        assert "Traceback" not in out.stderr
    out = run_cli("replay", str(tmp_path / "nowhere.json"))
    assert (
        out.returncode == 2
        and f"{tmp_path / 'nowhere.json'}: No such file or directory" in out.stderr
    )
    empty = tmp_path / "empty.json"
    out = run_cli("replay", str(empty), "--game", "calabresella")
    assert out.returncode == 2 and "lacks ['dealer', 'deck']" in out.stderr


def test_eval_reads_a_single_record_and_dealset_files_follow_the_umask(tmp_path):
    single = tmp_path / "one.json"
    single.write_text(json.dumps(_played("calabresella", 4), indent=2))  # pretty, one deal
    out = mazzo("eval", "random", "heuristic", "--deals", str(single), "--workers", "1")
    assert out.returncode == 0, out.stderr
    path = tmp_path / "set.jsonl"
    run = subprocess.run(
        [sys.executable, "-m", "mazzo", "dealset", "--n", "3", "--out", str(path)],
        capture_output=True, text=True, timeout=120, preexec_fn=lambda: os.umask(0o027),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # 0666 less the umask, not 0600
    out = mazzo("replay", str(path), "--index", "3")
    assert out.returncode == 0 and "phase BID" in out.stdout

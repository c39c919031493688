"""The short form of the serve load test: a few seconds on loopback, every game ended, no error,
every final record replays to its result (correctness, not speed)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_load_test_loses_no_game():
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_serve.py"), "--bot", "heuristic", "--bot", "random",
         "--connections", "4", "--games", "2", "--seconds", "1.5", "--limit", "40"],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert [r["bot"] for r in report["results"]] == ["heuristic", "random"]
    for r in report["results"]:
        assert r["errors"] == r["stuck_games"] == r["bad_records"] == 0
        assert 4 <= r["games_started"] == r["games_ended"] <= 40 + 4 * 2
        assert r["moves"] > 0 and r["p50_ms"] <= r["p95_ms"] <= r["p99_ms"] <= r["max_ms"]

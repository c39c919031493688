"""The benchmark scripts still run (tiny settings; the figures themselves are not tested)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip


def test_bench_envs_runs_without_peers():
    out = run("bench_envs.py", "--seconds", "0.2", "--reps", "1", "--no-peers")
    assert out.returncode == 0, out.stderr
    for case in ("mazzo:calabresella:engine", "mazzo:calabresella:aec", "mazzo:minchiate:engine"):
        assert case in out.stdout


def test_bench_agents_reports_percentiles():
    out = run("bench_agents.py", "--agent", "heuristic", "--deals", "2")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["decisions"] > 0 and report["median_ms"] <= report["p95_ms"] <= report["max_ms"]


def test_bench_vector_runs_without_peers():
    out = run("bench_vector.py", "--seconds", "0.2", "--reps", "1", "--sizes", "4",
              "--memory-steps", "3", "--no-peers")  # fmt: skip
    assert out.returncode == 0, out.stderr
    for case in ("mazzo:calabresella:vector4", "mazzo:minchiate:vector4"):
        assert case in out.stdout
    assert "os:skat:obsbuf" in out.stdout and "os:hearts:raw" in out.stdout

"""benchmarks/bench_runtime.py still runs (tiny settings; the figures themselves are not tested)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_runtime_reports_every_case(tiny_bundles):
    folders = [str(b) for _, b in tiny_bundles.values()]
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_runtime.py"), "--reps", "3", "--json",
         *(x for f in folders for x in ("--bundle", f))],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    cases = {(r["game"], r["case"], r["batch"]) for r in rows}
    for game in tiny_bundles:
        assert {(game, "encode + run", 1), (game, "run alone", 1)} <= cases
        assert {(game, "batch", b) for b in (1, 16, 64, 256)} <= cases
    assert all(0 < r["median_ms"] <= r["p95_ms"] for r in rows)

"""The peer benchmark (``../shared/bench/peers.py``, in its own venv) run as a subprocess from
mazzo's benchmark scripts, so that mazzo's figures and the peers' come from one invocation and
can be compared as ratios. Shared by ``bench_envs.py`` and ``bench_vector.py``."""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PYTHON = "/tmp/mazzo-peers/bin/python"
# ../shared beside the checkout (or beside the folder of worktrees holding it).
DEFAULT_SCRIPT = str(
    next(
        (p for p in (ROOT.parent / "shared", ROOT.parents[1] / "shared") if p.is_dir()),
        ROOT.parent / "shared",
    )
    / "bench"
    / "peers.py"
)


def add_peer_arguments(parser: argparse.ArgumentParser) -> None:
    """``--no-peers``, ``--peers-python`` and ``--peers-script``."""
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--peers-python", default=DEFAULT_PYTHON)
    parser.add_argument("--peers-script", default=DEFAULT_SCRIPT)


def peers_available(python: str, script: str) -> bool:
    """Whether the peers' venv and script exist (else print how to set them up)."""
    if Path(python).exists() and Path(script).exists():
        return True
    print(f"peers not available ({python}, {script}); run ../shared/bench/setup-peers.sh first")
    return False


def run_peers(
    python: str,
    script: str,
    cases: list[str],
    seconds: float,
    reps: int,
    out_name: str = "peers.json",
) -> dict[str, float]:
    """Run the peer ``cases`` (main and bonus cases alike for ``seconds`` x ``reps``) and return
    their decisions/s by case id (the raw rows go to ``benchmarks/results/<out_name>``)."""
    cmd = [python, script, "--seconds", str(seconds), "--bonus-seconds", str(seconds)]
    cmd += ["--reps", str(reps)]
    for case in cases:
        cmd += ["--only", case]
    out_json = ROOT / "benchmarks" / "results" / out_name
    out_json.parent.mkdir(parents=True, exist_ok=True)
    cmd += ["--json", str(out_json)]
    print("$ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    rows = json.loads(out_json.read_text())  # a list of per-case dicts
    return {r["case"]: float(r["decisions_per_s"]) for r in rows if r.get("decisions_per_s")}

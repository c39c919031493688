#!/usr/bin/env python3
"""Instructions per decision of the vector runner's step, and of its parts, counted by
callgrind: unlike wall-clock rates, the counts do not move with the load of a shared machine,
so they tell whether a change to the runner, the views or the encoders made the step cheaper.

Each count is the difference of two runs of ``--steps`` and ``4 * --steps`` steps of N engines
under uniformly random legal actions (the same driver as ``bench_vector.py``), divided by the
extra decisions, so start-up and imports cancel out. The parts come from runs that leave work
out:

* ``full``: the runner's step as it is;
* ``no-obs``: the observations are not encoded (the masks still are);
* ``no-views``: neither, and the views are replaced by the engine's legal mask.

``full - no-obs`` is the encoding of the observations, ``no-obs - no-views`` the views, and
``no-views`` the rest (engine ``apply``, redeals, the runner, the masks and choosing the
actions). With ``--peers`` the OpenSpiel peers of each game (``GameInfo.peers``) are counted the
same way in their venv (whole deals of ``peers.py``'s loop, chance nodes included).

Needs ``valgrind`` (Debian's package). Counts vary by about 1% from run to run (hash seeds and
addresses are pinned, allocation patterns are not).

Usage:
    python benchmarks/count_vector.py                 # both games, N = 64
    python benchmarks/count_vector.py --n 256 --peers
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _peers import DEFAULT_PYTHON, DEFAULT_SCRIPT  # noqa: E402

MODES = ("full", "no-obs", "no-views")


def child(game: str, n: int, steps: int, mode: str) -> None:
    """Step the runner (``mode`` leaves parts out, see the module) for ``steps`` steps."""
    import numpy as np
    from bench_vector import random_actions

    from mazzo.envs.common.arrays import bits_to_rows
    from mazzo.envs.vector import VectorRunner

    runner: Any = VectorRunner(game, n, seed=5)  # its internals are patched below
    rng = np.random.default_rng(5)
    num_actions = runner.encoder.num_actions
    # no-views puts one-field stand-ins (their legal mask) where the views were
    legal_of = runner.encoder.legal_of if mode != "no-views" else (lambda v: v[0])
    if mode != "full":

        def publish() -> Any:  # the masks only
            runner._seat[:] = runner._seats
            rows = bits_to_rows(list(map(legal_of, runner._views)), num_actions)
            runner._mask[:] = rows.view(np.int8)
            return runner.batch

        runner._publish = publish
    if mode == "no-views":

        def step(actions: Any) -> Any:
            acts = runner._check_actions(actions)
            states, seats, views = runner._states, runner._seats, runner._views
            for i, action in enumerate(acts.tolist()):
                state = states[i]
                state.apply(action)
                if state.to_play < 0:
                    state = states[i] = runner._new_state()
                seats[i] = state.to_play
                views[i] = (state.legal_mask(),)
            return runner._publish()

        runner.step = step
    batch = runner.reset()
    if mode == "no-views":  # the first deals' views too
        runner._views = [(state.legal_mask(),) for state in runner._states]
        batch = runner._publish()
    for _ in range(20):
        batch = runner.step(random_actions(rng, batch.mask))
    for _ in range(steps):
        batch = runner.step(random_actions(rng, batch.mask))


def peer_child(game: str, mode: str, deals: int, script: str) -> None:
    """Play ``deals`` deals of an OpenSpiel peer (``peers.py``'s loop); print its decisions."""
    import random

    sys.path.insert(0, str(Path(script).parent))
    import peers  # type: ignore[import-not-found]

    play, _ = peers.make_openspiel(game, mode, random.Random(1))
    print(f"decisions={sum(play()[0] for _ in range(deals))}", file=sys.stderr)


def callgrind(cmd: list[str]) -> tuple[int, str]:
    """(instructions, stderr) of ``cmd`` run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = dict(os.environ, PYTHONHASHSEED="0")
        pre = ["setarch", "-R"] if shutil.which("setarch") else []
        run = subprocess.run(
            [*pre, "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
            capture_output=True, text=True, env=env, check=True,
        )  # fmt: skip
        text = out.read_text()
    found = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
    if found is None:
        raise RuntimeError(f"no instruction total in callgrind's output for {cmd}")
    return int(found.group(1)), run.stderr


def per_decision(game: str, n: int, steps: int, mode: str) -> float:
    me = [sys.executable, str(Path(__file__).resolve()), "--child", game, str(n)]
    lo, _ = callgrind([*me, str(steps), mode])
    hi, _ = callgrind([*me, str(4 * steps), mode])
    return (hi - lo) / (3 * steps * n)


def peer_per_decision(python: str, script: str, game: str, mode: str, deals: int) -> float:
    me = [python, str(Path(__file__).resolve()), "--peer-child", game, mode, str(deals), script]
    counts = []
    for k in (1, 4):
        total, err = callgrind([*me[:-2], str(k * deals), script])
        found = re.search(r"^decisions=(\d+)$", err, re.M)
        if found is None:
            raise RuntimeError(f"the peer reported no decision count: {err[-500:]}")
        decisions = int(found.group(1))
        counts.append((total, decisions))
    (lo, d_lo), (hi, d_hi) = counts
    return (hi - lo) / (d_hi - d_lo)


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--peer-child":
        peer_child(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=None)
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--peers", action="store_true", help="count the OpenSpiel peers too")
    parser.add_argument("--peer-deals", type=int, default=20)
    parser.add_argument("--peers-python", default=DEFAULT_PYTHON)
    parser.add_argument("--peers-script", default=DEFAULT_SCRIPT)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind not found (apt-get install -y valgrind)", file=sys.stderr)
        return 2
    from mazzo.envs.registry import all_games, get_game

    names = args.games or [g.name for g in all_games()]
    print(f"callgrind instructions per decision, N = {args.n}")
    print("| game | full | observations | views | the rest | peer | peer full |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        full, no_obs, no_views = (per_decision(name, args.n, args.steps, m) for m in MODES)
        for peer in sorted(get_game(name).info.peers.values()):
            peer_text = "n/a"
            if args.peers and Path(args.peers_python).exists():
                os_game, mode = peer.split(":")[1:3]
                count = peer_per_decision(
                    args.peers_python, args.peers_script, os_game, mode, args.peer_deals
                )
                peer_text = f"{count / 1000:.1f} k"
            print(f"| {name} | {full / 1000:.1f} k | {(full - no_obs) / 1000:.1f} k | "
                  f"{(no_obs - no_views) / 1000:.1f} k | {no_views / 1000:.1f} k | {peer} | "
                  f"{peer_text} |", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

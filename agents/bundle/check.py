"""The self-check of a bundle (``python -m mazzo.agents.bundle check DIR``): replay each test
vector's D.3 record with this mazzo, re-encode the view of the vector's seat with this mazzo's
encoder, and compare the observation, the mask and the bundle's probabilities with the stored ones.

A test vector (one JSON line of ``test_vectors.jsonl``) is ``{"record": <the D.3 record of the
deal so far>, "seat": <the seat whose view it is: usually the seat on turn, sometimes another
(its mask all zero)>, "step": <actions applied>, "phase": <the deal's phase name, upper case>,
"obs": [...], "mask": [...], "probs": [...]}``; ``probs`` are what the PyTorch policy gave at
export. A bundle passes when every observation and probability lies within ``tolerance``
(1e-5) of the stored one, every mask is equal, and the action labels are this mazzo's.

Imports numpy and onnxruntime (through ``mazzo.agents.bundle.format``); must not import torch or
training/.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mazzo.agents.bundle.format import Bundle, action_labels, load_bundle

__all__ = ["TOLERANCE", "VectorReport", "check_vectors", "main", "read_vectors"]

TOLERANCE = 1e-5


@dataclass
class VectorReport:
    """What the self-check found.

    Attributes:
        vectors: how many test vectors were checked.
        max_obs_diff: the largest |observation - stored| over all of them.
        max_probs_diff: the largest |probability - stored|.
        problems: one line per failure (empty: the bundle passes).
    """

    vectors: int = 0
    max_obs_diff: float = 0.0
    max_probs_diff: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def read_vectors(bundle: Bundle) -> list[dict[str, Any]]:
    """The bundle's test vectors. Raises ValueError naming the file and line of a bad one."""
    name = bundle.manifest.get("test_vectors", {}).get("file", "test_vectors.jsonl")
    path = bundle.path / name
    try:
        lines = path.read_text().splitlines()
    except OSError as e:
        raise ValueError(f"{path}: unreadable ({e})") from None
    out = []
    for i, line in enumerate(lines, 1):
        try:
            vec = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}, line {i}: not JSON ({e})") from None
        missing = {"record", "seat", "step", "obs", "mask", "probs"} - set(vec)
        if not isinstance(vec, dict) or missing:
            raise ValueError(f"{path}, line {i}: a test vector needs {sorted(missing)}")
        out.append(vec)
    if not out:
        raise ValueError(f"{path}: no test vectors")
    return out


def check_vectors(bundle: Bundle, tolerance: float = TOLERANCE) -> VectorReport:
    """Replay, re-encode and re-run every test vector of ``bundle`` (see the module doc).

    Raises:
        ValueError: the bundle's game is not this mazzo's, or a test vector is malformed.
    """
    game, rules = bundle.game(), bundle.rules()
    bundle.check(game, rules)
    report = VectorReport()
    labels = bundle.manifest.get("action_labels")
    if labels != action_labels(game, rules):
        report.problems.append("the manifest's action labels are not this mazzo's")
    encoder = game.encoder(rules)
    vectors = read_vectors(bundle)
    views = []
    for i, vec in enumerate(vectors, 1):
        where = f"test vector {i}"
        try:
            state = game.replay(vec["record"], None)
            bundle.check(game, state.rules)
        except ValueError as e:
            report.problems.append(f"{where}: {e}")
            continue
        n_actions, seat = len(vec["record"].get("actions") or []), vec["seat"]
        if n_actions != vec["step"] or type(seat) is not int or not 0 <= seat < _n_seats(state):
            report.problems.append(
                f"{where}: step {vec['step']} and seat {seat!r}, but the record holds "
                f"{n_actions} actions and seats S0..S{_n_seats(state) - 1}"
            )
            continue
        views.append((where, vec, state.info_view(vec["seat"])))
    report.vectors = len(views)
    if not views:
        return report
    obs = np.zeros((len(views), encoder.obs_size), np.float32)
    mask = np.zeros((len(views), encoder.num_actions), np.int8)
    encoder.encode_batch([v for _, _, v in views], obs, mask)
    probs = bundle.probs(obs, mask)
    for row, (where, vec, _view) in enumerate(views):
        _compare(report, where, vec, obs[row], mask[row], probs[row], tolerance)
    return report


def _n_seats(state: Any) -> int:
    """The number of seats of a deal (one return each)."""
    return len(state.returns())


def _compare(
    report: VectorReport, where: str, vec: dict[str, Any], obs: np.ndarray[Any, Any],
    mask: np.ndarray[Any, Any], probs: np.ndarray[Any, Any], tolerance: float,
) -> None:  # fmt: skip
    want_obs = np.asarray(vec["obs"], np.float32)
    want_mask = np.asarray(vec["mask"], np.int8)
    want_probs = np.asarray(vec["probs"], np.float32)
    if want_obs.shape != obs.shape or want_mask.shape != mask.shape:
        report.problems.append(f"{where}: stored shapes {want_obs.shape}, {want_mask.shape}")
        return
    d_obs = float(np.abs(obs - want_obs).max())
    report.max_obs_diff = max(report.max_obs_diff, d_obs)
    if d_obs > tolerance:
        at = [int(i) for i in np.flatnonzero(np.abs(obs - want_obs) > tolerance)[:5]]
        report.problems.append(f"{where}: observation differs by {d_obs:.3g} (at {at})")
    if not np.array_equal(mask != 0, want_mask != 0):
        report.problems.append(f"{where}: the legal mask differs")
        return
    d_probs = float(np.abs(probs - want_probs).max())
    report.max_probs_diff = max(report.max_probs_diff, d_probs)
    if d_probs > tolerance:
        report.problems.append(f"{where}: probabilities differ by {d_probs:.3g}")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mazzo.agents.bundle check DIR``: 0 when the bundle passes, 1 when it does not, 2
    when it cannot be read."""
    parser = argparse.ArgumentParser(
        prog="python -m mazzo.agents.bundle",
        description="Check a mazzo bot bundle against this mazzo.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="replay the test vectors and compare (torch-free)")
    check.add_argument("bundle", metavar="DIR", help="the bundle folder")
    check.add_argument("--tolerance", type=float, default=TOLERANCE, help="default 1e-5")
    args = parser.parse_args(argv)
    return run_check(args.bundle, args.tolerance)


def run_check(path: str, tolerance: float = TOLERANCE) -> int:
    """Check the bundle at ``path`` and print the verdict; returns the exit status."""
    try:
        bundle = load_bundle(path)
        report = check_vectors(bundle, tolerance)
    except (ValueError, OSError) as e:
        print(f"bundle check: error: {e}", file=sys.stderr)
        return 2
    for line in report.problems:
        print(f"{path}: {line}", file=sys.stderr)
    verdict = "passes" if report.ok else f"FAILS ({len(report.problems)} problems)"
    print(
        f"{path}: {bundle.game_name} bundle {verdict}: {report.vectors} test vectors, "
        f"max |obs diff| {report.max_obs_diff:.3g}, max |probs diff| {report.max_probs_diff:.3g}"
    )
    return 0 if report.ok else 1

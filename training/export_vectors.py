"""The test vectors of an exported bundle: views drawn from random deals of the game (a fixed
seed), spread across the decision phases, each stored as the D.3 record of the deal so far with
the seat on turn, the step, the observation, the legal mask and the policy's probabilities.

The deals are played with uniformly random legal actions from ``numpy.random.default_rng(seed)``;
every decision point is a candidate, and the vectors are taken round-robin over the phases met
(a random candidate of each phase in turn), so that rare phases (an auction, a discard) appear
beside the many card plays. The format is described in ``agents.bundle_check``.

Imports numpy; must not import torch (the probabilities come from the caller's function).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from envs.protocols import AnyState, RulesLike
from envs.registry import AnyGame

__all__ = ["ProbsFn", "decision_points", "make_vectors", "vectors_jsonl"]

ProbsFn = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], npt.NDArray[np.float32]]
CANDIDATES_PER_VECTOR = 4


def decision_points(game: AnyGame, rules: RulesLike, n: int, seed: int) -> list[AnyState]:
    """``n`` states at a decision, from random deals of ``seed``, spread across phases (in deal
    and step order)."""
    rng = np.random.default_rng(seed)
    by_phase: dict[int, list[tuple[int, int, AnyState]]] = {}
    found, deal = 0, 0
    while found < CANDIDATES_PER_VECTOR * n:
        state = game.new_state(game.deal_random(rng, rules), rules)
        step = 0
        while not state.is_terminal():
            phase = int(game.view(state, state.to_play).phase)
            by_phase.setdefault(phase, []).append((deal, step, state.clone()))
            found += 1
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
            step += 1
        deal += 1
    pools = [by_phase[p] for p in sorted(by_phase)]
    chosen: list[tuple[int, int, AnyState]] = []
    while len(chosen) < n:
        for pool in pools:
            if pool and len(chosen) < n:
                chosen.append(pool.pop(int(rng.integers(len(pool)))))
    chosen.sort(key=lambda c: (c[0], c[1]))
    return [state for _, _, state in chosen]


def make_vectors(
    game: AnyGame, rules: RulesLike, probs_fn: ProbsFn, n: int = 64, seed: int = 0
) -> list[dict[str, Any]]:
    """``n`` test vectors of ``game`` under ``rules``, the probabilities from ``probs_fn(obs,
    mask)``.

    Raises:
        ValueError: ``n`` below 1.
    """
    if n < 1:
        raise ValueError(f"the number of test vectors must be at least 1, got {n}")
    states = decision_points(game, rules, n, seed)
    encoder = game.encoder(rules)
    views = [game.view(s, s.to_play) for s in states]
    obs = np.zeros((n, encoder.obs_size), np.float32)
    mask = np.zeros((n, encoder.num_actions), np.int8)
    encoder.encode_batch(views, obs, mask)
    probs = probs_fn(obs, mask)
    out = []
    for i, (state, view) in enumerate(zip(states, views, strict=True)):
        record = game.write_record(state)
        out.append(
            {
                "record": record,
                "seat": state.to_play,
                "step": len(record.get("actions") or []),
                "phase": getattr(view.phase, "name", str(view.phase)),
                "obs": _compact(obs[i]),
                "mask": [int(x) for x in mask[i]],
                "probs": _compact(probs[i]),
            }
        )
    return out


def _compact(row: npt.NDArray[np.float32]) -> list[float | int]:
    """float32 values as JSON numbers that read back exactly (whole numbers as integers)."""
    return [int(x) if float(x).is_integer() else float(x) for x in row]


def vectors_jsonl(vectors: list[dict[str, Any]]) -> str:
    """The vectors as JSON Lines (compact, one per line)."""
    return "".join(json.dumps(v, separators=(",", ":")) + "\n" for v in vectors)

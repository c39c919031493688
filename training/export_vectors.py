"""The test vectors of an exported bundle: views drawn from random deals of the game (a fixed
seed), covering every decision phase, each stored as the D.3 record of the deal so far with the
seat whose view it is, the step, the observation, the legal mask and the policy's
probabilities.

The deals are played with uniformly random legal actions from ``numpy.random.default_rng(seed)``;
every decision point is a candidate. Deals go on until every decision phase of the game has
been met often enough for an even share of the vectors (the phases of its ``Phase`` enum but
the terminal one; a phase these rules never reach, such as Minchiate's MATTO_PAY under
``matto_payment = auto``, is given up after ``PATIENCE`` deals in which no phase short of its
share was met). The vectors are then taken round-robin over the phases
met (a random candidate of each phase in turn), so that rare phases (Calabresella's CALL and
RETURN, a discard, a declaration) appear beside the many card plays: with ``n`` at least the
number of phases, each phase has one. After that first round every ``OFF_TURN_EVERY``-th vector
is the view of a seat that is not on turn (its mask is all zero). The format is described in
``mazzo.agents.bundle.check``.

Imports numpy; must not import torch (the probabilities come from the caller's function).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from mazzo.envs.protocols import AnyState, RulesLike
from mazzo.envs.registry import AnyGame

__all__ = ["ProbsFn", "decision_points", "make_vectors", "vectors_jsonl"]

ProbsFn = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], npt.NDArray[np.float32]]
CANDIDATES_PER_VECTOR = 4
PATIENCE = 400  # deals without a new phase before the unmet phases are given up
MAX_DEALS = 5000
OFF_TURN_EVERY = 4


def decision_points(
    game: AnyGame, rules: RulesLike, n: int, seed: int
) -> list[tuple[AnyState, int]]:
    """``n`` (state at a decision, viewing seat) pairs from random deals of ``seed``: every
    decision phase met once first, then round-robin over the phases, some views of a seat not
    on turn (see the module doc); in deal and step order."""
    rng = np.random.default_rng(seed)
    cap = CANDIDATES_PER_VECTOR * n  # candidates kept per phase
    by_phase: dict[int, list[tuple[int, int, AnyState]]] = {}
    found, deal, last_growth = 0, 0, 0
    phases: set[int] | None = None  # the decision phases (known after the first deal)

    def short() -> set[int]:
        """The decision phases with fewer candidates than an even share of the vectors."""
        share = -(-n // len(phases)) if phases else 1
        return set(phases or ()) - {p for p, pool in by_phase.items() if len(pool) >= share}

    while deal < MAX_DEALS:
        done = phases is not None and (not short() or deal - last_growth >= PATIENCE)
        if found >= cap and done:
            break
        wanted = short() if phases is not None else None
        state = game.new_state(game.deal_random(rng, rules), rules)
        step = 0
        while not state.is_terminal():
            phase = int(state.phase)
            pool = by_phase.setdefault(phase, [])
            if len(pool) < cap:
                pool.append((deal, step, state.clone()))
                found += 1
                if wanted is not None and phase in wanted:
                    last_growth = deal
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
            step += 1
        if phases is None:
            phases = {int(p) for p in type(state.phase)} - {int(state.phase)}
        deal += 1
    pools = [by_phase[p] for p in sorted(by_phase)]
    chosen: list[tuple[int, int, AnyState, int]] = []
    while len(chosen) < n:
        for pool in pools:
            if pool and len(chosen) < n:
                d, step, state = pool.pop(int(rng.integers(len(pool))))
                i = len(chosen) - len(pools)
                seat = state.to_play
                if i >= 0 and i % OFF_TURN_EVERY == OFF_TURN_EVERY - 1:
                    seats = len(state.returns())
                    seat = (seat + 1 + int(rng.integers(seats - 1))) % seats
                chosen.append((d, step, state, seat))
    chosen.sort(key=lambda c: (c[0], c[1], c[3]))
    return [(state, seat) for _, _, state, seat in chosen]


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
    points = decision_points(game, rules, n, seed)
    encoder = game.encoder(rules)
    views = [game.view(s, seat) for s, seat in points]
    obs = np.zeros((n, encoder.obs_size), np.float32)
    mask = np.zeros((n, encoder.num_actions), np.int8)
    encoder.encode_batch(views, obs, mask)
    probs = probs_fn(obs, mask)
    out = []
    for i, ((state, seat), view) in enumerate(zip(points, views, strict=True)):
        record = game.write_record(state)
        out.append(
            {
                "record": record,
                "seat": seat,
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

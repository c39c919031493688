"""Calabresella agents: the heuristic baseline (versioned) and the determinized search agent.
``BUILTIN`` declares them, with their parameters, for the agent table
(``mazzo.agents.registry.AGENTS``)."""

from __future__ import annotations

from mazzo.agents.base import AnyAgent
from mazzo.agents.builtin import GameAgents
from mazzo.agents.calabresella.heuristic import HeuristicV1
from mazzo.agents.calabresella.pimc import PIMC
from mazzo.agents.params import Param

__all__ = ["BUILTIN", "PIMC", "HeuristicV1"]

HEURISTICS: dict[int, type[HeuristicV1]] = {1: HeuristicV1}

PIMC_PARAMS = (
    Param("samples", int, 24, "worlds sampled per decision (at most)", low=1),
    Param("ms", float, 800.0, "time budget per decision in milliseconds (0: no limit)", low=0),
    Param("exact", int, 3, "last tricks solved exactly by alpha-beta", low=0, high=4),
    Param("candidates", int, 6, "cards considered for discards and returns", low=1),
    Param(
        "points", float, 0.0,
        "weight of the card points in each playout's value, a tie-break (0: the settlement "
        "alone, indifferent to a counter given away where the outcome does not hang on it)",
        low=0,
    ),
)  # fmt: skip


def _pimc(
    version: int, samples: int, ms: float, exact: int, candidates: int, points: float
) -> AnyAgent:
    return PIMC(
        samples=samples, ms=ms, exact_tricks=exact, max_candidates=candidates, points=points
    )


BUILTIN = GameAgents(
    heuristics=HEURISTICS,
    heuristic_help="named card-player rules: bidding thresholds, calls, discards, cashing, ducking",
    pimc=_pimc,
    pimc_params=PIMC_PARAMS,
    pimc_help="determinized search: sampled worlds, greedy playouts, exact endgame",
    # The bot's policy as a prior on the card: +0.310 game points per seat and game over
    # ipimc without it, on 300 deals it was not tuned on (0.03 and 0.3 measured less).
    ipimc_defaults={"prior": 0.1},
)

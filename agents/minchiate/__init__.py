"""Minchiate agents: the heuristic baseline (versioned) and the determinized search agent.
``BUILTIN`` declares them, with their parameters, for the agent table
(``mazzo.agents.registry.AGENTS``)."""

from __future__ import annotations

from mazzo.agents.base import AnyAgent
from mazzo.agents.builtin import GameAgents
from mazzo.agents.minchiate.heuristic import HeuristicV1
from mazzo.agents.minchiate.pimc import DISCARDS, PIMC
from mazzo.agents.params import Param

__all__ = ["BUILTIN", "PIMC", "HeuristicV1"]

HEURISTICS: dict[int, type[HeuristicV1]] = {1: HeuristicV1}

PIMC_PARAMS = (
    Param("samples", int, 64, "worlds sampled per decision (at most)", low=1),
    Param("ms", float, 800.0, "time budget per decision in milliseconds (0: no limit)", low=0),
    Param("exact", int, 2, "last tricks solved exactly by alpha-beta", low=0, high=3),
    Param("points", float, 0.1, "weight of the final point difference (tie-break)", low=0),
    Param(
        "discards", str, "rule",
        "the discards: rule (the heuristic's), search (searched like a card) or blind (searched "
        "so, the playouts' leads not seeing the other hands); with ipimc's others=bot, name "
        "them in own_phases",
        choices=DISCARDS,
    ),
    Param(
        "candidates", int, 0,
        "searched discards: the first N in the heuristic's keep order (its short suits "
        "first); 0: every legal discard",
        low=0,
    ),
)  # fmt: skip


def _pimc(
    version: int, samples: int, ms: float, exact: int, points: float, discards: str,
    candidates: int,
) -> AnyAgent:  # fmt: skip
    return PIMC(
        samples=samples, ms=ms, exact_tricks=exact, point_weight=points, discards=discards,
        discard_candidates=candidates,
    )  # fmt: skip


BUILTIN = GameAgents(
    heuristics=HEURISTICS,
    heuristic_help=(
        "named card-player rules: short-suit discards, declare all, feed, win cheaply, duck"
    ),
    pimc=_pimc,
    pimc_params=PIMC_PARAMS,
    pimc_help="determinized search of card play (discards, declarations: the heuristic's)",
    # The bot's policy as a prior on the card (measured: +0.70 resti per seat and game over
    # pimc on 400 deals at its time); uniform worlds (the belief model learned nothing here,
    # and its pool cost time); 54 worlds keep a decision within pimc's time with the network.
    ipimc_defaults={"samples": 54, "pool": 1, "alpha": 0.0, "prior": 0.03},
)

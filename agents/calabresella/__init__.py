"""Calabresella agents: the heuristic baseline (versioned) and the determinized search agent.
Importing this package registers them with ``agents.registry``."""

from __future__ import annotations

from agents.base import AnyAgent
from agents.calabresella.heuristic import HeuristicV1
from agents.calabresella.pimc import PIMC
from agents.registry import register

__all__ = ["PIMC", "HeuristicV1"]

HEURISTICS: dict[int, type[HeuristicV1]] = {1: HeuristicV1}


@register("calabresella", "heuristic")
def _heuristic(version: int | None = None) -> AnyAgent:
    latest = max(HEURISTICS)
    if version is not None and version not in HEURISTICS:
        raise ValueError(f"calabresella heuristic has versions {sorted(HEURISTICS)}, not {version}")
    return HEURISTICS[version or latest]()


@register("calabresella", "pimc")
def _pimc(
    version: int | None = None,
    samples: int = 24,
    ms: float = 800.0,
    exact: int = 3,
    candidates: int = 6,
) -> AnyAgent:
    if version not in (None, 1):
        raise ValueError(f"calabresella pimc has only version 1, not {version}")
    return PIMC(samples=samples, ms=ms, exact_tricks=exact, max_candidates=candidates)

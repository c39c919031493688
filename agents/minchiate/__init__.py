"""Minchiate agents: the heuristic baseline (versioned) and the determinized search agent.
Importing this package registers them with ``agents.registry``."""

from __future__ import annotations

from agents.base import AnyAgent
from agents.minchiate.heuristic import HeuristicV1
from agents.minchiate.pimc import PIMC
from agents.registry import register

__all__ = ["PIMC", "HeuristicV1"]

HEURISTICS: dict[int, type[HeuristicV1]] = {1: HeuristicV1}


@register("minchiate", "heuristic")
def _heuristic(version: int | None = None) -> AnyAgent:
    latest = max(HEURISTICS)
    if version is not None and version not in HEURISTICS:
        raise ValueError(f"minchiate heuristic has versions {sorted(HEURISTICS)}, not {version}")
    return HEURISTICS[version or latest]()


@register("minchiate", "pimc")
def _pimc(
    version: int | None = None,
    samples: int = 32,
    ms: float = 800.0,
    exact: int = 2,
    points: float = 0.1,
) -> AnyAgent:
    if version not in (None, 1):
        raise ValueError(f"minchiate pimc has only version 1, not {version}")
    return PIMC(
        samples=samples,
        ms=ms,
        exact_tricks=exact,
        point_weight=points,
    )

"""Minchiate agents: the heuristic baseline (versioned) and the determinized search agent.
Importing this package registers them with ``agents.registry``."""

from __future__ import annotations

from agents.base import AnyAgent
from agents.minchiate.heuristic import HeuristicV1
from agents.registry import register

__all__ = ["HeuristicV1"]

HEURISTICS: dict[int, type[HeuristicV1]] = {1: HeuristicV1}


@register("minchiate", "heuristic")
def _heuristic(version: int | None = None) -> AnyAgent:
    latest = max(HEURISTICS)
    if version is not None and version not in HEURISTICS:
        raise ValueError(f"minchiate heuristic has versions {sorted(HEURISTICS)}, not {version}")
    return HEURISTICS[version or latest]()

"""The registration of a game's built-in agents, written once for every ``agents.<game>``
package: its versioned heuristic baseline and its determinized search agent (``pimc``), each
with its help line and declared parameters, into ``agents.registry``.

Must not import torch or training/, nor name a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from agents.base import AnyAgent
from agents.params import Param
from agents.registry import Factory, register

__all__ = ["register_builtin_agents"]


def register_builtin_agents(
    game: str,
    *,
    heuristics: Mapping[int, Callable[[], AnyAgent]],
    heuristic_help: str,
    pimc: Factory,
    pimc_params: Sequence[Param],
    pimc_help: str,
) -> None:
    """Register ``heuristic`` (one version per entry of ``heuristics``: version -> agent
    class) and ``pimc`` (``pimc(version, **values)`` builds it from ``pimc_params``) for
    ``game``."""

    def heuristic(version: int) -> AnyAgent:
        return heuristics[version]()

    register(game, "heuristic", versions=tuple(heuristics), help=heuristic_help)(heuristic)
    register(game, "pimc", params=pimc_params, help=pimc_help)(pimc)

"""The registration of a game's built-in agents, written once for every ``agents.<game>``
package: its versioned heuristic baseline, its determinized search agent (``pimc``) and the same
search with learned inference (``ipimc``: the worlds of card play drawn with a belief model,
``agents.belief``), each with its help line and declared parameters, into ``agents.registry``.
Both searches take ``others``: ``own`` (their own way outside card play) or ``bot`` (the
shipped network bids, calls, exchanges, discards and declares: ``agents.outside_play``);
``pimc`` defaults to ``own`` (the plain baseline), ``ipimc`` to ``bot`` (every learned part).

Must not import torch or training/, nor name a game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from agents.base import AnyAgent
from agents.belief import BeliefWorlds, load_belief
from agents.outside_play import OutsidePlay
from agents.params import Param
from agents.registry import SHIPPED, Factory, register

__all__ = ["BELIEF_PARAMS", "OTHERS_PARAM", "register_builtin_agents", "shipped_belief"]

SHIPPED_NAME = "shipped"
BELIEF_PARAMS = (
    Param(
        "belief", Path, Path(SHIPPED_NAME),
        "a belief model folder (mazzo belief --out), or 'shipped': checkpoints/GAME/belief",
    ),
    Param("pool", int, 2, "uniform worlds drawn per evaluated world, resampled by belief", low=1),
    Param("alpha", float, 1.0, "exponent of the belief weights (0: plain PIMC's worlds)", low=0),
    Param(
        "against", str, "pool", "the belief's reference: the pool's shares or the constraint prior",
        choices=("prior", "pool"),
    ),
    Param(
        "ess", float, 0.5, "least effective share of the weighted worlds (tempers alpha)",
        low=0, high=1,
    ),
)  # fmt: skip


OWN = "own"


def others_param(default: str) -> Param:
    """``others``: who takes the decisions outside card play (``own`` or ``bot``)."""
    return Param(
        "others", str, default,
        "decisions outside card play: own (the search's own way) or bot (the shipped network)",
        choices=(OWN, "bot"),
    )  # fmt: skip


OTHERS_PARAM = others_param(OWN)  # pimc's: plain PIMC stays the baseline
IPIMC_OTHERS_PARAM = others_param("bot")  # ipimc's: every learned part (measured stronger)


def shipped_belief(game: str) -> Path:
    """The folder of ``game``'s shipped belief model."""
    return SHIPPED / game / "belief"


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

    def with_others(searcher: AnyAgent, others: str) -> AnyAgent:
        if others == OWN:
            return searcher
        from agents.registry import make_agent  # the network (torch) only when asked for

        return OutsidePlay(searcher, make_agent(others, game), others)

    def plain(version: int, others: str, **values: Any) -> AnyAgent:
        return with_others(pimc(version, **values), others)

    register(game, "pimc", params=(*pimc_params, OTHERS_PARAM), help=pimc_help)(plain)

    def ipimc(
        version: int, belief: Path, pool: int, alpha: float, against: str, ess: float,
        others: str, **values: Any,
    ) -> AnyAgent:  # fmt: skip
        path = shipped_belief(game) if str(belief) == SHIPPED_NAME else belief
        try:
            model = load_belief(path, game)
        except ValueError as e:
            raise ValueError(f"{game} agent 'ipimc': 'belief={belief}': {e}") from None
        worlds = BeliefWorlds(model, pool=pool, alpha=alpha, ess=ess, against=against)
        searcher = pimc(version, **values)
        searcher = dataclasses.replace(searcher, beliefs=worlds)  # type: ignore[type-var]
        return with_others(searcher, others)

    register(
        game, "ipimc", params=(*pimc_params, *BELIEF_PARAMS, IPIMC_OTHERS_PARAM),
        help="pimc with learned parts: belief-resampled worlds of card play, the bot elsewhere",
    )(ipimc)  # fmt: skip

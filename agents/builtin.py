"""The registration of a game's built-in agents, written once for every ``mazzo.agents.<game>``
package: its versioned heuristic baseline, its determinized search agent (``pimc``) and the same
search with learned parts (``ipimc``: the worlds of card play drawn with a belief model,
``mazzo.agents.belief``, and the choice of card weighed by the shipped network's policy, ``prior``:
``mazzo.agents.policy_prior``), each with its help line and declared parameters, into
``mazzo.agents.registry``; a game may set other defaults for ``ipimc``'s parameters (what measured
strongest there). Both searches take ``others``: ``own`` (their own way outside card play) or
``bot`` (the shipped network bids, calls, exchanges, discards and declares:
``mazzo.agents.outside_play``); ``pimc`` defaults to ``own`` (the plain baseline), ``ipimc`` to
``bot`` (every learned part).

Must not import torch or training/, nor name a game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from mazzo.agents.base import AnyAgent
from mazzo.agents.belief import BeliefWorlds, load_belief
from mazzo.agents.outside_play import OutsidePlay
from mazzo.agents.params import Param
from mazzo.agents.policy_prior import PolicyPrior, Searcher
from mazzo.agents.registry import SHIPPED, Factory, register

__all__ = [
    "BELIEF_PARAMS",
    "OTHERS_PARAM",
    "PRIOR_PARAM",
    "register_builtin_agents",
    "shipped_belief",
    "with_defaults",
]

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
SEARCH_BOT = "bot@1"
"""The shipped network inside the searches (``others=bot``, ``prior``) by default (their
``net`` parameter): the version their defaults were tuned and measured with. A newer shipped
bot leaves ``pimc`` and ``ipimc`` as they were measured until they are measured with it."""
NET_PARAM = Param(
    "net", str, SEARCH_BOT,
    "the network of prior and others=bot: a network agent spec (bot, bot@N, nn:PATH, "
    "onnx:DIR); expert iteration's next round searches with the improved network (pimc's "
    "others=bot is always bot@1)",
)  # fmt: skip


def others_param(default: str) -> Param:
    """``others``: who takes the decisions outside card play (``own`` or ``bot``)."""
    return Param(
        "others", str, default,
        "decisions outside card play: own (the search's own way) or bot (the network: net)",
        choices=(OWN, "bot"),
    )  # fmt: skip


OTHERS_PARAM = others_param(OWN)  # pimc's: plain PIMC stays the baseline
IPIMC_OTHERS_PARAM = others_param("bot")  # ipimc's: every learned part (measured stronger)
PRIOR_PARAM = Param(
    "prior", float, 0.0,
    "weight of the network's (net) log-probability added to each searched card's value (0: "
    "the search's own choice)",
    low=0,
)  # fmt: skip


def with_defaults(params: Sequence[Param], defaults: Mapping[str, Any]) -> tuple[Param, ...]:
    """``params`` with the defaults ``defaults`` names replaced. Raises ValueError naming a
    key that is no parameter, or a default out of its parameter's range."""
    names = {p.name for p in params}
    unknown = sorted(set(defaults) - names)
    if unknown:
        raise ValueError(f"no such parameter(s) {unknown}; known: {sorted(names)}")
    return tuple(
        dataclasses.replace(p, default=defaults[p.name]) if p.name in defaults else p
        for p in params
    )


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
    ipimc_defaults: Mapping[str, Any] | None = None,
) -> None:
    """Register ``heuristic`` (one version per entry of ``heuristics``: version -> agent
    class), ``pimc`` (``pimc(version, **values)`` builds it from ``pimc_params``) and
    ``ipimc`` (the same parameters, the belief's, ``prior`` and ``others``, with the defaults
    ``ipimc_defaults`` gives) for ``game``."""

    def heuristic(version: int) -> AnyAgent:
        return heuristics[version]()

    register(game, "heuristic", versions=tuple(heuristics), help=heuristic_help)(heuristic)

    def with_others(
        searcher: AnyAgent, others: str, net: str, prior: float = 0.0, name: str = "pimc"
    ) -> AnyAgent:
        if others == OWN and prior == 0:
            if net != SEARCH_BOT:
                raise ValueError(
                    f"{game} agent {name!r}: 'net={net}' is unused: the network serves "
                    "others=bot and prior > 0 only"
                )
            return searcher
        from mazzo.agents.registry import make_agent  # the network (torch) only when asked for

        network = make_agent(net, game)
        if not hasattr(network, "action_probs"):
            raise ValueError(
                f"{game} agent {name!r}: 'net={net}' is not a network (give bot, bot@N, "
                "nn:PATH or onnx:DIR)"
            )
        agent: Any = searcher
        if prior > 0:
            agent = PolicyPrior(cast(Searcher, searcher), network, prior)
        if others != OWN:
            agent = OutsidePlay(agent, network, others)
        if net != SEARCH_BOT:  # named only when not the default: the measured names stay
            agent.name = f"{agent.name},net={net}"
        return cast(AnyAgent, agent)

    def plain(version: int, others: str, **values: Any) -> AnyAgent:
        return with_others(pimc(version, **values), others, SEARCH_BOT)

    register(game, "pimc", params=(*pimc_params, OTHERS_PARAM), help=pimc_help)(plain)

    def ipimc(
        version: int, belief: Path, pool: int, alpha: float, against: str, ess: float,
        prior: float, others: str, net: str, **values: Any,
    ) -> AnyAgent:  # fmt: skip
        path = shipped_belief(game) if str(belief) == SHIPPED_NAME else belief
        try:
            model = load_belief(path, game)
        except ValueError as e:
            raise ValueError(f"{game} agent 'ipimc': 'belief={belief}': {e}") from None
        worlds = BeliefWorlds(model, pool=pool, alpha=alpha, ess=ess, against=against)
        searcher = pimc(version, **values)
        searcher = dataclasses.replace(searcher, beliefs=worlds)  # type: ignore[type-var]
        return with_others(searcher, others, net, prior, "ipimc")

    ipimc_params = with_defaults(
        (*pimc_params, *BELIEF_PARAMS, PRIOR_PARAM, IPIMC_OTHERS_PARAM, NET_PARAM),
        ipimc_defaults or {},
    )
    register(
        game, "ipimc", params=ipimc_params,
        help="pimc with learned parts: belief-resampled worlds and the bot's policy as a prior "
        "in card play, the bot elsewhere",
    )(ipimc)  # fmt: skip

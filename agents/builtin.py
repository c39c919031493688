"""A game's built-in agents, written once for every ``mazzo.agents.<game>`` package. The package
declares them (``BUILTIN``, a ``GameAgents``: its heuristic's versions, its search and that
search's parameters); the rows ``heuristic_agent``, ``pimc_agent`` and ``ipimc_agent`` of the
agent table (``mazzo.agents.registry.AGENTS``) build them: the versioned heuristic baseline,
the determinized search agent (``pimc``) and the same search with learned parts (``ipimc``:
the worlds of card play drawn with a belief model, ``mazzo.agents.belief``, and the choice of
card weighed by the shipped network's policy, ``prior``: ``mazzo.agents.policy_prior``), each
with its help line and declared parameters; a game may set other defaults for ``ipimc``'s
parameters (what measured strongest there). Both searches take ``others``: ``own`` (their own
way outside card play) or ``bot`` (the shipped network bids, calls, exchanges, discards and
declares: ``mazzo.agents.outside_play``); ``pimc`` defaults to ``own`` (the plain baseline),
``ipimc`` to ``bot`` (every learned part).

Must not import torch or training/, nor name a game.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from mazzo.agents.base import AnyAgent
from mazzo.agents.belief import BeliefWorlds, load_belief
from mazzo.agents.outside_play import OutsidePlay
from mazzo.agents.params import Param
from mazzo.agents.playouts import PlayoutSearch, parse_phases
from mazzo.agents.policy_prior import PolicyPrior, Searcher
from mazzo.agents.shipped import SHIPPED
from mazzo.agents.specs import AgentInfo, Factory

__all__ = [
    "BELIEF_PARAMS",
    "OTHERS_PARAM",
    "PRIOR_PARAM",
    "GameAgents",
    "game_agents",
    "heuristic_agent",
    "ipimc_agent",
    "pimc_agent",
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
PLAYOUTS_PARAM = Param(
    "playouts", str, "",
    "decisions outside card play searched by playing sampled worlds out with the network (net) "
    "in every seat instead of taken by it, phases joined by '+' (bid+call); empty: none",
)  # fmt: skip
PLAYOUT_WORLDS_PARAM = Param(
    "playout_worlds", int, 8, "worlds per decision of playouts (every candidate in each)", low=1
)
PLAYOUT_RIVALS_PARAM = Param(
    "playout_rivals", str, "net",
    "card play of the other seats in the playouts: net (the network) or search (the search's "
    "perfect-information playout policy, a defence that sees every card: cautious values)",
    choices=("net", "search"),
)  # fmt: skip
OWN_PHASES_PARAM = Param(
    "own_phases", str, "",
    "with others=bot, decisions outside card play the search still takes its own way (as with "
    "others=own), phases joined by '+' (call+return+solo_discard); empty: none",
)  # fmt: skip
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


@dataclass(frozen=True)
class GameAgents:
    """What a game's package declares of its built-in agents (its ``BUILTIN``).

    Attributes:
        heuristics: version -> the heuristic's class (built with no arguments).
        heuristic_help: the heuristic's help line.
        pimc: ``pimc(version, **values)`` builds the search from ``pimc_params``' values.
        pimc_params: the search's own parameters.
        pimc_help: the search's help line.
        ipimc_defaults: ``ipimc``'s defaults where they differ from the parameters' (what
            measured strongest in this game).
    """

    heuristics: Mapping[int, Callable[[], AnyAgent]]
    heuristic_help: str
    pimc: Factory
    pimc_params: Sequence[Param]
    pimc_help: str
    ipimc_defaults: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def game_agents(game: str) -> GameAgents | None:
    """The built-in agents ``mazzo.agents.<game>`` declares (its ``BUILTIN``); None for a game
    without that package.

    Raises:
        TypeError: the package's ``BUILTIN`` is not a ``GameAgents``.
    """
    module = f"mazzo.agents.{game}"
    try:
        package = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name != module:
            raise
        return None
    declared = getattr(package, "BUILTIN", None)
    if not isinstance(declared, GameAgents):
        raise TypeError(f"{module}.BUILTIN must be a GameAgents, got {type(declared).__name__}")
    return declared


def heuristic_agent(game: str) -> AgentInfo | None:
    """``heuristic[@N]``: the game's card-player rules, one version per class it declares."""
    declared = game_agents(game)
    if declared is None:
        return None
    heuristics = declared.heuristics

    def heuristic(version: int) -> AnyAgent:
        return heuristics[version]()

    return AgentInfo(
        game, "heuristic", heuristic, versions=tuple(sorted(heuristics)),
        help=declared.heuristic_help,
    )  # fmt: skip


def pimc_agent(game: str) -> AgentInfo | None:
    """``pimc``: the game's determinized search (its own way outside card play by default)."""
    declared = game_agents(game)
    if declared is None:
        return None
    pimc = declared.pimc

    def plain(version: int, others: str, **values: Any) -> AnyAgent:
        return _with_network(game, pimc(version, **values), others, SEARCH_BOT)

    return AgentInfo(
        game, "pimc", plain, (*declared.pimc_params, OTHERS_PARAM), help=declared.pimc_help
    )


def ipimc_agent(game: str) -> AgentInfo | None:
    """``ipimc``: ``pimc`` with every learned part (belief-resampled worlds, the network's
    policy as a prior on the card, the network outside card play), with the game's defaults."""
    declared = game_agents(game)
    if declared is None:
        return None
    pimc = declared.pimc

    def ipimc(
        version: int, belief: Path, pool: int, alpha: float, against: str, ess: float,
        prior: float, others: str, net: str, playouts: str, playout_worlds: int,
        playout_rivals: str, own_phases: str, **values: Any,
    ) -> AnyAgent:  # fmt: skip
        path = shipped_belief(game) if str(belief) == SHIPPED_NAME else belief
        try:
            model = load_belief(path, game)
        except ValueError as e:
            raise ValueError(f"{game} agent 'ipimc': 'belief={belief}': {e}") from None
        worlds = BeliefWorlds(model, pool=pool, alpha=alpha, ess=ess, against=against)
        searcher = pimc(version, **values)
        searcher = dataclasses.replace(searcher, beliefs=worlds)  # type: ignore[type-var]
        agent = _with_network(game, searcher, others, net, prior, "ipimc")
        agent = with_own_phases(game, agent, own_phases)
        return with_playouts(game, agent, searcher, playouts, playout_worlds, playout_rivals)

    params = with_defaults(
        (
            *declared.pimc_params,
            *BELIEF_PARAMS,
            PRIOR_PARAM,
            IPIMC_OTHERS_PARAM,
            NET_PARAM,
            PLAYOUTS_PARAM,
            PLAYOUT_WORLDS_PARAM,
            PLAYOUT_RIVALS_PARAM,
            OWN_PHASES_PARAM,
        ),
        declared.ipimc_defaults,
    )
    return AgentInfo(
        game, "ipimc", ipimc, params,
        help="pimc with learned parts: belief-resampled worlds and the bot's policy as a prior "
        "in card play, the bot elsewhere",
    )  # fmt: skip


def with_own_phases(game: str, agent: AnyAgent, own_phases: str) -> AnyAgent:
    """``agent`` (the search with the network outside card play) with the phases
    ``own_phases`` names decided by the search its own way; ``agent`` itself when empty.

    Raises:
        ValueError: a phase that is no decision outside card play of ``game``, or the option
            without the network outside card play (``others=own`` decides them all already).
    """
    if not own_phases:
        return agent
    from mazzo.envs.registry import get_game

    g = get_game(game)
    phases = parse_phases(own_phases, list(g.phase_names(g.rules()).values()), "own_phases")
    if not isinstance(agent, OutsidePlay):
        raise ValueError(
            f"{game} agent 'ipimc': 'own_phases={own_phases}' needs others=bot (with "
            "others=own the search takes every decision its own way already)"
        )
    return dataclasses.replace(agent, own=phases)


def with_playouts(
    game: str,
    agent: AnyAgent,
    searcher: AnyAgent,
    playouts: str,
    worlds: int,
    rivals: str = "net",
) -> AnyAgent:
    """``agent`` (the search with the network outside card play) with the phases ``playouts``
    names searched by the network's playouts in worlds ``searcher`` draws
    (``mazzo.agents.playouts``), the other seats' card play the search's perfect-information
    policy with ``rivals="search"``; ``agent`` itself when ``playouts`` is empty.

    Raises:
        ValueError: a phase that is no decision outside card play of ``game``, playouts
            without the network outside card play (``others=own``), or a search that draws
            no worlds.
    """
    if not playouts:
        return agent
    from mazzo.envs.registry import get_game

    g = get_game(game)
    phases = parse_phases(playouts, list(g.phase_names(g.rules()).values()))
    sample_world = getattr(searcher, "sample_world", None)
    if not isinstance(agent, OutsidePlay) or sample_world is None:
        raise ValueError(
            f"{game} agent 'ipimc': 'playouts={playouts}' needs others=bot (the network plays "
            "the worlds out) and a search that draws worlds"
        )
    both = sorted(phases & agent.own)
    if both:
        raise ValueError(
            f"{game} agent 'ipimc': {'+'.join(both)} in both 'playouts={playouts}' and "
            f"'own_phases': give each phase to one of them"
        )
    rival = getattr(searcher, "playout_action", None) if rivals == "search" else None
    if rivals == "search" and rival is None:
        raise ValueError(
            f"{game} agent 'ipimc': 'playout_rivals=search' needs a search with a "
            "perfect-information playout policy"
        )
    return dataclasses.replace(
        agent, playouts=PlayoutSearch(phases, worlds, sample_world, agent.other, rival)
    )


def _with_network(
    game: str, searcher: AnyAgent, others: str, net: str, prior: float = 0.0, name: str = "pimc"
) -> AnyAgent:
    """``searcher`` with the network ``net`` as its prior (``prior`` > 0) and outside card
    play (``others=bot``); the searcher itself where neither is asked for."""
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

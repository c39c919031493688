"""Agents by name: the one table of every agent of every game (``AGENTS``), and ``make_agent``,
which builds an agent from its spec (``mazzo.agents.specs``): ``random``, ``heuristic@1``,
``pimc:samples=64,ms=500``, ``nn:runs/model.pt,sample=true``.

Each agent of the table is declared per game with its parameters (``mazzo.agents.params.Param``:
type, default, range, meaning) and its versions; ``make_agent`` checks the spec against them,
so every bad input (an unknown game, agent, version or key, a value not of its declared type
or range) is a ``ValueError`` that names the agent, the item as typed and what is allowed,
before any factory runs. ``name@N`` asks for version N (the latest when omitted).

The table is built once per game, on first use: each row is a function from a game's name to
its ``AgentInfo`` (None where the game has no such agent). The games are those of
``mazzo.envs.registry``; a game's own heuristic and search are declared by its package
``mazzo.agents.<game>`` (``BUILTIN``, read by ``mazzo.agents.builtin``). ``register`` adds an
agent of one's own (a decorator on its factory) beside the table's.

Must not import torch or training/.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mazzo.agents import builtin, shipped
from mazzo.agents.base import AnyAgent, RandomAgent
from mazzo.agents.gift_guard import GIFT_CHOICES, GiftGuard
from mazzo.agents.params import Param, describe_params, parse_params
from mazzo.agents.shipped import bot_for_rules, rules_bots, shipped_bots
from mazzo.agents.specs import AgentInfo, AgentSpec, Factory, parse_spec
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, Game, game_names, get_game

__all__ = [
    "AGENTS",
    "agent_info",
    "agents_of",
    "bot_agent",
    "known_agents",
    "make_agent",
    "nn_agent",
    "onnx_agent",
    "random_agent",
    "register",
]


def random_agent(game: str) -> AgentInfo:
    """``random``: every game."""
    return AgentInfo(game, "random", _random_factory, help="uniformly random legal actions")


def nn_agent(game: str) -> AgentInfo:
    """``nn:PATH``: a network of a ``mazzo train`` run (torch, on first use)."""
    return AgentInfo(
        game, "nn", _nn_factory(game), NN_PARAMS, positional="path",
        help="a trained network (nn:PATH, a mazzo train run directory or checkpoint)",
    )  # fmt: skip


def onnx_agent(game: str) -> AgentInfo:
    """``onnx:DIR``: an exported bundle (``mazzo.agents.bundle.agent``; onnxruntime, no torch)."""
    return AgentInfo(
        game, "onnx", _onnx_factory(game), ONNX_PARAMS, positional="path",
        help="an exported bot (onnx:DIR, a mazzo export bundle; numpy and onnxruntime only)",
    )  # fmt: skip


def bot_agent(game: str) -> AgentInfo | None:
    """``bot``: the shipped network, where the game ships one (``mazzo.agents.shipped``)."""
    root = shipped.SHIPPED
    bots = shipped_bots(root, game)
    if not bots:
        return None
    folder = (root / game).relative_to(root.parent)
    levels = shipped.shipped_levels(root, game)
    params: tuple[Param, ...] = (*NN_PARAMS[1:-1], gifts_param(BOT_GIFTS))
    if levels:
        params = (Param(
            "level", int, 0, f"a strength level, 1 (a beginner) to {max(levels)} (0: the bot "
            "itself, the strongest)", low=0, high=max(levels),
        ), *params)  # fmt: skip
    return AgentInfo(
        game, "bot", _bot_factory(game, bots, levels), params, tuple(bots),
        help=f"the shipped bot ({folder}; see its CARD.md; bot@N: version N, {folder}/vN for "
        "earlier ones)" + _other_rules_note(game) + _levels_note(levels),
    )  # fmt: skip


def _levels_note(levels: dict[int, shipped.Level]) -> str:
    """What the ``bot`` help adds where strength levels are shipped: each with its rating."""
    if not levels:
        return ""
    rated = [
        f"{n} ({level.rating:+.0f} Elo)" if level.rating is not None else str(n)
        for n, level in levels.items()
    ]
    return f"; bot:level=N plays weaker: levels {', '.join(rated)}, the heuristic at 0 Elo"


AGENTS: tuple[Callable[[str], AgentInfo | None], ...] = (
    random_agent,  # uniformly random legal actions
    builtin.heuristic_agent,  # the game's card-player rules (mazzo.agents.<game>.BUILTIN)
    builtin.pimc_agent,  # the determinized search
    builtin.ipimc_agent,  # the search with learned parts (belief, the network's prior)
    nn_agent,  # a trained network
    onnx_agent,  # an exported bot
    bot_agent,  # the shipped network
)
"""Every built-in agent, one row each: ``row(game) -> AgentInfo`` (None where the game has
none), in the order ``mazzo agents`` explains them."""

_REGISTRY: dict[tuple[str, str], AgentInfo] = {}
_loaded = False


def _load_table() -> None:
    """Fill the registry from ``AGENTS`` for every game, once (the registrations of
    ``register`` made before stay)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for game in game_names():
        for row in AGENTS:
            info = row(game)
            if info is not None:
                _REGISTRY.setdefault((game, info.name), info)


def register(
    game: str,
    name: str,
    *,
    params: Sequence[Param] = (),
    versions: Sequence[int] = (1,),
    help: str = "",
    positional: str | None = None,
) -> Callable[[Factory], Factory]:
    """Decorator: register ``factory(version=N, **values) -> agent`` as ``name`` for ``game``,
    beside the table's agents (a name of the table is replaced).

    Raises:
        ValueError: repeated parameter names, no versions, or a positional parameter that is
            not declared.
    """
    info = AgentInfo(game, name, _unset, tuple(params), tuple(sorted(versions)), help, positional)

    def deco(factory: Factory) -> Factory:
        _load_table()
        _REGISTRY[(game, name)] = dataclasses.replace(info, factory=factory)
        return factory

    return deco


def _unset(version: int) -> AnyAgent:
    """The factory of a registration checked before its decorator gives the real one."""
    raise AssertionError("a registration's factory is set by its decorator")


def agents_of(game: AnyGame | str) -> list[AgentInfo]:
    """The agents registered for ``game`` (the game or its registry name), by name. Raises
    ValueError for an unknown game."""
    game = _game_name(game)
    _load_table()
    return [_REGISTRY[k] for k in sorted(_REGISTRY) if k[0] == game]


def known_agents(game: AnyGame | str) -> list[str]:
    """Names of the agents registered for ``game``."""
    return [a.name for a in agents_of(game)]


def agent_info(name: str, game: AnyGame | str) -> AgentInfo:
    """The registration of agent ``name`` for ``game`` (the game or its registry name). Raises
    ValueError naming both."""
    game = _game_name(game)
    _load_table()
    info = _REGISTRY.get((game, name))
    if info is None:
        raise ValueError(
            f"unknown agent {name!r} for {game}; known: {', '.join(known_agents(game))}"
        )
    return info


def make_agent(
    spec: str | AgentSpec, game: AnyGame | str, rules: RulesLike | None = None
) -> AnyAgent:
    """Build the agent named by ``spec`` for ``game`` (the game or its registry name), its
    parameters checked first. With ``rules`` (the table's), ``bot`` (no version asked for) is
    the bot shipped for those rules where one is (``rules_bots``), and so is a search's
    ``net=bot``; elsewhere the rules change nothing here (a trained agent is checked against
    them where it plays: ``mazzo.agents.trained_rules``).

    Raises:
        ValueError: unknown game, agent, version or parameter; a value not of its declared type
            or range; a bad spec; or parameters the agent's constructor rejects.
    """
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    if (
        rules is not None
        and parsed.name == "bot"
        and parsed.version is None
        and str(parsed.params.get("level", "0")) == "0"
    ):
        folder = bot_for_rules(game, rules)
        if folder is not None:  # the bot of these rules, as the network it is (played as bots are)
            params = {"gifts": BOT_GIFTS, **parsed.params}
            parsed = AgentSpec("nn", None, params, str(folder), str(parsed))
    info = agent_info(parsed.name, game)
    given = dict(parsed.params)
    typed = {k: f"{k}={v}" for k, v in parsed.params.items()}
    if parsed.positional is not None:
        if info.positional is None:
            raise ValueError(
                f"{info.where}: bad item {parsed.positional!r} in {str(parsed)!r} (expected "
                f"key=value); {describe_params(info.params)}"
            )
        given[info.positional] = parsed.positional
        typed[info.positional] = parsed.positional
    values = parse_params(info.where, info.params, given, typed)
    table_bot = None
    if rules is not None and values.get("net") == "bot":  # a search's network: the table's bot
        folder = bot_for_rules(game, rules)
        if folder is not None:
            table_bot = values["net"] = f"nn:path={folder}"
    version = parsed.version if parsed.version is not None else max(info.versions)
    if version not in info.versions:
        raise ValueError(
            f"{info.where} has no version {version} (in {str(parsed)!r}); versions: "
            f"{', '.join(map(str, info.versions))}"
        )
    agent = info.factory(version=version, **values)
    if table_bot is not None:  # named as asked for: the folder is the rules' business
        agent.name = agent.name.replace(f"net={table_bot}", "net=bot")
    return agent


def _game_name(game: AnyGame | str) -> str:
    """The registry name of ``game``; an unknown name is a ValueError listing the known."""
    if isinstance(game, Game):
        return game.name
    if game not in game_names():
        raise ValueError(f"unknown game {game!r}; known: {', '.join(game_names())}")
    return game


def _other_rules_note(game: str) -> str:
    """What the ``bot`` help adds where bots are shipped for other rules than the default."""
    others = rules_bots(shipped.SHIPPED, game)
    if not others:
        return ""
    return f"; at a table of other rules, the bot trained for them: {', '.join(others)}"


def _guarded(agent: Any, game: str, gifts: str) -> AnyAgent:
    """``agent`` itself (``gifts=keep``), or behind the sure-gift guard (``gifts=avoid``)."""
    return GiftGuard(agent, get_game(game)) if gifts == "avoid" else agent


def _random_factory(version: int) -> AnyAgent:
    return RandomAgent()


FOREIGN_RULES = Param(
    "foreign_rules", bool, False,
    help="play under rules other than those it was trained for (refused otherwise)",
)  # fmt: skip


def gifts_param(default: str) -> Param:
    """A trained agent's ``gifts``: ``avoid`` replaces each sure gift by the likeliest blank card
    (``mazzo.agents.gift_guard``), ``keep`` plays the network as trained."""
    return Param(
        "gifts", str, default, choices=GIFT_CHOICES,
        help="avoid: never a sure gift (a counter thrown last onto the other side's trick while "
        "a blank card is held; the likeliest blank instead); keep: the network as trained",
    )  # fmt: skip


NN_PARAMS = (
    Param("path", Path, required=True, help="a mazzo train run directory or checkpoint folder"),
    Param("sample", bool, False, help="sample from the policy instead of its best action"),
    FOREIGN_RULES,
    gifts_param("keep"),
)
BOT_GIFTS = "avoid"  # the shipped bots play guarded: docs/agents.md, "Sure gifts"


def _nn_factory(game: str) -> Factory:
    def make(
        version: int,
        path: Path,
        sample: bool = False,
        foreign_rules: bool = False,
        gifts: str = "keep",
    ) -> AnyAgent:
        from mazzo.agents.neural import load_policy  # torch is imported only when a network is used

        agent, meta = load_policy(path, sample=sample)
        if meta.get("game") != game:
            raise ValueError(f"{path} holds a {meta.get('game')} policy, not a {game} one")
        agent.foreign_rules = foreign_rules
        return _guarded(agent, game, gifts)

    return make


ONNX_PARAMS = (
    Param("path", Path, required=True, help="a bundle folder written by mazzo export"),
    Param("sample", bool, False, help="sample from the policy instead of its best action"),
    FOREIGN_RULES,
    gifts_param("keep"),
)


def _onnx_factory(game: str) -> Factory:
    def make(
        version: int,
        path: Path,
        sample: bool = False,
        foreign_rules: bool = False,
        gifts: str = "keep",
    ) -> AnyAgent:
        from mazzo.agents.bundle.agent import make_onnx_agent  # onnxruntime only when used

        return _guarded(make_onnx_agent(game, path, sample, foreign_rules), game, gifts)

    return make


def _bot_factory(
    game: str, bots: dict[int, Path], levels: dict[int, shipped.Level] | None = None
) -> Factory:
    nn = _nn_factory(game)

    def make(
        version: int,
        sample: bool = False,
        foreign_rules: bool = False,
        gifts: str = BOT_GIFTS,
        level: int = 0,
    ) -> AnyAgent:
        if level:
            if version != max(bots):
                raise ValueError(
                    f"{game} agent 'bot@{version}:level={level}': a level is a bot of its own; "
                    "give bot:level=N without a version"
                )
            assert levels is not None  # level's range is checked against them
            return nn(version, levels[level].folder, sample, foreign_rules, gifts)
        folder = bots[version]
        if not (folder / "model.pt").exists():  # an installed package keeps its metadata only
            here = [v for v, f in bots.items() if (f / "model.pt").exists()]
            raise ValueError(
                f"{game} agent 'bot@{version}': its weights are not installed with the package "
                f"(they are in the repository, checkpoints/{game}/v{version}: clone it and use "
                f"nn:checkpoints/{game}/v{version}); installed: "
                + ", ".join(f"bot@{v}" for v in here)
            )
        return nn(version, folder, sample, foreign_rules, gifts)

    return make

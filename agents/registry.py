"""Agents by name: the spec strings the CLI, the configs and the arena use.

A spec is ``name[@version][:item,item,...]``: ``random``, ``heuristic@1``,
``pimc:samples=64,ms=500``, and for an agent that declares a positional parameter, a bare
first item, ``nn:runs/model.pt,temperature=0.5``. Each agent is registered per game and name
with its declared parameters (``mazzo.agents.params.Param``: type, default, range, meaning) and its
versions; ``make_agent`` checks the spec against them, so every bad input (an unknown game,
agent, version or key, a value not of its declared type or range) is a ``ValueError`` that
names the agent, the item as typed and what is allowed, before any factory runs. ``name@N``
asks for version N (the latest when omitted). A named shipped bot is one more registration
(a name, no parameters, its own factory).

The games are those of ``mazzo.envs.registry``; a game's built-in agents live in the package
``mazzo.agents.<game>``, imported on first use (it registers them), and ``random`` is registered
for every game.

Must not import torch or training/.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mazzo.agents.base import AnyAgent, RandomAgent
from mazzo.agents.params import Param, describe_params, parse_params
from mazzo.envs.cards.flags import resolved_flags
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, Game, game_names, get_game

__all__ = [
    "RULES_FOLDER",
    "AgentInfo",
    "AgentSpec",
    "agent_info",
    "agents_of",
    "bot_for_rules",
    "known_agents",
    "make_agent",
    "parse_spec",
    "register",
    "rules_bots",
    "shipped_bots",
    "shipped_rule_sets",
]

Factory = Callable[..., AnyAgent]


@dataclass(frozen=True)
class AgentInfo:
    """A registered agent.

    Attributes:
        game: the game it plays.
        name: its name in specs.
        factory: ``factory(version=N, **values) -> agent``, called with every declared
            parameter's checked value.
        params: its declared parameters.
        versions: the versions that can be built (the latest is the default).
        help: what it is, in one line.
        positional: the parameter a bare first item of the spec gives (``nn:PATH``), if any.
    """

    game: str
    name: str
    factory: Factory
    params: tuple[Param, ...] = ()
    versions: tuple[int, ...] = (1,)
    help: str = ""
    positional: str | None = None

    @property
    def where(self) -> str:
        """How messages name it: ``calabresella agent 'pimc'``."""
        return f"{self.game} agent {self.name!r}"

    def usage(self) -> str:
        """The spec's shape: ``pimc[@1][:samples=24,ms=800,...]``."""
        version = f"[@{'|'.join(map(str, self.versions))}]"
        items = [f"{p.name}={_plain(p.default)}" for p in self.params if p.name != self.positional]
        if self.positional is not None:
            items.insert(0, self.positional.upper())
        return self.name + version + (f"[:{','.join(items)}]" if items else "")


_REGISTRY: dict[tuple[str, str], AgentInfo] = {}


@dataclass(frozen=True)
class AgentSpec:
    """A parsed agent spec: the values are kept as typed (strings) until ``make_agent``
    checks them against the agent's declared parameters.

    Attributes:
        name: the agent's name.
        version: the version asked for (None: the latest).
        params: key -> value (a string as typed, or an already typed value).
        positional: the bare first item, if any (``nn:PATH``).
        text: the spec as given (for messages).
    """

    name: str
    version: int | None = None
    params: dict[str, object] = field(default_factory=dict)
    positional: str | None = None
    text: str = ""

    def __str__(self) -> str:
        if self.text:
            return self.text
        text = self.name + (f"@{self.version}" if self.version is not None else "")
        items = [self.positional] if self.positional is not None else []
        items += [f"{k}={v}" for k, v in sorted(self.params.items())]
        return text + (":" + ",".join(items) if items else "")


def parse_spec(spec: str) -> AgentSpec:
    """``'pimc@1:samples=64'`` -> AgentSpec('pimc', 1, {'samples': '64'}).

    Only the shape is checked here (the values are checked by ``make_agent``).

    Raises:
        ValueError: an empty spec or name, a version that is not a number, an item without
            ``=`` after the first, a key given twice.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec must be a non-empty string, got {spec!r}")
    text = spec.strip()
    head, _, tail = text.partition(":")
    name, at, version = head.partition("@")
    if not name.strip():
        raise ValueError(f"agent spec {spec!r} has no agent name (expected name[@N][:key=value])")
    if at and not version.strip().isdigit():
        raise ValueError(f"bad version {version!r} in agent spec {spec!r} (expected name@N)")
    params: dict[str, object] = {}
    positional: str | None = None
    for i, item in enumerate(tail.split(",") if tail else []):
        key, sep, value = item.partition("=")
        if not sep and i == 0 and item.strip():
            positional = item.strip()
            continue
        if not sep or not key.strip():
            raise ValueError(f"bad item {item!r} in agent spec {spec!r} (expected key=value)")
        if key.strip() in params:
            raise ValueError(f"agent spec {spec!r} gives {key.strip()!r} twice")
        params[key.strip()] = value.strip()
    return AgentSpec(name.strip(), int(version) if at else None, params, positional, text)


def register(
    game: str,
    name: str,
    *,
    params: Sequence[Param] = (),
    versions: Sequence[int] = (1,),
    help: str = "",
    positional: str | None = None,
) -> Callable[[Factory], Factory]:
    """Decorator: register ``factory(version=N, **values) -> agent`` as ``name`` for ``game``.

    Raises:
        ValueError: repeated parameter names, no versions, or a positional parameter that is
            not declared.
    """
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise ValueError(f"{game} agent {name!r}: parameter names repeat: {names}")
    if not versions:
        raise ValueError(f"{game} agent {name!r}: needs at least one version")
    if positional is not None and positional not in names:
        raise ValueError(f"{game} agent {name!r}: positional {positional!r} is not a parameter")

    def deco(factory: Factory) -> Factory:
        _REGISTRY[(game, name)] = AgentInfo(
            game, name, factory, tuple(params), tuple(sorted(versions)), help, positional
        )
        return factory

    return deco


def agents_of(game: AnyGame | str) -> list[AgentInfo]:
    """The agents registered for ``game`` (the game or its registry name), by name. Raises
    ValueError for an unknown game."""
    game = _game_name(game)
    _load_builtin()
    return [_REGISTRY[k] for k in sorted(_REGISTRY) if k[0] == game]


def known_agents(game: AnyGame | str) -> list[str]:
    """Names of the agents registered for ``game``."""
    return [a.name for a in agents_of(game)]


def agent_info(name: str, game: AnyGame | str) -> AgentInfo:
    """The registration of agent ``name`` for ``game`` (the game or its registry name). Raises
    ValueError naming both."""
    game = _game_name(game)
    _load_builtin()
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
    the bot shipped for those rules where one is (``rules_bots``); elsewhere the rules change
    nothing here (a trained agent is checked against them where it plays:
    ``mazzo.agents.trained_rules``).

    Raises:
        ValueError: unknown game, agent, version or parameter; a value not of its declared type
            or range; a bad spec; or parameters the agent's constructor rejects.
    """
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    if rules is not None and parsed.name == "bot" and parsed.version is None:
        folder = bot_for_rules(game, rules)
        if folder is not None:  # the bot of these rules, as the network it is
            parsed = AgentSpec("nn", None, parsed.params, str(folder), str(parsed))
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
    version = parsed.version if parsed.version is not None else max(info.versions)
    if version not in info.versions:
        raise ValueError(
            f"{info.where} has no version {version} (in {str(parsed)!r}); versions: "
            f"{', '.join(map(str, info.versions))}"
        )
    return info.factory(version=version, **values)


def _game_name(game: AnyGame | str) -> str:
    """The registry name of ``game``; an unknown name is a ValueError listing the known."""
    if isinstance(game, Game):
        return game.name
    if game not in game_names():
        raise ValueError(f"unknown game {game!r}; known: {', '.join(game_names())}")
    return game


def _plain(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{value:g}" if isinstance(value, float) else str(value)


_loaded = False


def _load_builtin() -> None:
    """Register ``random``, ``nn``, ``onnx`` and the shipped ``bot`` for every game, and import
    each game's built-in agents once."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib

    for game in game_names():
        register(game, "random", help="uniformly random legal actions")(_random_factory)
        register(
            game, "nn", params=NN_PARAMS, positional="path",
            help="a trained network (nn:PATH, a mazzo train run directory or checkpoint)",
        )(_nn_factory(game))  # fmt: skip
        register(
            game, "onnx", params=ONNX_PARAMS, positional="path",
            help="an exported bot (onnx:DIR, a mazzo export bundle; numpy and onnxruntime only)",
        )(_onnx_factory(game))  # fmt: skip
        bots = shipped_bots(SHIPPED, game)
        if bots:
            shipped = SHIPPED / game
            register(
                game, "bot", params=NN_PARAMS[1:], versions=tuple(bots),
                help=f"the shipped bot ({shipped.relative_to(SHIPPED.parent)}; see its CARD.md; "
                f"bot@N: version N, {shipped.relative_to(SHIPPED.parent)}/vN for earlier ones)"
                + _other_rules_note(game),
            )(_bot_factory(game, bots))  # fmt: skip
        module = f"mazzo.agents.{game}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise


def _other_rules_note(game: str) -> str:
    """What the ``bot`` help adds where bots are shipped for other rules than the default."""
    others = rules_bots(SHIPPED, game)
    if not others:
        return ""
    return f"; at a table of other rules, the bot trained for them: {', '.join(others)}"


def _random_factory(version: int) -> AnyAgent:
    return RandomAgent()


SHIPPED = Path(__file__).resolve().parents[1] / "checkpoints"
FOREIGN_RULES = Param(
    "foreign_rules", bool, False,
    help="play under rules other than those it was trained for (refused otherwise)",
)  # fmt: skip
NN_PARAMS = (
    Param("path", Path, required=True, help="a mazzo train run directory or checkpoint folder"),
    Param("sample", bool, False, help="sample from the policy instead of its best action"),
    FOREIGN_RULES,
)


def _nn_factory(game: str) -> Factory:
    def make(
        version: int, path: Path, sample: bool = False, foreign_rules: bool = False
    ) -> AnyAgent:
        from mazzo.agents.neural import load_policy  # torch is imported only when a network is used

        agent, meta = load_policy(path, sample=sample)
        if meta.get("game") != game:
            raise ValueError(f"{path} holds a {meta.get('game')} policy, not a {game} one")
        agent.foreign_rules = foreign_rules
        return agent

    return make


ONNX_PARAMS = (
    Param("path", Path, required=True, help="a bundle folder written by mazzo export"),
    Param("sample", bool, False, help="sample from the policy instead of its best action"),
    FOREIGN_RULES,
)


def _onnx_factory(game: str) -> Factory:
    def make(
        version: int, path: Path, sample: bool = False, foreign_rules: bool = False
    ) -> AnyAgent:
        from mazzo.agents.bundle import BundleAgent, load_bundle  # onnxruntime only when used

        bundle = load_bundle(path)
        if bundle.game_name != game:
            raise ValueError(f"{path} is a bundle for {bundle.game_name}, not for {game}")
        agent = BundleAgent(bundle, sample=sample)
        agent.foreign_rules = foreign_rules
        return agent

    return make


RULES_FOLDER = "rules"
"""``checkpoints/<game>/rules/<flags>/``: the bots shipped for other rule sets than the default,
one folder each (a shipped folder: ``meta.json`` names its rules' flags)."""


def rules_bots(root: Path, game: str) -> dict[str, Path]:
    """The bots shipped for rule sets other than the default: their folder by name (the
    flags, ``players=4``), sorted. Empty when there is none."""
    folder = root / game / RULES_FOLDER
    if not folder.is_dir():
        return {}
    return {d.name: d for d in sorted(folder.iterdir()) if (d / "meta.json").is_file()}


def shipped_rule_sets(game: str) -> list[dict[str, object]]:
    """The flags of each rule set a bot is shipped for besides the default (``rules_bots``)."""
    return [
        dict(json.loads((folder / "meta.json").read_text()).get("flags", {}))
        for folder in rules_bots(SHIPPED, game).values()
    ]


def bot_for_rules(game: AnyGame | str, rules: RulesLike) -> Path | None:
    """The folder of the bot shipped for ``rules`` when they are not the default bot's (None
    for the default rules, or rules no shipped bot was trained for)."""
    g = get_game(game) if isinstance(game, str) else game
    wanted = resolved_flags(rules)
    if wanted == resolved_flags(g.rules()):
        return None
    for folder in rules_bots(SHIPPED, g.name).values():
        meta = json.loads((folder / "meta.json").read_text())
        if resolved_flags(g.rules(meta.get("flags", {}))) == wanted:
            return folder
    return None


def shipped_bots(root: Path, game: str) -> dict[int, Path]:
    """The shipped bot's versions, oldest first: ``root/<game>/v<N>/`` hold the earlier ones
    (each a shipped folder with its ``meta.json``); ``root/<game>/`` itself holds the latest,
    numbered one past the highest earlier version (1 when there is none). Empty when the game
    ships no bot."""
    folder = root / game
    if not (folder / "meta.json").exists():
        return {}
    earlier = {
        int(d.name[1:]): d
        for d in folder.glob("v*")
        if d.name[1:].isdigit() and (d / "meta.json").exists()
    }
    return dict(sorted(earlier.items())) | {max(earlier, default=0) + 1: folder}


def _bot_factory(game: str, bots: dict[int, Path]) -> Factory:
    nn = _nn_factory(game)

    def make(version: int, sample: bool = False, foreign_rules: bool = False) -> AnyAgent:
        folder = bots[version]
        if not (folder / "model.pt").exists():  # an installed package keeps its metadata only
            here = [v for v, f in bots.items() if (f / "model.pt").exists()]
            raise ValueError(
                f"{game} agent 'bot@{version}': its weights are not installed with the package "
                f"(they are in the repository, checkpoints/{game}/v{version}: clone it and use "
                f"nn:checkpoints/{game}/v{version}); installed: "
                + ", ".join(f"bot@{v}" for v in here)
            )
        return nn(version, folder, sample, foreign_rules)

    return make

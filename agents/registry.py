"""Agents by name: the spec strings the CLI, the configs and the arena use.

A spec is ``name`` or ``name:key=value,key=value`` (``random``, ``heuristic``, ``heuristic@1``,
``pimc:samples=64,ms=500``); values are parsed as int, float, bool or string. ``name@N`` asks
for version N of a versioned agent (the latest when omitted). A factory is registered per game
and name; unknown names, games and parameters raise ``ValueError`` naming them. The games are
those of ``envs.registry``; a game's built-in agents live in the package ``agents.<game>``,
imported on first use (it registers them), and ``random`` is registered for every game.

Must not import torch or training/.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agents.base import AnyAgent, RandomAgent
from envs.registry import game_names

__all__ = ["AgentSpec", "known_agents", "make_agent", "parse_spec", "register"]

Factory = Callable[..., AnyAgent]
_REGISTRY: dict[tuple[str, str], Factory] = {}


@dataclass(frozen=True)
class AgentSpec:
    """A parsed agent spec."""

    name: str
    version: int | None = None
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        text = self.name + (f"@{self.version}" if self.version is not None else "")
        if self.params:
            text += ":" + ",".join(f"{k}={v}" for k, v in sorted(self.params.items()))
        return text


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> AgentSpec:
    """``'pimc@1:samples=64'`` -> AgentSpec('pimc', 1, {'samples': 64}). Raises ValueError."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec must be a non-empty string, got {spec!r}")
    head, _, tail = spec.strip().partition(":")
    name, _, version = head.partition("@")
    if version and not version.isdigit():
        raise ValueError(f"bad version {version!r} in agent spec {spec!r} (expected name@N)")
    params: dict[str, Any] = {}
    for item in filter(None, tail.split(",")):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bad parameter {item!r} in agent spec {spec!r} (expected key=value)")
        params[key.strip()] = _value(value.strip())
    return AgentSpec(name.strip(), int(version) if version else None, params)


def register(game: str, name: str) -> Callable[[Factory], Factory]:
    """Decorator: register ``factory(version=None, **params) -> Agent`` for ``game``/``name``."""

    def deco(factory: Factory) -> Factory:
        _REGISTRY[(game, name)] = factory
        return factory

    return deco


def known_agents(game: str) -> list[str]:
    """Names of the agents registered for ``game``."""
    _load_builtin()
    return sorted(name for g, name in _REGISTRY if g == game)


def make_agent(spec: str | AgentSpec, game: str) -> AnyAgent:
    """Build the agent named by ``spec`` for ``game``.

    Raises:
        ValueError: unknown game or agent name, a bad spec, or parameters the agent rejects.
    """
    if game not in game_names():
        raise ValueError(f"unknown game {game!r}; known: {', '.join(game_names())}")
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    _load_builtin()
    factory = _REGISTRY.get((game, parsed.name))
    if factory is None:
        raise ValueError(
            f"unknown agent {parsed.name!r} for {game}; known: {', '.join(known_agents(game))}"
        )
    try:
        return factory(version=parsed.version, **parsed.params)
    except TypeError as e:
        raise ValueError(f"bad parameters for agent {str(parsed)!r}: {e}") from None


_loaded = False


def _load_builtin() -> None:
    """Register ``random`` for every game and import each game's built-in agents once."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib

    for game in game_names():
        register(game, "random")(_random_factory)
        module = f"agents.{game}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise


def _random_factory(version: int | None = None) -> AnyAgent:
    if version not in (None, 1):
        raise ValueError(f"agent 'random' has only version 1, not {version}")
    return RandomAgent()

"""Agent specs and registrations, the vocabulary of the agent table (``mazzo.agents.registry``).

A spec is ``name[@version][:item,item,...]``: ``random``, ``heuristic@1``,
``pimc:samples=64,ms=500``, and for an agent that declares a positional parameter, a bare
first item, ``nn:runs/model.pt,temperature=0.5``. ``parse_spec`` checks its shape; an
``AgentInfo`` is one agent of one game: its factory, its declared parameters
(``mazzo.agents.params.Param``: type, default, range, meaning), its versions and its help line.

Must not import torch or training/.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from mazzo.agents.base import AnyAgent
from mazzo.agents.params import Param

__all__ = ["AgentInfo", "AgentSpec", "Factory", "parse_spec"]

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

    def __post_init__(self) -> None:
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.where}: parameter names repeat: {names}")
        if not self.versions:
            raise ValueError(f"{self.where}: needs at least one version")
        if self.positional is not None and self.positional not in names:
            raise ValueError(f"{self.where}: positional {self.positional!r} is not a parameter")

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

    The first item is positional (``nn:PATH``) when it is no ``key=value`` with a plain name
    for key: ``nn:checkpoints/calabresella/rules/players=4`` names a folder.

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
        if i == 0 and item.strip() and (not sep or not key.strip().isidentifier()):
            positional = item.strip()  # a bare first item: a path may hold "=" (players=4)
            continue
        if not sep or not key.strip():
            raise ValueError(f"bad item {item!r} in agent spec {spec!r} (expected key=value)")
        if key.strip() in params:
            raise ValueError(f"agent spec {spec!r} gives {key.strip()!r} twice")
        params[key.strip()] = value.strip()
    return AgentSpec(name.strip(), int(version) if at else None, params, positional, text)


def _plain(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{value:g}" if isinstance(value, float) else str(value)

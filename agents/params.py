"""Typed agent parameters: what an agent spec's ``key=value`` items may say, and the parsing of
them.

Every registered agent declares its parameters as a tuple of ``Param`` (name, type, default,
range or choices, one-line meaning); ``parse_params`` checks a spec's items against them and
returns the typed values. Strings are parsed by the declared type, never guessed: ``samples=1.5``
is an error for an ``int`` parameter, ``ms=true`` for a ``float`` one. Every error is a
``ValueError`` naming the agent, the item as the user typed it, the problem and what is
allowed. The same declarations serve every kind of agent: numbers and switches (``pimc``), a
path (a network's checkpoint, ``Param("path", Path, required=True)``), a choice among names.

Must not import torch, numpy or training/.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Param", "describe_params", "parse_params"]

ParamType = type[int] | type[float] | type[bool] | type[str] | type[Path]
_TYPE_NAMES: dict[type, str] = {int: "int", float: "float", bool: "bool", str: "str", Path: "path"}
_INT = re.compile(r"[+-]?\d+")


@dataclass(frozen=True)
class Param:
    """One declared parameter of an agent.

    Attributes:
        name: the key in a spec (``samples`` in ``pimc:samples=64``).
        type: ``int``, ``float``, ``bool`` (``true``/``false``), ``str`` or ``pathlib.Path``.
        default: the value when the spec does not give it (ignored when ``required``).
        help: what it means, in one line.
        low: the smallest allowed value (numbers only; None: no bound).
        high: the largest allowed value (numbers only; None: no bound).
        choices: the allowed values (strings only; empty: any).
        required: the spec must give it (no default).
        must_exist: for a path, the file must exist.
    """

    name: str
    type: ParamType
    default: Any = None
    help: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    required: bool = False
    must_exist: bool = False

    def __post_init__(self) -> None:
        if self.type not in _TYPE_NAMES:
            raise TypeError(f"parameter {self.name!r}: unsupported type {self.type!r}")
        if not self.required:
            self.check(self.default)

    @property
    def kind(self) -> str:
        """What the value is, with its range: ``int >= 1``, ``int 0..4``, ``one of a|b``."""
        name = _TYPE_NAMES[self.type]
        if self.choices:
            return "one of " + "|".join(self.choices)
        if self.type is bool:
            return "true|false"
        if self.low is not None and self.high is not None:
            return f"{name} {_num(self.low)}..{_num(self.high)}"
        if self.low is not None:
            return f"{name} >= {_num(self.low)}"
        if self.high is not None:
            return f"{name} <= {_num(self.high)}"
        return name

    def describe(self) -> str:
        """``samples (int >= 1, default 24)``."""
        default = "required" if self.required else f"default {_show(self.default)}"
        return f"{self.name} ({self.kind}, {default})"

    def parse(self, value: Any) -> Any:
        """The typed value of ``value`` (a string as typed in a spec, or an already typed
        value). Raises ValueError saying what is wrong (without the agent's name)."""
        typed = self._from_text(value) if isinstance(value, str) else value
        self.check(typed)
        if self.type is float:
            return float(typed)
        return Path(typed) if self.type is Path else typed

    def check(self, value: Any) -> None:
        """Raise ValueError unless ``value`` is of this parameter's type and range."""
        if not _is_type(value, self.type):
            raise ValueError(f"not {_article(self.type)}")
        if self.type in (int, float) and not math.isfinite(value):
            raise ValueError("not a finite number")
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise ValueError("out of range")
        if self.choices and value not in self.choices:
            raise ValueError("not an allowed choice")
        if self.type is Path:
            if not str(value):
                raise ValueError("an empty path")
            if self.must_exist and not Path(value).is_file():
                raise ValueError("no such file")

    def _from_text(self, text: str) -> Any:
        if self.type is str:
            return text
        if self.type is Path:
            return Path(text)
        if self.type is bool:
            if text.lower() not in ("true", "false"):
                raise ValueError("not true or false")
            return text.lower() == "true"
        if self.type is int:
            if not _INT.fullmatch(text):
                raise ValueError("not an integer")
            return int(text)
        try:
            return float(text)
        except ValueError:
            raise ValueError("not a number") from None


def parse_params(
    where: str, params: Sequence[Param], given: Mapping[str, Any], typed: Mapping[str, str]
) -> dict[str, Any]:
    """Check ``given`` (key -> value) against ``params``; every declared parameter's value.

    Args:
        where: the agent, for messages (``calabresella agent 'pimc'``).
        params: its declared parameters.
        given: the values of the spec (strings as typed, or typed values).
        typed: the items as the user typed them, by key (``samples=abc``), for messages.

    Raises:
        ValueError: an unknown key, a value not of its type or range, a required one missing.
    """
    by_name = {p.name: p for p in params}
    for key in given:
        if key not in by_name:
            raise ValueError(f"{where}: unknown parameter {key!r}; {describe_params(params)}")
    values: dict[str, Any] = {}
    for p in params:
        if p.name not in given:
            if p.required:
                raise ValueError(f"{where}: {p.name} is required; {describe_params(params)}")
            values[p.name] = p.default
            continue
        try:
            values[p.name] = p.parse(given[p.name])
        except ValueError as e:
            item = typed.get(p.name, f"{p.name}={given[p.name]!r}")
            raise ValueError(f"{where}: {item!r}: {e}; allowed: {p.describe()}") from None
    return values


def describe_params(params: Sequence[Param]) -> str:
    """``known: samples (int >= 1, default 24), ms (...)``, or that there are none."""
    if not params:
        return "it takes no parameters"
    return "known: " + ", ".join(p.describe() for p in params)


def _is_type(value: Any, kind: ParamType) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind is Path:
        return isinstance(value, Path | str)
    return isinstance(value, str)


def _article(kind: ParamType) -> str:
    return {int: "an integer", float: "a number", bool: "true or false", Path: "a path"}.get(
        kind, "a string"
    )


def _num(x: float) -> str:
    return f"{x:g}"


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)

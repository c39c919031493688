"""Rule flags: building a game's frozen ``Rules`` dataclass from a flags mapping, with every
unknown name or bad value rejected by a ``ValueError`` that names it, and writing the flags that
differ from the defaults back out (for D.3 records); and reading ``key=value`` items as typed on
a command line (``parse_assignments``).

A field may declare ``metadata={"choices": (...)}`` (allowed values) or, for a tuple field,
``metadata={"items": (...)}`` (allowed members). Types come from the field's default value.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

import dataclasses
import difflib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from mazzo.envs.cards.jsontext import loads

__all__ = [
    "check_fields",
    "did_you_mean",
    "flag_differences",
    "parse_assignments",
    "require_same_rules",
    "resolved_flags",
    "rules_from_flags",
    "rules_to_flags",
]

R = TypeVar("R")


def rules_from_flags(cls: type[R], flags: Mapping[str, Any], game: str) -> R:
    """Validate ``flags`` against the fields of dataclass ``cls`` and build an instance.

    Raises:
        ValueError: an unknown flag (the known ones are listed) or a value of the wrong type or
            outside the allowed choices.
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    kwargs: dict[str, Any] = {}
    for name, value in flags.items():
        f = fields.get(name)
        if f is None:
            raise ValueError(
                f"unknown {game} flag {name!r}{did_you_mean(name, fields)}; known flags: "
                f"{', '.join(fields)}"
            )
        kwargs[name] = _coerce(name, value, f, game)
    rules = cls(**kwargs)
    check = getattr(rules, "validate", None)
    if check is not None:
        check()
    return rules


def rules_to_flags(rules: object) -> dict[str, Any]:
    """The flags of ``rules`` that differ from the defaults, JSON-ready (tuples as lists)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(rules):  # type: ignore[arg-type]
        value = getattr(rules, f.name)
        if value != f.default:
            out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def require_same_rules(record_rules: Any, env_rules: Any) -> None:
    """Raise ``ValueError`` listing the flags where a record's rules differ from an env's."""
    if record_rules == env_rules:
        return
    a, b = rules_to_flags(record_rules), rules_to_flags(env_rules)
    diff = {
        k: (a.get(k, "default"), b.get(k, "default"))
        for k in sorted(set(a) | set(b))
        if a.get(k) != b.get(k)
    }
    raise ValueError(f"the deal's flags differ from the environment's (record, env): {diff}")


def check_fields(rules: Any, game: str) -> None:
    """Check every field of the frozen dataclass ``rules`` (its type, that of its default; its
    ``choices`` or tuple ``items``), whatever built it, converting in place what ``from_flags``
    converts (a list to a tuple, an int to a float). Games call it from ``__post_init__``.

    Raises:
        ValueError: in the words of ``rules_from_flags``, naming the flag and the value.
    """
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        checked = _coerce(f.name, value, f, game)
        if checked is not value:
            object.__setattr__(rules, f.name, checked)  # a list as a tuple, an int as a float


def _coerce(name: str, value: Any, f: dataclasses.Field[Any], game: str) -> Any:
    default = f.default
    where = f"{game} flag {name!r}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{where} must be true or false, got {value!r}")
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{where} must be an integer, got {value!r}")
    elif isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{where} must be a number, got {value!r}")
        value = float(value)
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise ValueError(f"{where} must be a string, got {value!r}")
    elif isinstance(default, tuple):
        if isinstance(value, str) or not isinstance(value, list | tuple):
            raise ValueError(f"{where} must be a list, got {value!r}")
        value = tuple(value)
        items = f.metadata.get("items")
        if items is not None:
            bad = [v for v in value if v not in items]
            if bad:
                raise ValueError(f"{where}: unknown member(s) {bad}; allowed: {list(items)}")
        elif default and not all(type(v) is type(default[0]) for v in value):
            kind = type(default[0]).__name__
            raise ValueError(f"{where} must be a list of {kind}, got {value!r}")
    choices = f.metadata.get("choices")
    if choices is not None and value not in choices:
        raise ValueError(f"{where} must be one of {list(choices)}, got {value!r}")
    return value


def parse_assignments(items: Sequence[str], option: str) -> dict[str, Any]:
    """``["players=4", "aperta=true", "name=x"]`` -> ``{"players": 4, "aperta": True, "name":
    "x"}``: the values as JSON where they parse, else the text; the one reader of ``key=value``
    items typed on a command line (``--flag`` rule flags, a trainer config's ``--set``).

    Raises:
        ValueError: an item without ``=`` or with an empty key, naming ``option`` and the item.
    """
    out: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"{option} expects key=value, got {item!r}")
        try:
            out[key.strip()] = loads(text)
        except json.JSONDecodeError:
            out[key.strip()] = text
    return out


def resolved_flags(rules: Any) -> dict[str, Any]:
    """Every rule flag of the frozen dataclass ``rules`` (defaults included), JSON-ready (tuples
    as lists): what a checkpoint or a bundle records of the rules a policy was trained for."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def flag_differences(
    first: Mapping[str, Any], second: Mapping[str, Any], ignore: Sequence[str] = ()
) -> list[tuple[str, Any, Any]]:
    """``(flag, first's value, second's value)`` for every flag, in name order, whose values in
    the two resolved flag tables differ (``None`` where a table lacks the flag); the flags
    named in ``ignore`` are left out."""
    return [
        (k, first.get(k), second.get(k))
        for k in sorted(set(first) | set(second))
        if k not in ignore and first.get(k) != second.get(k)
    ]


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``known`` to a mistyped ``name``, else "":
    the hint every message naming an unknown key, flag or name gives."""
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""

"""Trainer configs: TOML files under ``configs/`` validated against a dataclass.

Every key of the file (and every ``--set key=value``) must be a field of the trainer's config
dataclass; a value must have the field's type (ints for ints, a list of ints for a tuple of
ints, ...). An unknown key or a bad value is a ``ValueError`` that names it, the file and what
is allowed. A config records itself as a plain dict (``config_dict``) for checkpoints and
TensorBoard's hyperparameters.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["config_dict", "load_config", "make_config", "parse_overrides", "read_toml"]

C = TypeVar("C")


def _fields(cls: type[Any]) -> dict[str, dataclasses.Field[Any]]:
    return {f.name: f for f in dataclasses.fields(cls)}


def _describe(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is tuple:
        return f"a list of {_describe(typing.get_args(tp)[0])}"
    if origin in (dict, Mapping):
        return "a table"
    if origin in (types.UnionType, typing.Union):
        return " or ".join(_describe(a) for a in typing.get_args(tp))
    return getattr(tp, "__name__", str(tp))


def _coerce(name: str, value: Any, tp: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    bad = ValueError(f"{where}: {name} must be {_describe(tp)}, got {value!r}")
    if origin in (types.UnionType, typing.Union):
        for arg in typing.get_args(tp):
            if arg is type(None) and value is None:
                return None
            try:
                return _coerce(name, value, arg, where)
            except ValueError:
                continue
        raise bad
    if origin is tuple:
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise bad
        item = typing.get_args(tp)[0]
        return tuple(_coerce(name, v, item, where) for v in value)
    if origin in (dict, Mapping):
        if not isinstance(value, Mapping):
            raise bad
        return dict(value)
    if tp is bool:
        if not isinstance(value, bool):
            raise bad
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise bad
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise bad
        return value
    raise bad


def make_config(cls: type[C], values: Mapping[str, Any], where: str = "config") -> C:
    """``cls(**values)`` with every key and value checked (see the module docstring).

    Raises:
        ValueError: an unknown key (the known ones are listed), a bad value, a missing key, or
            what the dataclass's own ``__post_init__`` refuses.
    """
    fields = _fields(cls)
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        if key not in fields:
            raise ValueError(f"{where}: unknown key {key!r}; known: {', '.join(fields)}")
        kwargs[key] = _coerce(key, value, hints[key], where)
    missing = [
        n for n, f in fields.items()
        if n not in kwargs and f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
    ]  # fmt: skip
    if missing:
        raise ValueError(f"{where}: missing key(s) {', '.join(missing)}")
    try:
        return cls(**kwargs)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def parse_overrides(items: Sequence[str]) -> dict[str, Any]:
    """``["lr=1e-4", "hidden=[128,128]", "game=minchiate"]`` -> a dict of values (JSON where it
    parses, else the text)."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--set expects key=value, got {item!r}")
        try:
            out[key.strip()] = json.loads(text)
        except json.JSONDecodeError:
            out[key.strip()] = text
    return out


def read_toml(path: str | Path) -> dict[str, Any]:
    """The table of TOML file ``path``. Raises ValueError naming the file and the problem."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text())
    except (FileNotFoundError, IsADirectoryError):
        raise ValueError(f"config file {str(path)!r} does not exist") from None
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path}: not valid TOML: {e}") from None


def load_config(
    cls: type[C], path: str | Path, overrides: Mapping[str, Any] | None = None,
    ignore: tuple[str, ...] = (),
) -> C:  # fmt: skip
    """The config of TOML file ``path`` with ``overrides`` applied on top (keys in ``ignore``,
    read by the caller, are left out).

    Raises:
        ValueError: the file cannot be read or parsed, or a key or value is bad.
    """
    values = read_toml(path)
    values.update(overrides or {})
    for key in ignore:
        values.pop(key, None)
    return make_config(cls, values, str(path))


def config_dict(config: object) -> dict[str, Any]:
    """The config's fields as JSON-ready values (tuples as lists)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(config):  # type: ignore[arg-type]
        v = getattr(config, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out

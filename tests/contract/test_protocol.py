"""Every field of each game's ``State`` (its ``__slots__``) is declared on the game's
``envs/<game>/protocol.py`` ``DealState`` protocol: the read-only modules (``view``,
``queries``) read a deal only through that protocol, so a field it lacks is one they cannot
reach, or one they reach behind mypy's back."""

from __future__ import annotations

import importlib

import pytest

from mazzo.envs.registry import all_games


def _protocol_members(protocol: type) -> set[str]:
    """The names a protocol class declares itself or through its protocol bases (properties,
    methods, annotated attributes), without the dunders."""
    names: set[str] = set()
    for klass in protocol.__mro__:
        if klass is object or not getattr(klass, "_is_protocol", False):
            continue
        names.update(vars(klass))
        names.update(getattr(klass, "__annotations__", {}))
    return {n for n in names if not (n.startswith("__") and n.endswith("__"))} - {"_is_protocol"}


def _slots(state: type) -> set[str]:
    return {name for klass in state.__mro__ for name in getattr(klass, "__slots__", ())}


@pytest.mark.parametrize("name", [g.info.name for g in all_games()])
def test_every_state_field_is_on_the_deal_protocol(name: str) -> None:
    state = importlib.import_module(f"mazzo.envs.{name}.state").State
    protocol = importlib.import_module(f"mazzo.envs.{name}.protocol").DealState
    fields = _slots(state)
    assert fields, f"{name}: State declares no __slots__"
    missing = sorted(fields - _protocol_members(protocol))
    assert not missing, f"{name}: State fields missing from protocol.DealState: {missing}"

"""What a game's registration module (``envs/<game>/game.py``) needs to fill the registry's
``envs.registry.Game``, written once for every game: the check that rules handed to the registry
(typed ``object`` there) are this game's, the adapters that put it in front of the game's typed
functions, and the observation slices from an encoder layout.

Must not name a game, nor import a game's package.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

__all__ = ["RulesCheck", "obs_slices"]

R = TypeVar("R")
T = TypeVar("T")


class RulesCheck(Generic[R]):
    """The rules of game ``game`` are instances of ``rules_type``; anything else handed to the
    registry's functions is a ``TypeError`` naming the game and what was given."""

    __slots__ = ("game", "rules_type")

    def __init__(self, game: str, rules_type: type[R]) -> None:
        self.game = game
        self.rules_type = rules_type

    def __call__(self, rules: object) -> R:
        """``rules`` itself, checked."""
        if not isinstance(rules, self.rules_type):
            raise TypeError(f"{self.game} needs {self.game} Rules, got {type(rules).__name__}")
        return rules

    def on_rules(self, fn: Callable[[R], T]) -> Callable[..., T]:
        """``fn(rules)`` taking the rules unchecked (``payoff_bound``)."""
        return _Checked(self, fn, 0, none_ok=False)

    def on_deal(self, fn: Callable[..., T]) -> Callable[..., T]:
        """``fn(deal, rules, **options)`` taking the rules unchecked (``new_state``)."""
        return _Checked(self, fn, 1, none_ok=False)

    def on_record(self, fn: Callable[[Any, R | None], T]) -> Callable[..., T]:
        """``fn(record, rules=None)`` taking the rules unchecked, None (or none given) still
        meaning the record's own (``read_record``, ``replay``)."""
        return _Checked(self, fn, 1, none_ok=True)


class _Checked(Generic[T]):
    """``fn`` with its argument ``position`` (the rules) checked first; a plain object, so a
    registered game stays picklable."""

    __slots__ = ("check", "fn", "none_ok", "position")

    def __init__(
        self, check: RulesCheck[Any], fn: Callable[..., T], position: int, *, none_ok: bool
    ) -> None:
        self.check, self.fn, self.position, self.none_ok = check, fn, position, none_ok

    def __call__(self, *args: Any, **options: Any) -> T:
        given = list(args)
        if self.none_ok and len(given) == self.position:
            given.append(None)
        if len(given) > self.position:  # else ``fn`` says what is missing
            rules = given[self.position]
            if not (self.none_ok and rules is None):
                given[self.position] = self.check(rules)
        return self.fn(*given, **options)


def obs_slices(
    offset: Mapping[str, int], layout: Iterable[tuple[str, int]]
) -> dict[str, tuple[int, int]]:
    """Per block of an encoder ``layout`` (name, size), its ``(start, stop)`` in the vector."""
    return {name: (offset[name], offset[name] + size) for name, size in layout}

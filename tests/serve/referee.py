"""A referee for the tracker tests: it holds the full State of a random deal, feeds one seat's
tracker only what that seat sees (its ``deal.private``, every action triple with the hidden
args as None, the reveals the game owes it) and checks after every step that the tracker's view
is the seat's true view and, on the seat's turns, that its legal labels are the true ones.

The reveals it sends are scheduled by ``tests.serve.reveals`` (derived from docs/protocol.md,
not from the trackers' ``due_reveals``); at every step it also checks that the production
``reveal_of`` owes exactly the same, and that the tracker expects no other key."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from mazzo.envs.registry import Game
from mazzo.serve.trackers.seat_tracker import ImpossibleInput, SeatTracker

from .reveals import REVEALS


def owed(
    game: Game,
    reveal_of: Callable[[Any, Any, Any, int], dict[str, Any]],
    before: Any,
    action: int | None,
    after: Any,
    seat: int,
) -> dict[str, Any]:
    """The reveal owed to ``seat`` by the protocol's tables (``tests.serve.reveals``), checked
    against the production ``reveal_of``."""
    want = REVEALS[game.name](before, action, after, seat)
    got = reveal_of(before, action, after, seat)
    assert got == want, (got, want, game.write_record(after))
    return want


def triple(
    game: Game, tracker: SeatTracker, state: Any, action: int, seat: int
) -> tuple[int, str, str | None]:
    """The event ``seat`` is sent for ``action`` taken in ``state`` by the seat on turn."""
    verb, arg = tracker.to_triple(state.action_label(action))
    if not game.action_is_visible(state, action, seat):
        return state.to_play, verb, None
    return state.to_play, verb, arg


def play_through(
    game: Game,
    tracker_cls: type[SeatTracker],
    private_of: Callable[[Any, int], dict[str, Any]],
    reveal_of: Callable[[Any, Any, Any, int], dict[str, Any]],
    state: Any,
    seat: int,
    rng: random.Random,
    policy: Callable[[Any, random.Random], int] | None = None,
) -> int:
    """Play ``state`` to its end with random legal actions (or ``policy``), checking ``seat``'s
    tracker at every step; returns the number of steps checked."""
    tracker = tracker_cls(
        state.rules, seat, state.dealer, private_of(state, seat), rng.randrange(1 << 30)
    )
    first = owed(game, reveal_of, None, None, state, seat)
    assert tracker.pending <= set(first), (tracker.pending, first)
    if first:
        tracker.reveal(first)
    assert not tracker.pending, tracker.pending
    steps = 0
    while True:
        assert tracker.view() == state.info_view(seat), (
            steps,
            diff(tracker.view(), state.info_view(seat)),
            game.write_record(state),
        )
        if not state.is_terminal() and state.to_play == seat:
            assert tracker.legal_labels() == [state.action_label(a) for a in state.legal_actions()]
        steps += 1
        if state.is_terminal():
            return steps
        action = policy(state, rng) if policy else rng.choice(state.legal_actions())
        before = state.clone()
        event = triple(game, tracker, state, action, seat)
        state.apply(action)
        tracker.event(*event)
        shown = owed(game, reveal_of, before, action, state, seat)
        assert tracker.pending <= set(shown), (tracker.pending, shown, game.write_record(state))
        if shown:
            tracker.reveal(shown)
        assert not tracker.pending, (tracker.pending, game.write_record(state))


def diff(a: Any, b: Any) -> dict[str, tuple[Any, Any]]:
    """The fields where two views differ (for messages)."""
    return {k: (x, y) for (k, x), y in zip(a._asdict().items(), b, strict=True) if x != y}


class Driver:
    """A referee feeding one seat's tracker step by step (for tests that then send it bad
    input)."""

    def __init__(self, game: Game, state: Any, seat: int, seed: int = 0) -> None:
        from mazzo.serve.trackers.registry import tracker_for

        self.game, self.state, self.seat = game, state, seat
        self.entry = tracker_for(game)
        self.rng = random.Random(seed)
        self.tracker = self.entry.tracker(
            state.rules, seat, state.dealer, self.entry.private_of(state, seat), seed
        )
        first = owed(game, self.entry.reveal_of, None, None, state, seat)
        if first:
            self.tracker.reveal(first)

    def step(self, action: int | None = None, reveal: bool = True) -> dict[str, Any]:
        """Take ``action`` (a random legal one by default), send its event and (with
        ``reveal``) its reveal; returns the reveal owed."""
        state = self.state
        action = self.rng.choice(state.legal_actions()) if action is None else action
        before = state.clone()
        event = triple(self.game, self.tracker, state, action, self.seat)
        state.apply(action)
        self.tracker.event(*event)
        shown = owed(self.game, self.entry.reveal_of, before, action, state, self.seat)
        if shown and reveal:
            self.tracker.reveal(shown)
        return shown

    def until(self, done: Callable[[Any], bool], limit: int = 400) -> bool:
        """Step until ``done(state)`` (True) or the end of the deal (False)."""
        for _ in range(limit):
            if done(self.state):
                return True
            if self.state.is_terminal():
                return False
            self.step()
        return False

    def snapshot(self) -> tuple[Any, frozenset[str], int]:
        """What must not change on refused input."""
        return self.tracker.view(), self.tracker.pending, len(self.tracker.log)


def driver(game: Game, flags: dict[str, Any] | None = None, seed: int = 1, seat: int = 0) -> Driver:
    """A ``Driver`` of ``seat`` on a random deal (from ``seed``) of ``game`` under ``flags``."""
    rules = game.rules(flags or {})
    state = game.new_state(game.deal_random(np.random.default_rng(seed), rules), rules)
    return Driver(game, state, seat, seed)


def refused(d: Driver, match: str, call: Any, *args: Any) -> None:
    """``call(*args)`` raises ImpossibleInput matching ``match`` and changes nothing."""
    before = d.snapshot()
    with pytest.raises(ImpossibleInput, match=match):
        call(*args)
    assert d.snapshot() == before

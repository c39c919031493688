"""Seat trackers by game: the registry the seat sessions of ``mazzo serve`` ask for a game's
``SeatTracker`` (``mazzo.serve.trackers.seat_tracker``) and its referee helpers. A game's entry
lives in ``mazzo.serve.trackers.<game>`` as ``TRACKER`` (a ``TrackerEntry``), imported on first
use; nothing here names a game.

Must not import torch or training/.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mazzo.envs.registry import AnyGame
from mazzo.serve.trackers.seat_tracker import SeatTracker

__all__ = ["TrackerEntry", "tracker_for"]


@dataclass(frozen=True)
class TrackerEntry:
    """One game's seat tracker.

    Attributes:
        tracker: the ``SeatTracker`` subclass, ``tracker(rules, seat, dealer, private, seed)``.
        private_of: (state at the start of a deal, seat) -> that seat's ``deal.private`` (for a
            referee: a front end in Python, the tests).
        reveal_of: (state before, action, state after, seat) -> the reveal that seat is owed
            after the action (``(None, None, state, seat)``: after the deal); ``{}`` when none.
    """

    tracker: type[SeatTracker]
    private_of: Callable[[Any, int], dict[str, Any]]
    reveal_of: Callable[[Any, Any, Any, int], dict[str, Any]]


def tracker_for(game: AnyGame) -> TrackerEntry:
    """The seat tracker of ``game``.

    Raises:
        ValueError: the game has no seat tracker.
    """
    module = f"mazzo.serve.trackers.{game.name}"
    try:
        entry = importlib.import_module(module).TRACKER
    except (ModuleNotFoundError, AttributeError):
        raise ValueError(f"the game {game.name!r} has no seat tracker ({module}.TRACKER)") from None
    if not isinstance(entry, TrackerEntry):
        raise TypeError(f"{module}.TRACKER must be a TrackerEntry, got {type(entry).__name__}")
    return entry

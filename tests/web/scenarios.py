"""Deals for the browser tests, found in process: the same table session the server runs
(``mazzo.serve.table``), the same bots and the same click policy the page test follows, so a
seed found here brings the page's seat to the same turn.

A *policy* picks the person's move from a turn's legal labels (in the server's order): the
first of its preferences that is legal (a label, or a verb prefix ending in a space), else the
first label. A *target* says whether a turn is the special one a test wants to see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from mazzo.serve.bots import Bots
from mazzo.serve.table import open_table

Target = Callable[[list[str], dict[str, Any]], bool]
SEARCH_SEEDS = 400  # how many seeds a search tries before it gives up (and the test fails)


@dataclass(frozen=True)
class Scenario:
    """A table to open and the turn to reach there.

    Attributes:
        game: the game's name.
        seats: per seat ``"client"`` (once) or a bot name of the test server.
        flags: the rule flags typed into the setup form.
        prefer: the policy's preferences, in order.
        targets: what the turns to reach look like (each must be met by some turn of the deal).
        end: how the deal must end: ``"void"``, ``"played"`` or None (either).
    """

    game: str
    seats: tuple[str, ...]
    flags: dict[str, Any] = field(default_factory=dict, hash=False)
    prefer: tuple[str, ...] = ()
    targets: tuple[Target, ...] = ()
    end: str | None = None

    @property
    def seat(self) -> int:
        """The person's seat."""
        return self.seats.index("client")


def pick(labels: Sequence[str], prefer: Sequence[str]) -> str:
    """The policy: the first preference that is legal (``"bid "`` matches any bid), else the
    first label."""
    for want in prefer:
        for label in labels:
            if label == want or (want.endswith(" ") and label.startswith(want)):
                return label
    return labels[0]


def has_verb(verb: str) -> Target:
    """A turn offering some ``verb ...`` label (or the bare label ``verb``)."""
    return lambda legal, view: any(lb == verb or lb.startswith(verb + " ") for lb in legal)


@cache
def bots() -> Bots:
    """The test server's bots (``heuristic`` and ``random``), built once."""
    return Bots([("heuristic", "heuristic"), ("random", "random")])


def play(sc: Scenario, seed: int) -> tuple[list[list[str]], dict[str, Any]]:
    """Play ``sc`` with ``seed`` in process: the legal labels of each of the person's turns and
    the ``end`` message."""
    message = {
        "type": "open", "mode": "table", "game": sc.game, "flags": sc.flags,
        "seats": list(sc.seats), "seed": seed,
    }  # fmt: skip
    session, pushes = open_table("g1", message, bots())
    turns: list[list[str]] = []
    while True:
        last = pushes[-1]
        if last["type"] == "end":
            return turns, last
        turns.append(last["legal"])
        pushes = session.move(pick(last["legal"], sc.prefer))


def play_views(
    sc: Scenario, seed: int
) -> tuple[list[tuple[list[str], dict[str, Any]]], dict[str, Any]]:
    """Like ``play``, with each turn's VIEW: ``[(legal, view), ...]`` and the ``end`` message."""
    message = {
        "type": "open", "mode": "table", "game": sc.game, "flags": sc.flags,
        "seats": list(sc.seats), "seed": seed,
    }  # fmt: skip
    session, pushes = open_table("g1", message, bots())
    turns: list[tuple[list[str], dict[str, Any]]] = []
    while True:
        last = pushes[-1]
        if last["type"] == "end":
            return turns, last
        turns.append((last["legal"], last["view"]))
        pushes = session.move(pick(last["legal"], sc.prefer))


def _meets(sc: Scenario, seed: int) -> bool:
    message = {
        "type": "open", "mode": "table", "game": sc.game, "flags": sc.flags,
        "seats": list(sc.seats), "seed": seed,
    }  # fmt: skip
    session, pushes = open_table("g1", message, bots())
    hit = [False] * len(sc.targets)
    while pushes[-1]["type"] != "end":
        turn = pushes[-1]
        for k, target in enumerate(sc.targets):
            hit[k] = hit[k] or target(turn["legal"], turn["view"])
        pushes = session.move(pick(turn["legal"], sc.prefer))
    void = bool(pushes[-1]["result"].get("void"))
    ends_right = sc.end is None or (sc.end == "void") == void
    return all(hit) and ends_right


def find_seed(sc: Scenario, start: int = 0) -> int:
    """The first seed from ``start`` whose deal meets every target of ``sc``. Raises
    LookupError when none of ``SEARCH_SEEDS`` seeds does."""
    for seed in range(start, start + SEARCH_SEEDS):
        if _meets(sc, seed):
            return seed
    raise LookupError(f"no seed in {start}..{start + SEARCH_SEEDS - 1} gives {sc}")

"""Who sits where: lineups and the duplicate rotation schemes of the arena.

A *lineup* is a tuple with one agent index per player seat. A deal is played once per lineup
of the scheme, with the same cards, so luck of the cards cancels between agents (duplicate
play). Schemes work on *units*: the groups of seats one agent always fills together. The units are
the game's teams (``Game.teams``): one seat each in a game of individuals, the partnerships in a
partnership game (Minchiate's S0+S2 and S1+S3), so partners are always the same agent.

Schemes (``u`` units, ``k`` agents):

- ``pairs`` (the default; head-to-head): for every pair of agents X < Y, the base lineups
  "X, then Y in every other unit" and "Y, then X in every other unit", each rotated cyclically
  over the ``u`` units; repeated lineups are dropped. Calabresella with 3 players gives
  XYY YYX YXY YXX XXY XYX (6 lineups per pair); 4 players 8; 2 players XY YX; Minchiate
  (2 units) X/Y then Y/X, i.e. seats XYXY and YXYX.
- ``mixed``: every map from units to agents that uses ``min(k, u)`` distinct agents: with at
  least as many agents as units, every ordered table of distinct agents (3 agents in
  Calabresella: the 6 permutations); with fewer, every table on which all of them sit.

Both sets are closed under cyclic rotation of the units and under renaming the agents, so each
agent occupies each unit, and hence each seat, equally often (``seat_counts`` checks it). Since
the dealer of a deal is fixed, that also means each agent plays every dealer-relative position
of every deal.

Pure functions over counts; the game enters only through its teams.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product
from typing import Any

import numpy as np

from mazzo.envs.registry import AnyGame

__all__ = [
    "SCHEMES",
    "Lineup",
    "expand",
    "lineups_for",
    "mixed_units",
    "pair_units",
    "seat_counts",
    "units_for",
]

Lineup = tuple[int, ...]
SCHEMES = ("pairs", "mixed")


def units_for(game: AnyGame, rules: Any) -> tuple[tuple[int, ...], ...]:
    """The seat groups filled by one agent: the game's teams (its partnerships, else one group
    per seat) under ``rules``.

    Raises:
        ValueError: the teams do not cover every seat exactly once.
    """
    teams, n_players = game.teams(rules), game.seats(rules)
    if sorted(s for team in teams for s in team) != list(range(n_players)):
        raise ValueError(f"{game.name} teams {teams} do not fit {n_players} players")
    return teams


def _dedupe(lineups: Sequence[Lineup]) -> list[Lineup]:
    return list(dict.fromkeys(lineups))


def pair_units(n_agents: int, n_units: int) -> list[Lineup]:
    """The ``pairs`` scheme over units: an agent index per unit, for every pair of agents."""
    _check(n_agents, n_units, need=2)
    out: list[Lineup] = []
    for x, y in combinations(range(n_agents), 2):
        for one, rest in ((x, y), (y, x)):
            base = (one,) + (rest,) * (n_units - 1)
            out.extend(base[r:] + base[:r] for r in range(n_units))
    return _dedupe(out)


def mixed_units(n_agents: int, n_units: int) -> list[Lineup]:
    """The ``mixed`` scheme over units: every table with ``min(k, u)`` distinct agents."""
    _check(n_agents, n_units, need=2)
    want = min(n_agents, n_units)
    return [t for t in product(range(n_agents), repeat=n_units) if len(set(t)) == want]


def _check(n_agents: int, n_units: int, need: int) -> None:
    if n_agents < need:
        raise ValueError(f"the arena needs at least {need} agents, got {n_agents}")
    if n_units < 2:
        raise ValueError(f"a table needs at least 2 seat groups, got {n_units}")


def expand(unit_lineup: Lineup, units: Sequence[Sequence[int]]) -> Lineup:
    """Agent per unit -> agent per seat."""
    seats = [0] * sum(len(u) for u in units)
    for agent, unit in zip(unit_lineup, units, strict=True):
        for s in unit:
            seats[s] = agent
    return tuple(seats)


def lineups_for(scheme: str, n_agents: int, units: Sequence[Sequence[int]]) -> tuple[Lineup, ...]:
    """The seat lineups that scheme ``scheme`` plays on every deal.

    Raises:
        ValueError: an unknown scheme or fewer than two agents.
    """
    if scheme == "pairs":
        per_unit = pair_units(n_agents, len(units))
    elif scheme == "mixed":
        per_unit = mixed_units(n_agents, len(units))
    else:
        raise ValueError(f"unknown seating scheme {scheme!r}; known: {', '.join(SCHEMES)}")
    return tuple(expand(t, units) for t in per_unit)


def seat_counts(lineups: Sequence[Lineup], n_agents: int) -> np.ndarray:
    """``counts[a, s]``: how many lineups put agent ``a`` in seat ``s``."""
    n_seats = len(lineups[0]) if lineups else 0
    counts = np.zeros((n_agents, n_seats), dtype=np.int64)
    for lineup in lineups:
        for seat, agent in enumerate(lineup):
            counts[agent, seat] += 1
    return counts

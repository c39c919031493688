"""Calabresella's compiled search core, as PIMC uses it: a world handed over once, the value of
every candidate play back (``agents/calabresella/_csearch.c``).

``CORE`` is the loaded module, or None (not built, or ``MAZZO_PURE_PYTHON``): then PIMC plays its
worlds out with ``rollout.py``, the reference. The C code knows the card play only; the
settlement stays the rules kernel's: ``tables`` tabulates, once per (rules, contract, soloist,
seat), the seat's return of every finished deal (``returns()``, for a greedy playout that
reaches the end) and the solver's leaf values (``rollout.leaf_table``'s), which the core looks
up.

``values(state, seat, candidates, exact_tricks)`` is PIMC's playout value (greedy until
``exact_tricks`` tricks are left, then ``rollout.solve``) for ``seat`` of each candidate play
of a PLAY-phase ``state``; ``candidates=None`` values the state as it is. ``honest_value`` is
the value of PIMC's bid playouts from the first lead on: ``HeuristicV1`` plays every position
from its own view (rebuilt from the world by ``views_of``).

Must not import torch or training/.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType

from mazzo.agents.calabresella.rollout import (
    final_value,
    leaf_index,
    points_bonus,
    rollout_action,
    seat_bonus,
    solve,
)
from mazzo.agents.csearch import load_search
from mazzo.envs.calabresella.actions import Phase
from mazzo.envs.calabresella.kernel import (
    DEFENDERS,
    SOLOIST,
    STRENGTH,
    SUIT,
    THIRDS,
    TOTAL_THIRDS,
    TRICKS,
    pile_thirds,
    soloist_pairwise,
)
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.scoring import seat_returns, settle
from mazzo.envs.calabresella.state import State
from mazzo.envs.cards.deal import Deal

__all__ = [
    "CORE",
    "World",
    "compiled_value",
    "honest_value",
    "positions",
    "reference_value",
    "tables",
    "values",
    "views_of",
    "world_of",
]

CORE: ModuleType | None = load_search(
    "mazzo.agents.calabresella._csearch", (SUIT, STRENGTH, THIRDS)
)

TABLE_SIZE = (TOTAL_THIRDS + 1) * (TRICKS + 1) * 2
World = tuple[tuple[int, int, int], tuple[int, ...], int, int, int, int, int, int, int]


def world_of(s: State) -> World:
    """The core's world tuple of a PLAY-phase state: (hands, trick, leader, pos, soloist, the
    soloist pile's thirds, the soloist's tricks, the closed tricks, the set-aside's thirds)."""
    h = s.hands
    return (
        (h[0], h[1], h[2]), tuple(s.trick), s.leader, s.pos, s.soloist,
        pile_thirds(s.piles[0]), s.tricks_won[0], len(s.tricks), pile_thirds(s.set_aside),
    )  # fmt: skip


@lru_cache(maxsize=1024)
def tables(
    rules: Rules, contract: int, soloist: int, seat_of: tuple[int, int, int], seat: int,
    points: float = 0.0,
) -> tuple[int, bytes, bytes]:  # fmt: skip
    """(the positions of ``seat`` as a bitmask, the play table, the leaf table) for the core:
    entry ``leaf_index(thirds, tricks, last_side)`` of the play table is ``seat``'s return of
    the finished deal whose soloist side holds ``thirds`` (the set-aside cards included), of
    the leaf table the solver's leaf value (``rollout.leaf_table``'s, by the same kernel call),
    each with the card-point tie-break of weight ``points`` (``rollout.points_bonus``)."""
    factor = rules.aperta_payout_factor if rules.aperta else 1
    play = [0.0] * TABLE_SIZE
    leaves = [0.0] * TABLE_SIZE
    for thirds in range(TOTAL_THIRDS + 1):
        for tricks in range(TRICKS + 1):
            for last in (SOLOIST, DEFENDERS):
                i = leaf_index(thirds, tricks, last)
                st = settle(rules, contract, soloist, thirds, tricks, last)
                play[i] = float(seat_returns(st, rules, seat_of)[seat])
                leaves[i] = float(soloist_pairwise(rules, contract, thirds, tricks, last) * factor)
                if points:
                    play[i] += seat_bonus(points, thirds, soloist, seat_of, seat)
                    leaves[i] += 2 * points_bonus(points, thirds)
    positions = sum(1 << p for p in range(3) if seat_of[p] == seat)
    return positions, array("d", play).tobytes(), array("d", leaves).tobytes()


def views_of(s: State) -> tuple[int, tuple[int, int, int], int, int, tuple[int, int, int]]:
    """What the heuristic reads of each position's own view (``mazzo.envs.calabresella.view``), for
    the core's honest playouts: (every card played, per position what its seat discarded,
    bit p when p's seat also holds the other defender (a due), ``aperta``, per position the
    suits shown void)."""
    seat_of, sol, d = s.seat_of, s.soloist, s.discarded
    discards = tuple(
        d[0] * (seat_of[0] == seat_of[p]) | d[1] * (seat_of[1] == seat_of[p])
        | d[2] * (seat_of[2] == seat_of[p])
        for p in range(3)
    )  # fmt: skip
    shared = 0
    for p in range(3):
        if p != sol:
            other = (sol + 2) % 3 if p == (sol + 1) % 3 else (sol + 1) % 3
            if seat_of[other] == seat_of[p]:
                shared |= 1 << p
    pb, v = s.played_by, s.void
    return (
        pb[0] | pb[1] | pb[2], (discards[0], discards[1], discards[2]), shared,
        int(s.rules.aperta), (v[0], v[1], v[2]),
    )  # fmt: skip


def honest_value(s: State, seat: int, points: float = 0.0) -> float:
    """``seat``'s return once the heuristic (``HeuristicV1``) has played PLAY-phase ``s`` to
    the end on every position's own view (with the tie-break of weight ``points``): PIMC's
    value of a bid. Raises RuntimeError where the core is not loaded."""
    if CORE is None:
        raise RuntimeError("the compiled Calabresella search core is not loaded")
    _, play, _ = tables(s.rules, s.contract, s.soloist, s.seat_of, seat, points)
    value: float = CORE.honest_value(world_of(s), views_of(s), play)
    return value


def values(
    s: State, seat: int, candidates: Sequence[int] | None, exact_tricks: int,
    points: float = 0.0,
) -> tuple[float, ...]:  # fmt: skip
    """Per candidate play of PLAY-phase ``s`` (None: ``s`` as it is), ``seat``'s value of the
    playout: greedy until ``exact_tricks`` tricks are left, then solved exactly (with the
    card-point tie-break of weight ``points``). Raises RuntimeError where the core is not
    loaded."""
    if CORE is None:
        raise RuntimeError("the compiled Calabresella search core is not loaded")
    positions, play, leaves = tables(s.rules, s.contract, s.soloist, s.seat_of, seat, points)
    result: tuple[float, ...] = CORE.values(
        world_of(s), candidates, exact_tricks, positions, play, leaves
    )
    return result


# ---------------------------------------------------------------------------------- benchmark
# The hooks ``benchmarks/bench_search.py`` times, the same for every game: PLAY positions, and
# one seat's playout value by either core.
DEFAULT_EXACT = 3  # PIMC's default ``exact_tricks``
MAX_EXACT = 4  # PIMC's largest ``exact_tricks``


def positions(rules: Rules, n: int, seed: int, done: int) -> list[State]:
    """n PLAY positions of random deals played greedily (``rollout_action``) to the lead of
    trick ``done + 1``."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < n:
        order = list(range(40))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)
        while not s.is_terminal() and (s.phase is not Phase.PLAY or len(s.tricks) < done):
            s.apply(rollout_action(s))
        if not s.is_terminal():
            out.append(s)
    return out


def reference_value(s: State, seat: int, exact: int, points: float = 0.0) -> float:
    """``seat``'s value of PIMC's playout of ``s`` in Python (``rollout.py``): greedy until
    ``exact`` tricks are left, then ``solve`` (the tie-break of weight ``points`` in both)."""
    s = s.clone()
    while not s.is_terminal():
        if s.phase is Phase.PLAY and TRICKS - len(s.tricks) <= exact:
            return solve(s, points)[seat]
        s.apply(rollout_action(s))
    return final_value(s, seat, points)


def compiled_value(s: State, seat: int, exact: int, points: float = 0.0) -> float:
    """``reference_value`` by the compiled core (``s`` in PLAY)."""
    return values(s, seat, None, exact, points)[0]

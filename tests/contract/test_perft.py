"""Pinned perft counts for every registered game: the number of legal action sequences of length
1, 2, ... from fixed positions (``perft.position``: a deal named by a seed and a prefix of
deterministic actions, built from ``zlib.crc32`` only). Any change of legality (a mask, a phase
order, a rule flag's effect) changes some count.

How the numbers were computed: once, with the code of commit 202f21f (the registry), by running
``perft(position(game, flags, seed, prefix), d)`` for each row and pinning the output. Checks
by hand: Calabresella from the start, 6 = pass + 5 bids; then 21 = 6 + 5 + 4 + 3 + 2 + 1 (each
player speaks once, strictly higher or pass); 56 = the 3-step multisets of that ladder (C(8, 3)).
Minchiate from the start (seed 1): the cutter robbed one card and holds 16 legal discards
(zero-value cards but T29); then the dealer holds 17, 16, 15 (272 = 16 x 17, 4352 = 272 x 16,
65280 = 4352 x 15). The King-rule and overtrump rows start from the same position as a default
row (the prefix is legal under both flags) and differ from it from depth 3 on.

A new game adds its rows here (``test_every_game_has_a_perft_table`` fails until it does).
"""

from __future__ import annotations

from typing import Any

import pytest

from mazzo.envs.registry import get_game

from .games import GAMES
from .perft import perft, position

# (game, flags, deal seed, prefix length, counts for depth 1, 2, ...)
TABLE: tuple[tuple[str, dict[str, Any], int, int, tuple[int, ...]], ...] = (
    ("calabresella", {}, 1, 0, (6, 21, 56, 847, 10327, 143929)),  # the auction
    ("calabresella", {}, 2, 3, (16, 228, 3192, 43848)),  # the scegliete split, then discards
    ("calabresella", {}, 1, 7, (12, 25, 64, 704, 2422, 11957)),  # the first lead
    ("calabresella", {"players": 2}, 3, 0, (5, 86, 1111, 15280)),  # a due: call and discards
    ("calabresella", {"players": 4}, 2, 0, (6, 21, 56, 847, 10327)),  # the idle dealer
    ("minchiate", {}, 1, 0, (16, 272, 4352, 65280)),  # the discards
    ("minchiate", {}, 3, 3, (2, 4, 84, 568, 3228)),  # declarations, then the first lead
    ("minchiate", {}, 1, 6, (21, 99, 678, 6804, 136080)),  # the first lead
    ("minchiate", {}, 2, 30, (4, 60, 224, 1248, 5256)),  # mid-play
    ("minchiate", {"must_overtrump": True}, 2, 30, (4, 60, 262, 920, 3518)),
    ("minchiate", {}, 3, 10, (3, 30, 36, 684, 4143)),  # the King rule binds
    ("minchiate", {"king_rule": False}, 3, 10, (3, 30, 90, 1710, 10299)),
    ("minchiate", {"declare_timing": "with_first_card"}, 3, 3, (21, 142, 807, 1614, 19554)),
)


def test_every_game_has_a_perft_table() -> None:
    assert {g.name for g in GAMES} <= {row[0] for row in TABLE}


@pytest.mark.parametrize(
    ("name", "flags", "seed", "prefix", "counts"),
    TABLE,
    ids=[f"{r[0]}-{r[1] or 'defaults'}-{r[2]}-{r[3]}" for r in TABLE],
)
def test_perft_counts(
    name: str, flags: dict[str, Any], seed: int, prefix: int, counts: tuple[int, ...]
) -> None:
    state = position(get_game(name), flags, seed, prefix)
    assert tuple(perft(state, d) for d in range(1, len(counts) + 1)) == counts

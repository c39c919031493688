"""Per-card tables of the Minchiate engine, built once at import: bits, masks of card classes
(trumps, kings, counters, robbable and discardable cards), values, trick keys and the per-suit
card lists used to turn legal masks into action lists quickly.

Card ids are RULES.md D.1 indices: T1..T40 = 0..39, the Matto = 40, then Coppe, Denari, Spade and
Bastoni, 14 cards each from 41 (A 2 .. 10 J N Q K).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from mazzo.envs.cards.tricks import build_win_keys
from mazzo.envs.minchiate.deck import MATTO, MINCHIATE_97, TRUMP_SUIT

__all__ = [
    "ALL_KINGS",
    "BIT",
    "CAPTURE_VALUE",
    "COMBO_CARDS",
    "COUNTERS",
    "DISCARDABLE",
    "FULL",
    "KING",
    "LABELS",
    "MATTO",
    "MATTO_BIT",
    "QUALIFYING",
    "RELAX_CLASSES",
    "STRENGTH",
    "SUIT",
    "SUIT_BASE",
    "SUIT_CARDS",
    "SUIT_MASK",
    "T29",
    "T29_BIT",
    "TRUMP",
    "TRUMPS",
    "VALUE",
    "WIN_KEY",
    "card_points",
    "cards_of",
]

DECK = MINCHIATE_97
LABELS = DECK.labels
VALUE = DECK.value
SUIT = DECK.suit  # 0..3 plain suits, 4 trumps, 5 the Matto
STRENGTH = DECK.strength  # trick strength within the suit
N_CARDS = 97
FULL = (1 << N_CARDS) - 1
BIT = tuple(1 << c for c in range(N_CARDS))

T29 = 28
T29_BIT = 1 << T29
MATTO_BIT = 1 << MATTO
TRUMPS = (1 << 40) - 1
TRUMP = TRUMP_SUIT  # the trumps' suit id, and the led-suit value of a trump lead
SUIT_BASE = (41, 55, 69, 83)
SUIT_MASK = DECK.suit_mask  # 0..3 plain suits, 4 trumps, 5 the Matto
KING = tuple(1 << (base + 13) for base in SUIT_BASE)
ALL_KINGS = KING[0] | KING[1] | KING[2] | KING[3]

COUNTERS = sum(BIT[c] for c in range(N_CARDS) if VALUE[c] > 0)
# M-5.1: counters or trumps above 20.
QUALIFYING = COUNTERS | sum(BIT[n - 1] for n in range(21, 41))
# M-8.2: value 0 and not T29.
DISCARDABLE = FULL & ~COUNTERS & ~T29_BIT
_V3 = sum(BIT[c] for c in range(N_CARDS) if VALUE[c] == 3)
_V5 = sum(BIT[c] for c in range(N_CARDS) if VALUE[c] == 5)
_V10 = sum(BIT[c] for c in range(N_CARDS) if VALUE[c] == 10)

# Value of a card for the capture bonus (M-12.1): the Matto never counts.
CAPTURE_VALUE = tuple(0 if c == MATTO else VALUE[c] for c in range(N_CARDS))
# Cards that can belong to a versicola (M-9.2): T1-T5, T10, T13, T20, T28-T40, the Matto, kings.
COMBO_CARDS = (
    sum(BIT[n - 1] for n in (1, 2, 3, 4, 5, 10, 13, 20, *range(28, 41))) | MATTO_BIT | ALL_KINGS
)

# MA-9 relax: discard classes from the least to the most valuable (T29 is the most valuable of
# the 0-value cards).
RELAX_CLASSES = (DISCARDABLE, T29_BIT, _V3, _V5, _V10)

# WIN_KEY[led][card]: higher wins; trumps 201..240, the led suit 100.., others (and the Matto) 0.
WIN_KEY = build_win_keys(DECK, TRUMP_SUIT)


def _chunk_table(base: int, width: int) -> tuple[tuple[int, ...], ...]:
    """table[m]: the ids base + i of the bits i set in m (width bits), increasing."""
    table: list[tuple[int, ...]] = [()] * (1 << width)
    for m in range(1, 1 << width):
        low = m & -m
        table[m] = (base + low.bit_length() - 1, *table[m ^ low])
    return tuple(table)


# SUIT_CARDS[s][m]: card ids of plain suit s whose 14 rank bits (A..K) are set in m.
SUIT_CARDS = tuple(_chunk_table(base, 14) for base in SUIT_BASE)
# LOW_CARDS[k][m]: the same for bits 0..40 (trumps and the Matto) in chunks of 14, 14 and 13
# bits, so that any card mask converts in 7 table lookups.
LOW_CARDS = (_chunk_table(0, 14), _chunk_table(14, 14), _chunk_table(28, 13))


def card_points(mask: int) -> int:
    """Sum of the card values (M-3.1) of the cards in ``mask``."""
    return (
        3 * (mask & _V3).bit_count() + 5 * (mask & _V5).bit_count() + 10 * (mask & _V10).bit_count()
    )


def cards_of(mask: int) -> list[int]:
    """Card ids of ``mask`` (97 bits) in increasing order: seven table lookups."""
    out: list[int] = []
    if mask & 0x1FFFFFFFFFF:
        out += LOW_CARDS[0][mask & 0x3FFF]
        out += LOW_CARDS[1][(mask >> 14) & 0x3FFF]
        out += LOW_CARDS[2][(mask >> 28) & 0x1FFF]
    if mask >> 41:
        out += SUIT_CARDS[0][(mask >> 41) & 0x3FFF]
        out += SUIT_CARDS[1][(mask >> 55) & 0x3FFF]
        out += SUIT_CARDS[2][(mask >> 69) & 0x3FFF]
        out += SUIT_CARDS[3][mask >> 83]
    return out


assert card_points(FULL) == 142
assert COUNTERS.bit_count() == 25 and QUALIFYING.bit_count() == 33
assert (QUALIFYING & ~COUNTERS).bit_count() == 8  # T21..T27 and T29

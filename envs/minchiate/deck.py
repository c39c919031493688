"""The 97-card Minchiate deck and its vocabulary (RULES.md D.1): card codes, suits (four plain
suits, the trumps and the Matto's pseudo-suit), trick strength within a suit and card values
(M-2, M-3), built as a generic ``mazzo.envs.cards.deck.Deck``.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only), nor any other module of
the engine.
"""

from __future__ import annotations

import re

from mazzo.envs.cards.deck import Deck, suit_masks

__all__ = [
    "MATTO",
    "MATTO_SUIT",
    "MINCHIATE_97",
    "MINCHIATE_RANKS",
    "MINCHIATE_SUITS",
    "TRUMP_SUIT",
]

MINCHIATE_SUITS = "cdsb"
MINCHIATE_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")
TRUMP_SUIT = 4  # suit index of the 40 trumps
MATTO_SUIT = 5  # the Matto belongs to no suit (M-2.3); it gets a pseudo-suit of its own
MATTO = 40
_TRUMP_VALUE = {1: 5, 2: 3, 3: 3, 4: 3, 5: 3, 10: 5, 13: 5, 20: 5, 28: 5}


def _trump_value(n: int) -> int:
    if n >= 36:
        return 10
    if 30 <= n <= 35:
        return 5
    return _TRUMP_VALUE.get(n, 0)


def _pip_strength(suit: int, rank: int) -> int:
    """Strength within a suit, 0 (lowest) .. 13 (king). M-2.2: courts above pips; in cups and
    coins the ace is the highest pip and 10 the lowest, in swords and batons the reverse."""
    if rank >= 10:  # J N Q K
        return rank
    return 9 - rank if suit in (0, 1) else rank


def _minchiate_97() -> Deck:
    labels = [f"T{n}" for n in range(1, 41)] + ["M"]
    suit = [TRUMP_SUIT] * 40 + [MATTO_SUIT]
    strength = [*range(1, 41), 0]
    value = [_trump_value(n) for n in range(1, 41)] + [5]
    for s in range(4):
        for r in range(14):
            labels.append(MINCHIATE_RANKS[r] + MINCHIATE_SUITS[s])
            suit.append(s)
            strength.append(_pip_strength(s, r))
            value.append(5 if r == 13 else 0)
    return Deck(
        name="minchiate97",
        labels=tuple(labels),
        suit=tuple(suit),
        strength=tuple(strength),
        value=tuple(value),
        value_unit="point",
        suit_mask=suit_masks(suit, 6),
        suit_names=("c", "d", "s", "b", "trumps", "Matto"),
        pattern=r"^(T([1-9]|[1-3][0-9]|40)|M|(A|[2-9]|10|J|N|Q|K)[cdsb])$",
    )


MINCHIATE_97 = _minchiate_97()

_MINCHIATE_RE = re.compile(MINCHIATE_97.pattern)
assert all(_MINCHIATE_RE.match(c) for c in MINCHIATE_97.labels)

"""The Italian 40-card deck of Calabresella and its notation (RULES.md D.2): card codes, suits,
trick strength within a suit (4 lowest .. 3 highest), card values in thirds and per-suit
bitmasks, as a generic ``mazzo.envs.cards.deck.Deck`` built once at import.

Card id = 10 * suit + rank, suits ``c d s b`` (coppe, denari, spade, bastoni), ranks
``A 2 3 4 5 6 7 J N K``; ``Q`` is accepted for ``N`` on input.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only), nor any other Calabresella
module (the engine's tables start here).
"""

from __future__ import annotations

import re

from mazzo.envs.cards.deck import Deck, suit_masks

__all__ = ["ITALIAN_40", "ITALIAN_ORDER", "ITALIAN_RANKS", "ITALIAN_SUITS"]

ITALIAN_SUITS = "cdsb"
ITALIAN_RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "N", "K")
ITALIAN_ORDER = ("4", "5", "6", "7", "J", "N", "K", "A", "2", "3")  # trick order, low to high
_ITALIAN_THIRDS = {"A": 3, "2": 1, "3": 1, "J": 1, "N": 1, "K": 1}


def _italian_40() -> Deck:
    ids = [(s, r) for s in range(4) for r in range(10)]  # id = 10 * suit + rank
    suit = tuple(s for s, _ in ids)
    return Deck(
        name="italian40",
        labels=tuple(ITALIAN_RANKS[r] + ITALIAN_SUITS[s] for s, r in ids),
        suit=suit,
        strength=tuple(ITALIAN_ORDER.index(ITALIAN_RANKS[r]) for _, r in ids),
        value=tuple(_ITALIAN_THIRDS.get(ITALIAN_RANKS[r], 0) for _, r in ids),
        value_unit="third",
        suit_mask=suit_masks(suit, 4),
        suit_names=tuple(ITALIAN_SUITS),
        pattern="^(A|[2-7]|J|N|K)[cdsb]$, Q accepted for N",
        aliases=tuple(("Q" + s, "N" + s) for s in ITALIAN_SUITS),
    )


ITALIAN_40 = _italian_40()

_ITALIAN_RE = re.compile(r"^(A|[2-7]|J|N|K)[cdsb]$")
assert all(_ITALIAN_RE.match(c) for c in ITALIAN_40.labels)

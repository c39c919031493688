"""Shared card core of mazzo: card ids, bitmask helpers, deck tables, trick helpers, the explicit
``Deal``, rule-flag validation, D.3 replay records and the exceptions both engines raise.

Everything about cards is written once, here. Stdlib only: no numpy, torch, gymnasium or
pettingzoo, so the engines built on it can be profiled, fuzzed and ported on their own.
"""

from mazzo.envs.cards.bits import bit_list, iter_bits, lowest, mask_of
from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.deck import Deck
from mazzo.envs.cards.errors import IllegalAction

__all__ = [
    "Deal",
    "Deck",
    "IllegalAction",
    "bit_list",
    "iter_bits",
    "lowest",
    "mask_of",
]

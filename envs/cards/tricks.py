"""Trick helpers shared by the trick-taking engines: follow-suit legality as mask algebra and
trick winners from precomputed key tables.

Special cards (the Minchiate Matto, the King rule) stay in their game's ``kernel.py``.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

from collections.abc import Sequence

from mazzo.envs.cards.deck import Deck

__all__ = ["build_win_keys", "follow_or_trump", "follow_suit", "trick_winner"]


def follow_suit(hand: int, led_mask: int) -> int:
    """Legal cards when a suit must be followed if possible (Tressette family)."""
    return (hand & led_mask) or hand


def follow_or_trump(hand: int, led_mask: int, trump_mask: int) -> int:
    """Legal cards when the led suit must be followed, else a trump played, else anything."""
    return (hand & led_mask) or (hand & trump_mask) or hand


def build_win_keys(deck: Deck, trump_suit: int | None) -> tuple[tuple[int, ...], ...]:
    """``keys[led][card]``: the card with the higher key wins a trick whose led suit is ``led``.

    Trumps beat the led suit, which beats every other card (key 0 for those: they never win).
    """
    n_suits = len(deck.suit_mask)
    rows = []
    for led in range(n_suits):
        row = []
        for c in range(deck.size):
            s = deck.suit[c]
            if trump_suit is not None and s == trump_suit:
                row.append(200 + deck.strength[c])
            elif s == led:
                row.append(100 + deck.strength[c])
            else:
                row.append(0)
        rows.append(tuple(row))
    return tuple(rows)


def trick_winner(cards: Sequence[int], keys_row: Sequence[int]) -> int:
    """Index (0-based, in play order) of the winning card of a trick."""
    best = 0
    best_key = keys_row[cards[0]]
    for i in range(1, len(cards)):
        k = keys_row[cards[i]]
        if k > best_key:
            best, best_key = i, k
    return best

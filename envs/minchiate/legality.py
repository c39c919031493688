"""M-11.3 as one pure function: the legal plays of a hand in a trick, given the led suit, the
highest trump so far, the plain suits already led and the two flags that change the rule (the
King rule, ``must_overtrump``). The engine (``State._play_mask``) and the agents' perfect-
information playouts and solvers call this same function, so they cannot disagree.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

from envs.minchiate.tables import KING, MATTO_BIT, SUIT_MASK, TRUMP, TRUMPS

__all__ = ["play_mask"]


def play_mask(
    hand: int, led: int, top_trump: int, suits_led: int, king_rule: bool, overtrump: bool
) -> int:
    """The legal plays from ``hand`` (a card bitmask).

    Args:
        hand: the player's cards.
        led: the led suit (``TRUMP`` for trumps); -1 when leading or when only the Matto has
            been played.
        top_trump: the highest trump in the trick (its card id), -1 if none.
        suits_led: bit ``s`` set when plain suit ``s`` was led in an earlier trick.
        king_rule: the King rule (M-11.3 c) is in force.
        overtrump: ``must_overtrump``: a player who plays a trump must beat the highest one if
            he can.
    """
    if led < 0:
        return hand
    if led != TRUMP:
        if king_rule and top_trump >= 0 and hand & KING[led] and not (suits_led >> led) & 1:
            return KING[led]
        follow = hand & SUIT_MASK[led]
        if follow:
            return follow | (hand & MATTO_BIT)
    trumps = hand & TRUMPS
    if not trumps:
        return hand
    if overtrump and top_trump >= 0:
        higher = trumps >> (top_trump + 1) << (top_trump + 1)
        if higher:
            trumps = higher
    return trumps | (hand & MATTO_BIT)

"""Rejected Calabresella actions: turning an action into an id, and the ``IllegalAction`` that
names it, says why it is illegal in words and lists the legal labels.

Pure: from the phase, the seat on turn, the hand and the legal mask, never the ``State``.

Must not import numpy, torch, gymnasium or pettingzoo, nor ``state`` (the State imports this).
"""

from __future__ import annotations

import operator

from mazzo.envs.calabresella.actions import NUM_ACTIONS, Phase, action_label
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.errors import IllegalAction

# the suits as a player reads them, with the letter the cards are written with (RULES.md D.2)
SUIT_WORDS = ("coppe (c)", "denari (d)", "spade (s)", "bastoni (b)")

__all__ = ["as_action_id", "illegal_action", "why_illegal"]


def as_action_id(action: object) -> int | None:
    """An integer-like action (``numpy.int64``) as an ``int``; None for anything else (bools,
    floats, strings)."""
    if isinstance(action, bool):
        return None
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None


def illegal_action(
    phase: Phase, seat: int, action: object, hand: int, led_suit: int, legal_mask: int
) -> IllegalAction:
    """The error for ``action`` taken by ``seat`` (on turn, holding ``hand``) in ``phase``."""
    legal = [action_label(a, phase) for a in bit_list(legal_mask)]
    if phase is Phase.DONE:
        return IllegalAction(-1, str(action), "the deal is over", legal)
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        return IllegalAction(-1, repr(action), f"not an action id 0..{NUM_ACTIONS - 1}", legal)
    why = why_illegal(phase, seat, action, hand, led_suit)
    return IllegalAction(action, action_label(action, phase), why, legal)


def why_illegal(phase: Phase, seat: int, action: int, hand: int, led_suit: int) -> str:
    """The reason ``action`` (an id 0..61) is not legal for ``seat`` holding ``hand``."""
    who = f"S{seat}"
    if phase is Phase.PLAY:
        if action >= 40:
            return f"{who} must play a card"
        if not (hand >> action) & 1:
            return f"{who} does not hold {ITALIAN_40.labels[action]}"
        return f"{who} must follow suit ({SUIT_WORDS[led_suit]} led)"
    if phase is Phase.BID:
        return f"{who} must pass or bid an allowed contract above the highest bid"
    if phase is Phase.CALL:
        return f"{who} (the soloist) must call a card he does not hold"
    if phase is Phase.SPLIT:
        return f"{who} must choose an allowed split of the monte (scegliete_splits)"
    if action >= 40:
        return f"{who} must choose a card ({phase.name})"
    return f"{who} does not hold {ITALIAN_40.labels[action]}"

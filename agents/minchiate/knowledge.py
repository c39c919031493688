"""Card knowledge for Minchiate agents: the engine's per-card tables (re-exported from
``mazzo.envs.minchiate.tables``, never recomputed) and a few derived ones, what the play has shown
about the hands (voids, the King rule, forced overtrumps), who is winning a trick, and which
cards are out of play. Pure functions over bitmasks, shared by the heuristic, the world sampler,
the rollout policy and the search agent.

What a play shows (RULES.md M-11.3): a player who did not follow a plain suit holds none of it;
one who played neither the led suit nor a trump holds no trump either (follow suit, else trump,
else anything); on trumps led, a non-trump shows no trumps. The Matto may always be played
instead, so it shows nothing, except under the King rule, which forbids it: a player after the
first trump of the first trick of a suit who did not play that suit's king does not hold it.
With ``must_overtrump``, a trump lower than the trick's highest shows no higher trump.

Must not import torch or training/.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mazzo.envs.cards.tricks import trick_winner
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.tables import (
    ALL_KINGS,
    BIT,
    CAPTURE_VALUE,
    COMBO_CARDS,
    COUNTERS,
    DISCARDABLE,
    FULL,
    KING,
    MATTO,
    MATTO_BIT,
    QUALIFYING,
    STRENGTH,
    SUIT,
    SUIT_MASK,
    T29_BIT,
    TRUMP,
    TRUMPS,
    VALUE,
    WIN_KEY,
)
from mazzo.envs.minchiate.view import InfoView

__all__ = [
    "ABOVE_TRUMP",
    "ALL_KINGS",
    "BIT",
    "CAPTURE_VALUE",
    "COMBO_CARDS",
    "COUNTERS",
    "DISCARDABLE",
    "KING",
    "KING_CARD",
    "MATTO",
    "MATTO_BIT",
    "NON_QUALIFYING",
    "PLAIN",
    "STRENGTH",
    "SUIT",
    "SUIT_MASK",
    "T29_BIT",
    "TRUMP",
    "TRUMPS",
    "VALUE",
    "WIN_KEY",
    "card_value_sum",
    "gone_cards",
    "play_exclusions",
    "trick_state",
]

PLAIN = SUIT_MASK[0] | SUIT_MASK[1] | SUIT_MASK[2] | SUIT_MASK[3]
KING_CARD = tuple(k.bit_length() - 1 for k in KING)
NON_QUALIFYING = FULL & ~QUALIFYING
# ABOVE_TRUMP[t]: the trumps stronger than trump t (ids t+1 .. 39).
ABOVE_TRUMP = tuple(TRUMPS & ~((1 << (t + 1)) - 1) for t in range(40))


def card_value_sum(cards: Iterable[int]) -> int:
    """Sum of the card values (M-3.1)."""
    return sum(VALUE[c] for c in cards)


def gone_cards(view: InfoView) -> int:
    """Cards no hand can hold any more: every card played (the current trick included) and,
    as far as this seat knows, the Fola."""
    pb = view.played_by
    return pb[0] | pb[1] | pb[2] | pb[3] | view.fola_known


def trick_state(trick: Sequence[int]) -> tuple[int, int, int]:
    """(led suit or -1, index of the winning card so far or -1, highest trump or -1) of a trick
    in progress."""
    led = -1
    for c in trick:
        if c != MATTO:
            led = SUIT[c]
            break
    if led < 0:
        return -1, -1, -1
    top = max((c for c in trick if c < 40), default=-1)
    return led, trick_winner(trick, WIN_KEY[led]), top


def play_exclusions(view: InfoView) -> list[int]:
    """Per seat, the cards the play so far shows it does not hold (see the module docstring);
    meaningful for the cards whose place the viewer does not know."""
    rules = view.rules
    out = [0, 0, 0, 0]
    suits_led = 0
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    for leader, cards in tricks:
        led = _exclusions_in_trick(leader, cards, suits_led, rules, out)
        if 0 <= led < TRUMP and len(cards) == 4:
            suits_led |= 1 << led
    return out


def _exclusions_in_trick(
    leader: int, cards: Sequence[int], suits_led: int, rules: Rules, out: list[int]
) -> int:
    """Add what one trick shows to ``out``; returns its led suit."""
    led, top = -1, -1
    for i, c in enumerate(cards):
        seat = (leader + i) & 3
        if led >= 0:
            if (
                led < TRUMP
                and rules.king_rule
                and top >= 0
                and not (suits_led >> led) & 1
                and c != KING_CARD[led]
            ):
                out[seat] |= KING[led]  # the King rule would have forced it (even over the Matto)
            if c != MATTO:
                s = SUIT[c]
                if s != led and led < TRUMP:
                    out[seat] |= SUIT_MASK[led]
                if s != TRUMP and s != led:
                    out[seat] |= TRUMPS
                if rules.must_overtrump and s == TRUMP and top >= 0 and c < top:
                    out[seat] |= ABOVE_TRUMP[top]
        if c < 40:
            if c > top:
                top = c
            if led < 0:
                led = TRUMP
        elif c != MATTO and led < 0:
            led = SUIT[c]
    return led

"""Minchiate's card play checked against RULES.md itself (M-11.2, M-11.3, MA-19 to MA-21), not
against the engine's kernel: cards numbered as M-1.2 lists them (T1..T40 = 0..39, the Matto 40,
then cups, coins, swords and batons, Ace to King, 14 each), the led suit the first card of the
trick that is not the Matto, and the legal plays in their order of precedence: the King rule
(the king of a plain suit led for the first time in the deal, once a trump is in the trick, is
the only legal play, the Matto included), then follow suit, else trump, else anything, with
the Matto always allowed besides. Over many random deals, at every card play, the engine's legal
actions are exactly that set; so a rule dropped the same way from the Python and the compiled
cores (which the parity tests compare with each other) fails here."""

import numpy as np
import pytest

from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.registry import get_game

GAME = get_game("minchiate")
MATTO = 40
KING = 13  # rank of the King within a suit (Ace 0 .. King 13)


def _suit(card: int) -> int:
    """-1 for a trump, -2 for the Matto, else the plain suit 0..3."""
    if card < 40:
        return -1
    return -2 if card == MATTO else (card - 41) // 14


def _led(cards) -> int | None:
    """The led suit of a trick's cards: that of its first card that is not the Matto."""
    return next((_suit(c) for c in cards if c != MATTO), None)


def _rule_plays(hand: int, trick, earlier, king_rule: bool, must_overtrump: bool) -> set[int]:
    cards = {c for c in range(97) if hand >> c & 1}
    led = _led(trick)
    if led is None:  # leading, or only the Matto played
        return cards
    trumps = {c for c in cards if c < 40}
    if led >= 0:
        king = 41 + 14 * led + KING
        first_time = all(_led(t) != led for t in earlier)
        trumped = any(c < 40 for c in trick)
        if king_rule and first_time and trumped and king in cards:
            return {king}
        legal = {c for c in cards if _suit(c) == led} or trumps or cards
    else:
        legal = trumps or cards
    if must_overtrump and legal and legal <= trumps and any(c < 40 for c in trick):
        higher = {c for c in legal if c > max(c for c in trick if c < 40)}
        legal = higher or legal
    return legal | ({MATTO} & cards)


@pytest.mark.parametrize(
    "flags", [{}, {"king_rule": False}, {"must_overtrump": True}],
    ids=["default", "no_king_rule", "must_overtrump"],
)  # fmt: skip
def test_every_play_is_one_the_rules_allow_and_every_allowed_one_is_legal(flags):
    rules = GAME.rules(flags)
    rng = np.random.default_rng(11)
    plays = kings = trumped = mattos = 0
    for _ in range(120):
        state = GAME.new_state(GAME.deal_random(rng, rules), rules)
        while not state.is_terminal():
            legal = state.legal_actions()
            view = GAME.view(state, state.to_play)
            if view.phase == Phase.PLAY:
                earlier = [cards for _leader, cards, _winner in view.tricks]
                expected = _rule_plays(
                    view.hand, tuple(view.trick), earlier, rules.king_rule, rules.must_overtrump
                )
                assert set(legal) == expected, (view.hand, view.trick, earlier, legal)
                plays += 1
                kings += len(expected) == 1 and (next(iter(expected)) - 41) % 14 == KING
                trumped += (
                    bool(view.trick) and all(c < 40 for c in legal) and _led(view.trick) != -1
                )
                mattos += MATTO in expected and len(expected) > 1
            state.apply(int(rng.choice(legal)))
    # the cases were met: card play, forced kings (default rules), trumping when void, the Matto
    assert plays > 8000 and trumped > 50 and mattos > 50
    assert kings > 5 if rules.king_rule else True


def test_the_spec_of_the_king_rule_by_hand():
    """M-11.3.1 by hand: cups led, trumped by the next player; the third holds the King of cups
    and the Matto. The first time cups are led he must play the King; once cups were led in
    an earlier trick he may follow with any cup or the Matto."""
    kc, two_c, matto = 41 + 13, 41 + 1, MATTO
    hand = (1 << kc) | (1 << two_c) | (1 << matto) | (1 << 5)
    trick = (41 + 4, 30)  # 5c led, T31 on it
    assert _rule_plays(hand, trick, [], True, False) == {kc}
    assert _rule_plays(hand, trick, [(41 + 7, 42, 43, 44)], True, False) == {kc, two_c, matto}
    assert _rule_plays(hand, (41 + 4, 50), [], True, False) == {kc, two_c, matto}  # no trump yet

"""Calabresella's card play checked against RULES.md itself, not against the engine's own
tables: C-2.1 numbers the cards suit by suit (D.2: index = 10 * suit + rank, Ac = 0, Ad = 10,
As = 20), and a player must follow the suit led when able, otherwise may play any card; the
leader plays any card (there are no trumps). Over thousands of random deals of every table
size, at every card-play decision, the engine's legal actions are exactly that set. (The
parity tests compare the engine with the compiled core; this one compares both with the
rules, so a rule dropped from both cores the same way fails here.)"""

import numpy as np
import pytest

from mazzo.envs.calabresella.actions import Phase
from mazzo.envs.registry import get_game

GAME = get_game("calabresella")


def _rule_plays(hand: int, trick: tuple[int, ...]) -> set[int]:
    cards = {c for c in range(40) if hand >> c & 1}
    if not trick:
        return cards
    led = trick[0] // 10
    follow = {c for c in cards if c // 10 == led}
    return follow or cards


@pytest.mark.parametrize("flags", [{}, {"players": 2}, {"players": 4}, {"aperta": True}],
                         ids=["3p", "a_due", "4p", "aperta"])  # fmt: skip
def test_every_play_follows_suit_when_it_can(flags):
    rules = GAME.rules(flags)
    rng = np.random.default_rng(7)
    plays = off_suit = 0
    for _ in range(500):
        state = GAME.new_state(GAME.deal_random(rng, rules), rules)
        while not state.is_terminal():
            legal = state.legal_actions()
            view = GAME.view(state, state.to_play)
            if view.phase == Phase.PLAY:
                expected = _rule_plays(view.hand, tuple(view.trick))
                assert set(legal) == expected, (view.hand, view.trick, legal)
                plays += 1
                off_suit += bool(view.trick) and any(c // 10 != view.trick[0] // 10 for c in legal)
            state.apply(int(rng.choice(legal)))
    assert plays > 5000 and off_suit > 100  # card play reached, voids met


def test_a_refused_card_names_the_suit_led_in_words():
    """The reason a player reads names the suit as a player says it, with its letter (never the
    bare code: ``(s led)``)."""
    from mazzo.envs.calabresella.explain import why_illegal

    hand = (1 << 20) | (1 << 0)  # As and Ac
    why = why_illegal(Phase.PLAY, 0, 0, hand, 2)  # spade led; Ac offered
    assert why.endswith("must follow suit (spade (s) led)"), why

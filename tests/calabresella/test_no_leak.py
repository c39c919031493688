"""No-leak tests: a seat's view (and its encoding) is unchanged when every card it cannot see
is resampled consistently with what it has seen.

The resampled world is the image of the real one under a permutation of the hidden cards that
keeps suits (so every follow-suit decision and void stays legal); card actions in the history
are mapped through the same permutation and replayed on the permuted deck.
"""

import random

import numpy as np
import pytest

from envs.calabresella.config import Rules
from envs.calabresella.deck import ITALIAN_40
from envs.calabresella.encode import encode
from envs.calabresella.rules import State
from envs.calabresella.view import info_view
from envs.cards.bits import bit_list
from envs.cards.deal import Deal


def known_cards(s: State, seat: int) -> int:
    v = info_view(s, seat)
    known = v.hand | v.partner_hand | v.known_monte | v.discards | v.split_d1 | v.split_d2
    known |= v.played_by[0] | v.played_by[1] | v.played_by[2] | v.piles[0] | v.piles[1]
    for c in (v.called, v.returned):
        if c >= 0:
            known |= 1 << c
    for pos in range(3):  # with 2 players the defender controller holds two positions
        if s.seat_of[pos] == seat:
            known |= s.hands[pos] | s.discarded[pos]
    return known


def resample(s: State, seat: int, rng: random.Random) -> tuple[State, bool]:
    hidden = ((1 << 40) - 1) & ~known_cards(s, seat)
    perm = list(range(40))
    for suit in range(4):
        cards = bit_list(hidden & ITALIAN_40.suit_mask[suit])
        shuffled = cards[:]
        rng.shuffle(shuffled)
        for a, b in zip(cards, shuffled, strict=True):
            perm[a] = b
    deal = Deal(s.deal.dealer, tuple(perm[c] for c in s.deal.order))
    t = State.new(deal, s.rules, no_chiamo=s.no_chiamo)
    for _, action in s.history:
        t.apply(perm[action] if action < 40 else action)
    return t, perm != list(range(40))


FLAGS = [{}, {"players": 4}, {"players": 2}, {"aperta": True}, {"chiamo_monte_exposed": True}]


@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_views_do_not_depend_on_hidden_cards(flags):
    rules = Rules.from_flags(flags)
    rng = random.Random(11)
    changed_worlds = 0
    for _ in range(300):
        order = list(range(40))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)
        stop = rng.randrange(45)
        while not s.is_terminal() and len(s.history) < stop:
            s.apply(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        for seat in range(rules.players):
            t, changed = resample(s, seat, rng)
            assert info_view(t, seat) == info_view(s, seat)
            np.testing.assert_array_equal(encode(info_view(t, seat)), encode(info_view(s, seat)))
            if changed and t.hands != s.hands:
                changed_worlds += 1
    assert changed_worlds > 200  # the test really moved hidden cards around


def test_views_differ_between_seats_only_in_private_fields():
    s = State.new(Deal(0, tuple(range(40))), Rules())
    a, b = info_view(s, 1), info_view(s, 2)
    assert a.hand != b.hand and a.bids == b.bids and a.played_by == b.played_by

"""Tricks by seat, as Minchiate records them, with the position form beside them; the one-seat
``info_view(seat)`` signature shared with Minchiate, match totals put in by the match; and an
observation vector that does not depend on either trick form."""

import inspect
import random

import numpy as np
import pytest

from mazzo.envs.calabresella.encode import encode
from mazzo.envs.calabresella.match import Match
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.state import State
from mazzo.envs.cards.deal import Deal


def random_state(rules: Rules, rng: random.Random) -> State:
    order = list(range(40))
    rng.shuffle(order)
    return State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tricks_are_by_seat_and_position_tricks_by_position(players):
    rules, rng = Rules(players=players), random.Random(players)
    for _ in range(200):
        s = random_state(rules, rng)
        while not s.is_terminal():
            seat = s.to_play
            s.apply(rng.choice(s.legal_actions()))
            v = s.info_view(seat)
            assert v.tricks == tuple(s.tricks) and v.position_tricks == tuple(s.position_tricks)
            encoded = encode(v)
            blind = encode(v._replace(tricks=(), position_tricks=()))
            np.testing.assert_array_equal(encoded, blind)  # the observation reads neither
        if s.is_void():
            continue
        assert len(s.tricks) == len(s.position_tricks) == 12
        leader = s.position_tricks[0][0]
        for (lead_seat, cards, win_seat), (lead, pcards, win) in zip(
            s.tricks, s.position_tricks, strict=True
        ):
            assert cards == pcards and lead == leader
            assert (lead_seat, win_seat) == (s.seat_of[lead], s.seat_of[win])
            assert 0 <= win_seat < players
            leader = win
        played = [0, 0, 0]
        for lead, cards, _ in s.position_tricks:
            for k, c in enumerate(cards):
                played[(lead + k) % 3] |= 1 << c
        assert played == s.played_by


def test_info_view_takes_only_the_seat_and_the_match_puts_its_totals_in():
    assert list(inspect.signature(State.info_view).parameters) == ["self", "seat"]
    assert list(inspect.signature(Match.info_view).parameters) == ["self", "seat"]
    rules = Rules()
    m = Match(rules, Deal(0, tuple(range(40))), lambda d: Deal(d, tuple(range(40))), [3, 5, 7])
    for seat in range(3):
        v = m.info_view(seat)
        assert v.totals == (3, 5, 7)
        assert v._replace(totals=(0.0, 0.0, 0.0)) == m.state.info_view(seat)
    assert m.state.info_view(0).totals == (0.0, 0.0, 0.0)

"""The Calabresella seat tracker refuses impossible input with a clear message and changes
nothing: a card the seat holds played by another seat, a card already played, an action out of
turn, an illegal own move, a hidden card sent, an event before a due reveal, a reveal that is
not due or contradicts, and a ``deal.private`` with the wrong cards."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest

from mazzo.envs.calabresella.actions import Phase
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.registry import get_game
from mazzo.serve.trackers.calabresella import CalabresellaTracker, private_of

from ..serve import referee
from ..serve.referee import Driver, refused

GAME = get_game("calabresella")


def driver(flags: dict[str, Any] | None = None, seed: int = 1, seat: int = 0) -> Driver:
    return referee.driver(GAME, flags, seed, seat)


def past_trick_one_other_on_turn(seat: int, s: Any) -> bool:
    return s.phase is not Phase.PLAY or (bool(s.tricks) and s.to_play != seat)


def in_play_other_on_turn(d: Driver) -> bool:
    return d.until(lambda s: s.phase is Phase.PLAY and s.to_play != d.seat)


def test_a_card_the_seat_holds_or_that_was_played_cannot_come_from_another_seat() -> None:
    checked = 0
    for seed in range(20):
        d = driver(seed=seed)
        if not in_play_other_on_turn(d):
            continue  # this deal ended in the auction
        mine = ITALIAN_40.labels[d.tracker.view().hand.bit_length() - 1]
        refused(d, "impossible", d.tracker.event, d.state.to_play, "play", mine)
        d.until(partial(past_trick_one_other_on_turn, d.seat))
        gone = ITALIAN_40.labels[d.state.tricks[0][1][0]]
        refused(d, "impossible", d.tracker.event, d.state.to_play, "play", gone)
        checked += 1
    assert checked >= 5


def test_out_of_turn_illegal_and_hidden_input_is_refused() -> None:
    d = driver()
    other = (d.state.to_play + 1) % 3
    refused(d, "is on turn", d.tracker.event, other, "bid", "pass")
    assert d.until(lambda s: s.to_play == d.seat)
    refused(d, "impossible|not a BID", d.tracker.event, d.seat, "play", "Ac")
    drivers = [driver({"allowed_contracts": ["solo"]}, seed=3, seat=seat) for seat in range(3)]
    for d in drivers:
        d.until(lambda s: s.phase is Phase.SOLO_DISCARD)
    d = next(d for d in drivers if d.state.to_play != d.seat)
    card = ITALIAN_40.labels[(d.state.hands[d.state.pos]).bit_length() - 1]
    refused(d, "send its arg as null", d.tracker.event, d.state.to_play, "discard", card)
    refused(d, "no 'bid' is due", d.tracker.event, d.state.to_play, "bid", None)


def test_reveals_must_be_due_and_agree() -> None:
    for seed in range(40):
        d = driver({"allowed_contracts": ["scegliete"]}, seed=seed)
        refused(d, "is shown no monte", d.tracker.reveal, {"monte": ["Ac", "2c", "3c", "4c"]})
        while d.state.phase is Phase.BID:
            owed = d.step(reveal=False)
        if "monte" in owed:
            break
    assert d.tracker.pending == {"monte"}
    refused(d, "reveal of monte is due", d.tracker.event, d.state.to_play, "split", "3")
    mine = ITALIAN_40.codes(d.tracker.view().hand)[:1]
    wrong = mine + owed["monte"][1:]
    refused(d, "contradicts", d.tracker.reveal, {"monte": wrong})
    d.tracker.reveal(owed)
    assert d.tracker.view() == d.state.info_view(d.seat)


def test_a_bad_private_setup_is_refused() -> None:
    rules = GAME.rules({})
    state = GAME.new_state(GAME.deal_random(np.random.default_rng(5), rules), rules)
    good = private_of(state, 0)
    hand = good["hands"][0]
    for private, match in (
        ({"hands": [hand[:11]]}, "must hold 12 cards"),
        ({"hands": [[hand[0], *hand[:11]]]}, "repeats"),
        ({"hands": [hand, hand]}, "must list 1 hand"),
        ({"hands": [[*hand[:11], "Zz"]]}, "unknown card code"),
        ({"hands": [hand], "extra": 1}, "unknown deal.private key"),
    ):
        with pytest.raises(ValueError, match=match):
            CalabresellaTracker(rules, 0, state.dealer, private)
    rules2 = GAME.rules({"players": 2})
    with pytest.raises(ValueError, match="must list 2 hand"):
        CalabresellaTracker(rules2, 0, 0, {"hands": [hand]})

"""The Minchiate seat tracker refuses impossible input with a clear message and changes
nothing: a card the seat holds played by another seat, a card already played, an action out of
turn, a hidden discard sent, a reveal that is not due or contradicts (the Fola, a declared
combination), and a ``deal.private`` with the wrong cards; a void deal (M-8.5) is revealed."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.minchiate.deck import MINCHIATE_97
from mazzo.envs.minchiate.tables import DISCARDABLE
from mazzo.envs.registry import get_game
from mazzo.serve.trackers.minchiate import MinchiateTracker, reveal_of
from mazzo.serve.trackers.minchiate_deal import private_of

from ..serve import referee
from ..serve.referee import Driver, play_through, refused

GAME = get_game("minchiate")
CODES = MINCHIATE_97.labels


def driver(flags: dict[str, Any] | None = None, seed: int = 1, seat: int = 0) -> Driver:
    return referee.driver(GAME, flags, seed, seat)


def test_plays_the_seat_knows_to_be_impossible_are_refused() -> None:
    d = driver(seed=2)
    assert d.until(lambda s: s.phase is Phase.PLAY and s.to_play != d.seat and bool(s.tricks))
    mine = CODES[d.tracker.view().hand.bit_length() - 1]
    refused(d, "impossible", d.tracker.event, d.state.to_play, "play", mine)
    gone = CODES[d.state.tricks[0][1][0]]
    refused(d, "impossible", d.tracker.event, d.state.to_play, "play", gone)
    other = (d.state.to_play + 1) & 3
    refused(d, "is on turn", d.tracker.event, other, "play", "T1")
    refused(d, "unknown card code", d.tracker.event, d.state.to_play, "play", "Zz")


def test_hidden_discards_come_without_their_card() -> None:
    for seed in range(30):
        d = driver(seed=seed)
        s = d.state
        if s.phase in (Phase.DISCARD_CUTTER, Phase.DISCARD_DEALER) and s.to_play != d.seat:
            card = CODES[next(a for a in s.legal_actions())]
            refused(d, "send its arg as null", d.tracker.event, s.to_play, "discard", card)
            d.tracker.event(s.to_play, "discard", None)
            return
    raise AssertionError("no deal of the seeds opens with another seat's discard")


def test_the_fola_and_declarations_must_agree() -> None:
    d = driver(seed=4, seat=1)
    refused(d, "is shown no fola", d.tracker.reveal, {"fola": []})
    while True:
        owed = d.step(reveal=False)
        if "fola" in owed:
            break
        if owed:
            d.tracker.reveal(owed)
    mine = MINCHIATE_97.codes(d.tracker.view().hand)[:1]
    wrong = {**owed, "fola": mine + owed["fola"][1:]}
    refused(d, "contradicts", d.tracker.reveal, wrong)
    combo = {"seat": 0, "combo": "kings", "cards": mine, "bonus": 0}
    refused(d, "contradicts", d.tracker.reveal, {**owed, "declared": [combo]})
    d.tracker.reveal(owed)
    assert d.tracker.view() == d.state.info_view(d.seat)


def test_a_bad_private_setup_is_refused() -> None:
    rules = GAME.rules({})
    state = GAME.new_state(GAME.deal_random(np.random.default_rng(5), rules), rules)
    seat = (state.dealer + 1) & 3
    good = private_of(state, seat)
    hand = good["hand"]
    shown = good["faceup"][(seat + 1) & 3]  # another seat's face-up card
    drop = next(c for c in hand if c != good["faceup"][seat])
    cases: list[tuple[dict[str, Any], str]] = [
        ({**good, "hand": hand[:-1]}, "must hold 21 cards"),
        ({**good, "hand": [hand[0], *hand[1:], hand[0]]}, "repeats"),
        ({**good, "hand": [*(c for c in hand if c != drop), shown]}, "shown elsewhere"),
        ({**good, "hand": [c for c in hand if c != good["faceup"][seat]] + [drop]}, "repeats"),
        ({**good, "faceup": good["faceup"][:3]}, "must list 4 cards"),
        ({**good, "fola": []}, "needs exactly the keys"),
        ({k: v for k, v in good.items() if k != "stop"}, "needs exactly the keys"),
    ]
    for private, match in cases:
        with pytest.raises(ValueError, match=match):
            MinchiateTracker(rules, seat, state.dealer, private)
    dealer = private_of(state, state.dealer)
    with pytest.raises(ValueError, match="fola must hold"):
        MinchiateTracker(rules, state.dealer, state.dealer, {**dealer, "fola": dealer["fola"][1:]})


def _void_stream(dealer_void: bool) -> tuple[int, ...]:
    """A stream (dealer S0) whose cutter (or, with ``dealer_void``, whose dealer once the cutter
    has discarded) holds fewer legal discards than due: the deal is void (M-8.5). Built by
    swapping the discardable cards of that seat's dealt cards with other seats' cards."""
    rules = GAME.rules({})
    for seed in range(500):
        order = [int(c) for c in np.random.default_rng(seed).permutation(97)]
        setup = GAME.new_state(Deal(0, tuple(order)), rules).setup
        r = len(setup.robbed)
        if not r or (dealer_void and not setup.dealer_robbed and not setup.dealer_taken):
            continue
        k = 3 if dealer_void else 2  # the dealer S0 is the 4th dealt, the cutter S3 the 3rd
        mine = [*range(10 * k, 10 * k + 10), *range(40 + 11 * k, 51 + 11 * k)]
        others = [i for j in range(4) if j != k
                  for i in (*range(10 * j, 10 * j + 10), *range(40 + 11 * j, 51 + 11 * j))]  # fmt: skip
        pack = [*order[r + 1 :], order[r]]
        spare = [i for i in others if not DISCARDABLE >> pack[i] & 1 and i < len(pack) - 1]
        for i in mine:
            if DISCARDABLE >> pack[i] & 1 and spare and i < len(pack) - 1:
                j = spare.pop()
                pack[i], pack[j] = pack[j], pack[i]
        stream = (*order[: r + 1], *pack[:-1])
        state = GAME.new_state(Deal(0, stream), rules)
        if state.setup.robbed != setup.robbed or state.setup.fola != setup.fola:
            continue
        while state.phase is Phase.DISCARD_CUTTER:
            state.apply(state.legal_actions()[0])
        if state.void and (state.history != []) == dealer_void:
            return stream
    raise AssertionError("no void deal found")


@pytest.mark.parametrize("dealer_void", [False, True])
def test_a_void_deal_is_revealed_to_every_seat(dealer_void: bool) -> None:
    rules = GAME.rules({})
    state = GAME.new_state(Deal(0, _void_stream(dealer_void)), rules)
    assert state.void != dealer_void  # the dealer's void comes after the cutter's discards
    for seat in range(4):
        first = {} if seat == state.cutter else {"void": not dealer_void}
        assert reveal_of(None, None, state, seat) == first
        deal, play = state.clone(), random.Random(seat)
        play_through(GAME, MinchiateTracker, private_of, reveal_of, deal, seat, play)
        assert deal.void and deal.is_terminal()

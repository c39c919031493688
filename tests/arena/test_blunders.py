"""The blunders of ``mazzo.arena.gifts`` (sure gift, partner overtaken, master lost, excuse
wasted): each predicate on hand-made plays, then every blunder found over random playouts of
both games checked against the rules from the deal's own record (who played what, in which
order), independently of how ``play_deal`` found it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from mazzo.arena.gifts import BLUNDERS, EXCUSE, CardPlay, DealPlays, play_deal
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game

# four seats, seats 0 and 2 one side (returns +1), 1 and 3 the other
SIDES = (1.0, -1.0, 1.0, -1.0)


def _play(**kw: Any) -> CardPlay:
    base: dict[str, Any] = {
        "step": 0, "seat": 0, "card": "5s", "value": 0, "blanks": (), "last": True, "winner": 0,
    }  # fmt: skip
    return CardPlay(**(base | kw))


def test_a_partner_overtaken_needs_a_card_worth_as_much_that_left_it_with_the_partner():
    deal = DealPlays((), SIDES)
    took = _play(seat=0, winner=0, others_win=((7, 2, 0), (8, 0, 0)))
    assert deal.partner_overtaken(took)
    # a counter laid on the partner's trick: every card that leaves it to him is worth less
    assert not deal.partner_overtaken(_play(value=5, others_win=((7, 2, 0),)))
    assert deal.partner_overtaken(_play(value=5, others_win=((7, 2, 5),)))
    # no card would have left it with the partner; the other side; not last; not the taker
    assert not deal.partner_overtaken(_play(others_win=((7, 0, 0), (8, 1, 0))))
    assert not deal.partner_overtaken(_play(others_win=((7, 3, 0),)))
    assert not deal.partner_overtaken(_play(last=False, others_win=()))
    assert not deal.partner_overtaken(_play(winner=2, others_win=((7, 2, 0),)))
    assert not DealPlays((), (0.0,) * 4).partner_overtaken(took)  # no sides to read
    assert deal.remedies("partner overtaken", took) == (7,)
    assert deal.remedies(
        "partner overtaken", _play(value=5, others_win=((7, 2, 0), (8, 2, 5)))
    ) == (8,)


def test_a_master_lost_is_a_master_laid_on_the_other_sides_winning_card_with_a_lesser_held():
    deal = DealPlays((), SIDES)
    lost = _play(seat=0, winner=1, last=False, master=True, beaten=True, lesser=(7,))
    assert deal.master_lost(lost)
    assert deal.remedies("master lost", lost) == (7,)
    for change in ({"master": False}, {"beaten": False}, {"lesser": ()}, {"winner": 2}):
        kw = {"seat": 0, "winner": 1, "master": True, "beaten": True, "lesser": (7,)} | change
        assert not deal.master_lost(_play(**kw)), change


def test_an_excuse_wasted_is_the_excuse_on_its_own_sides_trick_with_another_card_held():
    deal = DealPlays((), SIDES)
    wasted = _play(card=EXCUSE, seat=0, winner=2, options=3, others_win=((4, 2, 0), (9, 0, 5)))
    assert deal.excuse_wasted(wasted)
    assert deal.remedies("excuse wasted", wasted) == (4, 9)
    assert deal.remedies("sure gift", _play(blanks=(3, 5))) == (3, 5)
    with pytest.raises(ValueError, match=r"unknown blunder 'gift'.*sure gift, partner overtaken"):
        deal.remedies("gift", wasted)
    assert not deal.excuse_wasted(_play(card=EXCUSE, seat=0, winner=1, options=3))
    assert not deal.excuse_wasted(_play(card=EXCUSE, seat=0, winner=2, options=1))
    assert not deal.excuse_wasted(_play(card=EXCUSE, seat=0, winner=2, options=3, last=False))
    assert not deal.excuse_wasted(_play(card="5s", seat=0, winner=2, options=3))


def test_blunders_lists_every_kind_in_play_order():
    plays = (
        _play(step=1, card=EXCUSE, seat=0, winner=2, options=2),
        _play(step=2, seat=0, winner=1, value=3, blanks=(4,)),
        _play(step=3, seat=0, winner=0, others_win=((7, 2, 0),)),
    )
    found = DealPlays(plays, SIDES).blunders()
    assert tuple(found) == BLUNDERS
    assert [[p.step for p in found[k]] for k in BLUNDERS] == [[2], [3], [], [1]]


def _trick_of(plays: list[CardPlay], p: CardPlay, size: int) -> list[CardPlay]:
    i = plays.index(p)
    return plays[i - i % size : i - i % size + size]


@pytest.mark.parametrize("name", ["calabresella", "minchiate"])
def test_every_blunder_of_random_playouts_holds_by_the_rules(name):
    game = get_game(name)
    rules = game.rules()
    deck = game.info.deck
    deals = list(generate_deals(game, rules, 150 if name == "calabresella" else 60, 11).deals)
    size = game.seats(rules)
    seen = dict.fromkeys(BLUNDERS, 0)
    for k, deal in enumerate(deals):
        rng = np.random.default_rng([11, k])

        def choose(state: Any, rng: np.random.Generator = rng) -> int:
            return int(rng.choice(state.legal_actions()))

        found = play_deal(game, game.new_state(deal, rules), choose)
        plays = list(found.plays)
        assert len(plays) % size == 0
        for kind, blunders in found.blunders().items():
            seen[kind] += len(blunders)
            for p in blunders:
                trick = _trick_of(plays, p, size)
                taker = next(q for q in trick if q.seat == q.winner)
                assert all(q.winner == p.winner for q in trick)
                if kind == "partner overtaken":
                    assert p.last and p.winner == p.seat and p.card != EXCUSE
                    assert any(found.same_side(q.seat, p.seat) for q in trick[:-1])
                elif kind == "master lost":
                    # no stronger card of its suit is played later by another seat, and the
                    # card that took the trick for the other side was already on it
                    card = deck.parse(p.card)
                    later = plays[plays.index(p) + 1 :]
                    assert not any(
                        q.seat != p.seat
                        and q.card != EXCUSE
                        and deck.suit[deck.parse(q.card)] == deck.suit[card]
                        and deck.strength[deck.parse(q.card)] > deck.strength[card]
                        for q in later
                    )
                    assert trick.index(taker) < trick.index(p)
                    assert not found.same_side(p.seat, p.winner)
                    if name == "calabresella":  # no trumps: thrown off-suit, or laid under a
                        # stronger card of its suit on the trick (it was master once that fell)
                        led, won = (deck.parse(trick[0].card), deck.parse(taker.card))
                        assert deck.suit[card] != deck.suit[led] or (
                            deck.suit[won] == deck.suit[card]
                            and deck.strength[won] > deck.strength[card]
                        )
                elif kind == "excuse wasted":
                    assert p.card == EXCUSE and p.last and found.same_side(p.seat, p.winner)
        # the converse of the master: a card is no master exactly when a stronger card of its
        # suit is played later by another seat (every hand is played out)
        for i, p in enumerate(plays):
            if p.card == EXCUSE:
                assert not p.master
                continue
            card = deck.parse(p.card)
            stronger_later = any(
                q.seat != p.seat
                and q.card != EXCUSE
                and deck.suit[deck.parse(q.card)] == deck.suit[card]
                and deck.strength[deck.parse(q.card)] > deck.strength[card]
                for q in plays[i + 1 :]
            )
            assert p.master != stronger_later, (k, p)
    kinds = {"partner overtaken", "master lost", "sure gift"}
    if name == "minchiate":
        kinds.add("excuse wasted")
    assert all(seen[kind] > 0 for kind in kinds), seen  # random play makes every one

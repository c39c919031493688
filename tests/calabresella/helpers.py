"""Test helpers: build explicit Calabresella deals from the hands of the three positions, the
way C-3.1 deals them, drive a state with action labels, and start random deals."""

import random

from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.state import State
from mazzo.envs.cards.deal import Deal


def deck_from_positions(a0: str, a1: str, a2: str, monte: str) -> list[str]:
    """40 card codes such that C-3.1 (round j, position k gets D[12j+4k .. 12j+4k+3]) deals
    the given 12-card hands to A0, A1, A2 and leaves ``monte`` (in order) as D[36..39]."""
    hands = [a0.split(), a1.split(), a2.split()]
    assert all(len(h) == 12 for h in hands)
    deck = [""] * 40
    for k, hand in enumerate(hands):
        for j in range(3):
            deck[12 * j + 4 * k : 12 * j + 4 * k + 4] = hand[4 * j : 4 * j + 4]
    deck[36:40] = monte.split()
    assert sorted(deck) == sorted(ITALIAN_40.labels)
    return deck


def new_state(deck: list[str], dealer: int, rules: Rules | None = None) -> State:
    rules = rules or Rules()
    return State.new(Deal.from_codes(ITALIAN_40, dealer, deck, rules.players), rules)


def play(state: State, script: list[tuple[int, str]]) -> None:
    """Apply (seat, label) steps, asserting that each seat is the one on turn."""
    for seat, label in script:
        assert state.to_play == seat, (seat, label, state.to_play)
        state.apply(state.parse_action(label))


def hand(state: State, seat: int) -> str:
    pos = state.seat_of.index(seat)
    return ITALIAN_40.format_mask(state.hands[pos])


def cards(codes: str) -> int:
    return ITALIAN_40.mask_of(codes)


def random_state(rules: Rules, rng: random.Random) -> State:
    """A fresh deal of a shuffled deck under ``rules``, the dealer drawn too."""
    order = list(range(40))
    rng.shuffle(order)
    return State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)

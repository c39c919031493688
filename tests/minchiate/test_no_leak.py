"""No leak at the view level, by surgery on the current state: moving cards a seat cannot see
between the hidden slots leaves that seat's ``InfoView`` unchanged; changing what it can see
changes it. (The general test, by resampling the deal and replaying, runs for every variant in
``tests/contract/test_no_leak.py``.)

What the seat knows comes from the contract suite's Minchiate oracle
(``tests/contract/oracles/minchiate.py``: the public record and the rules text, not the view).
The resampler moves cards between the hidden slots (other seats' hands, the Fola cards the seat
does not know) by random transpositions that keep what the seat has seen true: known cards stay
put, the Fola holds only dead cards, and no seat receives a card of a suit it has shown void in,
nor a king the King rule showed it lacks.
"""

import random

import pytest

from mazzo.envs.minchiate import Phase, Rules, State
from mazzo.envs.minchiate.tables import DISCARDABLE, MATTO, SUIT
from mazzo.envs.registry import get_game
from tests.contract.no_leak import steps_of
from tests.contract.oracles import minchiate as oracle

from .helpers import random_deal

TRUMP = 4
FOLA = -1
KING_OF = {s: 41 + 14 * s + 13 for s in range(4)}
GAME = get_game("minchiate")


def led_suit(cards) -> int:
    return next((SUIT[c] for c in cards if c != MATTO), -1)


def shown(s: State) -> tuple[list[int], list[int]]:
    """Per seat: the suits it has shown void in (bitmask over 0..4) and the kings it is known
    not to hold (King rule not obeyed means not held)."""
    void, no_king = [0] * 4, [0] * 4
    tricks = [*s.tricks, (s.leader, tuple(s.trick), -1)]
    earlier: set[int] = set()
    for leader, cards, _ in tricks:
        for i, c in enumerate(cards):
            seat, before = (leader + i) % 4, cards[:i]
            lead = led_suit(before)
            if lead < 0 or c == MATTO:
                continue
            if SUIT[c] != lead:
                void[seat] |= 1 << lead
                if SUIT[c] != TRUMP:
                    void[seat] |= 1 << TRUMP
            trumped = any(SUIT[x] == TRUMP for x in before)
            if lead < 4 and lead not in earlier and trumped and c != KING_OF[lead]:
                no_king[seat] |= 1 << KING_OF[lead]
        if cards:
            earlier.add(led_suit(cards))
    return void, no_king


def owner_of_public(s: State) -> dict[int, int]:
    """Robbed and taken cards: their owner (they are public)."""
    owners = dict.fromkeys(s.setup.robbed, s.cutter)
    owners.update(dict.fromkeys(s.setup.dealer_robbed, s.dealer))
    owners.update({c: s.dealer for c in range(97) if (s.setup.dealer_taken >> c) & 1})
    return owners


def slots(s: State, seat: int) -> list[tuple[int, int]]:
    """(card, location) of every card ``seat`` cannot locate; location = a seat or FOLA."""
    steps = steps_of(GAME, s.rules, s.deal, [a for _, a in s.history], seat)
    known = oracle.known_cards(s.rules, s.deal, steps, s, seat)
    out = [
        (c, q)
        for q in range(4)
        if q != seat
        for c in range(97)
        if (s.hands[q] >> c) & 1 and not (known >> c) & 1
    ]
    hidden_fola = s.fola & ~known
    out += [(c, FOLA) for c in range(97) if (hidden_fola >> c) & 1]
    return out


def allowed(s: State, card: int, where: int, void, no_king, owners) -> bool:
    if card in owners and where not in (owners[card], FOLA):
        return False
    if where == FOLA:
        return bool((DISCARDABLE >> card) & 1)
    suit = SUIT[card]
    return not (suit < 5 and (void[where] >> suit) & 1) and not (no_king[where] >> card) & 1


def move(s: State, card: int, src: int, dst_card: int, dst: int) -> None:
    """Put ``card`` where ``dst_card`` was and vice versa, keeping every per-location field."""
    for c, frm, to in ((card, src, dst), (dst_card, dst, src)):
        if frm == FOLA:
            s.fola ^= 1 << c
            for q in range(4):
                if (s.discards[q] >> c) & 1:
                    s.discards[q] ^= (1 << c) | (1 << (card if c == dst_card else dst_card))
            if (s.setup.fola >> c) & 1:
                other = card if c == dst_card else dst_card
                s.setup = s.setup._replace(fola=s.setup.fola ^ (1 << c) ^ (1 << other))
        else:
            s.hands[frm] ^= 1 << c
        if to == FOLA:
            s.fola |= 1 << c
        else:
            s.hands[to] |= 1 << c


def resample(s: State, seat: int, rng: random.Random, tries: int = 300) -> int:
    """Random consistent transpositions of hidden cards; returns how many were made."""
    void, no_king = shown(s)
    owners = owner_of_public(s)
    hidden = slots(s, seat)
    done = 0
    for _ in range(tries if len(hidden) > 1 else 0):
        i, j = rng.sample(range(len(hidden)), 2)
        (c1, l1), (c2, l2) = hidden[i], hidden[j]
        if l1 == l2:
            continue
        if allowed(s, c1, l2, void, no_king, owners) and allowed(s, c2, l1, void, no_king, owners):
            move(s, c1, l1, c2, l2)
            hidden[i], hidden[j] = (c2, l1), (c1, l2)
            done += 1
    return done


def random_states(n: int, seed: int, rules: Rules):
    rng = random.Random(seed)
    for _ in range(n):
        s = State.new(random_deal(rng), rules)
        stop = rng.randrange(0, 100)
        while not s.is_terminal() and len(s.history) < stop:
            s.apply(rng.choice(s.legal_actions()))
        yield s, rng


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(fola_exposure="never", faceup_21st="dealer_only", declare_timing="with_first_card"),
    ],
)
def test_resampling_hidden_cards_keeps_every_view(rules):
    moved = 0
    phases = set()
    for s, rng in random_states(250, 17, rules):
        phases.add(s.phase)
        for seat in range(4):
            before = s.info_view(seat)
            world = s.clone()
            moved += resample(world, seat, rng)
            assert world.info_view(seat) == before, (seat, s.phase)
    assert moved > 10_000 and {Phase.DISCARD_CUTTER, Phase.DECLARE, Phase.PLAY} <= phases


def test_changing_a_seen_card_changes_the_view():
    """The test has teeth: a swap between the seat's own hand and a hidden card shows."""
    changed = 0
    for s, _ in random_states(100, 5, Rules()):
        if s.is_terminal():
            continue
        for seat in range(4):
            other = (seat + 1) % 4
            if not s.hands[seat] or not s.hands[other]:
                continue
            mine = (s.hands[seat] & -s.hands[seat]).bit_length() - 1
            theirs = (s.hands[other] & -s.hands[other]).bit_length() - 1
            world = s.clone()
            move(world, mine, seat, theirs, other)
            assert world.info_view(seat) != s.info_view(seat)
            changed += 1
    assert changed > 100

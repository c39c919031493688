"""``scoring.payoff_bound``: never exceeded by a seat's return over thousands of random deals
(single deals and matches) under several rule variants, and attained by constructed deals (a
cappotto where it is the top multiplier, a stramazzo where that is)."""

import random

import pytest

from mazzo.envs.calabresella.actions import BID_BASE, CONTRACTS, PASS, Phase
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.calabresella.kernel import STRENGTH, SUIT, THIRDS
from mazzo.envs.calabresella.match import Match
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.scoring import payoff_bound
from mazzo.envs.calabresella.state import State
from mazzo.envs.cards.deal import Deal

from .helpers import deck_from_positions, new_state

RANDOM_VARIANTS = [{}, {"payout_mode": "difference"}, {"players": 2}, {"players": 4},
                   {"reward_mode": "raw"}, {"players": 2, "reward_mode": "raw"},
                   {"stramazzo": False, "cappotto_mult": 7},
                   {"aperta": True, "aperta_payout_factor": 2.5},
                   {"aperta": True, "aperta_payout_factor": 0.5, "payout_mode": "difference"},
                   {"allowed_contracts": ["chiamo", "solo"], "contract_values": [3, 5, 1, 1, 1]}]  # fmt: skip


def test_formula_on_known_rule_sets():
    assert payoff_bound(Rules()) == 2 * 16 * 3
    assert payoff_bound(Rules(payout_mode="difference")) == 2 * 16 * 3 * 11
    assert payoff_bound(Rules(reward_mode="raw")) == 16 * 3
    assert payoff_bound(Rules(reward_mode="raw", players=2)) == 2 * 16 * 3
    assert payoff_bound(Rules(stramazzo=False)) == 2 * 16 * 2
    assert payoff_bound(Rules(allowed_contracts=("chiamo",), cappotto_mult=5)) == 2 * 1 * 5
    assert payoff_bound(Rules(aperta=True, aperta_payout_factor=2.5)) == 240
    assert payoff_bound(Rules(aperta=True, aperta_payout_factor=0.5)) == 96
    assert payoff_bound(Rules(aperta_payout_factor=2.5)) == 96  # the factor needs aperta


@pytest.mark.parametrize("flags", RANDOM_VARIANTS, ids=str)
def test_never_exceeded_on_random_deals(flags):
    rules = Rules.from_flags(flags)
    bound, rng = payoff_bound(rules), random.Random(len(str(flags)))
    factor = rules.aperta_payout_factor if rules.aperta else 1
    biggest = 0.0
    for _ in range(1500):
        order = list(range(40))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        for r in s.returns():
            biggest = max(biggest, abs(r), abs(r * factor))
    assert 0 < biggest <= bound


def test_never_exceeded_in_matches():
    rules = Rules.from_flags({"aperta": True, "aperta_payout_factor": 1.5, "target": 60})
    bound, rng = payoff_bound(rules), random.Random(2)

    def deal(dealer: int) -> Deal:
        order = list(range(40))
        rng.shuffle(order)
        return Deal(dealer, tuple(order))

    for _ in range(20):
        m = Match(rules, deal(0), deal)
        before = m.returns()
        while not m.is_terminal():
            m.apply(rng.choice(m.legal_actions()))
            after = m.returns()
            assert all(abs(b - a) <= bound for a, b in zip(before, after, strict=True))
            before = after


def _top_contract(rules: Rules) -> int:
    return max(
        (CONTRACTS.index(c) for c in rules.allowed_contracts),
        key=lambda c: rules.contract_values[c],
    )


def _drive(s: State, contract: int, play) -> None:
    """A0 bids ``contract`` and the others pass; exchanges give up the weakest cards;
    ``play(s)`` chooses the card plays."""
    while not s.is_terminal():
        legal = s.legal_actions()
        if s.phase is Phase.BID:
            s.apply(BID_BASE + contract if s.pos == 0 else PASS)
        elif s.phase in (Phase.CALL, Phase.SPLIT):
            s.apply(legal[0])
        elif s.phase is Phase.PLAY:
            s.apply(play(s, legal))
        else:  # return and discards: the cheapest, weakest card (not a diamond on a tie)
            s.apply(min(legal, key=lambda c: (THIRDS[c], STRENGTH[c], SUIT[c] == 1)))


TOPS = "3c 2c Ac 3d 2d Ad 3s 2s As 3b 2b Ab"
CAPPOTTO_VARIANTS = [{"stramazzo": False}, {"cappotto_mult": 5}, {"players": 2, "stramazzo": False},
                     {"players": 4, "cappotto_mult": 3, "payout_mode": "difference"},
                     {"allowed_contracts": ["chiamo"], "stramazzo_mult": 1},
                     {"allowed_contracts": ["solo", "dividete"], "contract_values": [1, 7, 1, 2, 1],
                      "cappotto_mult": 4, "reward_mode": "raw"}]  # fmt: skip


@pytest.mark.parametrize("flags", CAPPOTTO_VARIANTS, ids=str)
def test_attained_by_a_cappotto(flags):
    """A0 holds the 3, 2 and ace of every suit, bids the top contract and takes all 12 tricks."""
    rules = Rules.from_flags(flags)
    rest = [c for c in ITALIAN_40.labels if c not in TOPS.split()]
    random.Random(0).shuffle(rest)
    deck = deck_from_positions(
        TOPS, " ".join(rest[:12]), " ".join(rest[12:24]), " ".join(rest[24:])
    )
    dealer = 2 if rules.players == 3 else 1 if rules.players == 2 else 3
    s = new_state(deck, dealer, rules)
    _drive(s, _top_contract(rules), lambda s, legal: legal[0])
    assert s.settlement is not None and s.settlement.bonus == "cappotto"
    assert s.returns()[s.seat_of[0]] == payoff_bound(rules)


STRAMAZZO_VARIANTS = [{}, {"payout_mode": "difference"}, {"players": 2}, {"players": 4},
                      {"reward_mode": "raw"}, {"stramazzo_mult": 9, "contract_values": [1, 1, 1, 1, 3]}]  # fmt: skip
FIRST_TWO_TRICKS = {(0, 0): "4d", (0, 1): "Nd", (0, 2): "5d", (1, 1): "2d", (1, 0): "3d"}


@pytest.mark.parametrize("flags", STRAMAZZO_VARIANTS, ids=str)
def test_attained_by_a_stramazzo(flags):
    """A0 bids scegliete holding ten coppe, 3d and 4d: he gives one trick with one third (Nd)
    and takes the other eleven and every other third (31 of 32)."""
    rules = Rules.from_flags(flags)
    deck = deck_from_positions(
        "3c 2c Ac Kc Nc Jc 7c 6c 5c 4c 3d 4d",
        "2d Ad Kd Nd 3s 2s As Ks Ns Js 7s 6s",
        "Jd 7d 6d 5d 3b 2b Ab Kb Nb Jb 7b 6b",
        "5s 4s 5b 4b",
    )

    def play(s: State, legal: list[int]) -> int:
        label = FIRST_TWO_TRICKS.get((len(s.tricks), s.pos))
        return ITALIAN_40.parse(label) if label else legal[0]

    dealer = 2 if rules.players == 3 else 1 if rules.players == 2 else 3
    s = new_state(deck, dealer, rules)
    _drive(s, 4, play)
    assert s.settlement is not None and s.settlement.bonus == "stramazzo"
    assert s.settlement.thirds == (31, 1) and s.settlement.tricks == (11, 1)
    assert s.returns()[s.seat_of[0]] == payoff_bound(rules)

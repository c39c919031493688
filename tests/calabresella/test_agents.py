"""The Calabresella agents: legal actions on 10,000 random views per variant, the heuristic's
named rules in small situations, the exact endgame solver against brute force, and PIMC."""

import random

import numpy as np
import pytest

from mazzo.agents.calabresella.heuristic import (
    HeuristicV1,
    best_call,
    cheapest_to_lose,
    choose_bid,
    estimated_tricks,
    keep_score,
)
from mazzo.agents.calabresella.pimc import PIMC
from mazzo.agents.calabresella.rollout import rollout_action, solve
from mazzo.agents.registry import make_agent
from mazzo.envs.calabresella.actions import BID_BASE, PASS, Phase
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.state import State
from mazzo.envs.calabresella.view import info_view
from mazzo.envs.cards.deal import Deal

from .helpers import cards, deck_from_positions, new_state, play

VARIANTS = [{}, {"players": 4}, {"players": 2}, {"auction": "until_two_passes"}, {"aperta": True},
            {"allowed_contracts": ["chiamo"]}, {"scegliete_splits": "only_2_2"}]  # fmt: skip


def random_views(rules: Rules, n: int, seed: int):
    """n (state, seat) decision points from random playouts."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        order = list(range(40))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)
        while not s.is_terminal() and len(out) < n:
            out.append(s.info_view(s.to_play))
            s.apply(rng.choice(s.legal_actions()))
    return out


@pytest.mark.parametrize("flags", VARIANTS, ids=str)
def test_heuristic_and_random_are_legal_on_10000_views(flags):
    views = random_views(Rules.from_flags(flags), 10_000, seed=len(str(flags)))
    h, r = HeuristicV1(), make_agent("random", "calabresella")
    rng = np.random.default_rng(0)
    for v in views:
        assert v.legal_mask >> h.decide(v) & 1, (v.phase, v.legal_mask)
        assert v.legal_mask >> r.act(v, rng) & 1


@pytest.mark.parametrize("flags", VARIANTS, ids=str)
def test_pimc_is_legal_on_random_views(flags):
    views = random_views(Rules.from_flags(flags), 300, seed=7)
    agent = PIMC(samples=2, ms=0)
    rng = np.random.default_rng(1)
    for v in views:
        assert v.legal_mask >> agent.act(v, rng) & 1


def test_bidding_thresholds():
    strong = cards("3c 2c Ac Kc Nc 3d 2d Ad 3s 2s 3b 2b")  # 12 sure tricks
    assert estimated_tricks(strong) == 12
    legal = sum(1 << a for a in range(PASS, BID_BASE + 5))
    assert choose_bid(strong, legal) == BID_BASE + 4  # scegliete
    weak = cards("4c 5c 6c 7c 4d 5d 6d 7d 4s 5s 6s Jb")
    assert estimated_tricks(weak) == 0 and choose_bid(weak, legal) == PASS
    # a due: passing is not allowed, the weakest allowed contract is named
    assert choose_bid(weak, legal & ~(1 << PASS)) == BID_BASE


# Each contract's threshold pinned (the heuristic is the baseline behind every figure): a
# hand that reaches it exactly bids the contract, one half a trick short passes, with only that
# contract and pass legal. Estimated tricks: sure tricks plus half a trick per card beyond four
# in a suit headed by the 3 or the 2; Chiamo and Solo add 1.0 for the monte, Chiamo counts the
# best called card (its estimate plus its thirds / 10).
@pytest.mark.parametrize(
    ("contract", "reaches", "short", "estimates"),
    [
        ("SOLO", "3c 2c Ac Kc Nc 7c 4d 5d 6d 4s 5s 6s", "3c 2c Ac Kc Nc 4d 5d 6d 4s 5s 6s 4b",
         (5.5, 5.0)),
        ("SOLISSIMO", "3c 2c Ac Kc Nc 3d 2d Ad 4s 5s 6s 4b", "3c 2c Ac Kc Nc 7c 3d 2d 4s 5s 6s 4b",
         (8.0, 7.5)),
        ("DIVIDETE", "3c 2c Ac Kc Nc 3d 2d Ad Kd 4s 5s 6s", "3c 2c Ac Kc Nc 7c 3d 2d Ad 4s 5s 6s",
         (9.0, 8.5)),
        ("SCEGLIETE", "3c 2c Ac Kc Nc 3d 2d Ad Kd Nd 4s 5s", "3c 2c Ac Kc Nc 7c 3d 2d Ad Kd 4s 5s",
         (10.0, 9.5)),
    ],
)  # fmt: skip
def test_each_bidding_threshold_is_pinned(contract, reaches, short, estimates):
    from mazzo.envs.calabresella.actions import Contract

    c = Contract[contract]
    legal = 1 << PASS | 1 << (BID_BASE + c)
    assert (estimated_tricks(cards(reaches)), estimated_tricks(cards(short))) == estimates
    assert choose_bid(cards(reaches), legal) == BID_BASE + c
    assert choose_bid(cards(short), legal) == PASS


def test_the_chiamo_threshold_lies_between_two_called_hands():
    """Chiamo at 7.5: the best call's estimate 7.1 plus the monte's 1.0 bids, 6.1 plus 1.0
    passes."""
    from mazzo.agents.calabresella.heuristic import best_call
    from mazzo.envs.calabresella.actions import Contract

    legal = 1 << PASS | 1 << (BID_BASE + Contract.CHIAMO)
    bids, passes = (
        cards("3c 2c Ac Kc Nc 3d 4d 5d 4s 5s 6s 4b"),
        cards("3c 2c Ac Kc Nc 4d 5d 6d 4s 5s 6s 4b"),
    )
    assert round(best_call(bids)[1], 6) == 7.1 and round(best_call(passes)[1], 6) == 6.1
    assert choose_bid(bids, legal) == BID_BASE + Contract.CHIAMO
    assert choose_bid(passes, legal) == PASS


def test_cheapest_to_lose_is_the_first_card_of_the_lowest_keep_score():
    """The discard rule, summed suit by suit for speed, is ``keep_score``'s minimum (the first
    such card by id) on 5,000 random hands and sets of gone cards."""
    rng = random.Random(7)
    for _ in range(5000):
        deck = rng.sample(range(40), 40)
        hand = sum(1 << c for c in deck[: rng.randint(1, 16)])
        gone = sum(1 << c for c in deck[16 : 16 + rng.randint(0, 20)])
        want = min((c for c in range(40) if hand >> c & 1), key=lambda c: keep_score(c, hand, gone))
        assert cheapest_to_lose(hand, gone) == want


def test_call_completes_the_longest_top_sequence():
    hand = cards("2c Ac Kc Nc Jc 7c 3d 2d 3s 4b 5b 6b")
    card, _ = best_call(hand)
    assert card == cards("3c").bit_length() - 1


def test_heuristic_play_rules():
    # dealer S2: A0 = S0, A1 = S1, A2 = S2; S1 plays Solo and leads after discarding
    deck = deck_from_positions(
        "3c 2c Ac Kc Nc Jc 3d 2d Ad 3s 2s 3b",
        "7c 6c 5c 4c Kd Nd Jd 7d As Ks Ns Js",
        "6d 5d 4d 7s 6s 5s 4s 2b Ab Kb Nb Jb",
        "7b 6b 5b 4b",
    )
    s = new_state(deck, dealer=2)
    play(s, [(0, "bid solissimo"), (1, "pass"), (2, "pass")])
    h = HeuristicV1()
    v = info_view(s, 0)
    assert v.phase is Phase.PLAY
    lead = h.decide(v)  # the soloist cashes a master of his longest suit: coppe
    assert lead == cards("3c").bit_length() - 1
    s.apply(lead)
    v1 = info_view(s, 1)  # S1 cannot beat the 3: plays his cheapest coppe
    assert h.decide(v1) == cards("4c").bit_length() - 1
    s.apply(h.decide(v1))
    v2 = info_view(s, 2)  # S2 is void in coppe, the soloist wins: the cheapest card of the
    assert h.decide(v2) == cards("4d").bit_length() - 1  # shortest suit goes


def brute_force_value(s: State) -> float:
    """Minimax without pruning over clones: the soloist's pairwise settlement."""
    if s.is_terminal():
        return float(s.returns()[s.seat_of[s.soloist]])
    values = []
    for a in s.legal_actions():
        c = s.clone()
        c.apply(a)
        values.append(brute_force_value(c))
    return max(values) if s.pos == s.soloist else min(values)


def test_solver_matches_brute_force_minimax():
    rng = random.Random(3)
    checked = 0
    while checked < 60:
        order = list(range(40))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(3), tuple(order)), Rules())
        while not s.is_terminal() and (s.phase is not Phase.PLAY or len(s.tricks) < 9):
            s.apply(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        for _ in range(rng.randrange(3)):  # start mid-trick sometimes
            s.apply(rng.choice(s.legal_actions()))
        value = solve(s)[s.seat_of[s.soloist]]
        assert value == brute_force_value(s)
        checked += 1


def test_rollout_plays_legal_deals_to_the_end():
    rng = random.Random(8)
    for _ in range(300):
        order = list(range(40))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(3), tuple(order)), Rules())
        while not s.is_terminal():
            a = rollout_action(s)
            assert s.legal_mask() >> a & 1
            s.apply(a)


def test_pimc_chooses_an_action_that_is_optimal_in_every_world():
    """Endgames with few consistent worlds, solved exactly: whenever one action is optimal in
    every world the seat cannot tell apart, PIMC (exact over the remaining tricks, many samples)
    picks an action that is optimal in every world too."""
    from mazzo.agents.calabresella.sampler import WorldSampler

    rng = random.Random(12)
    nrng = np.random.default_rng(3)
    tested = 0
    while tested < 15:
        order = list(range(40))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(3), tuple(order)), Rules())
        heuristic = HeuristicV1()
        while not s.is_terminal() and (s.phase is not Phase.PLAY or len(s.tricks) < 10):
            s.apply(heuristic.act(s.info_view(s.to_play), nrng))
        if s.is_terminal() or len(s.legal_actions()) < 2:
            continue
        view = s.info_view(s.to_play)
        sampler = WorldSampler(view)
        if sampler.count() > 30:
            continue
        worlds = {}
        for _ in range(400):  # collect the distinct worlds
            w = sampler.sample(nrng)
            worlds[(tuple(w.hands), w.set_aside)] = w
        values = {}
        for a in s.legal_actions():
            per_world = []
            for w in worlds.values():
                c = w.clone()
                c.apply(a)
                per_world.append(
                    solve(c)[view.seat] if not c.is_terminal() else c.returns()[view.seat]
                )
            values[a] = per_world
        best = [max(v[i] for v in values.values()) for i in range(len(worlds))]
        dominant = [a for a, v in values.items() if v == best]
        if not dominant:
            continue
        choice = PIMC(samples=200, ms=0, exact_tricks=3).act(view, nrng)
        assert values[choice] == best
        tested += 1


def test_registry_builds_every_calabresella_agent():
    for spec in ("random", "heuristic", "heuristic@1", "pimc", "pimc:samples=8,ms=100,exact=2"):
        agent = make_agent(spec, "calabresella")
        assert callable(agent.act)
    with pytest.raises(ValueError, match="versions"):
        make_agent("heuristic@9", "calabresella")
    with pytest.raises(ValueError, match="unknown parameter 'depth'"):
        make_agent("pimc:depth=3", "calabresella")
    with pytest.raises(ValueError, match="out of range"):
        make_agent("pimc:samples=0", "calabresella")


def test_act_batch_falls_back_to_act():
    from mazzo.agents.base import act_batch

    views = random_views(Rules(), 50, seed=2)
    h = HeuristicV1()
    assert act_batch(h, views, np.random.default_rng(0)) == [h.decide(v) for v in views]

    class Batched:
        name = "batched"

        def act(self, view, rng):
            raise AssertionError("the batched form must be used")

        def act_batch(self, views, rng):
            return [int(bit_list_first(v.legal_mask)) for v in views]

    assert act_batch(Batched(), views, np.random.default_rng(0)) == [
        bit_list_first(v.legal_mask) for v in views
    ]


def bit_list_first(mask):
    return (mask & -mask).bit_length() - 1

"""PIMC's card-point tie-break (``pimc:points=W``, ``rollout.points_bonus``): what a finished
deal is worth with it (the settlement, plus ``W * (t / 32 - 1/2)`` per pairwise unit, ``t`` the
soloist side's thirds), split over the seats as the pairwise payments are (zero-sum for three
players and for two, nothing for four players' idle dealer), off by default, and a gift made to
cost its giver. The compiled core's equality with the Python reference under a weight is in
``test_compiled_search.py``."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mazzo.agents.calabresella.pimc import PIMC
from mazzo.agents.calabresella.rollout import (
    final_value,
    points_bonus,
    rollout_action,
    seat_bonus,
    solve,
)
from mazzo.agents.registry import make_agent
from mazzo.envs.calabresella.actions import Phase
from mazzo.envs.calabresella.kernel import THIRDS, TOTAL_THIRDS, TRICKS
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.state import State
from mazzo.envs.cards.deal import Deal
from mazzo.envs.registry import get_game
from tests.calabresella.helpers import random_state

GAME = get_game("calabresella")


def finished_deals(rules: Rules, n: int, seed: int) -> list[State]:
    """n deals played to the end by the greedy playout policy, void deals left out."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < n:
        s = random_state(rules, rng)
        while not s.is_terminal():
            s.apply(rollout_action(s))
        if s.settlement is not None:
            out.append(s)
    return out


def test_the_bonus_runs_from_minus_half_to_half_the_weight():
    assert points_bonus(0.5, 0) == -0.25
    assert points_bonus(0.5, TOTAL_THIRDS // 2) == 0.0
    assert points_bonus(0.5, TOTAL_THIRDS) == 0.25
    assert points_bonus(0.0, 7) == 0.0


@pytest.mark.parametrize("players", [3, 2, 4])
def test_a_finished_deal_is_worth_its_settlement_plus_the_split_bonus(players):
    """Per seat: the return, plus twice the bonus for the soloist and minus it per defender
    position held; the values stay zero-sum; a weight of 0 is the return alone."""
    rules = Rules.from_flags({"players": players})
    for s in finished_deals(rules, 30, seed=players):
        st = s.settlement
        d = points_bonus(0.6, st.thirds[0])
        got = [final_value(s, seat, 0.6) for seat in range(players)]
        for seat in range(players):
            held = [p for p in range(3) if s.seat_of[p] == seat]
            share = sum(2 * d if p == st.soloist else -d for p in held)
            assert got[seat] == pytest.approx(s.returns()[seat] + share)
            assert seat_bonus(0.6, st.thirds[0], st.soloist, s.seat_of, seat) == pytest.approx(
                share
            )
            assert final_value(s, seat, 0.0) == float(s.returns()[seat])
        assert sum(got) == pytest.approx(sum(s.returns()))
        if players == 4:  # the idle dealer gets no share
            idle = next(seat for seat in range(4) if seat not in s.seat_of)
            assert got[idle] == 0.0


def test_the_solver_keeps_its_line_and_adds_the_points_where_the_outcome_is_settled():
    """At the last trick (no choice left) the solved value with a weight is the settlement's
    plus the seat's share, the soloist's side holding the thirds it ends with."""
    rules = Rules()
    rng = random.Random(3)
    checked = 0
    while checked < 20:
        s = random_state(rules, rng)
        while not s.is_terminal() and not (s.phase is Phase.PLAY and len(s.tricks) == TRICKS - 1):
            s.apply(rollout_action(s))
        if s.is_terminal():
            continue
        end = s.clone()
        while not end.is_terminal():
            end.apply(rollout_action(end))
        for seat in range(3):
            assert solve(s, 0.6)[seat] == pytest.approx(final_value(end, seat, 0.6))
        checked += 1


def test_a_gift_costs_its_giver_only_with_a_weight():
    """200 positions where the seat to play is last to a trick the other side takes whatever
    it plays, holding a counter and a card worth nothing, the rest solved exactly: without a
    weight the best counter and the best blank card tie in most (188: the settlement does not
    hang on the counter), the blank better in 12; with a weight of 0.6 the blank is better in
    42 (a counter given now may be saved later; one lost either way still ties) and the
    counter better in 1 (a blank card worth keeping for a later trick)."""
    rules = Rules()
    rng = random.Random(11)
    above = below = plain_above = plain_below = ties = checked = 0
    while checked < 200:
        s = random_state(rules, rng)
        target = rng.randrange(TRICKS - 4, TRICKS - 1)
        while not s.is_terminal() and not (
            s.phase is Phase.PLAY and len(s.tricks) == target and len(s.trick) == 2
        ):
            s.apply(rollout_action(s) if rng.random() < 0.6 else rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        seat, legal = s.to_play, s.legal_actions()
        counters = [c for c in legal if THIRDS[c] > 0]
        blanks = [c for c in legal if THIRDS[c] == 0]
        if not counters or not blanks:
            continue
        after = {}
        for c in legal:
            w = s.clone()
            w.apply(c)
            after[c] = w
        takers = {(a.tricks_won[0] > s.tricks_won[0]) for a in after.values()}
        mine = s.pos == s.soloist  # the position to play is the soloist's
        if takers != {not mine}:  # the other side takes the trick whatever is played
            continue
        worth = {c: solve(after[c], 0.6)[seat] for c in legal}
        plain = {c: solve(after[c])[seat] for c in legal}
        above += max(worth[c] for c in counters) > max(worth[c] for c in blanks) + 1e-9
        below += max(worth[c] for c in counters) < max(worth[c] for c in blanks) - 1e-9
        plain_above += max(plain[c] for c in counters) > max(plain[c] for c in blanks)
        plain_below += max(plain[c] for c in counters) < max(plain[c] for c in blanks)
        ties += max(plain[c] for c in counters) == max(plain[c] for c in blanks)
        checked += 1
    assert (plain_above, plain_below, ties) == (0, 12, 188)
    assert (above, below) == (1, 42)


def test_the_weight_is_a_parameter_of_pimc_off_by_default():
    assert make_agent("pimc", GAME).points == 0.0
    assert "points" not in make_agent("pimc", GAME).name
    agent = make_agent("pimc:points=0.5,ms=0", GAME)
    assert agent.points == 0.5 and agent.name.endswith(",points=0.5")
    with pytest.raises(ValueError, match=r"'points=-1'.*allowed: points \(float >= 0"):
        make_agent("pimc:points=-1", GAME)
    with pytest.raises(ValueError, match="points >= 0"):
        PIMC(points=-0.1)
    s = State.new(Deal(0, tuple(range(40))), Rules())
    view = s.info_view(s.to_play)
    assert agent.act(view, np.random.default_rng(0)) in s.legal_actions()


def test_the_bids_are_valued_by_the_settlement_alone():
    """A bid's honest playouts ignore the weight (a contract is worth its settlement), card
    play's do not: the same worlds give the same bid values with and without it."""
    rules = Rules()
    rng = random.Random(5)
    bids = plays_moved = 0
    while bids < 10:
        s = random_state(rules, rng)
        while not s.is_terminal():
            view = s.info_view(s.to_play)
            plain, weighted = PIMC(samples=4, ms=0), PIMC(samples=4, ms=0, points=0.5)
            cands = plain.candidates(view)
            if len(cands) > 1 and view.phase in (Phase.BID, Phase.PLAY):
                seed = rng.randrange(1 << 30)
                a = plain.evaluate(view, cands, np.random.default_rng(seed)).tolist()
                b = weighted.evaluate(view, cands, np.random.default_rng(seed)).tolist()
                if view.phase is Phase.BID:
                    assert a == b
                    bids += 1
                else:
                    plays_moved += a != b
            s.apply(rollout_action(s))
    assert plays_moved > 10

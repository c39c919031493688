"""The compiled search core (``agents/calabresella/_csearch.c``): built and used by PIMC in this
install, equal to the Python reference (``rollout.rollout_action`` and ``rollout.solve``) on
random positions of every rule variant that changes play (every candidate's playout value for
every seat and endgame depth, the solver's values, the greedy policy's every move), PIMC's
choices the same with either core for a fixed seed, and malformed worlds rejected with an error
naming the field."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mazzo.agents import sampling
from mazzo.agents.calabresella import csearch, pimc
from mazzo.agents.calabresella.heuristic import HeuristicV1
from mazzo.agents.calabresella.pimc import PIMC
from mazzo.agents.calabresella.rollout import final_value, rollout_action, solve
from mazzo.envs.calabresella.actions import Phase
from mazzo.envs.calabresella.game import TEST_VARIANTS
from mazzo.envs.calabresella.kernel import TRICKS
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.state import State
from mazzo.envs.cards.deal import Deal
from mazzo.envs.common.compiled import pure_python_requested

# The parity tests need the compiled core. They skip only where it is not loaded, and then
# test_the_compiled_core_is_built_and_used fails unless MAZZO_PURE_PYTHON=1 asked for the
# Python core on purpose (the suite's pure-Python run): a failed build never passes silently.
needs_core = pytest.mark.skipif(csearch.CORE is None, reason="the compiled core is not loaded")


def reference_value(s: State, seat: int, exact: int, points: float = 0.0) -> float:
    """PIMC's playout in Python: greedy until ``exact`` tricks are left, then solved (the
    card-point tie-break of weight ``points`` in both)."""
    while not s.is_terminal():
        if s.phase is Phase.PLAY and TRICKS - len(s.tricks) <= exact:
            return solve(s, points)[seat]
        s.apply(rollout_action(s))
    return final_value(s, seat, points)


def play_positions(rules: Rules, n: int, seed: int) -> list[State]:
    """n PLAY-phase states at random points of random deals (random and greedy moves mixed)."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < n:
        order = list(range(40))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)
        target = rng.randrange(38)
        while not s.is_terminal() and (s.phase is not Phase.PLAY or len(s.history) < target):
            s.apply(rollout_action(s) if rng.random() < 0.5 else rng.choice(s.legal_actions()))
        if not s.is_terminal():
            out.append(s)
    return out


def test_the_compiled_core_is_built_and_used():
    """``pip install -e .`` builds it (setup.py); a failed build would fall back silently, so the
    suite says so here, unless MAZZO_PURE_PYTHON asks for the Python code."""
    if pure_python_requested():
        assert csearch.CORE is None
        return
    assert csearch.CORE is not None, (
        "agents/calabresella/_csearch.c is not built: reinstall with a C compiler and the "
        "Python headers (pip install -e .), or set MAZZO_PURE_PYTHON=1 to test the Python core"
    )


@needs_core
def test_pimc_calls_the_compiled_core(monkeypatch):
    calls = []
    real = csearch.values

    def counting(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(csearch, "values", counting)
    s = next(s for s in play_positions(Rules(), 20, 4) if len(s.legal_actions()) > 1)
    PIMC(samples=3, ms=0).act(s.info_view(s.to_play), np.random.default_rng(0))
    assert len(calls) == 3


@needs_core
@pytest.mark.parametrize("flags", TEST_VARIANTS, ids=str)
def test_playouts_and_solver_equal_the_reference(flags):
    """About 60 positions per variant (1,100 in all): every candidate play's value for every
    seat at endgame depths 0..4 (0: a pure greedy playout), the solver's value of the position,
    and the greedy policy's every move to the end."""
    rules = Rules.from_flags(flags)
    for k, s in enumerate(play_positions(rules, 60, seed=len(str(flags)) + 17)):
        _assert_values_equal_the_reference(s, rules, k % 5, 0.0)
        w = s.clone()
        while not w.is_terminal():
            a = rollout_action(w)
            assert csearch.CORE.greedy_action(csearch.world_of(w)) == a
            w.apply(a)


@needs_core
@pytest.mark.parametrize("flags", [{}, {"players": 2}, {"players": 4}, {"aperta": True}], ids=str)
def test_the_card_point_tiebreak_is_the_same_in_either_core(flags):
    """PIMC's ``points``: every candidate's playout value for every seat and endgame depth,
    and the solver's, with a tie-break weight of 0.7, equal to the Python reference; the
    weight moves values (a test that could pass with the weight ignored would not)."""
    rules = Rules.from_flags(flags)
    moved = 0
    for k, s in enumerate(play_positions(rules, 40, seed=len(str(flags)) + 91)):
        _assert_values_equal_the_reference(s, rules, k % 5, 0.7)
        cands = s.legal_actions()
        for seat in range(rules.players):
            moved += csearch.values(s, seat, cands, k % 5, 0.7) != csearch.values(
                s, seat, cands, k % 5
            )
    assert moved > 40


def _assert_values_equal_the_reference(s: State, rules: Rules, exact: int, points: float) -> None:
    """Every candidate play's compiled value for every seat (and the position's own, and the
    solver's near the end) equal to the Python reference's, with tie-break weight ``points``."""
    cands = s.legal_actions()
    for seat in range(rules.players):
        want = []
        for a in cands:
            w = s.clone()
            w.apply(a)
            want.append(reference_value(w, seat, exact, points))
        assert csearch.values(s, seat, cands, exact, points) == tuple(want), (seat, exact)
        assert csearch.values(s, seat, None, exact, points) == (
            reference_value(s.clone(), seat, exact, points),
        )
        if TRICKS - len(s.tricks) <= 4:
            assert csearch.values(s, seat, None, TRICKS, points) == (solve(s, points)[seat],)


@needs_core
@pytest.mark.parametrize("flags", TEST_VARIANTS, ids=str)
def test_honest_playouts_equal_the_heuristic(flags):
    """The bids' playouts: from 30 positions per variant (the heuristic and random moves mixed
    to a random point of the play), the heuristic's every play on each position's own view
    (``HeuristicV1.decide(info_view)``) and every seat's return at the end."""
    rules = Rules.from_flags(flags)
    rng = random.Random(len(str(flags)) + 5)
    heuristic = HeuristicV1()
    checked = 0
    while checked < 30:
        order = list(range(40))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)
        target = rng.randrange(40)
        while not s.is_terminal() and (s.phase is not Phase.PLAY or len(s.history) < target):
            if rng.random() < 0.7:
                s.apply(heuristic.decide(s.info_view(s.to_play)))
            else:
                s.apply(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        got = [csearch.honest_value(s, seat) for seat in range(rules.players)]
        w = s.clone()
        while not w.is_terminal():
            a = heuristic.decide(w.info_view(w.to_play))
            assert csearch.CORE.heuristic_action(csearch.world_of(w), csearch.views_of(w)) == a
            w.apply(a)
        assert got == [float(x) for x in w.returns()]
        checked += 1


@needs_core
@pytest.mark.parametrize("flags", [{}, {"players": 2}, {"players": 4}, {"aperta": True}], ids=str)
@pytest.mark.parametrize("points", [0.0, 0.5])
def test_pimc_chooses_the_same_with_either_core(flags, points, monkeypatch):
    """Every decision of whole deals (bids: the heuristic's honest playouts, calls, discards and
    plays) for a fixed seed, with and without the card-point tie-break: the same values per
    candidate, so the same actions."""
    rules = Rules.from_flags(flags)
    agent = PIMC(samples=4, ms=0, points=points)
    rng = random.Random(len(str(flags)))
    decisions = 0
    for _ in range(3):
        order = list(range(40))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)
        while not s.is_terminal():
            view = s.info_view(s.to_play)
            cands = agent.candidates(view)
            if len(cands) > 1:
                seed = rng.randrange(1 << 30)
                fast = agent.evaluate(view, cands, np.random.default_rng(seed))
                with monkeypatch.context() as m:
                    m.setattr(csearch, "CORE", None)
                    m.setattr(sampling, "_CORE", None)
                    slow = agent.evaluate(view, cands, np.random.default_rng(seed))
                assert fast.tolist() == slow.tolist(), view.phase
                decisions += 1
            s.apply(agent.act(view, np.random.default_rng(decisions)) if len(cands) > 1
                    else cands[0])  # fmt: skip
    assert decisions > 20
    assert pimc.csearch is csearch


@needs_core
def test_malformed_worlds_raise_naming_the_field():
    core = csearch.CORE
    s = play_positions(Rules(), 1, 3)[0]
    world = csearch.world_of(s)
    positions, play, leaves = csearch.tables(s.rules, s.contract, s.soloist, s.seat_of, 0)

    def call(w, cands=None, exact=2, pos=positions, p=play, lv=leaves):
        return core.values(w, cands, exact, pos, p, lv)

    call(world)
    h = world[0]
    cases = [
        (world[:8], "world"),
        (("x", *world[1:]), "hands"),
        (((h[0], h[1]), *world[1:]), "hands"),
        (((h[0], h[1], -1), *world[1:]), "hands"),
        (((h[0], h[1], 1 << 40), *world[1:]), "hands"),
        (((h[0], h[0], h[2]), *world[1:]), "hands"),
        ((h, (1, 2, 3), *world[2:]), "trick"),
        ((h, (99,), *world[2:]), "trick"),
        ((h, [], *world[2:]), "trick"),
        ((*world[:2], 3, *world[3:]), "leader"),
        ((*world[:3], (world[3] + 1) % 3, *world[4:]), "pos"),
        ((*world[:4], "0", *world[5:]), "soloist"),
        ((*world[:5], 33, *world[6:]), "thirds"),
        ((*world[:5], 32, *world[6:]), "thirds"),
        ((*world[:6], 13, *world[7:]), "tricks"),
        ((*world[:7], 12, world[8]), "done"),
        ((*world[:7], (world[7] + 1) % 12, world[8]), "hands"),
        ((*world[:8], 33), "aside"),
        ((*world[:8], 32), "aside"),
    ]
    for bad, field in cases:
        with pytest.raises((ValueError, TypeError), match=f"'{field}'"):
            call(bad)
    legal = s.legal_mask()
    illegal = next(c for c in range(40) if not legal >> c & 1)
    for cands, field in (([illegal], "candidate"), ([40], "candidates"), ([], "candidates")):
        with pytest.raises(ValueError, match=field):
            call(world, cands)
    with pytest.raises(ValueError, match="exact_tricks"):
        call(world, exact=13)
    with pytest.raises(ValueError, match="seat_positions"):
        call(world, pos=8)
    with pytest.raises(ValueError, match="play_table"):
        call(world, p=play[:-8])
    with pytest.raises(ValueError, match="leaf_table"):
        call(world, lv=b"")
    views = csearch.views_of(s)
    core.honest_value(world, views, play)
    played, discards = views[0], views[1]
    bad_views = [
        (views[:4], "views"),
        ((played | h[0], *views[1:]), "played"),
        ((played & ~(1 << s.trick[0]) if s.trick else -1, *views[1:]), "played"),
        ((played, discards[:2], *views[2:]), "discards"),
        ((played, (1 << 40, 0, 0), *views[2:]), "discards"),
        ((*views[:2], 8, *views[3:]), "shared"),
        ((*views[:3], 2, views[4]), "aperta"),
        ((*views[:4], (16, 0, 0)), "void"),
    ]
    for bad, field in bad_views:
        with pytest.raises((ValueError, TypeError), match=f"'{field}'"):
            core.honest_value(world, bad, play)
    with pytest.raises(ValueError, match="play_table"):
        core.honest_value(world, views, b"x")

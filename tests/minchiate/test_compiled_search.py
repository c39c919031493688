"""The compiled search core (``agents/minchiate/_csearch.c``): built and used by PIMC in this
install, equal to the Python reference (``rollout.rollout_action``, ``rollout.playout`` and
``rollout.solve``) on random positions of every rule variant (every candidate's playout value
for both teams, endgame depths 0..3 and several point weights, the solver's values, the greedy
policy's every move, the Matto's payment chosen by its owner), PIMC's values and choices the
same with either core for a fixed seed, and malformed worlds rejected with an error naming the
field."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mazzo.agents import sampling
from mazzo.agents.minchiate import csearch
from mazzo.agents.minchiate.pimc import PIMC
from mazzo.agents.minchiate.rollout import playout, rollout_action, solve
from mazzo.envs.cards.deal import Deal
from mazzo.envs.common.compiled import pure_python_requested
from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.minchiate.game import TEST_VARIANTS
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.state import State

# The parity tests need the compiled core. They skip only where it is not loaded, and then
# test_the_compiled_core_is_built_and_used fails unless MAZZO_PURE_PYTHON=1 asked for the
# Python core on purpose (the suite's pure-Python run): a failed build never passes silently.
needs_core = pytest.mark.skipif(csearch.CORE is None, reason="the compiled core is not loaded")


def positions(rules: Rules, n: int, seed: int) -> list[State]:
    """n states the core is ready for, at random points of random deals (random and greedy
    moves mixed)."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < n:
        order = list(range(97))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(4), tuple(order)), rules)
        target = rng.randrange(84)
        while not s.is_terminal() and (not csearch.ready(s) or len(s.history) < target):
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
        "agents/minchiate/_csearch.c is not built: reinstall with a C compiler and the Python "
        "headers (pip install -e .), or set MAZZO_PURE_PYTHON=1 to test the Python core"
    )


@needs_core
def test_pimc_calls_the_compiled_core(monkeypatch):
    calls = []
    real = csearch.world_values

    def counting(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(csearch, "world_values", counting)
    agent = PIMC(samples=3, ms=0)
    view = next(
        v
        for s in positions(Rules(), 20, 4)
        if len(agent.candidates(v := s.info_view(s.to_play))) > 1
    )
    agent.act(view, np.random.default_rng(0))
    assert len(calls) == 3


@needs_core
@pytest.mark.parametrize("flags", TEST_VARIANTS, ids=str)
def test_playouts_and_solver_equal_the_reference(flags):
    """30 positions per variant (about 850 in all): every candidate play's value for both teams
    at one endgame depth (0..3; 0: a pure greedy playout) and point weight, the solver's value
    of late positions, and the greedy policy's every move to the end; every other position
    with the leads blind."""
    rules = Rules.from_flags(flags)
    rng = random.Random(len(str(flags)))
    for k, s in enumerate(positions(rules, 30, seed=len(str(flags)) + 17)):
        cands = s.legal_actions()
        exact = k % 4
        blind = k % 2 == 1
        pw = rng.choice([0.0, 0.1, 0.37])
        for team in (0, 1):
            want = []
            for a in cands:
                w = s.clone()
                w.apply(a)
                want.append(playout(w, exact, team, pw, blind))
            got = csearch.values(s, team, cands, exact, pw, blind)
            assert got == tuple(want), (flags, team, exact, blind)
            if 21 - len(s.tricks) <= 3:
                assert csearch.values(s, team, None, 21, pw, blind) == (solve(s, team, pw),)
        w = s.clone()
        while not w.is_terminal():
            a = rollout_action(w, blind)
            if csearch.ready(w):
                assert csearch.greedy_action(w, blind) == a
            w.apply(a)


@needs_core
def test_the_owner_pays_for_the_matto_as_the_reference():
    """``matto_payment = agent``: greedy playouts that end in the owner's payment (the
    heuristic's ``pay_choice``) have the reference's value."""
    rules = Rules.from_flags({"matto_payment": "agent", "capture_bonus": False})
    paid = 0
    for s in positions(rules, 200, seed=9):
        ref = s.clone()
        want = playout(ref, 0, 0, 0.1)
        assert csearch.values(s, 0, None, 0, 0.1) == (want,)
        paid += ref.matto_paid >= 0  # chosen by its owner: agent payment asks
    assert paid > 5


@needs_core
@pytest.mark.parametrize(
    "flags", [{}, {"declare_timing": "with_first_card"}, {"must_overtrump": True}], ids=str
)
def test_pimc_values_the_same_with_either_core(flags, monkeypatch):
    """Every card-play decision of two deals (from the first trick: the core takes over once
    trick 1's declarations are done) for a fixed seed: the same values per candidate."""
    rules = Rules.from_flags(flags)
    agent = PIMC(samples=2, ms=0)
    rng = random.Random(len(str(flags)))
    decisions = 0
    for _ in range(2):
        order = list(range(97))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(4), tuple(order)), rules)
        while not s.is_terminal():
            view = s.info_view(s.to_play)
            if view.phase is Phase.PLAY and len(cands := agent.candidates(view)) > 1:
                seed = rng.randrange(1 << 30)
                fast = agent.evaluate(view, cands, np.random.default_rng(seed))
                with monkeypatch.context() as m:
                    m.setattr(csearch, "CORE", None)
                    m.setattr(sampling, "_CORE", None)
                    slow = agent.evaluate(view, cands, np.random.default_rng(seed))
                assert fast.tolist() == slow.tolist()
                decisions += 1
            s.apply(agent.act(view, np.random.default_rng(decisions)))
    assert decisions > 20


@needs_core
def test_malformed_worlds_raise_naming_the_field():
    core = csearch.CORE
    s = next(s for s in positions(Rules(), 10, 3) if s.trick)
    world = csearch.world_of(s)
    cf = csearch.config(s.rules)

    def call(w, cands=None, exact=2, team=0, pw=0.1, c=cf):
        return core.values(w, cands, exact, team, pw, c)

    call(world)
    h = world[0]
    cases = [
        (world[:10], "world"),
        ((h[:3], *world[1:]), "hands"),
        (((*h[:3], 1 << 97), *world[1:]), "hands"),
        (((*h[:3], -1), *world[1:]), "hands"),
        (((h[0], h[0], h[2], h[3]), *world[1:]), "hands"),
        ((h, (1, 2, 3, 4), *world[2:]), "trick"),
        ((h, (97,), *world[2:]), "trick"),
        ((h, (next(iter(s.legal_actions())),), *world[2:]), "trick"),
        ((*world[:2], 4, *world[3:]), "leader"),
        ((*world[:2], (world[2] + 1) % 4, *world[3:]), "hands"),
        ((*world[:3], 16, *world[4:]), "suits_led"),
        ((*world[:4], (world[4][0] | h[0], world[4][1]), *world[5:]), "piles"),
        ((*world[:4], (0,), *world[5:]), "piles"),
        ((*world[:5], 1.5, *world[6:]), "D"),
        ((*world[:6], 10**7, *world[7:]), "R"),
        ((*world[:7], 4, *world[8:]), "matto_owner"),
        ((*world[:8], 2, *world[9:]), "matto_debt"),
        ((*world[:9], 21, world[10]), "done"),
        ((*world[:10], (0, -1)), "decl_end"),
    ]
    for bad, field in cases:
        with pytest.raises((ValueError, TypeError), match=f"'{field}'"):
            call(bad)
    legal = s.legal_mask()
    illegal = next(c for c in range(97) if not legal >> c & 1)
    for cands, field in (([illegal], "candidate"), ([97], "candidates"), ([], "candidates")):
        with pytest.raises(ValueError, match=field):
            call(world, cands)
    with pytest.raises(ValueError, match="exact_tricks"):
        call(world, exact=22)
    with pytest.raises(ValueError, match="team"):
        call(world, team=2)
    with pytest.raises(ValueError, match="point_weight"):
        call(world, pw=float("nan"))
    with pytest.raises(ValueError, match="config"):
        call(world, c=cf[:-1])
    with pytest.raises(ValueError, match="resti_unit"):
        call(world, c=(*cf[:4], 0, *cf[5:]))
    with pytest.raises(ValueError, match="diecine"):
        call(world, c=(*cf[:8], 3, *cf[9:]))


@pytest.mark.parametrize(
    "flags",
    [{}, {"declaration_score_timing": "end"}, {"declare_timing": "with_first_card"}],
    ids=str,
)
def test_a_world_tuple_from_the_view_equals_the_determinized_states(flags):
    """PIMC hands the core ``view_world(view, hands)`` in card play instead of building the
    determinized state: the same tuple as ``world_of(determinize(...))`` for sampled worlds of
    every seat's view, and ``view_ready`` is ``ready`` of those states."""
    from mazzo.agents.minchiate.sampler import WorldSampler
    from mazzo.envs.minchiate.worlds import determinize

    rules = Rules.from_flags(flags)
    rng = np.random.default_rng(len(str(flags)))
    checked = 0
    for s in positions(rules, 25, seed=31 + len(str(flags))):
        for seat in range(4):
            view = s.info_view(seat)
            sampler = WorldSampler(view)
            for _ in range(2):
                a = sampler.sample_assignment(rng)
                state = determinize(view, a)
                assert csearch.view_ready(view) == csearch.ready(state)
                assert csearch.view_world(view, a.hands) == csearch.world_of(state)
                checked += 1
    assert checked == 200

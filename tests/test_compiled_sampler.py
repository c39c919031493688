"""The compiled world sampler (``agents/_csample.c``): built in this install and drawing exactly
the worlds of the Python reference (``SlotSampler.sample_reference``) from the same seeded
generator, over the samplers of every decision of random deals of both games (merged slots,
pinned cards, voids and the free cards included) and hand-made constraint sets; a sampler
whose count-vector tree is too large to tabulate draws by the reference; a malformed plan is
refused with an error naming the part. The uniformity of the worlds is the reference's, tested
against full enumeration in ``tests/<game>/test_sampler.py`` (which draw through ``sample``:
the compiled twin where it is built)."""

from __future__ import annotations

import numpy as np
import pytest

from mazzo.agents import sampling
from mazzo.agents.calabresella.sampler import WorldSampler as CalabresellaSampler
from mazzo.agents.minchiate.sampler import WorldSampler as MinchiateSampler
from mazzo.agents.sampling import SlotSampler
from mazzo.envs.common.compiled import pure_python_requested
from mazzo.envs.registry import get_game

# The parity tests need the compiled sampler. They skip only where it is not loaded, and then
# test_the_compiled_sampler_is_built_and_used fails unless MAZZO_PURE_PYTHON=1 asked for the
# Python sampler on purpose (the pure-Python run): a failed build never passes silently.
needs_core = pytest.mark.skipif(sampling._CORE is None, reason="the compiled sampler is not loaded")


def test_the_compiled_sampler_is_built_and_used():
    """``pip install -e .`` builds it (setup.py); a failed build would fall back silently."""
    if pure_python_requested():
        assert sampling._CORE is None
        return
    assert sampling._CORE is not None, (
        "agents/_csample.c is not built: reinstall with a C compiler (pip install -e .), or set "
        "MAZZO_PURE_PYTHON=1 to test the Python sampler"
    )


def _same_worlds(slot_sampler: SlotSampler, seed: int, draws: int) -> None:
    fast, slow = np.random.default_rng(seed), np.random.default_rng(seed)
    for _ in range(draws):
        assert slot_sampler.sample(fast) == slot_sampler.sample_reference(slow.bit_generator)
    # the two generators read the same outputs: their next draws agree
    assert fast.bit_generator.random_raw() == slow.bit_generator.random_raw()


@needs_core
@pytest.mark.parametrize(
    ("game", "sampler_of"), [("minchiate", MinchiateSampler), ("calabresella", CalabresellaSampler)]
)
def test_the_same_worlds_as_the_reference_in_whole_deals(game, sampler_of):
    """Every seat's sampler at every decision of 6 random deals played by random legal moves:
    three worlds each, equal to the reference's, and the plan used."""
    g = get_game(game)
    rules = g.rules()
    rng = np.random.default_rng(11)
    checked = tabulated = 0
    for d in range(6):
        state = g.new_state(g.deal_random(rng, rules, dealer=d % g.seats(rules)), rules)
        while not state.is_terminal():
            for seat in range(g.seats(rules)):
                slot_sampler = sampler_of(state.info_view(seat))._sampler
                _same_worlds(slot_sampler, 1000 * d + seat + len(state.history), 3)
                checked += 1
                tabulated += slot_sampler._plan not in (None, False)
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
    assert checked > 300 and tabulated == checked


@needs_core
@pytest.mark.parametrize(
    ("capacities", "groups"),
    [
        ([3, 3, 4], [([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 0b111)]),  # free cards only
        ([2, 2, 2, 1], [([0, 1], 0b0011), ([2, 3, 4], 0b1100), ([5, 6], 0b1111)]),
        ([1, 1, 2, 2], [([0], 0b0001), ([1, 2, 3], 0b1110), ([4, 5], 0b1100)]),  # merged slots
        ([2, 2], [([0, 1], 0b01), ([2, 3], 0b10)]),  # every card pinned: no draw at all
        ([0, 3], [([0, 1, 2], 0b11)]),
    ],
)
def test_the_same_worlds_as_the_reference_on_hand_made_constraints(capacities, groups):
    _same_worlds(SlotSampler(capacities, groups), 5, 200)


@needs_core
def test_a_tree_too_large_to_tabulate_is_drawn_by_the_reference(monkeypatch):
    monkeypatch.setattr(sampling, "_MAX_PLAN_OPTIONS", 1)
    s = SlotSampler([2, 2, 2], [([0, 1], 0b011), ([2, 3], 0b110), ([4, 5], 0b111)])
    calls = []
    real = s.sample_reference
    monkeypatch.setattr(s, "sample_reference", lambda bits: calls.append(1) or real(bits))
    _same_worlds(s, 3, 5)
    assert s._plan is False and len(calls) == 10


@needs_core
@pytest.mark.parametrize(
    ("args", "part"),
    [
        ((0, (), (), (), (((), ()),)), "slot count"),
        ((2, (((0, 5), (1, 1)),), (), (), (((2,), ()),)), "class members"),
        ((1, (((0,), (2,)),), (((200,), (0,)),), (), (((2,), ()),)), "group cards"),
        ((1, (((0,), (1,)),), (), (0,), (((1,), (((1,), 0, 1 << 53),)),)), "option child"),
        (
            (1, (((0,), (1,)),), (), (0,), (((1,), (((1,), 1, 1 << 60),)), ((0,), ()))),
            "option threshold",
        ),
    ],
)
def test_a_malformed_plan_is_refused_naming_the_part(args, part):
    with pytest.raises(ValueError, match=part):
        sampling._CORE.plan(*args)

"""Records and encoders of every registered game, for every rule variant it lists, at random
points of random deals (hypothesis draws the deal and the stopping point).

Records: ``replay(write_record(state))`` reproduces the state (the same view for every seat,
turn, legal mask and returns), with the record's own rules or the rules given; ``read_record``
of a written record gives back the same rules and deal and the actions so far, and the record
survives JSON.

Encoders: for every seat, ``encode_batch`` rows and masks == ``encode(view)`` rows and the
view's legal mask == the PettingZoo env's ``observe()`` observation and action mask, the env
being reset with ``options={"deal": record}`` (which replays the same actions); every row lies
within ``[0, obs_high()]`` and has the registered size.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.deal import Deal
from mazzo.envs.registry import Game

from .games import CASES, play_random, random_deal, snapshot, stable_seed


def random_position(
    game: Game, flags: dict[str, Any], seed: int, stop: float
) -> tuple[Any, Deal, int]:
    """The state after a share ``stop`` (0..1; 1 = the end) of a random deal's decisions, the
    deal, and the number of actions applied."""
    rules = game.rules(flags)
    deal = random_deal(game, rules, seed ^ stable_seed(game, flags))
    full = game.new_state(deal, rules)
    for _ in play_random(full, random.Random(seed)):
        pass
    n = len(game.read_record(game.write_record(full), rules).actions)
    state = game.new_state(deal, rules)
    steps = sum(1 for _ in play_random(state, random.Random(seed), stop=round(stop * n)))
    return state, deal, steps


@pytest.mark.parametrize(("game", "flags"), CASES)
@settings(max_examples=6)
@given(seed=st.integers(0, 2**32 - 1), stop=st.sampled_from([0.0, 0.3, 0.7, 1.0]))
def test_records_replay_to_the_same_state(
    game: Game, flags: dict[str, Any], seed: int, stop: float
) -> None:
    state, deal, steps = random_position(game, flags, seed, stop)
    rules = state.rules
    record = game.write_record(state)
    assert record["format"] == game.info.record_format
    text = json.dumps(record)
    parsed = game.read_record(json.loads(text), None)
    assert parsed.rules == rules
    assert parsed.deal == deal and parsed.options == {}
    assert len(parsed.actions) == steps
    expected = snapshot(game, state)
    for given_rules in (None, rules):
        again = game.replay(json.loads(text), given_rules)
        assert snapshot(game, again) == expected
    if not state.is_terminal():  # the replayed state plays on exactly like the original
        action = bit_list(state.legal_mask())[0]
        again = game.replay(record, rules)
        state.apply(action)
        again.apply(action)
        assert snapshot(game, again) == snapshot(game, state)


@pytest.mark.parametrize(("game", "flags"), CASES)
@settings(max_examples=4)
@given(seed=st.integers(0, 2**32 - 1), stop=st.sampled_from([0.0, 0.2, 0.5, 0.9, 1.0]))
def test_encoders_agree_with_each_other_and_the_env(
    game: Game, flags: dict[str, Any], seed: int, stop: float
) -> None:
    state, _, _ = random_position(game, flags, seed, stop)
    rules = state.rules
    n, info = game.seats(rules), game.info
    encoder = game.encoder(rules)
    assert (encoder.obs_size, encoder.num_actions) == (info.obs_size, info.num_actions)
    views = [state.info_view(seat) for seat in range(n)]
    obs = np.full((n + 1, info.obs_size), -7.0, dtype=np.float32)  # one spare row stays put
    masks = np.full((n + 1, info.num_actions), 9, dtype=np.int8)
    encoder.encode_batch(views, obs, masks)
    assert (obs[n] == -7.0).all() and (masks[n] == 9).all()
    high = encoder.obs_high()
    env = game.raw_env(**flags)
    env.reset(options={"deal": game.write_record(state)})
    for seat, view in enumerate(views):
        row = encoder.encode(view)
        assert row.dtype == np.float32 and row.shape == (info.obs_size,)
        assert ((row >= 0) & (row <= high)).all()
        np.testing.assert_array_equal(obs[seat], row)
        legal = np.zeros(info.num_actions, dtype=np.int8)
        legal[bit_list(view.legal_mask)] = 1
        np.testing.assert_array_equal(masks[seat], legal)
        seen = env.observe(env.possible_agents[seat])
        np.testing.assert_array_equal(seen["observation"], row)
        np.testing.assert_array_equal(seen["action_mask"], legal)
        if seat == state.to_play:
            assert bit_list(view.legal_mask) == bit_list(state.legal_mask())
        else:
            assert view.legal_mask == 0

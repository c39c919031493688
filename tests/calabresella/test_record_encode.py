"""Replay round trips over random deals, the observation layout, and the parity between the
encoder called directly and the observation the AEC env returns."""

import random

import numpy as np

from envs import calabresella_v0
from envs.calabresella.encode import (
    BINARY_LAYOUT,
    ENCODER,
    N_BINARY,
    OBS_SIZE,
    OFFSET,
    SCALAR_LAYOUT,
    encode,
)
from envs.calabresella.record import read_record, replay, write_record
from envs.calabresella.rules import Rules
from envs.calabresella.state import State
from envs.cards.deal import Deal


def random_finished(rng, rules):
    order = list(range(40))
    rng.shuffle(order)
    s = State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_replay_round_trip_over_random_deals():
    rng = random.Random(3)
    for flags in (
        {},
        {"players": 4},
        {"players": 2, "aperta": True},
        {"auction": "until_two_passes"},
    ):
        rules = Rules.from_flags(flags)
        for _ in range(300):
            s = random_finished(rng, rules)
            rec = write_record(s)
            t = replay(rec)
            assert t.history == s.history and t.returns() == s.returns()
            assert t.result() == s.result() == rec["result"]
            assert read_record(rec)[0] == rules


def test_layout_is_consistent():
    assert sum(n for _, n in BINARY_LAYOUT) == N_BINARY
    assert N_BINARY + sum(n for _, n in SCALAR_LAYOUT) == OBS_SIZE
    offsets = list(OFFSET.values())
    assert offsets == sorted(offsets) and offsets[0] == 0


def test_env_observation_equals_direct_encoding():
    env = calabresella_v0.env(match=True, target=3)
    env.reset(seed=5)
    rng = np.random.default_rng(1)
    raw = env.unwrapped
    for agent in env.agent_iter(max_iter=3000):
        obs, _, term, trunc, _ = env.last()
        seat = raw.possible_agents.index(agent)
        direct = encode(raw.game.info_view(seat))
        np.testing.assert_array_equal(obs["observation"], direct)
        assert (
            (obs["observation"] >= 0)
            & (obs["observation"] <= raw.observation_space(agent)["observation"].high)
        ).all()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.any() and (np.flatnonzero(mask) == raw.game.legal_actions()).all()
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_encoding_marks_own_hand_and_phase():
    s = State.new(Deal(0, tuple(range(40))), Rules())
    v = s.info_view(1)
    x = encode(v)
    hand = x[OFFSET["hand"] : OFFSET["hand"] + 40]
    assert sorted(np.flatnonzero(hand)) == [c for c in range(40) if v.hand >> c & 1]
    assert x[OFFSET["phase"]] == 1 and x[OFFSET["phase"] + 1 : OFFSET["phase"] + 9].sum() == 0


def test_totals_are_scaled_by_the_views_target():
    env = calabresella_v0.raw_env(match=True, target=9)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    while not any(env.game.totals):
        env.step(int(rng.choice(env.game.legal_actions())))
    v = env.game.info_view(0)
    assert v.rules.target == 9 and v.totals == tuple(env.game.totals)
    totals = encode(v)[OFFSET["totals"] : OFFSET["totals"] + 4]
    want = [v.totals[s % 3] / 9 for s in range(3)] + [0.0]
    assert totals.tolist() == np.array(want, np.float32).tolist()
    row = np.empty(OBS_SIZE, np.float32)
    ENCODER.encode_into(v, row)
    assert row.tobytes() == encode(v).tobytes()

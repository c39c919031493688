"""Replay round trips over random deals, the observation layout, and the parity between the
encoder called directly and the observation the AEC env returns."""

import random

import numpy as np

from mazzo.envs import calabresella_v0
from mazzo.envs.calabresella.encode import (
    BINARY_LAYOUT,
    ENCODER,
    N_BINARY,
    OBS_SIZE,
    OFFSET,
    SCALAR_LAYOUT,
    encode,
)
from mazzo.envs.calabresella.record import read_record, replay, write_record
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.state import State
from mazzo.envs.cards.deal import Deal


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


# docs/encoding.md 2.5 (the Calabresella vector layout), written out: (block, offset, size).
# "obs_size = 720 (711 binary elements, then 9 scalars)" (2, version 1).
DOC_LAYOUT = [
    ("phase", 0, 9), ("my_position", 9, 4), ("to_play", 13, 3), ("role", 16, 3),
    ("hand", 19, 40), ("partner_hand", 59, 40), ("bids", 99, 18), ("high_bid", 117, 5),
    ("no_chiamo", 122, 1), ("contract", 123, 5), ("soloist", 128, 3), ("called", 131, 40),
    ("giver", 171, 5), ("returned", 176, 40), ("known_monte", 216, 40), ("discards", 256, 40),
    ("split_d1", 296, 40), ("split_d2", 336, 40), ("trick", 376, 120), ("trick_leader", 496, 3),
    ("played_by", 499, 120), ("void", 619, 12), ("pile_soloist", 631, 40),
    ("pile_defenders", 671, 40),
    # the scalars
    ("n_tricks", 711, 1), ("thirds", 712, 2), ("tricks_won", 714, 2), ("totals", 716, 4),
]  # fmt: skip


def test_layout_is_the_documented_one():
    """Every block's name, offset and size as docs/encoding.md 2.5 lists them, 711 binary
    elements then 9 scalars, 720 in all (values copied from the spec, not summed from the
    encoder's own tables)."""
    layout = [(name, OFFSET[name], n) for name, n in BINARY_LAYOUT + SCALAR_LAYOUT]
    assert layout == DOC_LAYOUT
    assert (N_BINARY, OBS_SIZE, ENCODER.obs_size) == (711, 720, 720)
    assert [name for name, _ in SCALAR_LAYOUT] == ["n_tricks", "thirds", "tricks_won", "totals"]


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

"""The observation encoding: layout, bounds, seat-relative and team-aware blocks, parity with the
environment's observations, and no leak through the encoder."""

import random

import numpy as np

from mazzo.envs import minchiate_v0
from mazzo.envs.minchiate import Rules, State, make_deal
from mazzo.envs.minchiate.combos import LOW_RUN
from mazzo.envs.minchiate.encode import (
    BINARY_LAYOUT,
    ENCODER,
    ENCODING_VERSION,
    OBS_SIZE,
    OFFSET,
    SCALAR_LAYOUT,
    encode,
    obs_high,
)

from .deals import DEAL1, DEAL1_DECISIONS, DEAL1_PLAY
from .helpers import mask, play_script, random_deal
from .test_no_leak import random_states, resample


def block(obs: np.ndarray, name: str) -> np.ndarray:
    size = dict(BINARY_LAYOUT + SCALAR_LAYOUT)[name]
    return obs[OFFSET[name] : OFFSET[name] + size]


def cards(bits: np.ndarray) -> int:
    return sum(1 << int(i) for i in np.flatnonzero(bits))


def test_layout_and_version():
    assert ENCODING_VERSION == 1 and minchiate_v0.raw_env.metadata["encoding_version"] == 1
    assert OBS_SIZE == sum(n for _, n in BINARY_LAYOUT + SCALAR_LAYOUT) == 2572
    high = obs_high()
    assert high.shape == (OBS_SIZE,) and np.isinf(high[OFFSET["d_lead"] :]).all()


def test_blocks_at_the_first_lead_of_golden_deal_1():
    s = State.new(make_deal(0, DEAL1))
    play_script(s, DEAL1_DECISIONS)  # D = 6 (A ahead), S1 leads
    o0, o1 = encode(s.info_view(0)), encode(s.info_view(1))
    assert cards(block(o0, "hand")) == s.hands[0] and cards(block(o1, "hand")) == s.hands[1]
    assert cards(block(o0, "discards")) == mask("T21 8s 9s 10s")
    assert list(block(o0, "dealer")) == [1, 0, 0, 0] and list(block(o1, "dealer")) == [0, 0, 0, 1]
    assert list(block(o0, "cutter")) == [0, 0, 0, 1] and list(block(o1, "cutter")) == [0, 0, 1, 0]
    assert list(block(o0, "to_play")) == [0, 1, 0, 0] and list(block(o1, "to_play")) == [1, 0, 0, 0]
    assert cards(block(o1, "robbed")) == mask("T36 T22") and cards(block(o1, "stop_card")) == mask(
        "6c"
    )
    faceup = block(o1, "faceup").reshape(4, 97)  # S1's frame: me S1, right S2, partner S3, left S0
    assert [cards(row) for row in faceup] == [mask(c) for c in ("T5", "T20", "Kb", "9c")]
    declared = block(o0, "declared").reshape(4, 97)  # S0's frame: S3 is his left-hand opponent
    assert cards(declared[3]) == mask("T1 T2 T3") and cards(declared[0]) == mask("T28 T29 T30 T31")
    assert block(o1, "fola_exposed")[0] == 1 and cards(block(o1, "fola_known")) == s.fola
    assert block(o0, "d_lead")[0] == 6 / 60 and block(o1, "d_behind")[0] == 6 / 60
    assert block(o0, "d_behind")[0] == 0 and block(o1, "d_lead")[0] == 0


def test_d_is_scaled_by_the_views_resti_unit():
    s = State.new(make_deal(0, DEAL1), Rules(resti_unit=20))
    play_script(s, DEAL1_DECISIONS)  # D = 6 (A ahead)
    assert s.info_view(0).rules.resti_unit == 20
    assert block(encode(s.info_view(0)), "d_lead")[0] == np.float32(6 / 20)
    assert block(encode(s.info_view(1)), "d_behind")[0] == np.float32(6 / 20)
    assert block(ENCODER.encode(s.info_view(1)), "d_lead")[0] == 0


def test_trick_piles_and_matto_blocks():
    s = State.new(make_deal(0, DEAL1))
    play_script(s, DEAL1_DECISIONS + DEAL1_PLAY[:7])  # trick 2: S2 T20, S3 T7, S0 T8 played
    o2 = encode(s.info_view(2))  # S2's frame: S3 right, S0 partner, S1 left
    trick = block(o2, "trick").reshape(4, 97)
    assert [cards(r) for r in trick] == [mask("T20"), mask("T7"), mask("T8"), 0]
    assert list(block(o2, "trick_leader")) == [1, 0, 0, 0] and block(o2, "led")[4] == 1
    assert list(block(o2, "suits_led")) == [0, 1, 0, 0]  # coins, in trick 1
    assert (
        cards(block(o2, "pile_mine")) == mask("2d T6 Kd 3d")
        and cards(block(o2, "pile_theirs")) == 0
    )
    play_script(s, [(1, "play M")])
    o1 = encode(s.info_view(1))
    assert list(block(o1, "matto_owner")) == [1, 0, 0, 0] and block(o1, "matto_debt")[0] == 1
    assert cards(block(o1, "pile_mine")) == mask("M")


def test_offer_block_only_for_the_declaring_seat():
    s = State.new(make_deal(0, DEAL1))
    play_script(s, DEAL1_DECISIONS[:6])
    o3, o0 = encode(s.info_view(3)), encode(s.info_view(0))
    assert block(o3, "offer_kind")[LOW_RUN] == 1 and cards(block(o3, "offer_cards")) == mask(
        "T1 T2 T3"
    )
    assert block(o0, "offer_kind").sum() == 0 and block(o0, "offer_cards").sum() == 0


def test_env_observations_equal_the_encoder_and_stay_in_bounds():
    env = minchiate_v0.raw_env()
    env.reset(seed=5)
    rng = random.Random(5)
    high = obs_high()
    steps = 0
    while not all(env.terminations.values()):
        for agent in env.possible_agents:
            seat = int(agent[-1])
            obs = env.observe(agent)["observation"]
            assert np.array_equal(obs, encode(env.game.info_view(seat)))
            assert (obs >= 0).all() and (obs <= high).all()
        env.step(rng.choice(env.game.legal_actions()))
        steps += 1
    assert steps > 84


def test_no_leak_through_the_encoder():
    for s, rng in random_states(60, 23, Rules()):
        for seat in range(4):
            before = encode(s.info_view(seat))
            world = s.clone()
            resample(world, seat, rng)
            assert np.array_equal(encode(world.info_view(seat)), before)


def test_random_deal_helper_is_a_permutation():
    deal = random_deal(random.Random(0))
    assert sorted(deal.order) == list(range(97))

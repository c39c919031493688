"""The per-phase entropy bonus (``mazzo.training.rl.phase_entropy``)."""

import math

import pytest
import torch

from mazzo.training.rl.phase_entropy import floor_gated, phase_coefs, phase_entropy_bonus
from mazzo.training.rl.ppo import PPOConfig

NAMES = {0: "bid", 1: "play"}


def test_coefficients_by_phase_name():
    assert phase_coefs(NAMES, {"bid": 0.5}).tolist() == [0.5, 0.0]
    assert phase_coefs(NAMES, {}).tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match=r"unknown phase\(s\) \['auction'\]; the game's phases"):
        phase_coefs(NAMES, {"auction": 1.0})
    with pytest.raises(ValueError, match=">= 0"):
        phase_coefs(NAMES, {"bid": -1.0})


def test_bonus_weighs_each_rows_entropy_over_its_legal_actions():
    logits = torch.tensor([[0.0, 0.0, -1e9], [0.0, 0.0, 0.0]])
    mask = torch.tensor([[1, 1, 0], [1, 1, 1]], dtype=torch.int8)
    logp = torch.log_softmax(logits, -1)
    phase = torch.tensor([0, 1])
    coefs = phase_coefs(NAMES, {"bid": 2.0})
    bonus = phase_entropy_bonus(logp, mask, phase, coefs)
    assert bonus.item() == pytest.approx(2.0 * math.log(2) / 2)
    coefs = phase_coefs(NAMES, {"bid": 1.0, "play": 1.0})
    both = phase_entropy_bonus(logp, mask, phase, coefs)
    assert both.item() == pytest.approx((math.log(2) + math.log(3)) / 2)


def test_a_floor_scales_the_bonus_by_the_entropys_shortfall():
    coefs = phase_coefs(NAMES, {"bid": 0.2, "play": 0.05})
    floors = phase_coefs(NAMES, {"bid": 0.4})
    # bid at 0.1 nats: (0.4 - 0.1) / 0.4 = 0.75 of its coefficient; play has no floor
    assert floor_gated(coefs, floors, {0: 0.1, 1: 0.9}).tolist() == pytest.approx([0.15, 0.05])
    assert floor_gated(coefs, floors, {0: 0.0, 1: 0.9}).tolist() == pytest.approx([0.2, 0.05])
    assert floor_gated(coefs, floors, {0: 0.4, 1: 0.9}).tolist() == pytest.approx(
        [0.0, 0.05], abs=1e-6
    )
    assert floor_gated(coefs, floors, {0: 1.5}).tolist() == pytest.approx([0.0, 0.05])
    assert floor_gated(coefs, floors, {1: 0.9}).tolist() == pytest.approx([0.0, 0.05])  # no bids
    assert coefs.tolist() == pytest.approx([0.2, 0.05])  # not changed in place


def test_a_floor_needs_a_positive_floor_and_a_coefficient_to_apply():
    game = "calabresella"
    ok = PPOConfig(game=game, phase_ent_coef={"bid": 0.1}, phase_ent_floor={"bid": 0.3})
    assert ok.phase_ent_floor == {"bid": 0.3}
    with pytest.raises(ValueError, match=r"floors must be > 0 nats, got \{'bid': 0.0\}"):
        PPOConfig(game=game, phase_ent_coef={"bid": 0.1}, phase_ent_floor={"bid": 0.0})
    with pytest.raises(ValueError, match=r"names \['bid'\] without a phase_ent_coef > 0"):
        PPOConfig(game=game, phase_ent_floor={"bid": 0.3})

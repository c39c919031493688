"""The per-phase entropy bonus (``training.rl.phase_entropy``)."""

import math

import pytest
import torch

from training.rl.phase_entropy import phase_coefs, phase_entropy_bonus

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

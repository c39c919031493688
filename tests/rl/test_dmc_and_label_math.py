"""The DMC target and the search-label term, checked by hand: DMC regresses Q(s, a) of the
action taken (and V(s)) on the Monte-Carlo return, which its defaults (``gamma = lam = 1``) make
the sum of the seat's rewards to the deal's end whatever the values; the label term is the
cross-entropy of the masked policy to the soft search target, whose shape (``soft_targets``)
and mean over the drawn rows (``label_cross_entropy``) are computed here from their formulas."""

import math

import numpy as np
import torch

from mazzo.training.rl.collect import Rollout, gae
from mazzo.training.rl.distill import LabelledDecisions, label_cross_entropy, soft_targets
from mazzo.training.rl.dmc import DMCConfig, dmc_update


def test_dmc_targets_are_the_monte_carlo_returns():
    """Two seats' sequences (0 -> 2 -> 4 ends the deal; 1 -> 3 ends too) with values that
    are wrong on purpose: the returns are the suffix sums of each seat's rewards."""
    cfg = DMCConfig(game="calabresella")
    reward = np.array([0.0, 0.0, 0.5, -1.0, 2.0], np.float32)
    value = np.array([0.3, -0.7, 1.1, 0.2, -0.4], np.float32)
    nxt = np.array([2, 3, 4, -1, -1])
    terminal = np.array([False, False, False, True, True])
    adv = gae(reward, value, nxt, terminal, np.zeros(5, np.float32), cfg.gamma, cfg.lam)
    ret = adv + value
    np.testing.assert_allclose(ret, [2.5, -1.0, 2.5, -1.0, 2.0], atol=1e-6)


class _FixedQ(torch.nn.Module):
    """Fixed Q rows and values (what ``dmc_update`` reads), learning nothing (lr 0)."""

    def __init__(self, q, v):
        super().__init__()
        self.q = torch.nn.Parameter(torch.tensor(q, dtype=torch.float32))
        self.v = torch.nn.Parameter(torch.tensor(v, dtype=torch.float32))
        self.critic_extra = 0

    def forward(self, obs, mask, extra=None):
        return self.q[obs[:, 0].long()], self.v[obs[:, 0].long()]


def test_dmc_regresses_the_q_of_the_action_taken_and_the_value_on_the_return():
    q = [[1.0, 5.0, -2.0], [0.0, 0.5, 3.0]]
    v = [0.25, -1.0]
    action, ret = [1, 0], [2.0, -1.0]
    n = 2
    roll = Rollout(
        obs=np.array([[0.0], [1.0]], np.float32), mask=np.ones((n, 3), np.int8),
        action=np.array(action), logp=np.zeros(n, np.float32), value=np.array(v, np.float32),
        advantage=np.zeros(n, np.float32), ret=np.array(ret, np.float32),
        phase=np.zeros(n, np.int64), extra=np.zeros((n, 0), np.float32), deals=1,
        deal_returns=np.zeros(1, np.float32),
    )  # fmt: skip
    net = _FixedQ(q, v)
    opt = torch.optim.SGD(net.parameters(), lr=0.0)
    cfg = DMCConfig(game="calabresella", epochs=1, minibatch=n)
    losses = dmc_update(net, opt, roll, cfg, torch.Generator().manual_seed(0))
    # Q of the action taken: 5.0 (row 0, action 1) and 0.0 (row 1, action 0)
    assert math.isclose(losses["q"], ((5.0 - 2.0) ** 2 + (0.0 + 1.0) ** 2) / 2, rel_tol=1e-6)
    assert math.isclose(losses["value"], ((0.25 - 2.0) ** 2 + (-1.0 + 1.0) ** 2) / 2, rel_tol=1e-6)


def test_soft_targets_put_one_minus_soft_on_the_search_action_and_soft_by_value():
    out = soft_targets({"2": 0.10, "0": 0.0, "3": -0.05}, action=2, num_actions=4, soft=0.25,
                       temperature=0.05)  # fmt: skip
    z = np.exp((np.array([0.10, 0.0, -0.05]) - 0.10) / 0.05)
    share = 0.25 * z / z.sum()
    np.testing.assert_allclose(out, [share[1], 0.0, 0.75 + share[0], share[2]], atol=1e-6)
    assert math.isclose(float(out.sum()), 1.0, rel_tol=1e-6)
    hard = soft_targets({"0": 1.0, "1": 0.0}, action=1, num_actions=3, soft=0.0, temperature=0.05)
    np.testing.assert_array_equal(hard, [0.0, 1.0, 0.0])
    # no values from the search: the whole target on its action (it still sums to 1)
    bare = soft_targets({}, action=1, num_actions=3, soft=0.25, temperature=0.05)
    np.testing.assert_array_equal(bare, [0.0, 1.0, 0.0])
    # values in game points far above the temperature: the softmax stays finite (shifted by
    # the largest value) and puts the share on the best candidate
    wide = soft_targets({"0": 20.0, "1": 19.0}, action=1, num_actions=2, soft=0.25,
                        temperature=0.05)  # fmt: skip
    assert np.isfinite(wide).all()
    np.testing.assert_allclose(wide, [0.25, 0.75], atol=1e-6)


def test_one_dmc_step_moves_q_and_the_value_toward_the_return():
    """A step of plain SGD: the Q of the action taken and the value both move toward the
    return (each loss term descends; a sign flipped on either moves it away)."""
    q, v = [[1.0, 5.0, -2.0]], [0.25]
    roll = Rollout(
        obs=np.zeros((1, 1), np.float32), mask=np.ones((1, 3), np.int8), action=np.array([1]),
        logp=np.zeros(1, np.float32), value=np.array(v, np.float32),
        advantage=np.zeros(1, np.float32), ret=np.array([2.0], np.float32),
        phase=np.zeros(1, np.int64), extra=np.zeros((1, 0), np.float32), deals=1,
        deal_returns=np.zeros(1, np.float32),
    )  # fmt: skip
    net = _FixedQ(q, v)
    cfg = DMCConfig(game="calabresella", epochs=1, minibatch=1, max_grad_norm=100.0)
    dmc_update(net, torch.optim.SGD(net.parameters(), lr=0.1), roll, cfg, torch.Generator())
    assert 2.0 <= net.q[0, 1].item() < 5.0  # from 5.0 toward 2.0
    assert 0.25 < net.v[0].item() <= 2.0  # from 0.25 toward 2.0


class _FixedLogits(torch.nn.Module):
    def __init__(self, logits):
        super().__init__()
        self.out = torch.nn.Parameter(torch.tensor(logits, dtype=torch.float32))

    def logits(self, obs, mask):
        rows = self.out[obs[:, 0].long()]
        return torch.where(mask == 1, rows, torch.finfo(torch.float32).min)


def test_the_label_term_is_the_masked_cross_entropy_to_the_target():
    """Two label rows drawn eight times (the term's own draw, repeated here from the same
    seed): the mean of each drawn row's cross-entropy, computed from the formula."""
    logits = [[2.0, 0.0, 9.0], [0.0, 1.0, 0.0]]  # row 0's third action is illegal
    data = LabelledDecisions(
        obs=np.array([[0.0], [1.0]], np.float16), mask=np.array([[1, 1, 0], [1, 1, 1]], np.int8),
        action=np.array([0, 2]), target=np.array([[0.8, 0.2, 0.0], [0.0, 0.1, 0.9]], np.float32),
        ret=np.zeros(2, np.float32),
    )  # fmt: skip
    gen = torch.Generator().manual_seed(3)
    idx = torch.randint(2, (8,), generator=torch.Generator().manual_seed(3)).numpy()
    ce, agree = label_cross_entropy(_FixedLogits(logits), data, 8, gen)

    def row_ce(i):
        legal = [a for a in range(3) if data.mask[i, a]]
        lse = math.log(sum(math.exp(logits[i][a]) for a in legal))
        return -sum(data.target[i, a] * (logits[i][a] - lse) for a in legal)

    expected = float(np.mean([row_ce(i) for i in idx]))
    assert math.isclose(float(ce.detach()), expected, rel_tol=1e-5)
    # the most probable legal action: 0 in row 0 (the search's), 1 in row 1 (not its 2)
    assert math.isclose(agree, float(np.mean([i == 0 for i in idx])), rel_tol=1e-9)
    assert ce.requires_grad  # the term trains the policy

"""PPO's arithmetic, checked by hand: the clipped surrogate (``ppo_loss``) against its formula
on rows where the clip decides (so a ``max`` for the ``min`` of the surrogate, or a clip on the
wrong side, fails), the value and entropy terms, and GAE (``gae``) along linked sequences with
a terminal end and a cut, the cut bootstrapped with the value of the seat's view, and the Monte
Carlo advantage of the rows ``mc_phases`` names (the return to the end less the value); then
the collector itself, whose cut sequences must be bootstrapped (a constant-value network makes
every return of a sequence still open at the cut exactly that constant) and whose
``mc_phases`` rows take that Monte Carlo advantage."""

import dataclasses
import math

import numpy as np
import pytest
import torch

from mazzo.agents.nets import PolicyValueNet
from mazzo.envs.registry import get_game
from mazzo.training.rl.collect import Batch, Collector, gae
from mazzo.training.rl.opponents import OpponentPool
from mazzo.training.rl.ppo import PPOConfig, ppo_loss


class _Fixed(torch.nn.Module):
    """A stand-in network returning fixed logits and values (what ppo_loss reads)."""

    def __init__(self, logits, value):
        super().__init__()
        self.out = torch.nn.Parameter(torch.tensor(logits, dtype=torch.float32))
        self.v = torch.nn.Parameter(torch.tensor(value, dtype=torch.float32))

    def forward(self, obs, mask, extra=None):
        return self.out, self.v


def _batch(action, old_logp, advantage, ret, mask):
    n = len(action)
    return Batch(
        obs=torch.zeros(n, 1), mask=torch.tensor(mask, dtype=torch.int8),
        action=torch.tensor(action), logp=torch.tensor(old_logp, dtype=torch.float32),
        advantage=torch.tensor(advantage, dtype=torch.float32),
        ret=torch.tensor(ret, dtype=torch.float32), extra=None, phase=torch.zeros(n, dtype=torch.int64),
    )  # fmt: skip


def test_the_clipped_surrogate_is_the_pessimistic_bound():
    """Four rows, one per case of the clip: ratio above 1 + clip with a positive advantage
    (clipped), below 1 - clip with a negative one (clipped), and the two unclipped sides."""
    clip = 0.2
    logits = [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]  # new probability 0.5 each
    new_logp = math.log(0.5)
    ratios = [1.5, 0.5, 0.5, 1.5]  # old probabilities 1/3, 1, 1, 1/3
    old = [new_logp - math.log(r) for r in ratios]
    adv_raw = [1.0, -1.0, 1.0, -1.0]
    batch = _batch([0, 0, 0, 0], old, adv_raw, [0.0] * 4, [[1, 1]] * 4)
    net = _Fixed(logits, [0.0] * 4)
    cfg = PPOConfig(game="calabresella", clip=clip, ent_coef=0.0, vf_coef=0.0)
    loss, stats = ppo_loss(net, batch, cfg)
    adv = np.array(adv_raw)
    adv = (adv - adv.mean()) / (adv.std(ddof=1) + 1e-8)  # normalised within the minibatch
    surrogate = [
        min(r * a, min(max(r, 1 - clip), 1 + clip) * a) for r, a in zip(ratios, adv, strict=True)
    ]
    expected = -float(np.mean(surrogate))
    assert loss.item() == pytest.approx(expected, abs=1e-6)
    assert stats["policy"] == pytest.approx(expected, abs=1e-6)
    assert stats["clipfrac"] == pytest.approx(1.0)  # every ratio lies outside [0.8, 1.2]
    # the unclipped term alone would give another loss: the clip decides here
    assert expected != pytest.approx(-float(np.mean(np.array(ratios) * adv)), abs=1e-3)


def test_the_value_and_entropy_terms():
    logits = [[math.log(0.2), math.log(0.8), -1e9]]  # the third action is masked
    net = _Fixed(logits, [0.5])
    batch = _batch([1], [math.log(0.8)], [0.0], [1.5], [[1, 1, 0]])
    cfg = PPOConfig(game="calabresella", ent_coef=0.1, vf_coef=0.5)
    loss, stats = ppo_loss(net, batch, cfg)
    entropy = -(0.2 * math.log(0.2) + 0.8 * math.log(0.8))
    assert stats["value"] == pytest.approx(0.5 * (1.5 - 0.5) ** 2)
    assert stats["entropy"] == pytest.approx(entropy, abs=1e-6)
    assert stats["policy"] == pytest.approx(0.0, abs=1e-7)  # one row: advantage 0
    assert loss.item() == pytest.approx(0.5 * 0.5 - 0.1 * entropy, abs=1e-6)


def two_sequences():
    """Seat A decides at rows 0, 2, 4 and its deal ends (terminal at 4, reward 1); seat B at
    rows 1, 3 and is cut at 3 (bootstrapped with 0.6): (reward, value, nxt, terminal, boot)."""
    return (
        np.array([0, 0, 0, 0, 1], np.float32),
        np.array([0.1, 0.2, 0.3, 0.4, 0.5], np.float32),
        np.array([2, 3, 4, -1, -1]),
        np.array([False, False, False, False, True]),
        np.array([0, 0, 0, 0.6, 0], np.float32),
    )


def test_gae_along_linked_sequences_with_an_end_and_a_cut():
    """The sequences of ``two_sequences``, by hand."""
    gamma, lam = 0.9, 0.8
    adv = gae(*two_sequences(), gamma, lam)
    a4 = 1 - 0.5
    a2 = 0 + gamma * 0.5 - 0.3 + gamma * lam * a4
    a0 = 0 + gamma * 0.3 - 0.1 + gamma * lam * a2
    b3 = 0 + gamma * 0.6 - 0.4  # the cut: bootstrapped
    b1 = 0 + gamma * 0.4 - 0.2 + gamma * lam * b3
    assert adv == pytest.approx(np.array([a0, b1, a2, b3, a4], np.float32), abs=1e-6)


def test_gae_gives_the_monte_carlo_advantage_where_asked():
    """The sequences of ``two_sequences``, rows 0 and 3 asked for the Monte Carlo advantage: row 0
    the discounted terminal reward less its value (whatever lambda), row 3 the cut's bootstrap
    (its own sequence's end), the other rows GAE's as before."""
    gamma, lam = 0.9, 0.8
    arrays = two_sequences()
    plain = gae(*arrays, gamma, lam)
    mc = np.array([True, False, False, True, False])
    adv = gae(*arrays, gamma, lam, mc)
    assert adv[0] == pytest.approx(gamma**2 * 1 - 0.1, abs=1e-6)
    assert adv[3] == pytest.approx(gamma * 0.6 - 0.4, abs=1e-6)
    assert adv[[1, 2, 4]] == pytest.approx(plain[[1, 2, 4]], abs=1e-7)
    assert adv[0] != pytest.approx(plain[0], abs=1e-3)  # lambda 0.8 gave another advantage
    with_one = gae(*arrays, gamma, 1.0)
    assert adv[0] == pytest.approx(with_one[0], abs=1e-6)  # GAE with lambda 1 from there
    assert adv.dtype == np.float32


def test_the_collector_gives_mc_phases_the_monte_carlo_advantage():
    """Two collectors on the same seed and network, one with Minchiate's discard phases in
    ``mc_phases``: the same decisions and values; the discard rows' returns (advantage + value)
    are what their seat got at the deal's end, the rows of other phases unchanged."""
    game = get_game("minchiate")
    rules = game.rules()
    enc = game.encoder(rules)
    torch.manual_seed(0)
    net = PolicyValueNet(enc.obs_size, enc.num_actions, (8,))
    names = {v: k for k, v in game.phase_names(rules).items()}
    discards = (names["discard_cutter"], names["discard_dealer"])
    rolls = []
    for mc in ((), discards):
        pool = OpponentPool(game, (), 1.0, 1)
        c = Collector(game, rules, 2, np.random.SeedSequence(5), pool, 0.125, 1.0, 0.95, mc)
        rolls.append(c.collect(net, 400))  # two engines: some deals end within 400 decisions
    plain, mc_roll = rolls
    assert np.array_equal(plain.action, mc_roll.action)
    assert np.allclose(plain.value, mc_roll.value)
    rows = np.isin(plain.phase, discards)
    assert rows.any() and (~rows).any()
    assert np.allclose(plain.advantage[~rows], mc_roll.advantage[~rows])
    assert not np.allclose(plain.advantage[rows], mc_roll.advantage[rows])
    # a discard's Monte Carlo return (gamma 1, the reward at the deal's end) is the return of
    # its seat's last decision of the sequence, a card played: the deal's reward, or the
    # bootstrap where the rollout cut it (only a sequence cut during the discards has none)
    ends = np.isin(mc_roll.ret[rows], mc_roll.ret[~rows])
    assert ends.mean() > 0.9
    assert np.isin(plain.ret[rows], plain.ret[~rows]).mean() < 0.5  # GAE's are other sums


def test_mc_phases_name_the_games_phases():
    from mazzo.training.rl.phase_entropy import phase_indices

    names = get_game("minchiate").phase_names(get_game("minchiate").rules())
    assert phase_indices(names, ("discard_dealer",), "mc_phases") == {
        n: i for i, n in names.items() if n == "discard_dealer"
    }
    with pytest.raises(
        ValueError, match=r"mc_phases: unknown phase\(s\) \['discard'\].*discard_cutter"
    ):
        phase_indices(names, ("discard",), "mc_phases")


def test_the_collector_bootstraps_the_sequences_open_at_the_cut():
    game = get_game("calabresella")
    rules = game.rules()
    enc = game.encoder(rules)
    net = PolicyValueNet(enc.obs_size, enc.num_actions, (8,))
    c = 0.123457  # a value no return or discounted chain of this game gives by chance
    with torch.no_grad():
        for p in net.value.parameters():
            p.zero_()
        net.value.bias.fill_(c)
    pool = OpponentPool(game, (), 1.0, 1)
    collector = Collector(game, rules, 4, np.random.SeedSequence(3), pool, 1 / 96, 1.0, 0.95)
    roll = collector.collect(net, 100)  # a few decisions: every deal is cut mid-way
    assert len(roll) >= 100
    ret = roll.ret  # advantage + value; a sequence open at the cut returns exactly c
    open_rows = np.isclose(ret, c, atol=1e-6)
    assert open_rows.sum() >= 4, "no decision was bootstrapped at the cut"


def test_the_diagnostics_and_a_two_row_minibatch_by_hand():
    """Three rows (ratios 1.1 inside the clip, 1.5 and 0.5 outside): approximate KL is the mean
    of (r - 1) - log r, the clip fraction 2/3; each row's log-probability is its own action's
    (a batch of several rows, actions 0 and 1). Then two rows: the advantages are normalised
    (two rows are a minibatch to normalise, as any longer one)."""
    clip = 0.2
    logits = [[math.log(0.25), math.log(0.75)], [0.0, 0.0], [0.0, 0.0]]
    new = [math.log(0.75), math.log(0.5), math.log(0.5)]  # actions 1, 0, 0
    ratios = [1.1, 1.5, 0.5]
    old = [n - math.log(r) for n, r in zip(new, ratios, strict=True)]
    batch = _batch([1, 0, 0], old, [1.0, 2.0, 3.0], [0.0] * 3, [[1, 1]] * 3)
    cfg = PPOConfig(game="calabresella", clip=clip, ent_coef=0.0, vf_coef=0.0)
    _, stats = ppo_loss(_Fixed(logits, [0.0] * 3), batch, cfg)
    kl = np.mean([(r - 1) - math.log(r) for r in ratios])
    assert stats["approx_kl"] == pytest.approx(kl, abs=1e-6)
    assert stats["clipfrac"] == pytest.approx(2 / 3)
    adv = np.array([1.0, 2.0, 3.0])
    adv = (adv - adv.mean()) / adv.std(ddof=1)
    clipped = [
        min(r * a, min(max(r, 1 - clip), 1 + clip) * a) for r, a in zip(ratios, adv, strict=True)
    ]
    assert stats["policy"] == pytest.approx(-float(np.mean(clipped)), abs=1e-6)

    two = _batch([0, 0], [math.log(0.5) - math.log(1.1)] * 2, [1.0, 3.0], [0.0] * 2, [[1, 1]] * 2)
    _, stats = ppo_loss(_Fixed([[0.0, 0.0]] * 2, [0.0] * 2), two, cfg)
    # normalised: -1/sqrt(2), +1/sqrt(2); both ratios 1.1 (inside the clip): the mean is 0
    assert stats["policy"] == pytest.approx(0.0, abs=1e-6)


def test_the_phase_entropy_bonus_is_subtracted_from_the_loss():
    """A bonus on phase 0's entropy lowers the loss by exactly the bonus, and its gradient
    raises that phase's entropy (a descent step makes the policy less certain)."""
    from mazzo.training.rl.phase_entropy import phase_entropy_bonus

    logits = [[math.log(0.2), math.log(0.8)]]
    batch = _batch([1], [math.log(0.8)], [0.0], [0.0], [[1, 1]])
    cfg = PPOConfig(game="calabresella", ent_coef=0.0, vf_coef=0.0)
    plain, _ = ppo_loss(_Fixed(logits, [0.0]), batch, cfg)
    net = _Fixed(logits, [0.0])
    coefs = torch.tensor([0.5])
    loss, stats = ppo_loss(net, batch, cfg, coefs)
    entropy = -(0.2 * math.log(0.2) + 0.8 * math.log(0.8))
    assert stats["phase_bonus"] == pytest.approx(0.5 * entropy, abs=1e-6)
    assert loss.item() == pytest.approx(plain.item() - 0.5 * entropy, abs=1e-6)
    loss.backward()
    with torch.no_grad():
        stepped = net.out - 0.1 * net.out.grad
        logp = torch.log_softmax(stepped, -1)
        after = phase_entropy_bonus(logp, batch.mask, batch.phase, torch.tensor([1.0]))
    assert after.item() > entropy


def test_labels_only_phases_leave_their_rows_out_of_the_policy_terms():
    """Two rows, phases 0 and 1; phase 1 learns from the labels alone: the surrogate and the
    entropy bonus are phase 0's row's over the whole minibatch (halved), phase 1's logits get
    no gradient from them, the value term keeps both rows, and the logged entropy is every
    row's."""
    from mazzo.training.rl.ppo import policy_phases

    logits = [[math.log(0.25), math.log(0.75)], [math.log(0.4), math.log(0.6)]]
    batch = _batch([1, 0], [math.log(0.5)] * 2, [1.0, -1.0], [1.0, 2.0], [[1, 1]] * 2)
    batch = dataclasses.replace(batch, phase=torch.tensor([0, 1]))
    cfg = PPOConfig(game="calabresella", ent_coef=0.01, vf_coef=0.5)
    rows = policy_phases({0: "play", 1: "discard"}, ("discard",))
    assert rows is not None and rows.tolist() == [1.0, 0.0]
    net = _Fixed(logits, [0.0, 0.0])
    loss, stats = ppo_loss(net, batch, cfg, policy_rows=rows)
    adv = np.array([1.0, -1.0]) / np.array([1.0, -1.0]).std(ddof=1)
    r0 = 0.75 / 0.5  # row 0's ratio, clipped at 1.2 with a positive advantage
    pg = -min(r0 * adv[0], 1.2 * adv[0]) / 2
    ent = [-(p * math.log(p) + (1 - p) * math.log(1 - p)) for p in (0.25, 0.4)]
    vf = 0.5 * np.mean([1.0, 4.0])
    assert stats["policy"] == pytest.approx(pg, abs=1e-6)
    assert stats["entropy"] == pytest.approx(np.mean(ent), abs=1e-6)
    assert loss.item() == pytest.approx(pg + 0.5 * vf - 0.01 * ent[0] / 2, abs=1e-6)
    loss.backward()
    assert net.out.grad[1].abs().max().item() == 0.0 and net.out.grad[0].abs().max() > 0
    assert net.v.grad.abs().min().item() > 0
    # none named: every row, the loss as before
    assert policy_phases({0: "play"}, ()) is None
    plain, _ = ppo_loss(_Fixed(logits, [0.0, 0.0]), batch, cfg)
    every = torch.ones(2)
    same, _ = ppo_loss(_Fixed(logits, [0.0, 0.0]), batch, cfg, policy_rows=every)
    assert same.item() == pytest.approx(plain.item(), abs=1e-7)


def test_labels_only_phases_need_labels_and_known_phases():
    from mazzo.training.rl.ppo import policy_phases

    with pytest.raises(ValueError, match="labels_only_phases \\['play'\\] needs search labels"):
        PPOConfig(game="calabresella", labels_only_phases=("play",))
    with pytest.raises(ValueError, match=r"labels_only_phases: unknown phase.*'bid'"):
        policy_phases({0: "bid", 1: "play"}, ("bdi",))

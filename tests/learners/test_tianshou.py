"""Tianshou 2.0 trains on both PettingZoo envs as they are, wrapped as its tic-tac-toe example
wraps a PettingZoo game: ``tianshou.env.PettingZooEnv`` in a ``DummyVectorEnv``, a
``Collector`` filling a ``VectorReplayBuffer`` (which stores every step's infos), one DQN learner
seat among masked random seats, and one gradient update from the buffer."""

import numpy as np
import pytest
import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.algorithm_base import policy_within_training_step
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.utils.net.common import Net

from mazzo.envs import calabresella_v0, minchiate_v0
from mazzo.envs.common.infos import INFO_KEYS

VARIANTS = {
    "calabresella": (calabresella_v0, {}),
    "calabresella-4p": (calabresella_v0, {"players": 4}),
    "calabresella-2p": (calabresella_v0, {"players": 2}),
    "calabresella-match": (calabresella_v0, {"match": True, "target": 3}),
    "minchiate": (minchiate_v0, {}),
    "minchiate-series": (minchiate_v0, {"deals": 2}),
}
EPISODES = 4


def algorithm_for(env: PettingZooEnv) -> tuple[MultiAgentOffPolicyAlgorithm, DQN]:
    """The multi-agent algorithm (the DQN learner in the first seat) and that learner."""
    net = Net(state_shape=env.observation_space["observation"].shape, action_shape=env.action_space.n,
              hidden_sizes=[32])  # fmt: skip
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.1)
    learner = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3))
    others = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents[1:]]
    return MultiAgentOffPolicyAlgorithm(algorithms=[learner, *others], env=env), learner


@pytest.mark.parametrize("variant", VARIANTS)
def test_collector_fills_a_replay_buffer_and_the_learner_updates(variant):
    module, kwargs = VARIANTS[variant]
    torch.manual_seed(0)
    np.random.seed(0)  # the random masked policies draw from NumPy's global generator

    def make() -> PettingZooEnv:
        return PettingZooEnv(module.env(**kwargs))

    env = make()
    algorithm, learner = algorithm_for(env)
    venv = DummyVectorEnv([make, make])
    venv.seed([1, 2])
    buffer = VectorReplayBuffer(20_000, buffer_num=2)
    collector = Collector(algorithm.policy, venv, buffer, exploration_noise=True)
    stats = collector.collect(n_episode=EPISODES, reset_before_collect=True)

    assert stats.n_collected_episodes == EPISODES and len(buffer) == stats.n_collected_steps > 0
    batch, _ = buffer.sample(0)  # everything, in order
    info = batch.info
    assert set(INFO_KEYS) <= set(info.get_keys())
    for key in INFO_KEYS:
        assert np.issubdtype(info[key].dtype, np.number) and info[key].shape == (len(buffer),)
    assert set(np.unique(info.deal_over)) <= {0, 1} and (info.illegal_move == 0).all()
    # every transition that ends an episode carries a finished deal's numbers
    done = batch.done.astype(bool)
    assert done.sum() == EPISODES
    assert (info.deal_over[done] == 1).all() and (info.deals[done] >= 1).all()
    # the learner's update reads the buffer back and moves the learner's weights (only its)
    before = [p.detach().clone() for p in learner.policy.model.parameters()]
    with policy_within_training_step(algorithm.policy):
        stats = algorithm.update(buffer=buffer, sample_size=32)
    loss = stats._agent_id_to_stats[env.agents[0]].loss  # the learner's TD loss on the batch
    assert np.isfinite(loss) and loss > 0
    after = list(learner.policy.model.parameters())
    assert any(not torch.equal(a, b) for a, b in zip(after, before, strict=True))

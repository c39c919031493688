"""The single-agent Gymnasium face: Gymnasium's env checker, masks, rewards, seats, errors, and
the documented MaskablePPO example (a short run)."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mazzo.training.single_agent  # noqa: F401 (registers the ids)
from mazzo.training.single_agent import SingleAgentEnv


@pytest.mark.parametrize("kwargs", [{}, {"players": 4, "seat": None}, {"players": 2, "seat": 1},
                                    {"opponents": "random", "aperta": True}], ids=str)  # fmt: skip
def test_gymnasium_env_checker(kwargs):
    env = SingleAgentEnv(**kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)


def test_masks_rewards_and_results():
    env = gym.make("mazzo/Calabresella-v0", opponents="heuristic")
    rng = np.random.default_rng(0)
    total = 0.0
    for episode in range(60):
        obs, info = env.reset(seed=episode)
        assert info["seat"] == 0
        done = False
        while not done:
            mask = env.unwrapped.action_masks()
            assert mask.any() and (mask == obs["action_mask"].astype(bool)).all()
            obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            assert not truncated
            if not done:
                assert reward == 0.0
        assert not env.unwrapped.action_masks().any()
        result = info["result"]
        assert reward == pytest.approx(result["returns"][0] / 96)  # 1 / payoff_bound
        total += reward
    assert total < 0  # a random learner loses to the heuristic on average


def test_random_seat_is_never_the_idle_dealer():
    env = SingleAgentEnv(players=4, seat=None, opponents="random")
    for episode in range(40):
        env.reset(seed=episode)
        assert env.state.deal.dealer != env.seat
        assert env.state.to_play == env.seat or env.state.is_terminal()


def test_illegal_action_ends_the_episode_with_a_penalty():
    env = SingleAgentEnv()
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -1.0 and info["illegal_action"] == illegal
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_errors():
    with pytest.raises(ValueError, match="seat must be"):
        SingleAgentEnv(seat=3)
    with pytest.raises(ValueError, match="unknown agent 'genius'"):
        SingleAgentEnv(opponents="genius")
    with pytest.raises(ValueError, match="unknown calabresella flag"):
        SingleAgentEnv(colour="red")
    with pytest.raises(ValueError, match="one spec per seat"):
        SingleAgentEnv(opponents=["random", "random"])


def test_maskable_ppo_example_trains_and_acts_legally():
    """The README example, shortened: sb3-contrib's MaskablePPO collects rollouts on the env,
    takes gradient steps (its policy's weights move) and acts legally. 128 steps show no
    learning to play; that is the strength study's business (docs/training.md, arm sb3)."""
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker

    torch.set_num_threads(1)
    env = gym.make("mazzo/Calabresella-v0", opponents="heuristic")
    env = gym.wrappers.FlattenObservation(gym.wrappers.FilterObservation(env, ["observation"]))
    env = ActionMasker(env, lambda e: e.unwrapped.action_masks())
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    before = {k: v.clone() for k, v in model.policy.state_dict().items()}
    model.learn(total_timesteps=128)
    assert model.num_timesteps == 128  # two rollouts of 64 steps, each followed by an update
    after = model.policy.state_dict()
    moved = [k for k in before if not torch.equal(before[k], after[k])]
    assert any("action_net" in k for k in moved) and any("value_net" in k for k in moved), moved
    assert "train/loss" in model.logger.name_to_value, model.logger.name_to_value
    assert np.isfinite(model.logger.name_to_value["train/loss"])
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
    assert env.unwrapped.action_masks()[int(action)]


def test_the_gymnasium_ids_are_registered_by_the_environments_themselves():
    """``gym.make("mazzo/...")`` works once any of mazzo's games is loaded, without importing
    the training package first (a fresh interpreter)."""
    import subprocess
    import sys

    script = (
        "import sys, gymnasium as gym\n"
        "from mazzo.envs.registry import all_games\n"
        "games = all_games()\n"
        "assert 'mazzo.training' not in sys.modules\n"
        "for g in games:\n"
        "    env = gym.make(g.info.gym_id)\n"
        "    env.reset(seed=0)\n"
        "print(sorted(g.info.gym_id for g in games))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "mazzo/Calabresella-v0" in out.stdout and "mazzo/Minchiate-v0" in out.stdout

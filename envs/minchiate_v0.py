"""``mazzo.envs.minchiate_v0``: the Minchiate PettingZoo AEC environment (see
``mazzo.envs.minchiate.env`` for spaces, options, rewards and infos)."""

from mazzo.envs.minchiate.env import REWARD_SCALE, env, raw_env

__all__ = ["REWARD_SCALE", "env", "raw_env"]

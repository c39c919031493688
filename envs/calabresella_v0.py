"""``mazzo.envs.calabresella_v0``: the Calabresella PettingZoo AEC environment (see
``mazzo.envs.calabresella.env`` for spaces, options, rewards and infos)."""

from mazzo.envs.calabresella.env import REWARD_SCALE, env, raw_env

__all__ = ["REWARD_SCALE", "env", "raw_env"]

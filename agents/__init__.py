"""mazzo agents: the agent protocol and the baselines. Agents see a per-seat view, never the
full state, and draw randomness only from the generator they are given."""

from mazzo.agents.base import Agent, RandomAgent, View

__all__ = ["Agent", "RandomAgent", "View"]

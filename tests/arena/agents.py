"""Small agents for the arena tests (module level, so worker processes can unpickle them)."""

from mazzo.envs.calabresella.actions import PASS
from mazzo.envs.cards.bits import bit_list


class PassAgent:
    """Passes whenever it may, else plays its lowest legal action."""

    name = "pass"

    def act(self, view, rng):
        legal = view.legal_mask
        return PASS if (legal >> PASS) & 1 else bit_list(legal)[0]


class IllegalAgent:
    """Always answers an action id that is never legal."""

    name = "illegal"

    def act(self, view, rng):
        return 999


class FloatAgent:
    """Answers a float, which is not an action id."""

    name = "float"

    def act(self, view, rng):
        return 1.5


class NotAnAgent:
    """A factory that returns something without ``act``."""


class CrashAgent:
    """Raises an unexpected exception (a bug in an agent, not an illegal move)."""

    name = "crash"

    def act(self, view, rng):
        raise RuntimeError("agent bug")


class SlowAgent:
    """Random play after sleeping ``ms`` milliseconds per decision (interrupt tests)."""

    name = "slow"

    def __init__(self, ms=5.0):
        import time

        from mazzo.agents.base import RandomAgent

        self.sleep, self.ms, self.random = time.sleep, ms, RandomAgent()

    def act(self, view, rng):
        self.sleep(self.ms / 1000)
        return self.random.act(view, rng)

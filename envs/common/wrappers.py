"""The wrappers of the public ``env()`` stack of both card games: the illegal-move wrapper (an
illegal move ends the episode with a penalty; an action that is not an int, or out of range, is
refused) and PettingZoo's order enforcing, with the per-step attributes served directly.

Must not import torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.base import BaseWrapper

from mazzo.envs.common.inputs import ActionTypeError, as_action, type_name

if TYPE_CHECKING:
    from mazzo.envs.common.aec import CardGameAEC

__all__ = ["IllegalMoveWrapper", "OrderEnforcing", "wrap"]


class IllegalMoveWrapper(BaseWrapper):  # type: ignore[misc]
    """An illegal move ends the episode with ``penalty`` for the offender and a warning that names
    the move and the legal ones (as PettingZoo's ``TerminateIllegalWrapper``, with the names); an
    action outside the action space is an assertion error (as ``AssertOutOfBoundsWrapper``).

    The attributes read on every step are forwarded by properties, not ``__getattr__``.
    """

    def __init__(self, env: CardGameAEC[Any], penalty: float = -1.0) -> None:
        super().__init__(env)
        self._base = env
        self._penalty = penalty

    agent_selection = property(lambda self: self._base.agent_selection)
    agents = property(lambda self: self._base.agents)
    possible_agents = property(lambda self: self._base.possible_agents)
    rewards = property(lambda self: self._base.rewards)
    _cumulative_rewards = property(lambda self: self._base._cumulative_rewards)
    terminations = property(lambda self: self._base.terminations)
    truncations = property(lambda self: self._base.truncations)
    infos = property(lambda self: self._base.infos)

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        return self._base.observe(agent)

    def step(self, action: Any) -> None:
        base = self._base
        agent = base.agent_selection
        if not base.agents or base.terminations[agent] or base.truncations[agent]:
            base.step(action)  # the dead step, or the base's error
            return
        a = as_action(action)
        n = base.num_actions
        if type(a) is not int:
            hint = "; to play by label use env.unwrapped.parse_action(label)"
            raise ActionTypeError(
                f"{agent}: the action must be an int (an id 0..{n - 1} of Discrete({n})), "
                f"given {action!r} (type {type_name(action)})"
                + (hint if isinstance(action, str) else "")
            )
        assert 0 <= a < n, f"action {action!r} is outside Discrete({n})"
        reason = base.illegal_reason(a)
        if reason is not None:
            base.end_by_illegal_move(action, reason, self._penalty)
            return
        base.step(action)


def _forward(name: str, needs_reset: bool = True) -> property:
    def get(self: OrderEnforcing) -> Any:
        if needs_reset and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._base, name)

    return property(get)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` (same checks and errors), with the attributes and
    ``last()`` that every step reads served directly from the base env rather than through a
    chain of ``__getattr__`` calls."""

    def __init__(self, env: IllegalMoveWrapper) -> None:
        super().__init__(env)
        self._base: CardGameAEC[Any] = env.unwrapped

    agent_selection = _forward("agent_selection")
    agents = _forward("agents")
    num_agents = _forward("num_agents")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards", needs_reset=False)
    possible_agents = _forward("possible_agents", needs_reset=False)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        base = self._base
        agent = base.agent_selection
        obs = self.observe(agent) if observe else None
        return (
            obs,
            base._cumulative_rewards[agent],
            base.terminations[agent],
            base.truncations[agent],
            base.infos[agent],
        )


def wrap(env: CardGameAEC[Any]) -> AECEnv:
    """The public ``env()`` stack: illegal moves end the episode (with out-of-bounds actions
    asserted), and the AEC call order is enforced, as PettingZoo's classic environments."""
    return OrderEnforcing(IllegalMoveWrapper(env))

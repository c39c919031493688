"""The PettingZoo AEC face shared by both card games: agents, seeding, explicit-deal resets,
observation dicts with int8 masks, zero-sum rewards from the engine's returns, step infos,
ANSI rendering, and the illegal-move wrapper.

A game env subclasses ``CardGameAEC`` and supplies its hooks: build a game from ``reset``
options, encode one seat's observation, the finished deals and the seats' teams (for the numeric
infos of ``envs.common.infos``), the rich terminal infos, and the text rendering. The "game" is
an engine ``State`` (or a layer chaining several, such as a match) offering ``to_play``,
``legal_mask()``, ``apply()``, ``is_terminal()``, cumulative ``returns()``, ``action_label()``.

Infos: by default every agent's ``infos`` holds the fixed numeric keys of
``envs.common.infos.INFO_KEYS`` on every step; ``rich_infos=True`` gives instead the JSON-shaped
results (empty dicts during a deal, the full result at its end). ``result()`` returns the latest
finished deal's full result in either mode.

Rewards are the change of the game's cumulative returns at each step times ``reward_scale``, so a
single deal pays at its end and a match pays after each deal. ``raw_env.step`` raises
``IllegalAction`` on an illegal action and changes nothing; ``env()`` wraps it so that an
illegal move instead ends the episode with a penalty and a warning naming the move.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.base import BaseWrapper

from envs.cards.bits import bit_list
from envs.cards.errors import IllegalAction
from envs.common.arrays import mask_to_int8
from envs.common.infos import EndedDeal, InfoTracker

__all__ = [
    "ActionTypeError",
    "CardGameAEC",
    "Game",
    "IllegalMoveWarning",
    "IllegalMoveWrapper",
    "rules_from_kwargs",
    "warn_unknown_options",
    "wrap",
]


class Game(Protocol):
    """What the AEC base needs from an engine state (or a layer over several)."""

    @property
    def to_play(self) -> int: ...
    def legal_mask(self) -> int: ...
    def apply(self, action: int) -> None: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> tuple[float, ...]: ...
    def action_label(self, action: int) -> str: ...


class IllegalMoveWarning(UserWarning):
    """Warned by ``env()`` when an agent plays an illegal move and the episode ends."""


class ActionTypeError(TypeError, ValueError):
    """Raised by ``env()`` for an action that is not an int (a float, bool, string ...): the
    action spaces are ``Discrete``, whose members are ints. A ``TypeError`` and, as all bad input
    here, a ``ValueError``."""


class CardGameAEC(AECEnv):  # type: ignore[misc]
    """Base AEC env for a card game engine. Subclasses set ``metadata`` and implement hooks."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        n_players: int,
        num_actions: int,
        obs_high: npt.NDArray[np.float32],
        render_mode: str | None,
        reward_scale: float,
        rich_infos: bool = False,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"got {render_mode!r}"
            )
        if not isinstance(rich_infos, bool):
            raise ValueError(
                f"{self._option_owner()} option 'rich_infos' must be true or false, "
                f"got {rich_infos!r}"
            )
        self.render_mode = render_mode
        self.reward_scale = self._checked_scale(reward_scale)
        self.rich_infos = rich_infos
        self.num_actions = num_actions
        self.possible_agents = [f"player_{i}" for i in range(n_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=obs_high, shape=obs_high.shape, dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self.game: Any = None
        self._last_returns: tuple[float, ...] = (0.0,) * n_players
        self._tracker = InfoTracker(n_players)
        self._illegal: tuple[str, str] | None = None

    def _option_owner(self) -> str:
        return f"{str(self.metadata.get('name', 'card game')).removesuffix('_v0')} env"

    def _checked_scale(self, reward_scale: Any) -> float:
        """``reward_scale`` as a float; a finite number > 0, else a ValueError naming it."""
        try:
            scale = math.nan if isinstance(reward_scale, bool) else float(reward_scale)
        except (TypeError, ValueError):
            scale = math.nan
        if not (math.isfinite(scale) and scale > 0.0):
            raise ValueError(
                f"{self._option_owner()} option 'reward_scale' must be a finite number > 0, "
                f"got {reward_scale!r}"
            )
        return scale

    # ------------------------------------------------------------------ hooks
    def _new_game(self, options: dict[str, Any]) -> Game:
        """Build the game for a reset (explicit deal from ``options``, else from ``self._rng``)."""
        raise NotImplementedError

    def _encode(self, seat: int) -> npt.NDArray[np.float32]:
        """Observation vector of ``seat``."""
        raise NotImplementedError

    def _final_infos(self) -> list[dict[str, Any]]:
        """Per-seat rich infos at the end of the episode (the full result)."""
        raise NotImplementedError

    def _finished_deals(self) -> Sequence[EndedDeal]:
        """The deals of this episode that are over, in order (void ones included)."""
        raise NotImplementedError

    def _teams(self) -> tuple[int, ...]:
        """Per seat, its side in the current deal (``envs.common.infos``: ``team``)."""
        raise NotImplementedError

    def _render_text(self) -> str:
        """The table as text."""
        raise NotImplementedError

    def _interim_infos(self) -> list[dict[str, Any]]:
        """Per-seat rich infos when rewards are paid before the end (a deal of a match)."""
        return [{} for _ in self.possible_agents]

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def rng(self) -> np.random.Generator:
        """The env's generator (seeded by ``reset(seed=...)``) for random deals."""
        if self._rng is None:
            self._rng, _ = seeding.np_random(None)
        return self._rng

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            self._rng, _ = seeding.np_random(seed)
        game = self._new_game(dict(options or {}))
        self.game = game
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._last_returns = tuple(game.returns())
        self._illegal = None
        if not self.rich_infos:
            self._tracker.start(self._teams(), self._last_returns, self._finished_deals())
            self._set_infos(self._tracker.infos(self.possible_agents))
        if game.is_terminal():  # a replayed record that already ends
            self.terminations = dict.fromkeys(self.agents, True)
            if self.rich_infos:
                self._set_infos(self._final_infos())
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[game.to_play]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = self._seat[agent]
        game = self.game
        on_turn = agent == self.agent_selection and not self.terminations.get(agent, True)
        mask = game.legal_mask() if on_turn and game.to_play == seat else 0
        return {
            "observation": self._encode(seat),
            "action_mask": mask_to_int8(mask, self.num_actions),
        }

    def step(self, action: Any) -> None:
        if self.game is None:
            raise RuntimeError("step() before reset(): call reset() first")
        if not self.agents:
            raise RuntimeError(
                f"the {self._episode_name()} is over and every agent has left; call reset()"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(
                    f"the {self._episode_name()} is over: {agent} is done and its only valid "
                    f"action is None (the dead step), got {action!r}; or call reset()"
                )
            self._was_dead_step(action)
            return
        self.game.apply(_as_action(action))  # raises IllegalAction, state unchanged
        self._after_apply(agent)

    def _episode_name(self) -> str:
        """What one episode is, for messages (``deal``, or ``match`` / ``series``)."""
        return "deal"

    def _after_apply(self, agent: str) -> None:
        game = self.game
        now = game.returns()
        last = self._last_returns
        if now == last:
            self.rewards = dict.fromkeys(self.possible_agents, 0.0)
        else:
            scale = self.reward_scale
            self.rewards = {
                a: (now[i] - last[i]) * scale for i, a in enumerate(self.possible_agents)
            }
            self._last_returns = tuple(now)
            if self.rich_infos and not game.is_terminal():  # a deal of a match just paid
                self._set_infos(self._interim_infos())
        self._cumulative_rewards[agent] = 0.0
        if game.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
            if self.rich_infos:
                self._set_infos(self._final_infos())
        else:
            self.agent_selection = self.possible_agents[game.to_play]
        if not self.rich_infos and self._tracker.after_step(
            self._teams(), now, last, self._finished_deals()
        ):
            self._set_infos(self._tracker.infos(self.possible_agents))
        self._accumulate_rewards()
        if game.is_terminal():
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _set_infos(self, infos: list[dict[str, Any]]) -> None:
        for agent, info in zip(self.possible_agents, infos, strict=True):
            self.infos[agent] = info

    def render(self) -> str | None:
        if self.render_mode is None:
            warnings.warn(
                "render() called without a render_mode; pass render_mode='ansi'", stacklevel=2
            )
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ rich results
    def result(self) -> dict[str, Any]:
        """The full, JSON-ready result of the latest finished deal of this episode (the engine's
        ``State.result()``; in a match or series, its latest deal): what ``rich_infos=True``
        puts in the infos as ``result`` (or ``deal_result`` mid-match).

        Raises:
            ValueError: no deal of this episode has finished (or ``reset`` was not called).
        """
        if self.game is None:
            raise ValueError("no result before reset(): call reset() and play a deal")
        finished = self._finished_deals()
        if not finished:
            why = ""
            if self._illegal is not None:
                why = f" (it ended on an illegal move: {self._illegal[0]}: {self._illegal[1]})"
            raise ValueError(f"no deal of this episode has finished yet{why}")
        return finished[-1].result()  # type: ignore[attr-defined, no-any-return]

    # ------------------------------------------------------------------ labels and illegal moves
    def action_label(self, action: int) -> str:
        """Label of ``action`` in the current state (D.3 vocabulary, e.g. ``play Ac``)."""
        return str(self.game.action_label(int(action)))

    def parse_action(self, label: str) -> int:
        """Label -> action id in the current state. Raises ValueError on a bad label."""
        return int(self.game.parse_action(label))

    def legal_labels(self) -> list[str]:
        """Labels of the legal actions of the agent on turn."""
        return [self.game.action_label(a) for a in bit_list(self.game.legal_mask())]

    def illegal_reason(self, action: Any) -> str | None:
        """None if ``action`` is legal now, else the IllegalAction message for it."""
        a = _as_action(action)
        if type(a) is int and 0 <= a < self.num_actions and (self.game.legal_mask() >> a) & 1:
            return None
        probe = self.game.clone()  # only on the rare illegal path: the engine words the reason
        try:
            probe.apply(a)
        except IllegalAction as e:
            return str(e)
        return None

    def end_by_illegal_move(self, action: Any, reason: str, penalty: float) -> None:
        """End the episode: the offender gets ``penalty``, the others 0 (PettingZoo classic)."""
        agent = self.agent_selection
        warnings.warn(
            f"{agent}: {reason}. The episode ends; {agent} gets {penalty}.",
            IllegalMoveWarning,
            stacklevel=3,
        )
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(penalty)
        self.terminations = dict.fromkeys(self.agents, True)
        self._illegal = (agent, reason)
        if self.rich_infos:
            for a in self.agents:
                self.infos[a] = {"illegal_move": {"agent": agent, "reason": reason}}
        else:
            self._tracker.illegal(self._seat[agent])
            self._set_infos(self._tracker.infos(self.possible_agents))
        self._accumulate_rewards()
        self._deads_step_first()


def rules_from_kwargs(rules_type: Any, flags: dict[str, Any], env_options: tuple[str, ...]) -> Any:
    """``rules_type.from_flags(flags)``; an unknown flag's error also lists the env options (the
    keyword arguments an env takes besides the rule flags)."""
    try:
        return rules_type.from_flags(flags)
    except ValueError as e:
        raise ValueError(f"{e} (env options: {', '.join(env_options)})") from None


def warn_unknown_options(options: dict[str, Any], known: tuple[str, ...]) -> None:
    """Warn about reset options this env does not use (PettingZoo's api_test passes arbitrary
    ones, so they cannot be errors; a warning still catches a misspelt ``deal``)."""
    unknown = sorted(set(options) - set(known))
    if unknown:
        warnings.warn(
            f"ignoring unknown reset option(s) {unknown}; known: {list(known)}", stacklevel=3
        )


def _as_action(action: Any) -> Any:
    """NumPy integer scalars and 0-d integer arrays -> int; anything else unchanged."""
    if isinstance(action, np.integer):
        return int(action)
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        return int(action)
    return action


def _type_name(value: object) -> str:
    kind = type(value)
    return kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


class IllegalMoveWrapper(BaseWrapper):  # type: ignore[misc]
    """An illegal move ends the episode with ``penalty`` for the offender and a warning that names
    the move and the legal ones (as PettingZoo's ``TerminateIllegalWrapper``, with the names); an
    action outside the action space is an assertion error (as ``AssertOutOfBoundsWrapper``).

    The attributes read on every step are forwarded by properties, not ``__getattr__``.
    """

    def __init__(self, env: CardGameAEC, penalty: float = -1.0) -> None:
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
        a = _as_action(action)
        n = base.num_actions
        if type(a) is not int:
            hint = "; to play by label use env.unwrapped.parse_action(label)"
            raise ActionTypeError(
                f"{agent}: the action must be an int (an id 0..{n - 1} of Discrete({n})), "
                f"given {action!r} (type {_type_name(action)})"
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
        self._base: CardGameAEC = env.unwrapped

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


def wrap(env: CardGameAEC) -> AECEnv:
    """The public ``env()`` stack: illegal moves end the episode (with out-of-bounds actions
    asserted), and the AEC call order is enforced, as PettingZoo's classic environments."""
    return OrderEnforcing(IllegalMoveWrapper(env))

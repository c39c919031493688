"""The PettingZoo AEC face shared by both card games: agents, seeding, explicit-deal resets,
observation dicts with int8 masks, zero-sum rewards from the engine's returns, step infos,
ANSI rendering, and the illegal-move path (the ``env()`` wrappers live in
``mazzo.envs.common.wrappers`` and the input checks in ``mazzo.envs.common.inputs``; both are
re-exported here).

A game env subclasses ``CardGameAEC`` and supplies its hooks: build a game from ``reset``
options, encode one seat's observation, the finished deals and the seats' teams (for the numeric
infos of ``mazzo.envs.common.infos``), the rich terminal infos, and the text rendering. The "game"
is an engine ``State`` (or a layer chaining several, such as a match) offering ``to_play``,
``legal_mask()``, ``apply()``, ``is_terminal()``, cumulative ``returns()``, ``action_label()``.

Infos: by default every agent's ``infos`` holds the fixed numeric keys of
``mazzo.envs.common.infos.INFO_KEYS`` on every step; ``rich_infos=True`` gives instead the
JSON-shaped results (empty dicts during a deal, the full result at its end). ``result()`` returns
the latest finished deal's full result in either mode.

Rewards are the change of the game's cumulative returns at each step times ``reward_scale``, so a
single deal pays at its end and a match pays after each deal. ``raw_env.step`` raises
``IllegalAction`` on an illegal action and changes nothing; ``env()`` wraps it so that an
illegal move instead ends the episode with a penalty and a warning naming the move.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.errors import IllegalAction
from mazzo.envs.common.arrays import mask_to_int8
from mazzo.envs.common.infos import EndedDeal, InfoTracker
from mazzo.envs.common.inputs import (
    ActionTypeError,
    IllegalMoveWarning,
    as_action,
    rules_from_kwargs,
    warn_unknown_options,
)
from mazzo.envs.common.wrappers import IllegalMoveWrapper, OrderEnforcing, wrap

__all__ = [
    "ActionTypeError",
    "CardGameAEC",
    "Game",
    "IllegalMoveWarning",
    "IllegalMoveWrapper",
    "OrderEnforcing",
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
    def returns(self) -> Sequence[float]: ...
    def action_label(self, action: int) -> str: ...
    def parse_action(self, label: str) -> int: ...
    def clone(self) -> Self: ...


G = TypeVar("G", bound=Game)


class CardGameAEC(AECEnv, Generic[G]):  # type: ignore[misc]
    """Base AEC env for a card game engine, generic over its game type ``G`` (an engine
    ``State``, or a layer such as a match). Subclasses set ``metadata`` and implement hooks."""

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
        self.game: G = None  # type: ignore[assignment]  # None until reset()
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
    def _new_game(self, options: dict[str, Any]) -> G:
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
        raise NotImplementedError(f"{type(self).__name__} must supply the CardGameAEC hook "
                                  "_finished_deals (each game env does)")  # fmt: skip

    def _teams(self) -> tuple[int, ...]:
        """Per seat, its side in the current deal (``mazzo.envs.common.infos``: ``team``)."""
        raise NotImplementedError(f"{type(self).__name__} must supply the CardGameAEC hook "
                                  "_teams (each game env does)")  # fmt: skip

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
                f"the {self._episode_name()} is over; call reset() (every agent has left)"
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
        self.game.apply(as_action(action))  # raises IllegalAction, state unchanged
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
        return finished[-1].result()

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
        a = as_action(action)
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

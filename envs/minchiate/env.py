"""``minchiate_v0``: the PettingZoo AEC environment of Minchiate.

Agents ``player_0 .. player_3`` are the seats S0..S3 of RULES.md; team A = S0 + S2, team B =
S1 + S3. Every agent has the same spaces: ``Discrete(99)`` actions (layout in
``mazzo.envs.minchiate.actions``) and observations ``{"observation": float32[OBS_SIZE],
"action_mask": int8[99]}`` (layout and version in ``mazzo.envs.minchiate.encode``); the mask is all
zeros for an agent not on turn.

Keyword arguments are the rule flags of ``mazzo.envs.minchiate.rules.Rules`` plus the env options
``deals`` (1: one deal per episode, the default; n > 1: a series of n completed deals with the
dealer rotating, see ``mazzo.envs.minchiate.series``), ``reward_scale`` (a finite number > 0;
default ``1 / payoff_bound(rules)``, the bound on a deal's net resti under the env's rules, so
that a deal's rewards lie in [-1, 1]: 1/14 for the default rules; ``REWARD_SCALE`` is that
default),
``render_mode`` (``"ansi"`` returns text, ``"human"`` prints it) and ``rich_infos`` (see below).
An unknown keyword or a bad value raises ``ValueError``.

``reset(seed=..., options={"deal": record})`` replays a RULES.md D.3 ``minchiate-deal/1`` record
(dict or JSON text): its stream and dealer, and its actions if any (its flags, if given, must
agree with the env's). A void deal (M-8.5) ends a single-deal episode with zero rewards; in a
series it is redealt by the same dealer.

Rewards: +R for team A's seats and -R for team B's (M-14.4), times ``reward_scale``, at the end
of each deal. Infos: ``infos[agent]`` holds the numeric keys of ``mazzo.envs.common.infos`` on every
step (``team`` 0 for S0/S2, 1 for S1/S3). ``result()`` gives the latest finished deal's
``State.result()`` (every event, the end counts, the Matto settlement, the resti) and
``series_summary()`` the series'. With ``rich_infos=True`` the infos are instead ``{}`` until the
end, then ``result`` and in a series ``series``; in a series, each deal's end sets
``deal_result`` and ``series`` too. ``raw_env.step`` raises
``IllegalAction`` (state unchanged) on an illegal action; ``env()`` instead ends the episode
with -1 for the offender and a warning that names the move and the legal ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from mazzo.envs.cards.deal import Deal
from mazzo.envs.common.aec import rules_from_kwargs, wrap
from mazzo.envs.common.layered import LayeredCardGameAEC
from mazzo.envs.minchiate.actions import NUM_ACTIONS
from mazzo.envs.minchiate.encode import ENCODING_VERSION, encode, obs_high
from mazzo.envs.minchiate.game import GAME
from mazzo.envs.minchiate.render import render_state
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.scoring import payoff_bound
from mazzo.envs.minchiate.series import Series
from mazzo.envs.minchiate.state import State

__all__ = ["ENV_OPTIONS", "REWARD_SCALE", "env", "raw_env"]

# The default rules' reward scale; an env uses 1 / payoff_bound of its own rules.
REWARD_SCALE = 1.0 / payoff_bound(Rules())
ENV_OPTIONS = ("deals", "reward_scale", "render_mode", "rich_infos")
TEAMS = (0, 1, 0, 1)  # team A = S0 + S2, team B = S1 + S3


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment (illegal moves end the episode; see the module docstring)."""
    return wrap(raw_env(**kwargs))


class raw_env(LayeredCardGameAEC[State, Series]):
    """Minchiate AEC environment without wrappers."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "minchiate_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "encoding_version": ENCODING_VERSION,
    }
    _registered = GAME
    _layer_type = Series
    _layer_key = "series"
    _layer_option = "deals > 1"

    def __init__(
        self,
        deals: int = 1,
        reward_scale: float | None = None,
        render_mode: str | None = None,
        rich_infos: bool = False,
        **flags: Any,
    ) -> None:
        self.rules = rules_from_kwargs(Rules, flags, ENV_OPTIONS)
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
            raise ValueError(f"minchiate env option 'deals' must be an integer >= 1, got {deals!r}")
        self.deals = deals
        scale = 1.0 / payoff_bound(self.rules) if reward_scale is None else reward_scale
        super().__init__(4, NUM_ACTIONS, obs_high(), render_mode, scale, rich_infos)

    # ------------------------------------------------------------------ hooks
    def _start(self, deal: Deal, options: Mapping[str, Any]) -> State | Series:
        if self.deals > 1:
            return Series(self.rules, deal, self._random_deal, self.deals)
        return State.new(deal, self.rules)

    def _layered(self) -> bool:
        return self.deals > 1

    def _encode(self, seat: int) -> npt.NDArray[np.float32]:
        return encode(self.game.info_view(seat))

    def _teams(self) -> tuple[int, ...]:
        return TEAMS

    def _render_text(self) -> str:
        game = self.game
        series = game.resti if isinstance(game, Series) else None
        return render_state(self._state(), series)

    # ------------------------------------------------------------------ extras
    def series_summary(self) -> dict[str, Any]:
        """The series so far (``deals`` > 1 only): ``resti``, ``returns``, ``deals``, ``voids``,
        ``deal_resti`` and the ``last_deal``'s result; the ``series`` entry of the rich infos.

        Raises:
            ValueError: a single-deal env, or before ``reset``.
        """
        return self._layer_summary()

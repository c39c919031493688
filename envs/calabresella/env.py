"""``calabresella_v0``: the PettingZoo AEC environment of Calabresella.

Agents ``player_0 .. player_{n-1}`` are the seats S0.. of RULES.md (2, 3 or 4 players). Every
agent has the same spaces: ``Discrete(62)`` actions (layout in ``mazzo.envs.calabresella.actions``)
and observations ``{"observation": float32[OBS_SIZE], "action_mask": int8[62]}`` (layout and
version in ``mazzo.envs.calabresella.encode``); the mask is all zeros for an agent not on turn.

Keyword arguments are the rule flags of ``mazzo.envs.calabresella.rules.Rules`` plus the env options
``match`` (False: one deal per episode; True: a whole match to the target), ``reward_scale``
(a finite number > 0; default ``1 / payoff_bound(rules)``, the largest |return| of a deal under
the env's rules, so that a deal's rewards lie in [-1, 1]: 1/96 for the default rules, whose
failed scegliete with stramazzo costs the soloist -96 points; ``REWARD_SCALE`` is that default),
``render_mode`` (``"ansi"`` returns text, ``"human"`` prints it) and
``rich_infos`` (see Infos). An unknown keyword or a bad value raises ``ValueError``.

``reset(seed=..., options={"deal": record})`` replays a RULES.md D.3 ``calabresella-deal/1``
record (dict or JSON text): its deck and dealer, and its actions if any. A void (all-pass) deal
ends the episode with zero rewards in single-deal mode; in a match it is redealt.

Rewards: the zero-sum settlement of C-9.5 times ``reward_scale`` at the end of each deal.
Infos: ``infos[agent]`` holds the numeric keys of ``mazzo.envs.common.infos`` on every step
(``team``: 0 soloist, 1 defender, -1 before the contract / void / idle dealer). ``result()`` gives
the full result of the latest finished deal (``State.result()``), ``match_summary()`` the match's
(totals, winners, deals). With ``rich_infos=True`` the infos are instead ``{}`` until the end, then
``result`` and in a match ``match``; in a match, each deal's end sets ``deal_result`` and
``match`` too. ``raw_env.step`` raises ``IllegalAction`` (state unchanged) on an
illegal action; ``env()`` instead ends the episode with -1 for the offender and a warning that
names the move and the legal ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from mazzo.envs.calabresella.actions import NUM_ACTIONS
from mazzo.envs.calabresella.encode import ENCODING_VERSION, encode, obs_high
from mazzo.envs.calabresella.game import GAME
from mazzo.envs.calabresella.match import Match
from mazzo.envs.calabresella.render import render_state
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.scoring import payoff_bound
from mazzo.envs.calabresella.state import State
from mazzo.envs.cards.deal import Deal
from mazzo.envs.common.aec import rules_from_kwargs, wrap
from mazzo.envs.common.infos import NO_TEAM
from mazzo.envs.common.layered import LayeredCardGameAEC

__all__ = ["ENV_OPTIONS", "REWARD_SCALE", "env", "raw_env"]

# The default rules' reward scale; an env uses 1 / payoff_bound of its own rules.
REWARD_SCALE = 1.0 / payoff_bound(Rules())
ENV_OPTIONS = ("match", "reward_scale", "render_mode", "rich_infos")


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment (illegal moves end the episode; see the module docstring)."""
    return wrap(raw_env(**kwargs))


class raw_env(LayeredCardGameAEC[State, Match]):
    """Calabresella AEC environment without wrappers."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "calabresella_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "encoding_version": ENCODING_VERSION,
    }
    _registered = GAME
    _layer_type = Match
    _layer_key = "match"
    _layer_option = "match=True"
    _no_teams: tuple[int, ...]
    _teams_of: tuple[State | None, tuple[int, ...]]

    def __init__(
        self,
        match: bool = False,
        reward_scale: float | None = None,
        render_mode: str | None = None,
        rich_infos: bool = False,
        **flags: Any,
    ) -> None:
        self.rules = rules_from_kwargs(Rules, flags, ENV_OPTIONS)
        if not isinstance(match, bool):
            raise ValueError(
                f"calabresella env option 'match' must be true or false, got {match!r}"
            )
        self.match = match
        n = self.rules.players
        self._no_teams = (NO_TEAM,) * n
        self._teams_of = (None, self._no_teams)
        scale = 1.0 / payoff_bound(self.rules) if reward_scale is None else reward_scale
        super().__init__(n, NUM_ACTIONS, obs_high(), render_mode, scale, rich_infos)

    # ------------------------------------------------------------------ hooks
    def _start(self, deal: Deal, options: Mapping[str, Any]) -> State | Match:
        no_chiamo = bool(options.get("no_chiamo", False))
        if self.match:
            return Match(self.rules, deal, self._random_deal, no_chiamo=no_chiamo)
        return State.new(deal, self.rules, no_chiamo=no_chiamo)

    def _layered(self) -> bool:
        return self.match

    def _encode(self, seat: int) -> npt.NDArray[np.float32]:
        return encode(self.game.info_view(seat))

    def _teams(self) -> tuple[int, ...]:
        """0 for the soloist's seat, 1 for a defender's, -1 before the contract, in a void deal
        and for the idle dealer (cached per deal: the soloist never changes once known)."""
        s = self._state()
        if s.soloist < 0:
            return self._no_teams
        if self._teams_of[0] is not s:
            teams = list(self._no_teams)
            for pos in range(3):
                teams[s.seat_of[pos]] = s.side_of(pos)
            self._teams_of = (s, tuple(teams))
        return self._teams_of[1]

    def _render_text(self) -> str:
        game = self.game
        totals = tuple(game.totals) if isinstance(game, Match) else None
        return render_state(self._state(), totals)

    # ------------------------------------------------------------------ extras
    def match_summary(self) -> dict[str, Any]:
        """The match so far (``match=True`` only): ``totals``, ``winners``, ``deals`` and the
        ``last_deal``'s result; the ``match`` entry of the rich infos.

        Raises:
            ValueError: not a match env, or before ``reset``.
        """
        return self._layer_summary()

"""``calabresella_v0``: the PettingZoo AEC environment of Calabresella.

Agents ``player_0 .. player_{n-1}`` are the seats S0.. of RULES.md (2, 3 or 4 players). Every
agent has the same spaces: ``Discrete(62)`` actions (layout in ``envs.calabresella.actions``)
and observations ``{"observation": float32[OBS_SIZE], "action_mask": int8[62]}`` (layout and
version in ``envs.calabresella.encode``); the mask is all zeros for an agent not on turn.

Keyword arguments are the rule flags of ``envs.calabresella.config.Rules`` plus the env options
``match`` (False: one deal per episode; True: a whole match to the target), ``reward_scale``
(default ``REWARD_SCALE`` = 1/16: a failed Solissimo scegliete costs the soloist -2.0) and
``render_mode`` (``"ansi"`` returns text, ``"human"`` prints it). An unknown keyword raises
``ValueError``.

``reset(seed=..., options={"deal": record})`` replays a RULES.md D.3 ``calabresella-deal/1``
record (dict or JSON text): its deck and dealer, and its actions if any. A void (all-pass) deal
ends the episode with zero rewards in single-deal mode; in a match it is redealt.

Rewards: the zero-sum settlement of C-9.5 times ``reward_scale`` at the end of each deal.
``infos[agent]`` at the end holds ``result`` (``State.result()``), and in a match ``match``
(totals, winners, deals); in a match, each deal's end sets ``deal_result`` and ``match`` too.
``raw_env.step`` raises ``IllegalAction`` (state unchanged) on an
illegal action; ``env()`` instead ends the episode with -1 for the offender and a warning that
names the move and the legal ones.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from envs.calabresella.actions import NUM_ACTIONS
from envs.calabresella.config import Rules
from envs.calabresella.encode import ENCODING_VERSION, encode, obs_high
from envs.calabresella.match import Match
from envs.calabresella.record import apply_record_actions, read_record, write_record
from envs.calabresella.render import render_state
from envs.calabresella.rules import State
from envs.cards.deal import Deal
from envs.common.aec import CardGameAEC, rules_from_kwargs, warn_unknown_options, wrap

__all__ = ["ENV_OPTIONS", "REWARD_SCALE", "env", "raw_env"]

REWARD_SCALE = 1.0 / 16.0
ENV_OPTIONS = ("match", "reward_scale", "render_mode")


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment (illegal moves end the episode; see the module docstring)."""
    return wrap(raw_env(**kwargs))


class raw_env(CardGameAEC):
    """Calabresella AEC environment without wrappers."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "calabresella_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "encoding_version": ENCODING_VERSION,
    }

    def __init__(
        self,
        match: bool = False,
        reward_scale: float = REWARD_SCALE,
        render_mode: str | None = None,
        **flags: Any,
    ) -> None:
        self.rules = rules_from_kwargs(Rules, flags, ENV_OPTIONS)
        if not isinstance(match, bool):
            raise ValueError(
                f"calabresella env option 'match' must be true or false, got {match!r}"
            )
        self.match = match
        super().__init__(self.rules.players, NUM_ACTIONS, obs_high(), render_mode, reward_scale)

    # ------------------------------------------------------------------ hooks
    def _random_deal(self, dealer: int) -> Deal:
        return Deal(dealer, tuple(int(c) for c in self.rng.permutation(40)))

    def _new_game(self, options: dict[str, Any]) -> State | Match:
        warn_unknown_options(options, ("deal",))
        record = options.get("deal")
        actions: list[Any] = []
        no_chiamo = False
        if record is not None:
            _, deal, actions, no_chiamo = read_record(record, self.rules)
        else:
            deal = self._random_deal(int(self.rng.integers(self.rules.players)))
        game: State | Match
        if self.match:
            game = Match(self.rules, deal, self._random_deal)
            if no_chiamo:
                game.state = State.new(deal, self.rules, no_chiamo=True)
        else:
            game = State.new(deal, self.rules, no_chiamo=no_chiamo)
        apply_record_actions(game, actions)
        return game

    def _state(self) -> State:
        return self.game.state if self.match else self.game  # type: ignore[no-any-return]

    def _encode(self, seat: int) -> npt.NDArray[np.float32]:
        return encode(self.game.info_view(seat))

    def _final_infos(self) -> list[dict[str, Any]]:
        if self.match:
            summary = self.game.result()
            return [
                {"result": summary["last_deal"], "match": summary}
                for _ in range(self.rules.players)
            ]
        result = self.game.result()
        return [{"result": result} for _ in range(self.rules.players)]

    def _interim_infos(self) -> list[dict[str, Any]]:
        summary = self.game.result()
        return [
            {"deal_result": summary["last_deal"], "match": summary}
            for _ in range(self.rules.players)
        ]

    def _render_text(self) -> str:
        totals = tuple(self.game.totals) if self.match else None
        return render_state(self._state(), totals)

    # ------------------------------------------------------------------ extras
    def deal_record(self) -> dict[str, Any]:
        """The current deal as a D.3 record, actions so far included (and the result if over)."""
        return write_record(self._state())

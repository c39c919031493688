"""The single-agent face: a Gymnasium env in which one seat learns and the other seats are
played by agents built from specs (``random``, ``heuristic``, ``pimc:samples=16``, ...).

Spaces are those of the PettingZoo env of the game: ``Discrete(N)`` actions and observations
``{"observation": float32[...], "action_mask": int8[N]}`` from the same encoder. The mask is
also returned by ``action_masks()`` (the convention of masked single-agent learners such as
sb3-contrib's ``MaskablePPO``). The reward comes at the end of the deal: the learner's
settlement times ``reward_scale``. An illegal action ends the episode with ``illegal_penalty``
(learners' env checkers send unmasked random actions and must survive them).

Registered with Gymnasium as ``mazzo/Calabresella-v0`` and ``mazzo/Minchiate-v0`` by the
game registry itself (``mazzo.envs.registry``: every game's id, as soon as any game is
loaded), with this class as the entry point::

    import gymnasium as gym
    from mazzo.envs import minchiate_v0  # any of mazzo's games loaded registers every id
    env = gym.make("mazzo/Calabresella-v0", opponents="heuristic")
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from mazzo.agents.base import AnyAgent
from mazzo.agents.registry import make_agent
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.deal import Deal
from mazzo.envs.common.arrays import mask_to_int8
from mazzo.envs.protocols import AnyState
from mazzo.envs.registry import game_names, get_game

__all__ = ["SingleAgentEnv"]


class SingleAgentEnv(gym.Env[dict[str, Any], np.int64]):
    """One learning seat against agents built from specs.

    Args:
        game: the name of a game in ``mazzo.envs.registry`` (default: the first by name).
        seat: the learner's seat, or ``None`` for a random seat each episode (never the idle
            dealer of 4-player Calabresella: he makes no decision).
        opponents: one agent spec for every other seat, or a list with one spec per seat
            (the learner's entry is ignored).
        reward_scale: multiplies the learner's settlement (default: the game's
            ``reward_scale(rules)``, one over the largest possible |return| of a deal).
        illegal_penalty: reward for an illegal action, which ends the episode.
        render_mode: ``"ansi"`` or None.
        **flags: the game's rule flags.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (read by Gymnasium)

    def __init__(
        self,
        game: str | None = None,
        seat: int | None = 0,
        opponents: str | list[str] = "heuristic",
        reward_scale: float | None = None,
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        **flags: Any,
    ) -> None:
        game = game if game is not None else game_names()[0]
        self.game = get_game(game)
        self.rules = self.game.rules(flags)
        self.n_players = self.game.seats(self.rules)
        self.encoder = self.game.encoder(self.rules)
        if seat is not None and not 0 <= seat < self.n_players:
            raise ValueError(f"seat must be None or 0..{self.n_players - 1}, got {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        specs = [opponents] * self.n_players if isinstance(opponents, str) else list(opponents)
        if len(specs) != self.n_players:
            raise ValueError(f"opponents needs one spec per seat ({self.n_players}), got {specs}")
        self.opponents: list[AnyAgent] = [make_agent(s, self.game) for s in specs]
        self.fixed_seat, self.seat = seat, seat or 0
        self.render_mode = render_mode
        self.illegal_penalty = float(illegal_penalty)
        self.reward_scale = float(
            reward_scale if reward_scale is not None else self.game.reward_scale(self.rules)
        )
        n = self.game.info.num_actions
        high = self.encoder.obs_high()
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, shape=high.shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(n)
        self.state: AnyState | None = None
        self._agent_rng: np.random.Generator | None = None

    # ------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        self._agent_rng = np.random.default_rng(int(rng.integers(2**63)))
        record = (options or {}).get("deal")
        if record is not None:
            self.rules, deal = self.game.read_deal(record, self.rules)
        else:
            deal = self.game.deal_random(rng, self.rules)
        if self.fixed_seat is None:
            self.seat = int(rng.integers(self.n_players))
        deal = self._deal_with_learner_active(deal)
        self.state = state = self.game.new_state(deal, self.rules)
        self._advance()
        while state.is_terminal() and record is None:
            # a void deal (Minchiate M-8.5: too few legal discards) ends before the learner
            # acts: the same dealer redeals
            deal = self.game.deal_random(rng, self.rules, state.deal.dealer)
            self.state = state = self.game.new_state(deal, self.rules)
            self._advance()
        return self._obs(), self._info()

    def step(
        self, action: Any
    ) -> tuple[dict[str, npt.NDArray[Any]], float, bool, bool, dict[str, Any]]:
        s = self.state
        if s is None or s.is_terminal():
            raise RuntimeError("step() after the episode ended: call reset()")
        a = int(action)
        if not (0 <= a < self.game.info.num_actions and s.legal_mask() >> a & 1):
            info = self._info() | {"illegal_action": a, "legal": bit_list(s.legal_mask())}
            self.state = None
            return self._zero_obs(), self.illegal_penalty, True, False, info
        s.apply(a)
        self._advance()
        done = s.is_terminal()
        reward = s.returns()[self.seat] * self.reward_scale if done else 0.0
        info = self._info() | ({"result": s.result()} if done else {})
        return self._obs(), float(reward), done, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Legal actions of the learner now (all False once the deal is over)."""
        mask = (
            self.state.legal_mask()
            if self.state is not None and not self.state.is_terminal()
            else 0
        )
        return mask_to_int8(mask, self.game.info.num_actions).astype(bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        return self.game.render_state(self.state)

    # ------------------------------------------------------------------ internals
    def _deal_with_learner_active(self, deal: Deal) -> Deal:
        """Where the game idles a seat of the deal (4-player Calabresella's dealer sits out),
        move the deal on until the learner is active (the cards stay; only the dealer moves)."""
        dealer = deal.dealer
        for _ in range(self.n_players):
            if self.seat not in self.game.idle_seats(self.rules, dealer):
                break
            dealer = (dealer + 1) % self.n_players
        return deal if dealer == deal.dealer else Deal(dealer, deal.order)

    def _advance(self) -> None:
        """Let the opponents act until the learner is on turn or the deal is over."""
        s, rng = self._live(), self._agent_rng
        assert rng is not None
        while not s.is_terminal() and s.to_play != self.seat:
            seat = s.to_play
            s.apply(self.opponents[seat].act(s.info_view(seat), rng))

    def _live(self) -> AnyState:
        if self.state is None:
            raise RuntimeError("no deal in play: call reset()")
        return self.state

    def _obs(self) -> dict[str, npt.NDArray[Any]]:
        s = self._live()
        on_turn = not s.is_terminal() and s.to_play == self.seat
        return {
            "observation": self.encoder.encode(s.info_view(self.seat)),
            "action_mask": mask_to_int8(
                s.legal_mask() if on_turn else 0, self.game.info.num_actions
            ),
        }

    def _zero_obs(self) -> dict[str, npt.NDArray[Any]]:
        return {
            "observation": np.zeros(self.game.info.obs_size, np.float32),
            "action_mask": np.zeros(self.game.info.num_actions, np.int8),
        }

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat}

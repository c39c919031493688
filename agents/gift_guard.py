"""The sure-gift guard of a trained bot (``gifts=avoid``): the network's choice, except where it
would be a sure gift, which the guard replaces by the blank card the network likes best.

A *sure gift* (``mazzo.arena.gifts``, the one definition the study counts) is a counter played
last to a trick the other side takes, while a legal card worth nothing was held. Every fact it
needs is public at the moment of the play (the cards on the trick, the sides: the game's
``closing_side``; the cards' worth: ``counter_values``), so the guard reads the seat's view and
nothing else, and it moves exactly those plays: every other decision is the network's own.

Why a guard and not only training: the gift repair (``mazzo.training.rl.repair``) trains the
gifts away in minutes, but its targets leak into near decisions and the repaired Calabresella
network loses 0.154 a game to the bot it came from, while the guard, moving the gifts alone,
wins 0.068 from it (docs/agents.md, "Sure gifts"). Must not import torch or training/.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from mazzo.agents.base import act_batch, act_each
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.deck import counter_values
from mazzo.envs.registry import AnyGame

__all__ = ["GIFT_CHOICES", "GiftGuard", "ProbAgent"]

GIFT_CHOICES = ("keep", "avoid")
"""The values of a trained agent's ``gifts`` parameter: the network as trained, or guarded."""


class ProbAgent(Protocol):
    """An agent that also tells its policy's probability of every action."""

    name: str

    def act(self, view: Any, rng: np.random.Generator) -> int: ...
    def action_probs(self, view: Any) -> npt.NDArray[np.float64]: ...


class GiftGuard:
    """``agent`` with its sure gifts replaced by its likeliest blank card (the view's alone).

    Attributes:
        agent: the guarded agent (a network: ``nn``, ``bot``, ``onnx``); its other attributes
            are read through the guard.
        moved: how many of the agent's choices the guard replaced so far.
    """

    def __init__(self, agent: ProbAgent, game: AnyGame) -> None:
        self.agent = agent
        self.game = game
        self.name = f"{agent.name},gifts=avoid"
        self.moved = 0
        self._values = counter_values(game.info.deck)

    def __getattr__(self, key: str) -> Any:
        if key == "agent":  # not yet set (unpickling): no recursion
            raise AttributeError(key)
        return getattr(self.agent, key)

    def act(self, view: Any, rng: np.random.Generator) -> int:
        return self.guard(view, int(self.agent.act(view, rng)))

    def act_batch(self, views: Sequence[Any], rng: np.random.Generator) -> list[int]:
        actions = act_batch(self.agent, views, rng)
        return [self.guard(v, a) for v, a in zip(views, actions, strict=True)]

    def act_each(self, views: Sequence[Any], rngs: Sequence[np.random.Generator]) -> list[int]:
        actions = act_each(self.agent, views, rngs)
        return [self.guard(v, a) for v, a in zip(views, actions, strict=True)]

    def guard(self, view: Any, action: int) -> int:
        """``action``, or the blank card the agent likes best where ``action`` is a sure gift
        (ties to the lowest action id)."""
        values = self._values
        if action >= len(values) or not values[action]:
            return action
        if self.game.closing_side(view, action) >= 0:
            return action
        blanks = [a for a in bit_list(view.legal_mask) if a < len(values) and not values[a]]
        if not blanks:
            return action
        probs = self.agent.action_probs(view)
        self.moved += 1
        return max(blanks, key=lambda a: (probs[a], -a))

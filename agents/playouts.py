"""Values of decisions outside card play found by playing sampled worlds out with a network in
every seat: the ``playouts`` option of ``ipimc`` (``playouts=bid+call``).

A search that plays the cards well still has to bid, call and exchange, and a network that
never tried a contract cannot learn what it is worth. Here each candidate of such a decision is
tried in the same ``worlds`` sampled worlds (common random numbers), and every world is played
to its end by the network on each seat's own view (most probable action, no peeking): the
candidate's value is its mean return for the seat. The network's play is the playout policy,
so the values say what the decision is worth *to this network*, the target expert iteration
distils (``mazzo.training.rl.expert_iteration``): no heuristic and no perfect-information
playout, whose strategy fusion makes every contract look easier than it is. A network early in
training defends badly, so against its own defence every contract looks better than it is:
``rival`` (``playout_rivals=search``) gives the other seats' card play to the search's
perfect-information playout policy instead, a defence that sees every card, so the values
lean towards caution.

Owns ``playout_values`` (the values) and ``PlayoutSearch`` (which phases it serves, the
decision and its values). The games of all candidates and worlds advance in lockstep, one
batched forward pass per step.

Must not import torch or training/ (the network arrives built), nor name a game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mazzo.agents.base import act_each
from mazzo.envs.cards.bits import bit_list

__all__ = ["PlayoutSearch", "parse_phases", "playout_values"]

WorldSampler = Callable[[Any, np.random.Generator], Any]
"""``sample_world(view, rng)``: a full state consistent with ``view`` (the game's search's)."""
RivalPolicy = Callable[[Any], int]
"""``rival(state)``: an action for the seat on turn in ``state`` that may look at every card
(the game's search's perfect-information playout policy, ``rollout_action``)."""


def playout_values(
    view: Any,
    candidates: Sequence[int],
    worlds: Sequence[Any],
    network: Any,
    rival: RivalPolicy | None = None,
) -> list[float]:
    """The mean return for ``view``'s seat of each candidate: applied in every world of
    ``worlds`` (full states consistent with ``view``, not modified) and played to the end by
    ``network`` (any agent; one ``act_each`` call a step where it has one) on every seat's
    view; with ``rival``, every other seat's card play is ``rival``'s, which sees every card
    (a defence harder than any real one: the values lean towards caution)."""
    seat = view.seat
    games: list[tuple[int, Any]] = []
    for world in worlds:
        for i, action in enumerate(candidates):
            state = world.clone()
            state.apply(action)
            games.append((i, state))
    active = [s for _, s in games if not s.is_terminal()]
    rng = np.random.default_rng(0)  # drawn from only by a sampling network (one stream)
    while active:
        network_turn = []
        for state in active:
            if rival is not None and state.to_play != seat and state.phase.name == "PLAY":
                state.apply(rival(state))
            else:
                network_turn.append(state)
        if network_turn:
            views = [s.info_view(s.to_play) for s in network_turn]
            actions = act_each(network, views, [rng] * len(views))
            for state, action in zip(network_turn, actions, strict=True):
                state.apply(action)
        active = [s for s in active if not s.is_terminal()]
    totals = np.zeros(len(candidates))
    for i, state in games:
        totals[i] += float(state.returns()[seat])
    return [float(v) for v in totals / len(worlds)]


def parse_phases(text: str, known: Sequence[str], key: str = "playouts") -> frozenset[str]:
    """The phases ``text`` names (``bid+call``; empty: none), lower-case; ``key`` is the
    parameter that gave them (for the message).

    Raises:
        ValueError: a name that is no phase of the game (the known ones listed) or card play.
    """
    names = [p for p in text.lower().split("+") if p]
    allowed = sorted(set(known) - {"play", "done"})
    bad = [p for p in names if p not in allowed]
    if bad:
        raise ValueError(
            f"{key}={text!r}: {', '.join(map(repr, bad))} is no decision outside card play; "
            f"give phases joined by '+' among {', '.join(allowed)}"
        )
    return frozenset(names)


@dataclass(frozen=True)
class PlayoutSearch:
    """The decisions of ``phases`` taken by playouts of ``network`` in ``worlds`` worlds drawn
    by ``sample_world``.

    Attributes:
        phases: lower-case phase names served (``bid``, ``call``, ...).
        worlds: worlds per decision, shared by every candidate.
        sample_world: the game's world sampler (``sample_world(view, rng)``).
        network: the playout policy (an agent with ``act_each``).
        rival: the card play of the other seats, seeing every card (None: the network's).
    """

    phases: frozenset[str]
    worlds: int
    sample_world: WorldSampler
    network: Any
    rival: RivalPolicy | None = None

    def serves(self, view: Any) -> bool:
        """Whether ``view``'s decision is one of ``phases`` with a choice to make."""
        return (
            view.phase.name.lower() in self.phases and view.legal_mask & (view.legal_mask - 1) != 0
        )

    def search(self, view: Any, rng: np.random.Generator) -> tuple[int, dict[int, float]]:
        """The legal action of the best playout value (the first of the best), with every
        legal action's value."""
        legal = bit_list(view.legal_mask)
        worlds = [self.sample_world(view, rng) for _ in range(self.worlds)]
        values = playout_values(view, legal, worlds, self.network, self.rival)
        return legal[int(np.argmax(values))], dict(zip(legal, values, strict=True))

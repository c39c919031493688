"""The opponent pool of self-play: who plays the seats the learner does not hold in a deal.

Members are past snapshots of the policy (their weights) and fixed agents built from specs
(``heuristic``, optionally ``pimc``). Per deal, with probability ``self_play`` every seat is
the latest policy; otherwise one member is drawn uniformly and takes the seat groups the
learner does not hold (the learner holds a random non-empty proper subset of the game's
teams). Snapshots enter every ``snapshot_every`` updates and the oldest leave beyond
``max_snapshots``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from mazzo.agents.base import AnyAgent
from mazzo.agents.registry import make_agent
from mazzo.agents.trained_rules import check_rules_fit
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame

__all__ = ["LEARNER", "Member", "OpponentPool"]

LEARNER = -1  # controller id of a seat the learning policy plays


@dataclass
class Member:
    """One opponent: a snapshot (``weights``) or an agent spec (``agent``)."""

    name: str
    weights: dict[str, torch.Tensor] | None = None
    spec: str | None = None
    agent: AnyAgent | None = field(default=None, repr=False)


class OpponentPool:
    """Snapshots and fixed agents to play against.

    Args:
        game: the game (of the agent specs).
        agents: specs of the fixed members (``heuristic``...).
        self_play: probability that a deal is latest against latest.
        max_snapshots: how many past snapshots are kept.
        rules: the table's rules: ``bot`` is the bot shipped for them, and a trained member
            made for other rules is refused (``ForeignRules``) unless its spec says
            ``foreign_rules=true``, as at every table.
    """

    def __init__(
        self, game: AnyGame, agents: tuple[str, ...], self_play: float, max_snapshots: int,
        rules: RulesLike | None = None,
    ) -> None:  # fmt: skip
        self.game, self.self_play, self.max_snapshots = game, self_play, max_snapshots
        self.fixed = [Member(s, spec=s, agent=make_agent(s, game, rules)) for s in agents]
        if rules is not None:
            for member in self.fixed:
                check_rules_fit(member.agent, str(member.spec), game, rules)
        self.snapshots: list[Member] = []

    @property
    def members(self) -> list[Member]:
        return self.fixed + self.snapshots

    def add_snapshot(self, name: str, weights: dict[str, torch.Tensor]) -> None:
        """Add a copy of ``weights``; the oldest snapshot leaves beyond the limit."""
        self.snapshots.append(Member(name, weights={k: v.clone() for k, v in weights.items()}))
        del self.snapshots[: max(0, len(self.snapshots) - self.max_snapshots)]

    def controllers(
        self, rng: np.random.Generator, teams: tuple[tuple[int, ...], ...], n_seats: int
    ) -> list[int]:
        """Per seat: ``LEARNER`` or the index of the member playing it, for one deal."""
        members = self.members
        if not members or rng.random() < self.self_play:
            return [LEARNER] * n_seats
        member = int(rng.integers(len(members)))
        u = len(teams)
        k = int(rng.integers(1, u))  # how many teams the learner holds: 1..u-1
        mine = set(rng.choice(u, size=k, replace=False).tolist())
        out = [member] * n_seats
        for t, team in enumerate(teams):
            if t in mine:
                for s in team:
                    out[s] = LEARNER
        return out

    def state(self) -> dict[str, Any]:
        """The pool for a checkpoint: member names and snapshot weights."""
        return {
            "snapshots": [m.name for m in self.snapshots],
            "weights": {m.name: m.weights for m in self.snapshots},
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Put back the snapshots of ``state()``."""
        self.snapshots = [Member(n, weights=state["weights"][n]) for n in state["snapshots"]]

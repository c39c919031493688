"""What the arena plays: its entrants (an agent spec or an in-memory agent, with a label) and the
plan (the deal set, the entrants, the seating scheme's lineups and the base seed).

The plan types live here, below the modules that use them (``table`` plays one game of a plan,
``workers`` spreads a plan's deals over processes, ``runner`` makes and runs plans), so the
imports run one way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mazzo.agents.base import AnyAgent
from mazzo.agents.specs import parse_spec
from mazzo.arena.seating import Lineup
from mazzo.envs.deal_sets import DealSet

__all__ = ["ArenaPlan", "Entrant", "parse_entrant"]


@dataclass(frozen=True)
class Entrant:
    """One agent of the arena.

    Attributes:
        label: its name in reports (unique within a plan).
        source: an agent spec string (``mazzo.agents.registry``), or a picklable zero-argument
            callable returning an agent (for trainers evaluating a policy in memory).
    """

    label: str
    source: str | Callable[[], AnyAgent]


def parse_entrant(text: str) -> Entrant:
    """``'spec'`` or ``'label=spec'`` (a ``=`` before the first ``:``) -> Entrant.

    Raises:
        ValueError: an empty label or a malformed spec.
    """
    head, colon, tail = text.partition(":")
    label, eq, name = head.partition("=")
    if eq:
        if not label.strip():
            raise ValueError(f"empty label in agent {text!r} (expected label=spec)")
        spec = name + colon + tail
        parse_spec(spec)
        return Entrant(label.strip(), spec.strip())
    parse_spec(text)
    return Entrant(text.strip(), text.strip())


@dataclass(frozen=True)
class ArenaPlan:
    """Everything that determines the games: deals, entrants, lineups and the seed.

    Attributes:
        deal_set: the deals and rules.
        entrants: the agents; lineups refer to them by index.
        scheme: the seating scheme's name (``seating.SCHEMES``).
        lineups: the agent index of every seat, per lineup; each deal is played once per lineup.
        seed: base seed of the agents' generators.
        notes: what the user must be told about the entrants (a trained agent allowed to play
            rules it was not trained for, ``mazzo.agents.trained_rules``).
    """

    deal_set: DealSet
    entrants: tuple[Entrant, ...]
    scheme: str
    lineups: tuple[Lineup, ...]
    seed: int
    notes: tuple[str, ...] = ()

    @property
    def labels(self) -> tuple[str, ...]:
        """The entrants' labels, by index."""
        return tuple(e.label for e in self.entrants)

    @property
    def n_games(self) -> int:
        """Games to play: deals times lineups."""
        return len(self.deal_set.deals) * len(self.lineups)

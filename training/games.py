"""The games mazzo knows, as one table the CLI, the arena and the trainers read: each game's
PettingZoo module, rules type, deck, D.3 record format, and the engine entry points (new state
from a deal, random deals, record reading/writing, replay, rendering)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from envs import calabresella_v0, minchiate_v0
from envs.calabresella import actions as calabresella_actions
from envs.calabresella import encode as calabresella_encode
from envs.calabresella import record as calabresella_record
from envs.calabresella.config import Rules as CalabresellaRules
from envs.calabresella.render import render_state as calabresella_render
from envs.calabresella.render import render_view as calabresella_render_view
from envs.calabresella.rules import State as CalabresellaState
from envs.calabresella.view import action_is_visible as calabresella_visible
from envs.cards.deal import Deal
from envs.cards.deck import ITALIAN_40, MINCHIATE_97, Deck
from envs.minchiate import encode as minchiate_encode
from envs.minchiate import record as minchiate_record
from envs.minchiate.actions import NUM_ACTIONS as MINCHIATE_ACTIONS
from envs.minchiate.config import Rules as MinchiateRules
from envs.minchiate.render import render_state as minchiate_render
from envs.minchiate.render import render_view as minchiate_render_view
from envs.minchiate.rules import State as MinchiateState
from envs.minchiate.view import action_is_visible as minchiate_visible

__all__ = ["GAMES", "GameSpec", "game_spec"]


@dataclass(frozen=True)
class GameSpec:
    """One game's entry points.

    Attributes:
        name: the game's name (``calabresella``, ``minchiate``).
        module: the PettingZoo module (``env``, ``raw_env``).
        rules_type: the frozen ``Rules`` dataclass (``from_flags``, ``to_flags``).
        deck: the deck.
        record_format: the D.3 ``format`` string.
        n_players: rules -> number of player seats.
        new_state: (deal, rules) -> a fresh engine state.
        read_record: (record, rules or None) -> (rules, deal); the record's actions are ignored.
        write_record: state -> D.3 record (actions and result included).
        replay: record -> the state after its actions.
        render: state -> text.
        num_actions: size of the flat action space.
        obs_high: () -> the observation's upper bounds (its shape is the observation's).
        encode: (state, seat) -> the observation vector of that seat (the env's encoder).
        render_view: view -> text (one seat's table, for a person at the terminal).
        visible: (state, action, seat) -> whether that seat sees the card the action moves.
    """

    name: str
    module: ModuleType
    rules_type: Any  # a frozen Rules dataclass with ``from_flags`` / ``to_flags``
    deck: Deck
    record_format: str
    n_players: Callable[[Any], int]
    new_state: Callable[[Deal, Any], Any]
    read_record: Callable[[Any, Any], tuple[Any, Deal]]
    write_record: Callable[[Any], dict[str, Any]]
    replay: Callable[[Any], Any]
    render: Callable[[Any], str]
    num_actions: int
    obs_high: Callable[[], np.ndarray]
    encode: Callable[[Any, int], np.ndarray]
    render_view: Callable[[Any], str]
    visible: Callable[[Any, int, int], bool]

    def random_deal(self, rng: np.random.Generator, rules: Any, dealer: int | None = None) -> Deal:
        """A uniformly shuffled deal from ``rng`` (dealer drawn from ``rng`` if not given)."""
        n = self.n_players(rules)
        if dealer is None:
            dealer = int(rng.integers(n))
        return Deal(dealer, tuple(int(c) for c in rng.permutation(self.deck.size)))


def _calabresella_read(record: Any, rules: Any) -> tuple[Any, Deal]:
    rules, deal, _actions, no_chiamo = calabresella_record.read_record(record, rules)
    if no_chiamo:  # a Deal carries no restriction: refuse rather than play the deal wrongly
        raise ValueError(
            "a no-Chiamo redeal record (no_chiamo: true) can only be replayed with its actions "
            "(mazzo replay, or the env's reset), not dealt afresh"
        )
    return rules, deal


def _minchiate_read(record: Any, rules: Any) -> tuple[Any, Deal]:
    rules, deal, _actions, _expect = minchiate_record.read_record(record, rules)
    return rules, deal


GAMES: dict[str, GameSpec] = {
    "calabresella": GameSpec(
        name="calabresella",
        module=calabresella_v0,
        rules_type=CalabresellaRules,
        deck=ITALIAN_40,
        record_format=calabresella_record.FORMAT,
        n_players=lambda rules: int(rules.players),
        new_state=CalabresellaState.new,
        read_record=_calabresella_read,
        write_record=calabresella_record.write_record,
        replay=calabresella_record.replay,
        render=calabresella_render,
        num_actions=calabresella_actions.NUM_ACTIONS,
        obs_high=calabresella_encode.obs_high,
        encode=lambda s, seat: calabresella_encode.encode(s.info_view(seat)),
        render_view=calabresella_render_view,
        visible=calabresella_visible,
    ),
    "minchiate": GameSpec(
        name="minchiate",
        module=minchiate_v0,
        rules_type=MinchiateRules,
        deck=MINCHIATE_97,
        record_format=minchiate_record.FORMAT,
        n_players=lambda rules: 4,
        new_state=MinchiateState.new,
        read_record=_minchiate_read,
        write_record=minchiate_record.write_record,
        replay=minchiate_record.replay,
        render=minchiate_render,
        num_actions=MINCHIATE_ACTIONS,
        obs_high=minchiate_encode.obs_high,
        encode=lambda s, seat: minchiate_encode.encode(s.info_view(seat)),
        render_view=minchiate_render_view,
        visible=minchiate_visible,
    ),
}


def game_spec(name: str) -> GameSpec:
    """The spec of game ``name``. Raises ValueError naming the known games."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None

"""Minchiate's entry in the game registry (``envs.registry``): its ``GameInfo`` and the engine,
record, encoder and rendering functions every layer above ``envs/`` reaches through it.

Imports the encoder (numpy); the engine modules it names stay pure.
"""

from __future__ import annotations

from typing import Any

from envs.cards.deal import Deal
from envs.cards.deck import MINCHIATE_97
from envs.cards.record import DealRecord
from envs.minchiate import encode, record
from envs.minchiate.actions import NUM_ACTIONS
from envs.minchiate.config import Rules
from envs.minchiate.render import render_state, render_view
from envs.minchiate.rules import State
from envs.minchiate.view import action_is_visible
from envs.registry import Game, GameInfo, register

__all__ = ["GAME"]

TEAMS = ((0, 2), (1, 3))  # M-1: S0+S2 (team A) against S1+S3 (team B)


def _rules(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise TypeError(f"minchiate needs minchiate Rules, got {type(rules).__name__}")
    return rules


def _seats(rules: object) -> int:
    _rules(rules)
    return 4


def _teams(rules: object) -> tuple[tuple[int, ...], ...]:
    _rules(rules)
    return TEAMS


def _idle_seats(rules: object, dealer: int) -> tuple[int, ...]:
    _rules(rules)
    return ()


def _new_state(deal: Deal, rules: object, **options: Any) -> State:
    return State.new(deal, _rules(rules), **options)


def _read(rec: Any, rules: object) -> DealRecord:
    got_rules, deal, actions, expect = record.read_record(
        rec, None if rules is None else _rules(rules)
    )
    return DealRecord(got_rules, deal, tuple(actions), expect, {})


def _replay(rec: Any, rules: object = None) -> State:
    return record.replay(rec, None if rules is None else _rules(rules))


def _payoff_bound(rules: object) -> int:
    # Provisional: 8 resti at the default unit of 60 (to be replaced by the exact bound).
    return max(1, -(-8 * 60 // _rules(rules).resti_unit))


_ENCODER = encode.ENCODER

GAME = register(
    Game(
        info=GameInfo(
            name="minchiate",
            title="Minchiate",
            deck=MINCHIATE_97,
            rules_type=Rules,
            record_format=record.FORMAT,
            num_actions=NUM_ACTIONS,
            obs_size=encode.OBS_SIZE,
            obs_slices={
                name: (encode.OFFSET[name], encode.OFFSET[name] + size)
                for name, size in encode.BINARY_LAYOUT + encode.SCALAR_LAYOUT
            },
            encoding_version=encode.ENCODING_VERSION,
            env_module="envs.minchiate_v0",
            gym_id="mazzo/Minchiate-v0",
            peers={"engine": "os:hearts:raw", "encoded": "os:hearts:obsbuf"},
            score_unit="resti",
        ),
        seats=_seats,
        teams=_teams,
        idle_seats=_idle_seats,
        payoff_bound=_payoff_bound,
        new_state=_new_state,
        read_record=_read,
        write_record=record.write_record,
        replay=_replay,
        encoder=lambda rules: _ENCODER,
        render_state=render_state,
        render_view=render_view,
        action_is_visible=action_is_visible,
    )
)

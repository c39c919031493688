"""Calabresella's entry in the game registry (``envs.registry``): its ``GameInfo`` and the
engine, record, encoder and rendering functions every layer above ``envs/`` reaches through it.

Imports the encoder (numpy); the engine modules it names stay pure.
"""

from __future__ import annotations

from typing import Any

from envs.calabresella import encode, record
from envs.calabresella.actions import NUM_ACTIONS
from envs.calabresella.config import Rules
from envs.calabresella.render import render_state, render_view
from envs.calabresella.rules import State
from envs.calabresella.view import action_is_visible
from envs.cards.deal import Deal
from envs.cards.deck import ITALIAN_40
from envs.cards.record import DealRecord
from envs.registry import Game, GameInfo, register

__all__ = ["GAME"]


def _rules(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise TypeError(f"calabresella needs calabresella Rules, got {type(rules).__name__}")
    return rules


def _teams(rules: object) -> tuple[tuple[int, ...], ...]:
    return tuple((s,) for s in range(_rules(rules).players))


def _idle_seats(rules: object, dealer: int) -> tuple[int, ...]:
    return (dealer,) if _rules(rules).players == 4 else ()


def _payoff_bound(rules: object) -> int:
    r = _rules(rules)  # the soloist's pairwise settlement at its largest (C-9.5)
    unit = max(r.contract_values) * max(1, r.cappotto_mult, r.stramazzo_mult)
    unit *= 11 if r.payout_mode == "difference" else 1
    return int(-(-2 * unit * r.aperta_payout_factor // 1))


def _new_state(deal: Deal, rules: object, **options: Any) -> State:
    return State.new(deal, _rules(rules), **options)


def _read(rec: Any, rules: object) -> DealRecord:
    got_rules, deal, actions, no_chiamo = record.read_record(
        rec, None if rules is None else _rules(rules)
    )
    return DealRecord(got_rules, deal, tuple(actions), {}, {"no_chiamo": True} if no_chiamo else {})


def _replay(rec: Any, rules: object = None) -> State:
    return record.replay(rec, None if rules is None else _rules(rules))


_ENCODER = encode.ENCODER

GAME = register(
    Game(
        info=GameInfo(
            name="calabresella",
            title="Calabresella",
            deck=ITALIAN_40,
            rules_type=Rules,
            record_format=record.FORMAT,
            num_actions=NUM_ACTIONS,
            obs_size=encode.OBS_SIZE,
            obs_slices={
                name: (encode.OFFSET[name], encode.OFFSET[name] + size)
                for name, size in encode.BINARY_LAYOUT + encode.SCALAR_LAYOUT
            },
            encoding_version=encode.ENCODING_VERSION,
            env_module="envs.calabresella_v0",
            gym_id="mazzo/Calabresella-v0",
            peers={"engine": "os:skat:raw", "encoded": "os:skat:obsbuf"},
            score_unit="game points",
        ),
        seats=lambda rules: _rules(rules).players,
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

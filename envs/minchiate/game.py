"""Minchiate's entry in the game registry (``mazzo.envs.registry``): its ``GameInfo`` and the
engine, record, encoder and rendering functions every layer above ``envs/`` reaches through it.

Imports the encoder (numpy); the engine modules it names stay pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mazzo.envs.common.registration import obs_slices
from mazzo.envs.minchiate import encode, record
from mazzo.envs.minchiate.actions import NUM_ACTIONS
from mazzo.envs.minchiate.deck import MINCHIATE_97
from mazzo.envs.minchiate.flag_help import FLAG_HELP
from mazzo.envs.minchiate.render import render_state, render_view
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.scoring import payoff_bound
from mazzo.envs.minchiate.state import State
from mazzo.envs.minchiate.view import InfoView, action_is_visible, closing_side
from mazzo.envs.minchiate.view_json import view_json
from mazzo.envs.registry import Game, GameInfo, GameOps, register

__all__ = ["GAME", "TEST_ENV_VARIANTS", "TEST_VARIANTS"]

TEAMS = ((0, 2), (1, 3))  # M-1: S0+S2 (team A) against S1+S3 (team B)


def _seats(rules: Rules) -> int:
    return 4


def _teams(rules: Rules) -> tuple[tuple[int, ...], ...]:
    return TEAMS


def _idle_seats(rules: Rules, dealer: int) -> tuple[int, ...]:
    return ()


NOTATION = """Cards (RULES.md D.1): T1 .. T40 are the trumps (T40 highest), M the Matto (the
fool, which excuses you from a trick); suit cards are a rank and a suit: the suits c coppe
(cups), d denari (coins), s spade (swords), b bastoni (clubs); the ranks A 2 .. 10 and the
courts J (fante, the knave), N (cavallo, the knight), Q (regina, the queen), K (re, the king).
Courts beat pips: in c and d the ace is the best pip (A 2 .. 10), in s and b the ten
(10 9 .. A). Follow the suit led; void in it, you must play a trump. S0 and S2 play together
against S1 and S3."""

_ENCODER = encode.ENCODER


def _encoder(rules: Rules) -> encode.MinchiateEncoder:
    return _ENCODER


GAME: Game[Rules, State, InfoView] = register(
    Game(
        GameInfo(
            name="minchiate",
            title="Minchiate",
            deck=MINCHIATE_97,
            rules_type=Rules,
            record_format=record.FORMAT,
            num_actions=NUM_ACTIONS,
            obs_size=encode.OBS_SIZE,
            obs_slices=obs_slices(encode.OFFSET, encode.BINARY_LAYOUT + encode.SCALAR_LAYOUT),
            encoding_version=encode.ENCODING_VERSION,
            env_module="mazzo.envs.minchiate_v0",
            gym_id="mazzo/Minchiate-v0",
            peers={"engine": "os:hearts:raw", "encoded": "os:hearts:obsbuf"},
            score_unit="resti",
            flag_help=FLAG_HELP,
            notation=NOTATION,
        ),
        GameOps(
            seats=_seats,
            teams=_teams,
            idle_seats=_idle_seats,
            payoff_bound=payoff_bound,
            new_state=State.new,
            read_record=record.read_record,
            write_record=record.write_record,
            replay=record.replay,
            encoder=_encoder,
            render_state=render_state,
            render_view=render_view,
            action_is_visible=action_is_visible,
            closing_side=closing_side,
            view_json=view_json,
            vocabulary=record.VOCABULARY,
        ),
    )
)

# The rule variants the contract suite (tests/contract/) plays: the defaults first, then every
# flag's alternative values (RULES.md C.3), then all of them at once where they combine. Each is
# a ``Rules.from_flags`` dict.
TEST_VARIANTS: tuple[Mapping[str, Any], ...] = (
    {},
    {"faceup_21st": "dealer_only"},
    {"dealer_takes": "counters_only"},
    {"score_taken_cards": True},
    {"discard_rule": "any"},
    {"impossible_discard": "relax"},
    {"declarations": "auto_all"},
    {"declare_timing": "with_first_card"},
    {"declare_timing": "with_first_card", "declarations": "auto_all"},
    {"diecine": "two_triples"},
    {"diecine": "any_three"},
    {"matto_bonus_in_own_combo": True},
    {"matto_bonus_at_end": False},
    {"end_recount_combos": False},
    {"declaration_score_timing": "end"},
    {"fola_exposure": "never"},
    {"king_rule": False},
    {"must_overtrump": True},
    {"matto_payment": "agent"},
    {"matto_last_trick_lost": True},
    {"matto_death_bonus": True},
    {"matto_last_trick_lost": True, "matto_death_bonus": True},
    {"capture_bonus": False},
    {"rob_cap": 0},
    {"rob_cap": 4},
    {"resti_unit": 20},
    {"surplus_base": 30, "last_trick_bonus": 0},
    {
        "faceup_21st": "dealer_only",
        "dealer_takes": "counters_only",
        "score_taken_cards": True,
        "impossible_discard": "relax",
        "declare_timing": "with_first_card",
        "diecine": "any_three",
        "matto_bonus_in_own_combo": True,
        "declaration_score_timing": "end",
        "fola_exposure": "never",
        "must_overtrump": True,
        "matto_payment": "agent",
        "matto_last_trick_lost": True,
        "matto_death_bonus": True,
        "rob_cap": 7,
        "resti_unit": 45,
    },
)
# More env keyword arguments (the series layer; rule flags may come with them) that the
# PettingZoo checks of the contract suite also run.
TEST_ENV_VARIANTS: tuple[Mapping[str, Any], ...] = (
    {"deals": 3},
    {"matto_payment": "agent", "declare_timing": "with_first_card"},
    {"declarations": "auto_all", "must_overtrump": True, "fola_exposure": "never"},
)

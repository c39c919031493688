"""Calabresella's entry in the game registry (``mazzo.envs.registry``): its ``GameInfo`` and the
engine, record, encoder and rendering functions every layer above ``envs/`` reaches through it.

Imports the encoder (numpy); the engine modules it names stay pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mazzo.envs.calabresella import encode, record
from mazzo.envs.calabresella.actions import NUM_ACTIONS
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.calabresella.flag_help import FLAG_HELP
from mazzo.envs.calabresella.render import render_state, render_view
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.scoring import payoff_bound
from mazzo.envs.calabresella.state import State
from mazzo.envs.calabresella.view import InfoView, action_is_visible, closing_side
from mazzo.envs.calabresella.view_json import view_json
from mazzo.envs.common.registration import obs_slices
from mazzo.envs.registry import Game, GameInfo, GameOps, register

__all__ = ["GAME", "TEST_ENV_VARIANTS", "TEST_NOT_ZERO_SUM", "TEST_VARIANTS"]


def _seats(rules: Rules) -> int:
    return rules.players


def _teams(rules: Rules) -> tuple[tuple[int, ...], ...]:
    return tuple((s,) for s in range(rules.players))


def _idle_seats(rules: Rules, dealer: int) -> tuple[int, ...]:
    return (dealer,) if rules.players == 4 else ()


NOTATION = """Cards (RULES.md D.2) are a rank and a suit: the suits are c coppe (cups), d denari
(coins), s spade (swords), b bastoni (clubs); the ranks A 2 3 4 5 6 7 J (fante, the knave)
N (cavallo, the knight; Q is read as N) K (re, the king). In a trick, high to low: 3 2 A K N
J 7 6 5 4; there are no trumps and you must follow the suit led if you can. Points: an ace is
a whole point, 2 3 J N K a third each. S0, S1, ... are the seats; A0 is the eldest (the
dealer's next seat: he bids first and leads the first trick), then A1, A2."""

_ENCODER = encode.ENCODER


def _encoder(rules: Rules) -> encode.CalabresellaEncoder:
    return _ENCODER


GAME: Game[Rules, State, InfoView] = register(
    Game(
        GameInfo(
            name="calabresella",
            title="Calabresella",
            deck=ITALIAN_40,
            rules_type=Rules,
            record_format=record.FORMAT,
            num_actions=NUM_ACTIONS,
            obs_size=encode.OBS_SIZE,
            obs_slices=obs_slices(encode.OFFSET, encode.BINARY_LAYOUT + encode.SCALAR_LAYOUT),
            encoding_version=encode.ENCODING_VERSION,
            env_module="mazzo.envs.calabresella_v0",
            gym_id="mazzo/Calabresella-v0",
            peers={"engine": "os:skat:raw", "encoded": "os:skat:obsbuf"},
            score_unit="game points",
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

# The rule variants the contract suite (tests/contract/) plays: the defaults first, then one
# entry per variant family (RULES.md B.11, C.3). Each is a ``Rules.from_flags`` dict.
TEST_VARIANTS: tuple[Mapping[str, Any], ...] = (
    {},
    {"players": 4},
    {"players": 2},
    {"auction": "until_two_passes"},
    {"allowed_contracts": ["chiamo"]},
    {"allowed_contracts": ["solo", "dividete"]},
    {"all_pass": "forced_chiamo_eldest"},
    {"all_pass": "next_deal_no_chiamo"},
    {"allow_call_own_card": True},
    {"chiamo_monte_exposed": True, "chiamo_return_public": True, "solissimo_view_monte": True},
    {"scegliete_splits": "only_2_2"},
    {"first_lead": "soloist"},
    {"first_lead": "dealer_left", "players": 4},
    {"first_lead": "dealer_left", "players": 2},
    {"stramazzo": False, "cappotto_mult": 4},
    {"stramazzo_def": "raw_zero"},
    {"payout_mode": "difference", "reward_mode": "raw"},
    {"contract_values": [1, 3, 5, 7, 9]},
    {"aperta": True, "aperta_payout_factor": 0.5},
)
# More env keyword arguments (the match layer; rule flags may come with them) that the
# PettingZoo checks of the contract suite also run.
TEST_ENV_VARIANTS: tuple[Mapping[str, Any], ...] = (
    {"match": True},
    {"match": True, "players": 4},
    {"aperta": True},
)
# The variants whose returns are not zero-sum by design (``reward_mode = raw`` pays each seat its
# game-point increment, C-9.1).
TEST_NOT_ZERO_SUM: tuple[Mapping[str, Any], ...] = (
    {"payout_mode": "difference", "reward_mode": "raw"},
)

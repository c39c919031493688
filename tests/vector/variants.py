"""The flag variants the vector tests run on, per registered game (those of
tests/calabresella/test_invariants.py and tests/minchiate/test_flags.py, plus the defaults), and
random play through the registry that collects every seat's view along the way."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from envs.registry import Game

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "calabresella": [
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
        {"target": 5},
    ],
    "minchiate": [
        {},
        {"faceup_21st": "dealer_only"},
        {"dealer_takes": "counters_only"},
        {"score_taken_cards": True},
        {"capture_bonus": False},
        {"declaration_score_timing": "end"},
        {"declarations": "auto_all"},
        {"declare_timing": "with_first_card"},
        {"fola_exposure": "never"},
        {"king_rule": False},
        {"must_overtrump": True},
        {"end_recount_combos": False},
        {"matto_bonus_at_end": False},
        {"surplus_base": 50, "last_trick_bonus": 0},
        {"resti_unit": 20},
        {"diecine": "two_triples"},
        {"rob_cap": 1},
        {"rob_cap": 0},
        {"impossible_discard": "relax"},
        {"discard_rule": "any"},
        {"matto_last_trick_lost": True},
        {"matto_last_trick_lost": True, "matto_death_bonus": True},
    ],
}


def variant_id(flags: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in flags.items()) or "defaults"


def cases() -> list[tuple[str, dict[str, Any]]]:
    """(game name, flags) for every variant of every game."""
    return [(name, flags) for name, variants in VARIANTS.items() for flags in variants]


def random_views(game: Game, rules: Any, deals: int, seed: int) -> Iterator[Any]:
    """Every seat's view at every decision (and at the end) of ``deals`` random deals."""
    rng = np.random.default_rng(seed)
    seats = game.seats(rules)
    for _ in range(deals):
        s = game.new_state(game.deal_random(rng, rules), rules)
        while True:
            for seat in range(seats):
                yield s.info_view(seat)
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply(legal[int(rng.integers(len(legal)))])

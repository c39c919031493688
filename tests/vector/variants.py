"""The flag variants the vector tests run on, per registered game (each game's ``TEST_VARIANTS``
from its ``envs/<game>/game.py``, joined with those of tests/calabresella/test_invariants.py and
tests/minchiate/test_flags.py), and random play through the registry that collects every seat's
view along the way."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from typing import Any

import numpy as np

from mazzo.envs.calabresella import game as calabresella_game
from mazzo.envs.registry import Game, all_games

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "calabresella": [*(dict(v) for v in calabresella_game.TEST_VARIANTS), {"target": 5}],
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
    """(game name, flags) for every variant of every registered game, each once."""
    out: list[tuple[str, dict[str, Any]]] = []
    for game in all_games():
        module = importlib.import_module(f"mazzo.envs.{game.name}.game")
        seen: set[str] = set()
        for flags in [*getattr(module, "TEST_VARIANTS", ({},)), *VARIANTS.get(game.name, [])]:
            key = json.dumps(flags, sort_keys=True)
            if key not in seen:
                seen.add(key)
                out.append((game.name, dict(flags)))
    return out


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

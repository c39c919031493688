"""The PettingZoo face of every registered game, for every rule variant it lists and every env
layer (match, series) it names: PettingZoo's own ``api_test`` (the AEC protocol, spaces,
observation dicts and masks, ``last``/``step`` order) and ``seed_test`` (two envs reset with
the same seed play the same episode), through ``Game.env``.

This is the one place these checks run; the per-game ``test_env.py`` files test what is
particular to each env (explicit-deal resets, results in infos, rendering, error messages).
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from pettingzoo.test import api_test, seed_test

from mazzo.envs.registry import Game

from .games import ENV_CASES

CYCLES = 400  # api_test/seed_test steps: several whole deals of either game


@pytest.mark.parametrize(("game", "flags"), ENV_CASES)
def test_pettingzoo_api(game: Game, flags: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # api_test's advice on Dict spaces
        api_test(game.env(**flags), num_cycles=CYCLES)


@pytest.mark.parametrize(("game", "flags"), ENV_CASES)
def test_pettingzoo_seed(game: Game, flags: dict[str, Any]) -> None:
    seed_test(lambda: game.env(**flags), num_cycles=CYCLES)

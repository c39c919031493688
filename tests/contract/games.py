"""The registry as test parameters, and the small helpers every contract test shares.

The contract suite names no game: it iterates ``mazzo.envs.registry.all_games()`` and, per game, the
rule variants that the game's registration module ``envs/<game>/game.py`` lists in its optional
``TEST_VARIANTS`` (``Rules.from_flags`` dicts, the defaults first; ``({},)`` when absent) and
``TEST_ENV_VARIANTS`` (env keyword arguments beyond the rule flags, such as a match or series
layer). ``TEST_NOT_ZERO_SUM`` lists the variants whose returns are by design not zero-sum
(a raw-points reward mode).

Deals and action choices are drawn from generators seeded by stable seeds (``stable_seed``:
CRC-32 of the sorted JSON of what names the case), never from ``hash`` (salted per process).
"""

from __future__ import annotations

import importlib
import json
import random
import zlib
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pytest

from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.deal import Deal
from mazzo.envs.registry import Game, all_games

__all__ = [
    "CASES",
    "DEFAULT_CASES",
    "ENV_CASES",
    "GAMES",
    "is_zero_sum",
    "play_random",
    "random_deal",
    "snapshot",
    "stable_seed",
    "variants",
]

GAMES = all_games()


def _module(game: Game) -> Any:
    return importlib.import_module(f"mazzo.envs.{game.name}.game")


def variants(game: Game) -> tuple[Mapping[str, Any], ...]:
    """The rule-flag variants the contract suite plays for ``game`` (the defaults first)."""
    return tuple(getattr(_module(game), "TEST_VARIANTS", ({},)))


def env_variants(game: Game) -> tuple[Mapping[str, Any], ...]:
    """Env keyword arguments beyond the rule flags (match/series layers) to check as envs."""
    return tuple(getattr(_module(game), "TEST_ENV_VARIANTS", ()))


def is_zero_sum(game: Game, flags: Mapping[str, Any]) -> bool:
    """Whether the returns under ``flags`` are zero-sum (all but ``TEST_NOT_ZERO_SUM``)."""
    exempt = getattr(_module(game), "TEST_NOT_ZERO_SUM", ())
    return dict(flags) not in [dict(f) for f in exempt]


def flags_id(flags: Mapping[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in flags.items()) or "defaults"


def _params(pairs: list[tuple[Game, Mapping[str, Any]]]) -> list[Any]:
    return [pytest.param(g, dict(f), id=f"{g.name}[{flags_id(f)}]") for g, f in pairs]


CASES = _params([(g, f) for g in GAMES for f in variants(g)])
ENV_CASES = _params([(g, f) for g in GAMES for f in variants(g) + env_variants(g)])
DEFAULT_CASES = _params([(g, variants(g)[0]) for g in GAMES])


def stable_seed(*parts: object) -> int:
    """A seed that is the same in every process: CRC-32 of the sorted JSON of ``parts``."""
    text = json.dumps([p.name if isinstance(p, Game) else p for p in parts], sort_keys=True)
    return zlib.crc32(text.encode())


def random_deal(game: Game, rules: Any, seed: int) -> Deal:
    """The game's uniformly shuffled deal from ``seed`` (``Game.deal_random``)."""
    return game.deal_random(np.random.default_rng(seed), rules)


def play_random(state: Any, rng: random.Random, stop: int | None = None) -> Iterator[Any]:
    """Apply random legal actions (all of them, or ``stop``), yielding the state before each."""
    n = 0
    while not state.is_terminal() and (stop is None or n < stop):
        yield state
        state.apply(rng.choice(bit_list(state.legal_mask())))
        n += 1


def snapshot(game: Game, state: Any) -> tuple[Any, ...]:
    """Everything observable about ``state``: its record, every seat's view, whose turn, the legal
    mask and the returns (two states with equal snapshots are the same deal position)."""
    n = game.seats(state.rules)
    return (
        json.dumps(game.write_record(state), sort_keys=True),
        tuple(state.info_view(seat) for seat in range(n)),
        state.to_play,
        state.legal_mask(),
        state.returns(),
        state.is_terminal(),
    )

"""The seat trackers rebuild a seat's exact view: for random deals of every rule variant of every
game and every seat, a referee holding the full State feeds a seat's tracker only what that seat
sees (its ``deal.private``, the action triples with the hidden args as None, the reveals its
game owes it) and at every step the tracker's view equals ``state.info_view(seat)`` and, on the
seat's turns, its legal labels are the true ones (``referee.play_through``). The default suite
plays a few deals per variant; the study plays 100 per variant and seat (the default run plays
the study of four Calabresella variants, the rest is ``slow``)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from mazzo.agents.registry import make_agent
from mazzo.envs.registry import Game
from mazzo.serve.trackers.registry import tracker_for

from ..contract.games import CASES, DEFAULT_CASES, stable_seed
from .referee import play_through

DEALS = 2  # per variant, every seat (the slow study: STUDY_DEALS)
STUDY_DEALS = 100


def _check(game: Game, flags: dict[str, Any], deals: int) -> int:
    rules = game.rules(flags)
    entry = tracker_for(game)
    seed = stable_seed("seat-tracker", game, flags)
    rng = np.random.default_rng(seed)
    steps = 0
    for i in range(deals):
        state = game.new_state(game.deal_random(rng, rules), rules)
        for seat in range(game.seats(rules)):
            play = random.Random(seed + 7 * i + seat)
            steps += play_through(
                game, entry.tracker, entry.private_of, entry.reveal_of, state.clone(), seat, play
            )
    return steps


@pytest.mark.parametrize(("game", "flags"), CASES)
def test_the_tracker_view_is_the_true_view_at_every_step(game: Game, flags: dict[str, Any]) -> None:
    steps = _check(game, flags, DEALS)
    assert steps >= DEALS * game.seats(game.rules(flags)) * 10


@pytest.mark.parametrize(("game", "flags"), DEFAULT_CASES)
def test_the_tracker_follows_heuristic_play(game: Game, flags: dict[str, Any]) -> None:
    """Heuristic players (who bid, declare and discard as players do) rather than random ones."""
    rules = game.rules(flags)
    entry, agent = tracker_for(game), make_agent("heuristic", game.name)
    rng = np.random.default_rng(stable_seed("seat-tracker-heuristic", game))

    def policy(state: Any, _: random.Random) -> int:
        return int(agent.act(state.info_view(state.to_play), rng))

    state = game.new_state(game.deal_random(rng, rules), rules)
    for seat in range(game.seats(rules)):
        play = random.Random(seat)
        play_through(game, entry.tracker, entry.private_of, entry.reveal_of, state.clone(), seat,
                     play, policy)  # fmt: skip


# The study's variants cheap enough for the default run (about 1 s each on the 2-core machine,
# 1.6 s at a load of 6): both a-due seatings (the dealer's seat plays two positions; the giver
# is named A1/A2) and Chiamo, plain and with its exposure flags (the exchange's reveals). The
# other variants (0.5 to 2.5 s each for Calabresella, 8 to 50 s for Minchiate) stay ``slow``.
DEFAULT_STUDY = (
    "calabresella[players=2]",
    "calabresella[first_lead=dealer_left,players=2]",
    "calabresella[allowed_contracts=['chiamo']]",
    "calabresella[chiamo_monte_exposed=True,chiamo_return_public=True,solissimo_view_monte=True]",
)
STUDY_CASES = [
    case if case.id in DEFAULT_STUDY else pytest.param(*case.values, id=case.id, marks=pytest.mark.slow)
    for case in CASES
]  # fmt: skip
assert sum(case.id in DEFAULT_STUDY for case in CASES) == len(DEFAULT_STUDY)


@pytest.mark.parametrize(("game", "flags"), STUDY_CASES)
def test_the_tracker_view_is_the_true_view_study(game: Game, flags: dict[str, Any]) -> None:
    _check(game, flags, STUDY_DEALS)

"""VIEW objects: JSON-ready, the generic fields agree with the view, and no leak: resampling
every card a seat cannot know (the contract suite's harness) leaves its VIEW unchanged."""

import json
import random

import numpy as np
import pytest

from mazzo.envs.registry import all_games
from mazzo.serve.views import view_json
from tests.contract.games import CASES, stable_seed
from tests.contract.no_leak import check_no_leak, random_world


def vjson(game, state, seat):
    return json.dumps(view_json(game, state.info_view(seat), state.action_label), sort_keys=True)


@pytest.mark.parametrize(("game", "flags"), CASES)
def test_views_do_not_depend_on_hidden_cards(game, flags):
    rules = game.rules(flags)
    rng = random.Random(stable_seed("serve-view", game, flags))
    for _ in range(3):
        world = random_world(game, rules, rng)
        _, leaked = check_no_leak(game, world, rng, 15, vjson)
        assert not leaked, (leaked, game.write_record(world.state))


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_generic_fields_follow_the_view(game):
    rules = game.rules()
    rng = np.random.default_rng(0)
    for _ in range(3):
        state = game.new_state(game.deal_random(rng, rules), rules)
        while True:
            for seat in range(game.seats(rules)):
                view = state.info_view(seat)
                got = json.loads(json.dumps(view_json(game, view, state.action_label)))
                assert got["seat"] == seat
                assert got["to_play"] == state.to_play
                assert got["hand"] == game.info.deck.codes(view.hand)
                assert got["phase"] == view.phase.name.lower()
                legal = [state.action_label(a) for a in state.legal_actions()]
                assert got["legal"] == (legal if seat == state.to_play else [])
            if state.is_terminal():
                break
            actions = state.legal_actions()
            state.apply(actions[int(rng.integers(len(actions)))])


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_the_no_leak_check_has_teeth(game):
    def leaky(game, state, seat):
        n = game.seats(state.rules)
        other = state.info_view((seat + 1) % n).hand
        return vjson(game, state, seat) + str(game.info.deck.codes(other))

    rules = game.rules()
    rng = random.Random(stable_seed("serve-view-teeth", game, {}))
    caught = [
        check_no_leak(game, random_world(game, rules, rng), rng, 15, leaky)[1] for _ in range(3)
    ]
    assert any(caught)

"""The sure-gift guard on an exported bundle (``onnx:DIR,gifts=avoid``): the bundle's
``action_probs`` are the network's, and the guarded bundle decides as the guarded bot does."""

from __future__ import annotations

import numpy as np
import pytest

from mazzo.agents.gift_guard import GiftGuard
from mazzo.agents.registry import make_agent
from mazzo.envs.registry import get_game


@pytest.mark.parametrize("name", ["calabresella", "minchiate"])
def test_the_guarded_bundle_plays_as_the_guarded_bot(shipped_bundles, name):
    game = get_game(name)
    rules = game.rules()
    bundle = make_agent(f"onnx:{shipped_bundles[name]},gifts=avoid", game)
    plain_bundle = make_agent(f"onnx:{shipped_bundles[name]}", game)
    bot = make_agent("bot", game)
    assert isinstance(bundle, GiftGuard) and not isinstance(plain_bundle, GiftGuard)
    rng = np.random.default_rng(11)
    decisions = 0
    for k in range(3 if name == "calabresella" else 1):
        state = game.new_state(game.deal_random(np.random.default_rng(k), rules), rules)
        while not state.is_terminal():
            view = state.info_view(state.to_play)
            np.testing.assert_allclose(
                plain_bundle.action_probs(view), bot.action_probs(view), atol=1e-4
            )
            action = bundle.act(view, rng)
            assert action == bot.act(view, rng)
            state.apply(action)
            decisions += 1
    assert decisions > 60
    if name == "calabresella":  # the network gives about one a deal: some were moved
        assert bundle.moved > 0 and bundle.moved == bot.moved

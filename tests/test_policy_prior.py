"""The network's policy as a prior on the search's choice of card (``mazzo.agents.policy_prior``,
``ipimc``'s ``prior``): the rule ``value + weight * log p`` (weight 0: the search's choice; a
large weight: the network's among the searched cards; a card the network never plays floored),
the same values as the searcher's in whole deals of both games with the action the rule picks
and the searcher's own outside card play, the registry's per-game defaults, and bad weights
refused."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mazzo.agents.builtin import with_defaults
from mazzo.agents.outside_play import OutsidePlay, is_card_play
from mazzo.agents.params import Param
from mazzo.agents.policy_prior import FLOOR, PolicyPrior, prior_choice
from mazzo.agents.registry import make_agent
from mazzo.envs.registry import game_names, get_game


def test_the_rule_weighs_values_against_the_network():
    values = {3: 1.0, 7: 1.0, 9: 0.9}
    probs = np.zeros(10)
    probs[[3, 7, 9]] = [0.1, 0.3, 0.6]
    assert prior_choice(values, probs, 0.0) == 3  # the search's choice: the first best value
    assert prior_choice(values, probs, 0.01) == 7  # a tie broken by the network
    assert prior_choice(values, probs, 1.0) == 9  # the network's own card
    # 0.9 + 0.2 * log(0.6) = 0.798 against 1.0 + 0.2 * log(0.3) = 0.759
    assert prior_choice(values, probs, 0.2) == 9
    assert prior_choice(values, probs, 0.1) == 7
    never = np.zeros(10)
    never[9] = 1.0
    assert prior_choice({3: 5.0, 9: 0.0}, never, 0.1) == 3  # 5 + 0.1 log(1e-9) = 2.93 > 0
    assert math.isclose(0.1 * math.log(FLOOR), -2.0723, abs_tol=1e-4)


@pytest.mark.parametrize("game", game_names())
def test_in_whole_deals_the_values_are_the_searchers_and_the_rule_picks(game):
    g = get_game(game)
    rules = g.rules()
    searcher = make_agent("pimc:samples=6,ms=0", game)
    network = make_agent("bot", game)
    agent = PolicyPrior(searcher, network, 0.1)
    rng = np.random.default_rng(3)
    searched = changed = 0
    for d in range(3):
        state = g.new_state(g.deal_random(rng, rules, dealer=d % g.seats(rules)), rules)
        while not state.is_terminal():
            view = state.info_view(state.to_play)
            seed = int(rng.integers(1 << 30))
            action, values = agent.search(view, np.random.default_rng(seed))
            own, own_values = searcher.search(view, np.random.default_rng(seed))
            assert values == own_values
            if len(values) >= 2 and is_card_play(view):
                assert action == prior_choice(values, network.action_probs(view), 0.1)
                searched += 1
                changed += action != own
            else:
                assert action == own
            state.apply(action)
    assert searched > 10 and changed > 0


def test_ipimc_takes_each_games_measured_defaults_and_carries_the_networks_rules():
    minchiate = make_agent("ipimc", "minchiate")
    assert isinstance(minchiate, OutsidePlay) and isinstance(minchiate.player, PolicyPrior)
    assert minchiate.player.weight == 0.03 and minchiate.player.network is minchiate.other
    assert "samples=54" in minchiate.name and "pool=1,alpha=0" in minchiate.name
    calabresella = make_agent("ipimc", "calabresella")
    assert "prior=0.1" in calabresella.name and "pool=2" in calabresella.name
    alone = make_agent("ipimc:prior=0.2,others=own", "calabresella")
    assert isinstance(alone, PolicyPrior) and alone.trained_rules is not None
    assert not isinstance(make_agent("ipimc:prior=0", "calabresella"), PolicyPrior)
    with pytest.raises(ValueError, match="prior"):
        make_agent("ipimc:prior=-1", "minchiate")
    with pytest.raises(ValueError, match="weight must be >= 0"):
        PolicyPrior(make_agent("pimc", "minchiate"), None, float("nan"))


def test_per_game_defaults_name_known_parameters_in_range():
    params = (Param("samples", int, 64, "worlds", low=1),)
    assert with_defaults(params, {"samples": 8})[0].default == 8
    with pytest.raises(ValueError, match=r"no such parameter\(s\) \['sample'\]"):
        with_defaults(params, {"sample": 8})
    with pytest.raises(ValueError):
        with_defaults(params, {"samples": 0})


@pytest.mark.parametrize("game", game_names())
def test_the_networks_probabilities_run_on_its_own_threads(game, monkeypatch):
    """The prior's forward pass keeps to the agent's one thread, as its moves do: with the
    process's two OpenMP threads, two label workers on two cores ran 4x slower (measured)."""
    import torch

    g = get_game(game)
    rules = g.rules()
    network = make_agent("bot", game)
    state = g.new_state(g.deal_random(np.random.default_rng(1), rules, dealer=0), rules)
    seen: list[int] = []
    logits = network.net.logits

    def recording(obs, mask):
        seen.append(torch.get_num_threads())
        return logits(obs, mask)

    monkeypatch.setattr(network.net, "logits", recording)
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        probs = network.action_probs(state.info_view(state.to_play))
        network.act(state.info_view(state.to_play), np.random.default_rng(0))
        after = torch.get_num_threads()
    finally:
        torch.set_num_threads(before)
    assert seen == [1, 1] and after == 2
    assert probs.sum() == pytest.approx(1.0)

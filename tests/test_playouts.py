"""The network's playouts for decisions outside card play (``mazzo.agents.playouts``, ``ipimc``'s
``playouts``): each candidate's value is the mean return of the sampled worlds played out by the
network, the same as playing every world through one decision at a time; the decision is the
first best; in whole deals of both games only the phases named are searched (the rest as
before: the searcher's values in card play, the network's action elsewhere); the same seed gives
the same values; with ``playout_rivals=search`` the other seats' card play is the search's
perfect-information policy (and the values change); bad phase names, bad rivals and playouts
without the network are refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from mazzo.agents.outside_play import OutsidePlay, is_card_play
from mazzo.agents.playouts import parse_phases, playout_values
from mazzo.agents.registry import make_agent
from mazzo.envs.registry import game_names, get_game

SERVED = {"calabresella": "bid+call", "minchiate": "declare"}


def _first_served(game: str, agent: OutsidePlay, seed: int) -> object:
    """A view of the first decision of ``agent``'s playouts in a fresh deal of ``game``."""
    g = get_game(game)
    rules = g.rules()
    rng = np.random.default_rng(seed)
    for d in range(20):
        state = g.new_state(g.deal_random(rng, rules, dealer=d % g.seats(rules)), rules)
        while not state.is_terminal():
            view = state.info_view(state.to_play)
            if agent.playouts is not None and agent.playouts.serves(view):
                return view
            state.apply(agent.other.act(view, rng))
    raise AssertionError("no decision of the phases served in 20 deals")


def _one_at_a_time(view, legal, worlds, network, rival=None) -> list[float]:
    """Each action's mean return for ``view``'s seat over ``worlds``, every world played out
    one decision at a time: ``rival`` in the other seats' card play where given, else
    ``network``."""
    expected = []
    for action in legal:
        total = 0.0
        for world in worlds:
            state = world.clone()
            state.apply(action)
            while not state.is_terminal():
                if rival is not None and state.to_play != view.seat and state.phase.name == "PLAY":
                    state.apply(rival(state))
                else:
                    state.apply(network.act(state.info_view(state.to_play), None))
            total += float(state.returns()[view.seat])
        expected.append(total / len(worlds))
    return expected


@pytest.mark.parametrize("game", game_names())
def test_the_values_are_the_mean_returns_of_the_worlds_played_one_at_a_time(game):
    agent = make_agent(f"ipimc:samples=2,ms=0,playouts={SERVED[game]},playout_worlds=3", game)
    assert isinstance(agent, OutsidePlay) and agent.playouts is not None
    view = _first_served(game, agent, seed=11)
    rng = np.random.default_rng(5)
    worlds = [agent.playouts.sample_world(view, rng) for _ in range(3)]
    legal = [a for a in range(view.legal_mask.bit_length()) if view.legal_mask >> a & 1]
    values = playout_values(view, legal, worlds, agent.other)
    assert values == pytest.approx(_one_at_a_time(view, legal, worlds, agent.other))
    assert len(set(values)) > 1 or game == "minchiate"  # a contract is worth something
    action, searched = agent.search(view, np.random.default_rng(8))
    assert sorted(searched) == legal
    assert searched[action] == max(searched.values())
    assert action == min(a for a, v in searched.items() if v == max(searched.values()))
    again = agent.search(view, np.random.default_rng(8))
    assert again == (action, searched)


@pytest.mark.parametrize("game", game_names())
def test_in_whole_deals_only_the_phases_named_are_searched_by_playouts(game):
    g = get_game(game)
    rules = g.rules()
    agent = make_agent(f"ipimc:samples=2,ms=0,playouts={SERVED[game]},playout_worlds=2", game)
    plain = make_agent("ipimc:samples=2,ms=0", game)
    assert isinstance(agent, OutsidePlay) and agent.playouts is not None
    assert f"playouts={'+'.join(sorted(SERVED[game].split('+')))},worlds=2" in agent.name
    rng = np.random.default_rng(21)
    served = 0
    for d in range(2):
        state = g.new_state(g.deal_random(rng, rules, dealer=d % g.seats(rules)), rules)
        while not state.is_terminal():
            view = state.info_view(state.to_play)
            seed = int(rng.integers(1 << 30))
            action, values = agent.search(view, np.random.default_rng(seed))
            if agent.playouts.serves(view):
                served += 1
                assert len(values) == bin(view.legal_mask).count("1") >= 2
            else:
                assert (action, values) == plain.search(view, np.random.default_rng(seed))
                assert values == {} or is_card_play(view)
            state.apply(action)
    assert served >= 1


def test_bad_phases_and_playouts_without_the_network_are_refused_by_name():
    assert parse_phases("BID+call", ["bid", "call", "play", "done"]) == {"bid", "call"}
    assert parse_phases("", ["bid"]) == frozenset()
    with pytest.raises(ValueError, match=r"playouts='bid\+play': 'play' is no decision"):
        parse_phases("bid+play", ["bid", "play", "done"])
    with pytest.raises(ValueError, match=r"'auction'.*among bid, call, div_discard"):
        make_agent("ipimc:playouts=auction", "calabresella")
    with pytest.raises(ValueError, match="needs others=bot"):
        make_agent("ipimc:playouts=bid,others=own", "calabresella")
    with pytest.raises(ValueError, match="playout_worlds"):
        make_agent("ipimc:playouts=bid,playout_worlds=0", "calabresella")


def test_rivals_that_see_every_card_play_the_other_seats_cards_and_only_those():
    agent = make_agent(
        "ipimc:samples=2,ms=0,playouts=bid,playout_worlds=2,playout_rivals=search", "calabresella"
    )
    assert isinstance(agent, OutsidePlay) and agent.playouts is not None
    assert agent.name.endswith("playouts=bid,worlds=2,rivals=search")
    view = _first_served("calabresella", agent, seed=4)
    worlds = [agent.playouts.sample_world(view, np.random.default_rng(i)) for i in range(2)]
    legal = [a for a in range(view.legal_mask.bit_length()) if view.legal_mask >> a & 1]
    rival = agent.playouts.rival
    assert rival is not None
    values = playout_values(view, legal, worlds, agent.other, rival)
    assert values == pytest.approx(_one_at_a_time(view, legal, worlds, agent.other, rival))
    assert values != pytest.approx(playout_values(view, legal, worlds, agent.other))
    with pytest.raises(
        ValueError, match=r"playout_rivals=oracle.*not an allowed choice.*one of net\|search"
    ):
        make_agent("ipimc:playouts=bid,playout_rivals=oracle", "calabresella")

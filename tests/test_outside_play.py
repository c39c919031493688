"""``others=bot`` on ``pimc`` and ``ipimc`` (``mazzo.agents.outside_play``): the search plays the
cards and the shipped network takes every other decision, exactly as each would alone; the
network's rules travel with it (the arena refuses foreign rules as it does for the bot); the
searcher's ``search`` reports card play with its values and the rest unsearched."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from mazzo.agents.builtin import SEARCH_BOT
from mazzo.agents.outside_play import is_card_play
from mazzo.agents.registry import make_agent
from mazzo.agents.trained_rules import ForeignRules, trained_rules
from mazzo.arena.runner import make_plan
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game

GAMES = ("calabresella", "minchiate")


@pytest.mark.parametrize("game_name", GAMES)
def test_the_search_plays_the_cards_and_the_bot_takes_the_rest(game_name: str) -> None:
    game = get_game(game_name)
    rules = game.rules({})
    both = make_agent("pimc:others=bot,samples=4,ms=0", game)
    pimc = make_agent("pimc:samples=4,ms=0", game)
    bot = make_agent(SEARCH_BOT, game)  # the shipped network the searches use
    seen = {"play": 0, "other": 0}
    for d in range(2):
        rng = np.random.default_rng([11, d])
        state: Any = game.new_state(game.deal_random(rng, rules), rules)
        while not state.is_terminal():
            view = state.info_view(state.to_play)
            alone = pimc if is_card_play(view) else bot
            seen["play" if alone is pimc else "other"] += 1
            a = both.act(view, np.random.default_rng(d))
            assert a == alone.act(view, np.random.default_rng(d))
            state.apply(a)
    assert seen["play"] > 0 and seen["other"] > 0  # both kinds of decision were met


def test_the_option_names_itself_and_keeps_the_bots_rules() -> None:
    game = get_game("calabresella")
    both = make_agent("ipimc:others=bot", game)
    assert both.name.endswith(",others=bot") and both.name.startswith("ipimc:")
    assert trained_rules(both) == game.rules()
    assert trained_rules(make_agent("pimc:others=own", game)) is None
    assert make_agent("pimc:others=own", game).name == make_agent("pimc", game).name
    deals = generate_deals(game, game.rules({"players": 4}), 2, seed=0)
    with pytest.raises(ForeignRules, match=r"players 3 \(trained\) vs 4 \(here\)"):
        make_plan(deals, ["pimc:others=bot", "heuristic"])
    make_plan(deals, ["pimc", "heuristic"])  # the search alone plays any rules


def test_a_bad_choice_names_the_allowed_ones() -> None:
    with pytest.raises(ValueError, match=r"'others=net': not an allowed choice.*own\|bot"):
        make_agent("pimc:others=net", "minchiate")


@pytest.mark.parametrize("game_name", GAMES)
def test_search_reports_card_play_with_values_and_the_rest_unsearched(game_name: str) -> None:
    game = get_game(game_name)
    rules = game.rules({})
    both: Any = make_agent("pimc:others=bot,samples=4,ms=0", game)
    rng = np.random.default_rng(5)
    state: Any = game.new_state(game.deal_random(rng, rules), rules)
    searched = unsearched = 0
    while not state.is_terminal():
        view = state.info_view(state.to_play)
        action, values = both.search(view, np.random.default_rng(1))
        assert action == both.act(view, np.random.default_rng(1))
        if not is_card_play(view):
            assert values == {}
            unsearched += 1
        elif values:
            assert action in values and values[action] == max(values.values())
            searched += 1
        state.apply(action)
    assert searched > 0 and unsearched > 0


def test_own_phases_are_the_searchs_own_the_rest_the_networks() -> None:
    """``own_phases=call+return+solo_discard``: those decisions are the search's own (as with
    ``others=own``: the same action and values from the same generator), the bids the
    network's, unsearched."""
    game = get_game("calabresella")
    rules = game.rules({})
    own = ("call", "return", "solo_discard")
    mixed = make_agent(f"ipimc:samples=4,ms=0,own_phases={'+'.join(own)}", game)
    alone = make_agent("ipimc:samples=4,ms=0,others=own", game)
    bot = make_agent(SEARCH_BOT, game)
    assert mixed.name.endswith(",others=bot,own_phases=call+return+solo_discard")
    seen = dict.fromkeys(own, 0) | {"bid": 0}
    for d in range(12):
        state: Any = game.new_state(game.deal_random(np.random.default_rng([5, d]), rules), rules)
        while not state.is_terminal():
            view = state.info_view(state.to_play)
            phase = view.phase.name.lower()
            if phase == "play":
                state.apply(bot.act(view, np.random.default_rng(0)))
                continue
            action, values = mixed.search(view, np.random.default_rng(d))
            if phase in own:
                assert (action, values) == alone.search(view, np.random.default_rng(d))
                seen[phase] += len(values) > 1
            else:
                assert (action, values) == (bot.act(view, np.random.default_rng(d)), {})
                seen["bid"] += phase == "bid"
            state.apply(action)
    assert all(seen.values()), seen  # every kind met, the own ones searched


def test_own_phases_refusals_name_the_problem() -> None:
    with pytest.raises(ValueError, match=r"own_phases='deal'.*among bid, call"):
        make_agent("ipimc:own_phases=deal", "calabresella")
    with pytest.raises(ValueError, match=r"needs others=bot"):
        make_agent("ipimc:others=own,own_phases=call", "calabresella")
    with pytest.raises(ValueError, match=r"call in both 'playouts=bid\+call'"):
        make_agent("ipimc:own_phases=call,playouts=bid+call", "calabresella")

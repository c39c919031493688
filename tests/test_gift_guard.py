"""The sure-gift guard (``gifts=avoid``, ``mazzo.agents.gift_guard``) and the game query it reads
(``Game.closing_side``): the query against the engine itself over random playouts of both games
and their seatings, the guard's games free of the study's sure gifts where the network's own are
not, every other decision the network's, and the spec parameter."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from mazzo.agents.gift_guard import GiftGuard
from mazzo.agents.registry import make_agent
from mazzo.arena.gifts import play_deal
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.deck import counter_values
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game

CASES = [
    ("calabresella", {}),
    ("calabresella", {"players": 4}),
    ("calabresella", {"players": 2}),
    ("minchiate", {}),
]


def _engine_side(game: str, state: Any, action: int) -> int:
    """The engine's answer: apply the card to a copy and read who took the trick."""
    probe = state.clone()
    closed = len(probe.tricks)
    probe.apply(action)
    if len(probe.tricks) == closed:
        return 0
    if game == "calabresella":  # positions: the soloist against the defenders
        winner, me, sol = probe.position_tricks[-1][2], state.pos, state.soloist
        return 1 if (winner == sol) == (me == sol) else -1
    return 1 if (probe.tricks[-1][2] - state.to_play) % 2 == 0 else -1


@pytest.mark.parametrize(("name", "flags"), CASES)
def test_closing_side_is_the_engines_trick_winner_for_every_legal_card(name, flags):
    game = get_game(name)
    rules = game.rules(flags)
    rng = np.random.default_rng(5)
    checked = {1: 0, -1: 0, 0: 0}
    for deal in generate_deals(game, rules, 12, 41).deals:
        state = game.new_state(deal, rules)
        while not state.is_terminal():
            view = state.info_view(state.to_play)
            legal = state.legal_actions()
            for a in legal:
                got = game.closing_side(view, a)
                assert got == _engine_side(name, state, a), (state.action_label(a), got)
                checked[got] += 1
            state.apply(legal[int(rng.integers(len(legal)))])
    assert checked[1] > 50 and checked[-1] > 50 and checked[0] > 500, checked


@pytest.mark.parametrize(("name", "n"), [("calabresella", 40), ("minchiate", 6)])
def test_the_guarded_bot_makes_no_sure_gift_and_otherwise_plays_as_the_network(name, n):
    game = get_game(name)
    rules = game.rules({})
    plain = make_agent("bot:gifts=keep", game, rules)
    guarded = make_agent("bot", game, rules)
    assert isinstance(guarded, GiftGuard) and not isinstance(plain, GiftGuard)
    values = counter_values(game.info.deck)
    deals = list(generate_deals(game, rules, n, 4242).deals)
    if name == "minchiate":  # the v7 bot gives few: the deals where it gives one
        deals = [
            d for d in generate_deals(game, rules, 200, 4242).deals if _gifts(game, rules, d, plain)
        ][:n]
        assert len(deals) == n
    gifts_plain = gifts_guarded = moved = 0
    for deal in deals:
        gifts_plain += _gifts(game, rules, deal, plain)
        rng = np.random.default_rng(0)

        def choose(state: Any, rng: np.random.Generator = rng) -> int:
            nonlocal moved
            view = state.info_view(state.to_play)
            own = int(plain.act(view, rng))
            taken = int(guarded.act(view, rng))
            if taken != own:  # only a sure gift moves, to the network's likeliest blank card
                moved += 1
                assert values[own] and game.closing_side(view, own) == -1
                probs = plain.action_probs(view)
                blanks = [a for a in bit_list(view.legal_mask) if not values[a]]
                assert taken in blanks and probs[taken] == max(probs[a] for a in blanks)
            return taken

        gifts_guarded += len(play_deal(game, game.new_state(deal, rules), choose).sure_gifts())
    assert gifts_guarded == 0
    assert gifts_plain >= n and moved >= n // 2, (gifts_plain, moved)


def _gifts(game: Any, rules: Any, deal: Any, agent: Any) -> int:
    rng = np.random.default_rng(0)

    def choose(state: Any) -> int:
        return int(agent.act(state.info_view(state.to_play), rng))

    return len(play_deal(game, game.new_state(deal, rules), choose).sure_gifts())


def test_the_gifts_parameter_defaults_and_refusals():
    game = get_game("calabresella")
    assert isinstance(make_agent("bot", game), GiftGuard)
    assert isinstance(make_agent("bot", game, game.rules({"players": 4})), GiftGuard)
    assert isinstance(make_agent("bot:level=1", game), GiftGuard)
    assert not isinstance(make_agent("bot:gifts=keep", game, game.rules({"players": 4})), GiftGuard)
    assert not isinstance(make_agent("nn:checkpoints/calabresella", game), GiftGuard)
    assert isinstance(make_agent("nn:checkpoints/calabresella,gifts=avoid", game), GiftGuard)
    with pytest.raises(ValueError, match=r"'gifts=never'.*keep\|avoid"):
        make_agent("bot:gifts=never", game)

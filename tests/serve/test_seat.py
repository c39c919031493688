"""Seat sessions over the server: a client refereeing a random deal of every game plays one
seat through ``deal``, ``event``, ``reveal`` and ``go`` (the bot's moves are legal, its view is
the seat's true VIEW at every step), ``legal`` answers the true labels, the shipped bot gives
probabilities over the legal actions, and bad or impossible input gets its error code and
changes nothing."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from agents.trackers import tracker_for
from envs.registry import Game, all_games
from training.serve.bots import Bots
from training.serve.server import Server
from training.serve.views import view_json

from .helpers import Direct, make_server
from .referee import owed as owed_by_protocol

GAMES = all_games()
_SHIPPED: list[Bots] = []


def shipped_bots() -> Bots:
    """The shipped bots (built once: loading the networks takes a while)."""
    if not _SHIPPED:
        _SHIPPED.append(Bots([("bot", "bot"), ("heuristic", "heuristic")]))
    return _SHIPPED[0]


def open_seat(client: Direct, game: Game, seat: int, bot: str = "heuristic", **more: Any) -> str:
    opened = client.one({"type": "open", "mode": "seat", "game": game.name, "seat": seat,
                         "bot": bot, "seed": 3, **more})  # fmt: skip
    assert opened["type"] == "opened" and opened["seat"] == seat, opened
    return str(opened["game"])


def referee(client: Direct, game: Game, seed: int, seat: int, probs: bool = False) -> int:
    """Referee one deal in which the server plays ``seat``; returns the bot's moves. The
    reveals follow docs/protocol.md's tables (``tests.serve.reveals``, checked against the
    production ``reveal_of``)."""
    rules = game.rules({})
    state = game.new_state(game.deal_random(np.random.default_rng(seed), rules), rules)
    entry = tracker_for(game)
    gid = open_seat(client, game, seat, "bot" if probs else "heuristic")
    ack = client.one({"type": "deal", "game": gid, "dealer": state.dealer,
                      "private": entry.private_of(state, seat)})  # fmt: skip
    first = owed_by_protocol(game, entry.reveal_of, None, None, state, seat)
    assert ack["type"] == "tracked" and set(ack["due"]) <= set(first), ack
    if first:
        assert client.one({"type": "reveal", "game": gid, **first})["due"] == []
    rng, moves = random.Random(seed), 0
    while not state.is_terminal():
        view = client.one({"type": "view", "game": gid})
        assert view["view"] == view_json(game, state.info_view(seat), state.action_label)
        legal = [state.action_label(a) for a in state.legal_actions()]
        if state.to_play == seat:
            assert client.one({"type": "legal", "game": gid})["legal"] == legal
            move = client.one({"type": "go", "game": gid, "probs": probs})
            assert move["type"] == "move" and move["action"] in legal, move
            if probs:
                assert set(move["probs"]) == set(legal)
                assert abs(sum(move["probs"].values()) - 1) < 1e-4
            action = state.parse_action(move["action"])
            moves += 1
        else:
            action = rng.choice(state.legal_actions())
        before = state.clone()
        verb, arg = game.vocabulary.to_triple(state.action_label(action))
        shown = game.action_is_visible(state, action, seat)
        state.apply(action)
        ack = client.one({"type": "event", "game": gid, "seat": before.to_play, "verb": verb,
                          "arg": arg if shown else None})  # fmt: skip
        owed = owed_by_protocol(game, entry.reveal_of, before, action, state, seat)
        assert ack["type"] == "tracked" and set(ack["due"]) <= set(owed), (ack, owed)
        if owed:
            ack = client.one({"type": "reveal", "game": gid, **owed})
            assert ack["due"] == [], ack
    assert ack["over"] and ack["to_play"] == -1 and ack["due"] == []
    assert client.one({"type": "go", "game": gid})["code"] == "over"
    assert client.one({"type": "close", "game": gid})["type"] == "closed"
    return moves


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_seat_session_plays_whole_deals(game: Game) -> None:
    client = Direct(make_server())
    moves = sum(referee(client, game, 1, seat) for seat in range(game.seats(game.rules({}))))
    assert moves > 10


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_shipped_bot_gives_probabilities_over_the_legal_actions(game: Game) -> None:
    assert referee(Direct(Server(shipped_bots())), game, 5, 0, probs=True) > 0


def test_bots_without_probabilities_answer_without_them() -> None:
    client = Direct(make_server())
    game = GAMES[0]
    rules = game.rules({})
    for seed in range(20):
        state = game.new_state(game.deal_random(np.random.default_rng(seed), rules), rules)
        if state.to_play == 0 and not tracker_for(game).reveal_of(None, None, state, 0):
            break
    gid = open_seat(client, game, 0, "random")
    client.one({"type": "deal", "game": gid, "dealer": state.dealer,
                "private": tracker_for(game).private_of(state, 0)})  # fmt: skip
    move = client.one({"type": "go", "game": gid, "probs": True})
    assert move["type"] == "move" and "probs" not in move


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_bad_and_impossible_input_gets_its_code_and_changes_nothing(game: Game) -> None:
    client = Direct(make_server())
    rules = game.rules({})
    state = game.new_state(game.deal_random(np.random.default_rng(9), rules), rules)
    entry = tracker_for(game)
    seat = (state.to_play + 1) % game.seats(rules)
    gid = open_seat(client, game, seat)
    assert client.one({"type": "go", "game": gid})["code"] == "bad_field"  # no deal yet
    private = entry.private_of(state, seat)
    broken = {k: (v[1:] if isinstance(v, list) and k.startswith("hand") else v)
              for k, v in private.items()}  # fmt: skip
    bad = client.one({"type": "deal", "game": gid, "dealer": state.dealer, "private": broken})
    assert bad["code"] == "bad_field" and "must" in bad["message"], bad
    client.one({"type": "deal", "game": gid, "dealer": state.dealer, "private": private})
    first = entry.reveal_of(None, None, state, seat)
    if first:
        client.one({"type": "reveal", "game": gid, **first})
    view = client.one({"type": "view", "game": gid})
    out_of_turn = {"type": "event", "game": gid, "seat": seat, "verb": "play", "arg": None}
    assert client.one(out_of_turn)["code"] == "impossible"
    assert client.one({"type": "go", "game": gid})["code"] == "not_your_turn"
    later = _a_later_reveal(state, seat, entry)  # well formed, but not due now
    assert client.one({"type": "reveal", "game": gid, **later})["code"] == "impossible"
    unknown = client.one({"type": "reveal", "game": gid, "nonsense": 1})
    assert unknown["code"] == "bad_field"
    assert client.one({"type": "view", "game": gid}) == view
    assert client.one({"type": "move", "game": gid, "action": "pass"})["code"] == "unknown_type"
    again = client.one({"type": "deal", "game": gid, "dealer": state.dealer, "private": private})
    assert again["code"] == "bad_field"
    wrong = client.one(
        {"type": "open", "mode": "seat", "game": game.name, "seat": 9, "bot": "random"}
    )
    assert wrong["code"] == "bad_field"
    nobot = client.one({"type": "open", "mode": "seat", "game": game.name, "seat": 0, "bot": "zz"})
    assert nobot["code"] == "unknown_bot"


def _a_later_reveal(state: Any, seat: int, entry: Any) -> dict[str, Any]:
    """The first reveal ``seat`` is owed later in random continuations of ``state``."""
    rng = random.Random(0)
    while True:
        world = state.clone()
        while not world.is_terminal():
            before, action = world.clone(), rng.choice(world.legal_actions())
            world.apply(action)
            owed: dict[str, Any] = entry.reveal_of(before, action, world, seat)
            if owed:
                return owed

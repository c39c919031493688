"""Table sessions through the ``Server`` object: whole deals of every game and variant, the
events against the record, hidden cards, seeds and deal records, and every client error,
each leaving another open game as it was."""

import json

import numpy as np
import pytest

from mazzo.envs.registry import all_games, get_game
from mazzo.serve.table import CLIENT
from tests.serve.helpers import Direct, last, make_server, play_out, table

VARIANTS = [
    ("calabresella", {}),
    ("calabresella", {"players": 4}),
    ("calabresella", {"players": 2}),
    ("calabresella", {"chiamo_monte_exposed": True, "chiamo_return_public": True}),
    ("calabresella", {"aperta": True}),
    ("minchiate", {}),
    ("minchiate", {"matto_payment": "agent", "declarations": "agent"}),
]


def seats_for(game, flags, client_seats):
    n = game.seats(game.rules(flags))
    return [CLIENT if s in client_seats else ("heuristic" if s % 2 else "random") for s in range(n)]


def check_deal(game, flags, messages, clients):
    """The pushes agree with the end's record: steps, seats, verbs, visible args, the result."""
    end = messages[-1]
    assert end["type"] == "end"
    record = end["record"]
    state = game.replay(record, None)
    assert state.is_terminal() and state.result() == end["result"]
    assert list(state.returns()) == end["returns"]
    events = [m for m in messages if m["type"] == "event"]
    assert [e["step"] for e in events] == list(range(len(record["actions"])))
    seq = game.new_state(state.deal, state.rules)
    for event, (token, verb, arg) in zip(events, record["actions"], strict=True):
        assert (f"S{event['seat']}", event["verb"]) == (token, verb)
        action = seq.parse_action(game.vocabulary.to_label(verb, str(arg)))
        if clients:  # shown where any client seat sees it; with no client, where all do
            seen = any(game.action_is_visible(seq, action, s) for s in clients)
        else:
            seen = all(game.action_is_visible(seq, action, s) for s in range(len(end["returns"])))
        assert event["arg"] == (arg if seen else None)
        seq.apply(action)
    for turn in (m for m in messages if m["type"] == "turn"):
        assert turn["seat"] in clients and turn["legal"] == turn["view"]["legal"]
        assert turn["view"]["seat"] == turn["seat"] == turn["view"]["to_play"]


@pytest.mark.parametrize(("name", "flags"), VARIANTS, ids=lambda v: str(v))
def test_whole_deals_with_a_client_seat(name, flags):
    game = get_game(name)
    client = Direct(make_server())
    for seed in range(3):
        clients = (seed % game.seats(game.rules(flags)),)
        out = client.send(table(name, seats_for(game, flags, clients), seed, flags=flags))
        opened = out[0]
        assert opened["type"] == "opened" and opened["name"] == name
        assert opened["flags"] == json.loads(json.dumps(opened["flags"]))
        assert game.rules(opened["flags"]) == game.rules(flags)
        messages = play_out(client, out, seed)
        check_deal(game, flags, messages, clients)
        assert client.server.open_games == 0


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_all_bot_tables_show_only_public_cards(game):
    client = Direct(make_server())
    n = game.seats(game.rules())
    out = client.send(table(game.name, ["heuristic"] * n, 5))
    assert out[0]["type"] == "opened" and out[-1]["type"] == "end"
    check_deal(game, {}, out, ())
    hidden = [e for e in out if e["type"] == "event" and e["arg"] is None]
    assert all(e["verb"] in ("discard", "return") for e in hidden)


def test_two_client_seats_move_in_turn_and_seat_is_checked():
    client = Direct(make_server())
    out = client.send(table("minchiate", [CLIENT, "heuristic", CLIENT, "heuristic"], 2))
    turn = last(out)
    other = 2 if turn["seat"] == 0 else 0
    err = client.one(
        {"type": "move", "game": turn["game"], "action": turn["legal"][0], "seat": other}
    )
    assert err["code"] == "not_your_turn" and f"S{turn['seat']} is to play" in err["message"]
    messages = play_out(client, out, 2)
    check_deal(get_game("minchiate"), {}, messages, (0, 2))


def test_the_same_seed_and_moves_give_the_same_deal():
    records = []
    for _ in range(2):
        client = Direct(make_server())
        out = client.send(table("calabresella", [CLIENT, "heuristic", "random"], 11))
        records.append(play_out(client, out, 4)[-1]["record"])
    assert records[0] == records[1]


def test_a_deal_record_is_dealt_afresh():
    game = get_game("minchiate")
    rules = game.rules()
    deal = game.deal_random(np.random.default_rng(3), rules)
    state = game.new_state(deal, rules)
    state.apply(state.legal_actions()[0])
    record = game.write_record(state)
    client = Direct(make_server())
    out = client.send(table("minchiate", ["heuristic"] * 4, deal=record))
    assert out[0]["dealer"] == deal.dealer
    end = out[-1]["record"]
    assert (end["dealer"], end["stream"]) == (record["dealer"], record["stream"])
    bad = client.one(table("minchiate", ["heuristic"] * 4, deal={"format": "nope"}))
    assert bad["code"] == "bad_field" and "bad 'deal' record" in bad["message"]
    clash = client.one(table("minchiate", ["heuristic"] * 4, deal=record, flags={"rob_cap": 4}))
    assert clash["code"] == "bad_field" and "differ" in clash["message"]


# ---------------------------------------------------------------------------------- errors
@pytest.fixture
def two_games():
    """A client with one game at a client turn, the other game's moves so far, and a checker
    that the first game still plays correctly to its end."""
    client = Direct(make_server(max_games=3, max_server_games=5))
    out = client.send(table("calabresella", [CLIENT, "heuristic", "heuristic"], 7))
    return client, out


def finish(client, out):
    game = get_game("calabresella")
    messages = play_out(client, out, 1)
    check_deal(game, {}, messages, (0,))


@pytest.mark.parametrize(
    ("message", "code", "words"),
    [
        ("{oops", "bad_json", "not valid JSON"),
        ("[]", "not_object", "list"),
        ({"type": "shout"}, "unknown_type", "'shout'"),
        ({"type": "hello", "protocol": "uci"}, "bad_version", "'uci'"),
        ({"type": "move", "game": "g1"}, "bad_field", "missing field 'action'"),
        ({"type": "move", "game": "g1", "action": 3}, "bad_field", "'action' must be a string"),
        (
            table("skat", ["client"] * 3),
            "unknown_game",
            "unknown game 'skat'; games: calabresella, minchiate",
        ),
        (
            table("calabresella", ["client", "heuristic", "deep_blue"]),
            "unknown_bot",
            "'deep_blue'; bots: heuristic, random",
        ),
        (table("calabresella", ["client", "heuristic"]), "bad_field", "must list 3 seats"),
        (table("calabresella", ["client", "heuristic", 3]), "bad_field", "must list 3 seats"),
        (table("calabresella", ["client"] * 3, flags={"players": 5}), "bad_flags", "players"),
        (
            table("calabresella", ["client"] * 3, flags={"jokers": True}),
            "bad_flags",
            "unknown calabresella flag 'jokers'",
        ),
        (
            table("calabresella", ["client"] * 3, seed=-1),
            "bad_field",
            "'seed' must be an integer >= 0",
        ),
        (
            table("calabresella", ["client"] * 3, bot="heuristic"),
            "bad_field",
            "does not take 'bot'",
        ),
        (
            {"type": "open", "mode": "spectate", "game": "calabresella"},
            "bad_field",
            "unknown mode 'spectate'",
        ),
        ({"type": "move", "game": "g99", "action": "pass"}, "unknown_session", "no game 'g99'"),
        ({"type": "view", "game": "g1", "seat": 1}, "bad_field", "seat 1 is not a client seat"),
        ({"type": "move", "game": "g1", "action": "play Ac"}, "illegal", "legal: pass, bid chiamo"),
        ({"type": "move", "game": "g1", "action": "fold"}, "illegal", "'fold'"),
        (
            {"type": "move", "game": "g1", "action": "pass", "seat": 1},
            "not_your_turn",
            "move for S1",
        ),
        ({"type": "deal", "game": "g1", "dealer": 0, "private": {}}, "unknown_type", "'deal'"),
    ],
)
def test_client_errors_leave_the_other_game_as_it_was(two_games, message, code, words, caplog):
    caplog.set_level("INFO", logger="mazzo.serve")
    client, out = two_games
    before = client.one({"type": "view", "game": "g1"})
    reply = client.send({**message, "id": "e1"} if isinstance(message, dict) else message)
    assert len(reply) == 1 and reply[0]["type"] == "error", reply
    assert reply[0]["code"] == code and words in reply[0]["message"], reply[0]
    if isinstance(message, dict):
        assert reply[0]["id"] == "e1"
    if code == "illegal":
        assert reply[0]["legal"] == last(out)["legal"] and reply[0]["game"] == "g1"
    assert f"connection 1: {code}: " in caplog.text  # logged
    assert client.one({"type": "view", "game": "g1"}) == before
    assert client.conn.closing is None
    finish(client, out)


def test_an_error_about_a_malformed_message_names_the_open_game_it_concerns(two_games):
    """docs/protocol.md: ``game`` is present when the error concerns a game, a malformed
    message about an open (or finished) game included; an ``open``'s ``game`` is a game's name,
    not an id, and a message naming no game of the connection gets none."""
    client, out = two_games
    about_g1 = [
        {"type": "move", "game": "g1", "acton": "pass"},  # a misspelled field
        {"type": "move", "game": "g1"},  # a missing action
        {"type": "move", "game": "g1", "action": 3},
        {"game": "g1", "action": "pass"},  # no type
        {"type": "shout", "game": "g1"},
        {"type": "view", "game": "g1", "protocol": "mazzo-bot/2"},
    ]
    for message in about_g1:
        reply = client.one(message)
        assert reply["type"] == "error" and reply["game"] == "g1", (message, reply)
    for message in [
        {"type": "move", "game": "g99", "acton": "pass"},
        {"type": "open", "mode": "table", "game": "g1", "seets": []},
        {"type": "hello", "nonsense": 1},
    ]:
        reply = client.one(message)
        assert reply["type"] == "error" and "game" not in reply, (message, reply)
    finish(client, out)


def test_ids_come_back_on_every_answer(two_games):
    client, _ = two_games
    reply = client.send({"type": "move", "game": "g1", "action": "pass", "id": 42})
    assert reply and all(m["id"] == 42 for m in reply)
    assert client.one({"type": "hello", "id": "h"})["id"] == "h"
    assert client.one({"type": "shout", "id": "s"})["id"] == "s"


def test_too_many_games_per_connection_and_per_server(two_games):
    client, out = two_games
    for _ in range(2):
        assert (
            client.send(table("minchiate", [CLIENT, "random", "random", "random"]))[0]["type"]
            == "opened"
        )
    refused = client.one(table("minchiate", [CLIENT, "random", "random", "random"]))
    assert refused["code"] == "too_many_games" and "limit of 3 open games" in refused["message"]
    other = Direct(client.server, "other")
    assert (
        other.send(table("minchiate", [CLIENT, "random", "random", "random"]))[0]["type"]
        == "opened"
    )
    assert (
        other.send(table("minchiate", [CLIENT, "random", "random", "random"]))[0]["type"]
        == "opened"
    )
    full = other.one(table("minchiate", [CLIENT, "random", "random", "random"]))
    assert full["code"] == "too_many_games" and "server holds its limit of 5" in full["message"]
    assert client.one({"type": "close", "game": "g2"}) == {"type": "closed", "game": "g2"}
    assert (
        other.send(table("minchiate", [CLIENT, "random", "random", "random"]))[0]["type"]
        == "opened"
    )
    finish(client, out)


def test_finished_games_answer_over_and_count_against_no_limit(two_games):
    client, out = two_games
    finish(client, out)
    assert client.server.open_games == 0
    over = client.one({"type": "move", "game": "g1", "action": "pass"})
    assert over["code"] == "over" and over["game"] == "g1"
    assert client.one({"type": "legal", "game": "g1"})["legal"] == []
    assert client.one({"type": "view", "game": "g1"})["view"]["to_play"] == -1
    for _ in range(2):  # max_games = 3 finished games are kept
        assert client.send(table("calabresella", ["random"] * 3))[-1]["type"] == "end"
    assert client.server.open_games == 0
    assert client.one({"type": "legal", "game": "g1"})["type"] == "legal"
    assert client.one({"type": "close", "game": "g2"})["type"] == "closed"
    assert client.one({"type": "view", "game": "g2"})["code"] == "unknown_session"
    for _ in range(3):
        client.send(table("calabresella", ["random"] * 3))
    assert client.one({"type": "legal", "game": "g1"})["code"] == "unknown_session"


def test_a_bot_that_fails_closes_only_its_game(two_games, monkeypatch, caplog):
    client, out = two_games
    bot = client.server.bots.get("minchiate", "random")

    def broken(view, rng):
        raise RuntimeError("boom")

    opened = client.send(table("minchiate", [CLIENT, "random", "random", "random"], 1))
    gid = opened[0]["game"]
    turn = last(opened)
    monkeypatch.setattr(bot, "act", broken)
    reply = client.one({"type": "move", "game": gid, "action": turn["legal"][0]})
    assert reply["code"] == "internal" and reply["game"] == gid
    assert "boom" in caplog.text and "Traceback" in caplog.text
    assert client.one({"type": "legal", "game": gid})["code"] == "unknown_session"
    assert client.server.open_games == 1
    finish(client, out)


def test_hello_and_bots():
    client = Direct(make_server(max_games=3))
    hello = client.one({"type": "hello", "protocol": "mazzo-bot/1"})
    assert hello["protocol"] == "mazzo-bot/1" and hello["limits"]["max_games"] == 3
    for game in all_games():
        info = hello["games"][game.name]
        assert info["seats"] == game.seats(game.rules())
        assert game.rules(info["flags"]) == game.rules()
        assert info["num_actions"] == game.info.num_actions
        assert hello["bots"][game.name] == ["heuristic", "random"]
    bots = client.one({"type": "bots"})["bots"]
    assert {b["name"]: b["spec"] for b in bots[all_games()[0].name]} == {
        "heuristic": "heuristic",
        "random": "random",
    }


def test_disconnect_drops_the_connections_games():
    server = make_server()
    a, b = Direct(server, "a"), Direct(server, "b")
    a.send(table("calabresella", [CLIENT, "random", "random"]))
    out = b.send(table("calabresella", [CLIENT, "heuristic", "heuristic"], 7))
    assert server.open_games == 2 and server.connections == 2
    server.disconnect(a.conn, "test")
    assert server.open_games == 1 and server.connections == 1
    finish(b, out)


def test_a_game_opened_after_its_client_left_is_not_kept():
    server = make_server()
    client = Direct(server)
    server.disconnect(client.conn, "gone")
    out = client.send(table("calabresella", [CLIENT, "random", "random"]))
    assert out[0]["type"] == "opened" and out[-1]["type"] == "turn"
    assert server.open_games == 0 and not client.conn.sessions


def test_too_many_connections():
    server = make_server(max_connections=1)
    Direct(server)
    with pytest.raises(Exception) as e:
        server.connect("late")
    assert getattr(e.value, "code", None) == "too_many_connections"


@pytest.mark.parametrize(
    ("name", "words"),
    [("calabresella", "must follow suit"), ("minchiate", "must follow suit")],
)
def test_an_illegal_card_gets_the_engines_reason(name, words):
    """A held card that may not be played (the led suit is held) is refused as ``illegal`` with
    ``why``: the rule in the engine's words, also in the message; the deal is unchanged."""
    from mazzo.serve.bots import Bots
    from mazzo.serve.protocol import ProtocolError
    from mazzo.serve.table import open_table

    game = get_game(name)
    seats = [CLIENT] + ["heuristic"] * (game.seats(game.rules({})) - 1)
    bots = Bots([("heuristic", "heuristic")])
    for seed in range(40):
        message = {"type": "open", "mode": "table", "game": name, "seats": seats, "seed": seed}
        session, pushes = open_table("g1", message, bots)
        while pushes[-1]["type"] == "turn":
            turn = pushes[-1]
            view, legal = turn["view"], turn["legal"]
            held = [f"play {c}" for c in view.get("hand", [])]
            wrong = [lb for lb in held if lb not in legal]
            if view["phase"] == "play" and wrong and all(lb.startswith("play ") for lb in legal):
                before = session.view(0)
                with pytest.raises(ProtocolError) as err:
                    session.move(wrong[0])
                e = err.value
                assert e.code == "illegal" and words in e.extra["why"], e.extra
                assert f"not legal now ({e.extra['why']})" in e.message
                assert e.extra["legal"] == legal
                assert session.view(0) == before
                return
            pushes = session.move(legal[0])
    pytest.fail(f"no {name} deal of 40 gave the client a card it may not play")

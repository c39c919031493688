"""docs/protocol.md's ``foreign_rules`` statements, exactly: the message's shape (the flags in
name order, values as a ``--flag`` writes them, both ways to let the bot play them named), and
the note a server that lets it play logs (WARNING, logger ``mazzo.serve``, its wording)."""

import logging

from mazzo.serve.bots import Bots
from mazzo.serve.protocol import Limits
from mazzo.serve.server import Server

from .helpers import Direct, table

FLAGS = {"players": 4, "aperta": True}


def test_the_refusal_names_each_flag_in_name_order_and_both_ways_to_allow_it():
    client = Direct(Server(Bots([("bot", "bot")]), Limits()))
    err = client.one(table("calabresella", ["client", "bot", "bot", "bot"], flags=FLAGS))
    assert err["type"] == "error" and err["code"] == "foreign_rules", err
    assert err["message"] == (
        "open: bot 'bot' was trained for other calabresella rules: aperta false (trained) vs "
        "true (here), players 3 (trained) vs 4 (here) (a server started with --foreign-rules, "
        "or the bot served with foreign_rules=true in its spec, lets it play them)"
    )


def test_a_server_that_lets_it_play_logs_the_note_at_warning(caplog):
    client = Direct(Server(Bots([("bot", "bot")], foreign_rules=True), Limits()))
    with caplog.at_level(logging.INFO, logger="mazzo.serve"):
        out = client.send(table("calabresella", ["client", "bot", "bot", "bot"], flags=FLAGS))
    assert out[0]["type"] != "error", out[0]
    notes = [r for r in caplog.records if r.name == "mazzo.serve" and "note:" in r.getMessage()]
    assert [r.levelno for r in notes] == [logging.WARNING]
    assert notes[0].getMessage() == (
        "note: bot 'bot' plays rules it was not trained for: aperta false (trained) vs true "
        "(here), players 3 (trained) vs 4 (here)"
    )

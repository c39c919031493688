"""Message parsing and checking: every malformed input gets its error code and a message that
names the input and what is allowed."""

import json

import pytest

from mazzo.serve.protocol import CODES, Limits, ProtocolError, parse_line


def code_of(line, limits=None):
    limits = limits or Limits()
    with pytest.raises(ProtocolError) as e:
        parse_line(line, limits)
    return e.value


def test_a_good_message_parses():
    assert parse_line('{"type":"hello","protocol":"mazzo-bot/1","id":3}', Limits()) == {
        "type": "hello",
        "protocol": "mazzo-bot/1",
        "id": 3,
    }
    assert parse_line(b'{"type":"legal","game":"g1"}', Limits())["game"] == "g1"


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        ("{nope", "bad_json", "'{nope'"),
        ("", "bad_json", "not valid JSON"),
        (b"\xff\xfe", "bad_json", "not valid JSON"),
        ("[1, 2]", "not_object", "list [1, 2]"),
        ('"hello"', "not_object", "str"),
        ("{}", "bad_field", 'needs "type"'),
        ('{"type": 5}', "bad_field", "5"),
        ('{"type": "dance"}', "unknown_type", "'dance'; types: hello, bots, open"),
        ('{"type": "hello", "protocol": "mazzo-bot/2"}', "bad_version", "'mazzo-bot/2'"),
        ('{"type": "hello", "protocol": 1}', "bad_version", "1"),
        ('{"type": "move", "game": "g1"}', "bad_field", "missing field 'action'"),
        (
            '{"type": "move", "game": 1, "action": "pass"}',
            "bad_field",
            "'game' must be a string, got 1",
        ),
        (
            '{"type": "view", "game": "g1", "seat": true}',
            "bad_field",
            "'seat' must be an integer, got True",
        ),
        ('{"type": "view", "game": "g1", "seat": 1.5}', "bad_field", "1.5"),
        (
            '{"type": "close", "game": "g1", "gmae": 1}',
            "bad_field",
            "unknown field 'gmae'; fields: game, id",
        ),
        (
            '{"type": "open", "mode": "table", "game": "x", "seats": "client"}',
            "bad_field",
            "'seats' must be a list",
        ),
        ('{"type": "hello", "id": [1]}', "bad_field", '"id" must be a string or an integer'),
        ('{"type": "hello", "id": true}', "bad_field", '"id"'),
    ],
)
def test_bad_messages(line, code, words):
    e = code_of(line)
    assert e.code == code
    assert words in e.message
    assert e.to_json()["type"] == "error" and e.to_json()["code"] == code


def test_the_id_of_a_bad_message_is_kept_where_readable():
    assert code_of('{"type": "move", "game": "g1", "id": "m7"}').ident == "m7"
    assert code_of('{"type": "dance", "id": 4}').ident == 4
    assert code_of('{"type": "dance", "id": [4]}').ident is None


def test_too_big_counts_utf8_bytes():
    limits = Limits(max_bytes=40)
    assert parse_line('{"type":"legal","game":"g1"}', limits)
    line = json.dumps({"type": "legal", "game": "è" * 10}, ensure_ascii=False)
    assert len(line) <= 40 < len(line.encode())
    e = code_of(line, limits)
    assert e.code == "too_big" and "over the limit of 40 bytes" in e.message


def test_limits_are_checked():
    with pytest.raises(ValueError, match="max_games must be a positive number, got 0"):
        Limits(max_games=0)
    with pytest.raises(ValueError, match="idle_timeout"):
        Limits(idle_timeout=-1.0)


def test_error_codes_are_checked():
    with pytest.raises(ValueError, match="unknown error code 'oops'"):
        ProtocolError("oops", "x")
    assert len(set(CODES)) == len(CODES)


def test_a_deeply_nested_message_is_bad_json_not_a_crash():
    """4 KB of ``[[[...]]]`` (depth 2,000) is over Python's recursion limit for decoding: the
    protocol answers bad_json, which it documents, never ``internal`` (a bug)."""
    e = code_of("[" * 2000 + "]" * 2000)
    assert e.code == "bad_json" and "nested too deeply" in e.message

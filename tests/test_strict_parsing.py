"""Strict parsing of deal files (issue 44): a seat is ``S`` and ASCII digits only (``S١``, an
Arabic-Indic one, is refused), and a JSON Lines file splits at line feeds alone, so a U+2028
inside a record's string keeps the record whole and the line numbers of messages right."""

import json

import pytest

from mazzo.envs.cards.record import parse_seat
from mazzo.envs.deal_sets import generate_deals, read_records
from mazzo.envs.registry import get_game


def test_a_seat_is_ascii_digits_only():
    assert parse_seat("S1", 3) == 1
    for bad in ("S\u0661", "S１", "S 1", "s1"):
        with pytest.raises(ValueError, match="bad seat"):
            parse_seat(bad, 3)


def test_a_line_separator_inside_a_record_keeps_it_one_line(tmp_path):
    game = get_game("calabresella")
    rules = game.rules()
    deals = generate_deals(game, rules, 2, 5)
    records = [game.write_record(game.new_state(d, rules)) for d in deals.deals]
    records[0]["note"] = "a\u2028b"  # JSON allows it raw inside a string
    path = tmp_path / "d.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n")
    got = read_records(path)
    assert len(got.entries) == 2 and [where for where, _ in got.entries] == ["line 1", "line 2"]

"""Deal sets: generate -> write -> read gives the same deals and rules; generated sets are
prefixes of longer ones; malformed files are rejected with the line named."""

import json
import os
import re
import stat

import pytest

from mazzo.envs.deal_sets import (
    JSON_LINES,
    JSON_LIST,
    SINGLE,
    DealSet,
    generate_deals,
    read_deal_set,
    read_records,
    write_deal_set,
)
from mazzo.envs.registry import get_game

FLAGS = {"players": 4, "aperta": True}


def test_round_trip_keeps_deals_rules_and_digest(tmp_path):
    rules = get_game("calabresella").rules(FLAGS)
    made = generate_deals(get_game("calabresella"), rules, 25, seed=3)
    path = tmp_path / "sub" / "deals.jsonl"
    write_deal_set(made, path)
    lines = path.read_text().splitlines()
    assert len(lines) == 25
    first = json.loads(lines[0])
    assert first["format"] == "calabresella-deal/1"
    assert first["rules"] == {"flags": FLAGS} and len(first["deck"]) == 40
    assert "actions" not in first and "result" not in first
    back = read_deal_set(path)
    assert back.game is get_game("calabresella") and back.rules == rules
    assert back.deals == made.deals and back.digest() == made.digest()
    assert back.source == str(path)
    assert not list(tmp_path.glob("sub/.*tmp"))  # the atomic write left no temporary file


def test_generation_is_seeded_prefix_stable_and_rotates_the_dealer():
    rules = get_game("calabresella").rules({})
    long = generate_deals(get_game("calabresella"), rules, 12, seed=5)
    assert generate_deals(get_game("calabresella"), rules, 4, seed=5).deals == long.deals[:4]
    assert generate_deals(get_game("calabresella"), rules, 12, seed=6).deals != long.deals
    assert [d.dealer for d in long.deals] == [i % 3 for i in range(12)]
    assert len({d.order for d in long.deals}) == 12
    assert long.head(3).deals == long.deals[:3]
    with pytest.raises(ValueError, match="holds 12"):
        long.head(13)


def test_json_list_files_are_read_too(tmp_path):
    made = generate_deals(get_game("calabresella"), get_game("calabresella").rules({}), 3, seed=0)
    path = tmp_path / "deals.json"
    path.write_text(json.dumps(made.records(), indent=1))
    assert read_deal_set(path).deals == made.deals


def test_flags_given_on_read_must_agree(tmp_path):
    made = generate_deals(
        get_game("calabresella"), get_game("calabresella").rules(FLAGS), 2, seed=0
    )
    path = tmp_path / "d.jsonl"
    write_deal_set(made, path)
    game = get_game("calabresella")
    assert read_deal_set(path, game, game.rules(FLAGS)).deals == made.deals
    with pytest.raises(ValueError, match=r"line 1: the deal's flags differ"):
        read_deal_set(path, game, game.rules({"players": 4}))


def _records(n=3):
    return generate_deals(
        get_game("calabresella"), get_game("calabresella").rules({}), n, 0
    ).records()


def _write_lines(path, items):
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in items))
    return path


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda rs: rs[:1] + ["{not json"] + rs[2:], r"line 2: not valid JSON"),
        (lambda rs: rs[:2] + [{**rs[2], "deck": rs[2]["deck"][:39]}], r"line 3: .*40 cards"),
        (
            lambda rs: [{**rs[0], "deck": [rs[0]["deck"][1], *rs[0]["deck"][1:]]}, *rs[1:]],
            r"line 1: .*appears twice",
        ),
        (lambda rs: [rs[0], {**rs[1], "deck": ["Zz"] * 40}, rs[2]], r"line 2: .*Zz"),
        (lambda rs: [rs[0], {**rs[1], "dealer": 7}], r"line 2: .*dealer"),
        (lambda rs: [{**rs[0], "colour": "red"}], r"line 1: unknown key\(s\) \['colour'\]"),
        (lambda rs: [rs[0], {**rs[1], "format": "minchiate-deal/1"}], r"line 2: deal format"),
        (lambda rs: [{**rs[0], "format": "skat/1"}], r"cannot tell the game from format 'skat/1'"),
        (
            lambda rs: [rs[0], {**rs[1], "rules": {"flags": {"players": 4}}}],
            r"line 2: the deal's flags differ",
        ),
        (lambda rs: [{**rs[0], "rules": {"flags": {"colour": 1}}}], "unknown calabresella flag"),
        (lambda rs: [], "no deals"),
        (lambda rs: ["", "   "], "no deals"),
    ],
)
def test_malformed_files_are_rejected(tmp_path, mutate, message):
    path = _write_lines(tmp_path / "bad.jsonl", mutate(_records()))
    with pytest.raises(ValueError, match=message):
        read_deal_set(path)


def test_malformed_json_list(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("[1, 2")
    with pytest.raises(ValueError, match="not valid JSON"):
        read_deal_set(path)
    path.write_text("[1]")
    with pytest.raises(ValueError, match="record 1: "):
        read_deal_set(path, get_game("calabresella"))


def test_generation_rejects_bad_counts_and_seeds():
    rules = get_game("calabresella").rules({})
    with pytest.raises(ValueError, match="positive integer"):
        generate_deals(get_game("calabresella"), rules, 0, 1)
    with pytest.raises(ValueError, match="non-negative integer"):
        generate_deals(get_game("calabresella"), rules, 3, -1)
    assert isinstance(generate_deals(get_game("calabresella"), rules, 1, 0), DealSet)


@pytest.mark.parametrize(
    ("game", "digest"),
    [
        ("calabresella", "7e68768f9aa90b01e5f658b046e14efdbd715d300451ffd920875bb9344b9f95"),
        ("minchiate", "a22d7409baac53c76609412e818846ba573e6bb4461bb938434143b9e7140271"),
    ],
)
def test_committed_deal_sets_are_the_seed_1_sets(game, digest):
    """configs/deals/ holds the deal sets of the README's strength table: the file reads back to
    the deals that seed 1 generates, byte for byte."""
    from pathlib import Path

    path = Path(__file__).parents[2] / "configs" / "deals" / f"{game}-2000-s1.jsonl"
    on_disk = read_deal_set(path)
    assert on_disk.game.name == game and len(on_disk.deals) == 2000
    assert on_disk.digest() == digest
    assert path.read_text() == on_disk.to_jsonl()
    generated = generate_deals(on_disk.game, on_disk.rules, 2000, seed=1)
    assert generated.digest() == digest


def test_written_files_get_the_umask_mode(tmp_path):
    made = generate_deals(get_game("calabresella"), get_game("calabresella").rules({}), 2, seed=1)
    old = os.umask(0o022)
    try:
        write_deal_set(made, tmp_path / "a.jsonl")
        os.umask(0o077)
        write_deal_set(made, tmp_path / "b.jsonl")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.jsonl").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "b.jsonl").stat().st_mode) == 0o600


def test_the_reader_detects_and_names_each_format(tmp_path):
    records = _records(2)
    cases = [
        ("one.json", json.dumps(records[0], indent=2), SINGLE, [""]),
        ("line.jsonl", json.dumps(records[0]) + "\n", SINGLE, ["line 1"]),
        ("two.jsonl", "\n".join(json.dumps(r) for r in records), JSON_LINES, ["line 1", "line 2"]),
        ("list.json", json.dumps(records, indent=1), JSON_LIST, ["record 1", "record 2"]),
    ]
    for name, text, kind, places in cases:
        path = tmp_path / name
        path.write_text(text)
        file = read_records(path)
        assert file.kind == kind and [p for p, _ in file.entries] == places
        assert [r for _, r in file.entries] == records[: len(places)]
        assert read_deal_set(path).deals[0] == read_deal_set(tmp_path / "one.json").deals[0]
    assert (
        read_records(tmp_path / "two.jsonl").where(1)
        == f"{tmp_path / 'two.jsonl'}: {JSON_LINES}, line 2"
    )
    for text, message in [
        ("", "no deals in the file"),
        ("[]", "a JSON list of records: no deals"),
        ("nope", "not valid JSON"),
        ('"text"', "got a JSON str"),
        (json.dumps(records[0]) + "\n{", "a JSON Lines deal set, line 2: not valid JSON"),
    ]:
        path = tmp_path / "bad.json"
        path.write_text(text)
        with pytest.raises(ValueError, match=re.escape(f"{path}: ") + ".*" + re.escape(message)):
            read_records(path)
    with pytest.raises(ValueError, match="No such file or directory"):
        read_records(tmp_path / "missing.jsonl")
    with pytest.raises(ValueError, match="is a folder"):
        read_records(tmp_path)
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ValueError, match="not a text file"):
        read_records(tmp_path / "bin.json")

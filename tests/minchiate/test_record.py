"""D.3 ``minchiate-deal/1`` records: the sample's shape parses, random finished deals round-trip
through JSON, and every malformed part is a ValueError naming it."""

import copy
import json
import random
import re

import pytest

from mazzo.envs.minchiate import Rules, State, find_combos, make_deal, replay, write_record
from mazzo.envs.minchiate.deck import MINCHIATE_97

from .deals import DEAL1, DEAL1_DECISIONS, DEAL1_PLAY
from .helpers import build_stream, codes, play_script, random_deal, random_playout

SPECIAL = codes("T30 T22 7c T23 6d 8s T1 T6 T21 5c Kc 2c 3c 4c 6c 8c 9c 10c")


def sample_stream() -> list[str]:
    """A stream for the D.3 sample: the cutter S3 robs T30 and T22 (7c stops); S3 holds T23; the
    dealer S0 robs T21 and takes Kc, and holds 6d and 8s; S1 holds T1 and S2 T6. The other cards
    are dealt round-robin in index order (so that nobody holds a combination)."""
    rest = [c for c in MINCHIATE_97.labels if c not in SPECIAL]
    fill: dict[int, list[str]] = {1: ["T1"], 2: ["T6"], 3: ["T23"], 0: ["6d", "8s"]}
    for i, card in enumerate(rest):
        fill[(1 + i) % 4].append(card)
    hands = {seat: (" ".join(h[:10]), " ".join(h[10:])) for seat, h in fill.items()}
    return build_stream(0, "T30 T22", "7c", hands, "T21 5c Kc 2c 3c 4c 6c 8c 9c 10c 7c")


SAMPLE = {
    "format": "minchiate-deal/1",
    "rules": {"ruleset": "cardavia", "flags": {"diecine": "merge_four"}},
    "dealer": 0,
    "stream": sample_stream(),
    "actions": [
        ["S3", "discard", "T22"],
        ["S3", "discard", "T23"],
        ["S0", "discard", "6d"],
        ["S0", "discard", "8s"],
        ["S1", "play", "T1"],
        ["S2", "play", "T6"],
    ],
    "expect": {"robbed": ["T30", "T22"], "first_events": [["B", 5]]},
}


def test_sample_parses():
    s = replay(json.dumps(SAMPLE))
    full = [s.hands[p] | s.played_by[p] for p in range(4)]
    assert [h.bit_count() for h in full] == [21] * 4
    assert not any(find_combos(h) for h in full) and s.declared == []  # no declarations
    assert [MINCHIATE_97.labels[c] for c in s.setup.robbed] == ["T30", "T22"]
    assert s.setup.dealer_taken == MINCHIATE_97.mask_of("Kc")
    assert s.to_play == 3 and len(s.trick) == 2 and len(s.history) == 6
    assert write_record(s)["actions"] == SAMPLE["actions"]


def test_golden_deal_record_round_trip():
    s = State.new(make_deal(0, DEAL1))
    play_script(s, DEAL1_DECISIONS)
    play_script(s, DEAL1_PLAY)
    rec = write_record(s, expect=True)
    assert rec["actions"][:8] == [
        ["S3", "discard", "T22"],
        ["S3", "discard", "7s"],
        ["S0", "discard", "T21"],
        ["S0", "discard", "8s"],
        ["S0", "discard", "9s"],
        ["S0", "discard", "10s"],
        ["S3", "declare", "declare"],
        ["S3", "declare", "skip"],
    ]
    assert rec["expect"]["resti"] == 2 and rec["expect"]["returns"] == [2, -2, 2, -2]
    assert rec["result"]["resti"] == 2 and rec["result"]["matto"]["paid"] == "T12"
    again = replay(json.loads(json.dumps(rec)))
    assert again.events == s.events and again.returns() == s.returns()


FLAG_SETS = [
    {},
    {"matto_payment": "agent", "declare_timing": "with_first_card"},
    {"declarations": "auto_all", "faceup_21st": "dealer_only", "must_overtrump": True},
    {"discard_rule": "any", "diecine": "two_triples", "fola_exposure": "never"},
]


@pytest.mark.parametrize("flags", FLAG_SETS)
def test_random_round_trip(flags):
    rng = random.Random(7)
    rules = Rules.from_flags(flags)
    for _ in range(60):
        s = random_playout(State.new(random_deal(rng), rules), rng)
        rec = json.loads(json.dumps(write_record(s, expect=True)))
        assert rec["rules"]["flags"] == flags
        again = replay(rec)
        assert again.events == s.events and again.history == s.history
        assert (
            again.returns() == s.returns()
            and again.outcome() == s.outcome()
            and again.result() == s.result()
        )


def broken(**changes) -> dict:
    rec = copy.deepcopy(SAMPLE)
    for key, value in changes.items():
        if value is None:
            del rec[key]
        else:
            rec[key] = value
    return rec


def with_action(i: int, triple) -> dict:
    rec = copy.deepcopy(SAMPLE)
    rec["actions"][i] = triple
    return rec


STREAM = SAMPLE["stream"]


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ("{not json", "not valid JSON"),
        ([], "must be a JSON object"),
        (broken(format="calabresella-deal/1"), "expected 'minchiate-deal/1'"),
        (broken(stream=None), "lacks ['stream']"),
        (broken(extra=1), "unknown key(s) ['extra']"),
        (broken(stream=STREAM[:96]), "needs 97 cards, got 96"),
        (broken(stream=[*STREAM[:96], STREAM[0]]), "appears twice"),
        (broken(stream=[*STREAM[:96], "T99"]), "unknown card code 'T99'"),
        (broken(stream="T1 T2"), "must be a list of card codes"),
        (broken(dealer=7), "dealer must be a seat 0..3, got 7"),
        (broken(rules={"flags": {"nope": True}}), "unknown minchiate flag 'nope'"),
        (broken(rules={"ruleset": "accademia"}), "unknown Minchiate ruleset 'accademia'"),
        (broken(rules={"flag": {}}), "unknown key(s) ['flag'] in 'rules'"),
        (broken(actions="S3 discard T22"), "'actions' must be a list"),
        (with_action(0, ["S3", "discard"]), "a [seat, verb, arg] triple of strings"),
        (with_action(0, ["P3", "discard", "T22"]), "bad seat 'P3'"),
        (with_action(0, ["S4", "discard", "T22"]), "bad seat 'S4'"),
        (with_action(0, ["S3", "bid", "T22"]), "unknown verb 'bid'"),
        (with_action(0, ["S3", "play", "T22"]), "'play T22' is not a DISCARD_CUTTER action"),
        (with_action(0, ["S3", "discard", "X1"]), "unknown card code 'X1'"),
        (with_action(0, ["S3", "declare", "maybe"]), "'declare' or 'skip'"),
        (with_action(0, ["S0", "discard", "6d"]), "S3 is on turn (DISCARD_CUTTER), not S0"),
        (with_action(0, ["S3", "discard", "T30"]), "only zero-value cards other than T29"),
        (with_action(5, ["S2", "play", "Kd"]), "does not hold Kd"),
        (broken(expect={"robbed": ["T30"]}), "expect.robbed"),
        (broken(expect={"first_events": [["A", 5]]}), "expect.first_events"),
        (broken(expect={"winner": "A"}), "unknown key(s) ['winner'] in 'expect'"),
    ],
)
def test_malformed_records(record, reason):
    with pytest.raises(ValueError, match=re.escape(reason)):
        replay(record)


def test_action_after_the_end():
    s = random_playout(State.new(make_deal(0, DEAL1)), random.Random(1))
    rec = write_record(s)
    rec["actions"].append(["S1", "play", "T1"])
    with pytest.raises(ValueError, match="the deal is already over"):
        replay(rec)

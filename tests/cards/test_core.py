"""Bit helpers, the Deal type, flag validation, D.3 record helpers and tricks (mazzo.envs.cards)."""

import dataclasses
import random

import pytest

from mazzo.envs.calabresella import record as CALABRESELLA
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.cards.bits import bit_list, iter_bits, lowest, mask_of
from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.flags import rules_from_flags, rules_to_flags
from mazzo.envs.cards.record import load_record, parse_seat, seat_token
from mazzo.envs.cards.tricks import build_win_keys, follow_or_trump, follow_suit, trick_winner
from mazzo.envs.minchiate import record as MINCHIATE
from mazzo.envs.minchiate.deck import MINCHIATE_97


def test_bit_list_matches_iteration_on_random_masks():
    rng = random.Random(7)
    for _ in range(2000):
        mask = rng.getrandbits(rng.choice([8, 40, 62, 99, 128]))
        assert bit_list(mask) == list(iter_bits(mask)) == [i for i in range(128) if mask >> i & 1]
        assert mask_of(bit_list(mask)) == mask
    assert lowest(0b1000) == 3 and lowest(0) == -1 and bit_list(0) == []


def test_deal_validation_names_the_problem():
    codes = list(ITALIAN_40.labels)
    assert Deal.from_codes(ITALIAN_40, 1, codes, 3).order == tuple(range(40))
    with pytest.raises(ValueError, match="needs 40 cards, got 39"):
        Deal.from_codes(ITALIAN_40, 0, codes[:-1], 3)
    with pytest.raises(ValueError, match="appears twice"):
        Deal.from_codes(ITALIAN_40, 0, codes[:-1] + ["Ac"], 3)
    with pytest.raises(ValueError, match="unknown card code '8c'"):
        Deal.from_codes(ITALIAN_40, 0, codes[:-1] + ["8c"], 3)
    with pytest.raises(ValueError, match=r"dealer must be a seat 0\.\.2"):
        Deal.from_codes(ITALIAN_40, 3, codes, 3)
    with pytest.raises(ValueError, match="list of card codes"):
        Deal.from_codes(ITALIAN_40, 0, " ".join(codes), 3)
    with pytest.raises(ValueError, match="appears twice"):
        Deal.from_order(MINCHIATE_97, 0, [0] * 97, 4)
    assert Deal.from_order(MINCHIATE_97, 3, range(97), 4).codes(MINCHIATE_97)[:2] == ["T1", "T2"]


@dataclasses.dataclass(frozen=True)
class _Flags:
    mode: str = dataclasses.field(default="a", metadata={"choices": ("a", "b")})
    count: int = 3
    ratio: float = 1.0
    on: bool = False
    items: tuple[str, ...] = dataclasses.field(default=("x",), metadata={"items": ("x", "y")})


def test_flag_validation():
    f = rules_from_flags(
        _Flags, {"mode": "b", "count": 4, "ratio": 2, "on": True, "items": ["y"]}, "toy"
    )
    assert f == _Flags("b", 4, 2.0, True, ("y",))
    assert rules_to_flags(f) == {"mode": "b", "count": 4, "ratio": 2.0, "on": True, "items": ["y"]}
    assert rules_to_flags(_Flags()) == {}
    for bad, msg in [
        ({"nope": 1}, "unknown toy flag 'nope'; known flags: mode, count"),
        ({"mode": "c"}, r"must be one of \['a', 'b'\]"),
        ({"count": True}, "must be an integer"),
        ({"on": 1}, "must be true or false"),
        ({"ratio": "x"}, "must be a number"),
        ({"items": ["z"]}, "unknown member"),
        ({"items": "x"}, "must be a list"),
    ]:
        with pytest.raises(ValueError, match=msg):
            rules_from_flags(_Flags, bad, "toy")


def test_record_helpers():
    rec = load_record('{"format": "x/1", "a": 1}', "x/1", {"a"}, {"b"})
    assert rec["a"] == 1
    with pytest.raises(ValueError, match="not valid JSON"):
        load_record("{", "x/1", set(), set())
    with pytest.raises(ValueError, match="expected 'x/1'"):
        load_record({"format": "y/1"}, "x/1", set(), set())
    with pytest.raises(ValueError, match="lacks"):
        load_record({}, "x/1", {"a"}, set())
    with pytest.raises(ValueError, match="unknown key"):
        load_record({"a": 1, "c": 2}, "x/1", {"a"}, set())
    assert parse_seat("S2", 3) == 2 and seat_token(1) == "S1"
    for bad in ("S3", "2", "s1", 1):
        with pytest.raises(ValueError, match="bad seat"):
            parse_seat(bad, 3)
    cala, minc = CALABRESELLA.VOCABULARY, MINCHIATE.VOCABULARY
    for vocab, label, triple in [
        (cala, "pass", ("bid", "pass")),
        (cala, "bid chiamo", ("bid", "chiamo")),
        (minc, "declare", ("declare", "declare")),
        (minc, "skip", ("declare", "skip")),
        (cala, "play Ac", ("play", "Ac")),
        (minc, "play Ac", ("play", "Ac")),
        (cala, "split 6", ("split", 6)),
    ]:
        assert vocab.to_triple(label) == triple
        assert vocab.to_label(*triple) == label
    with pytest.raises(ValueError, match="'declare' or 'skip'"):
        minc.to_label("declare", "maybe")


def test_trick_helpers():
    hand = ITALIAN_40.mask_of("3c 4c Ad")
    assert follow_suit(hand, ITALIAN_40.suit_mask[0]) == ITALIAN_40.mask_of("3c 4c")
    assert follow_suit(hand, ITALIAN_40.suit_mask[2]) == hand
    m = MINCHIATE_97
    h = m.mask_of("T3 5c")
    assert follow_or_trump(h, m.suit_mask[2], m.suit_mask[4]) == m.mask_of("T3")
    keys = build_win_keys(m, 4)
    trick = [m.parse(c) for c in ("3s", "9s", "As", "10s")]
    assert trick_winner(trick, keys[2]) == 3  # MX-5 a: 10s wins in the long suit
    trick = [m.parse(c) for c in ("3c", "9c", "Ac", "2c")]
    assert trick_winner(trick, keys[0]) == 2  # Ac wins in the round suit
    keys40 = build_win_keys(ITALIAN_40, None)
    trick = [ITALIAN_40.parse(c) for c in ("Kd", "3d", "3c")]
    assert trick_winner(trick, keys40[1]) == 1

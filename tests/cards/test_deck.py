"""Deck tables and notation (RULES.md D.1, D.2, M-1 to M-3, C-2, MX-1)."""

import pytest

from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.minchiate.deck import MATTO, MINCHIATE_97


def test_italian_notation_examples_d2():
    assert [ITALIAN_40.parse(c) for c in ("Ac", "3c", "Kc", "Ad", "As", "Kb")] == [
        0,
        2,
        9,
        10,
        20,
        39,
    ]
    assert ITALIAN_40.size == 40 and len(set(ITALIAN_40.labels)) == 40


def test_italian_values_and_order_c2():
    assert sum(ITALIAN_40.value) == 32  # 32 thirds = 10 2/3 points
    thirds = {r: ITALIAN_40.value[ITALIAN_40.parse(r + "c")] for r in "A234567JNK"}
    assert thirds == {
        "A": 3,
        "2": 1,
        "3": 1,
        "4": 0,
        "5": 0,
        "6": 0,
        "7": 0,
        "J": 1,
        "N": 1,
        "K": 1,
    }
    low_to_high = sorted("A234567JNK", key=lambda r: ITALIAN_40.strength[ITALIAN_40.parse(r + "d")])
    assert "".join(low_to_high) == "4567JNKA23"


def test_italian_q_alias_for_cavallo_ca21():
    assert ITALIAN_40.parse("Qs") == ITALIAN_40.parse("Ns")
    assert ITALIAN_40.format(ITALIAN_40.parse("Qs")) == "Ns"


@pytest.mark.parametrize("bad", ["8c", "1c", "Ax", "", "T1", "ac", None, 3])
def test_italian_unknown_code_names_it(bad):
    with pytest.raises(ValueError, match="unknown card code"):
        ITALIAN_40.parse(bad)


def test_minchiate_notation_examples_d1():
    expect = {
        "T1": 0,
        "T40": 39,
        "M": 40,
        "Ac": 41,
        "Kc": 54,
        "Ad": 55,
        "As": 69,
        "10s": 78,
        "Ab": 83,
        "Kb": 96,
    }
    assert {c: MINCHIATE_97.parse(c) for c in expect} == expect
    assert MATTO == 40 and MINCHIATE_97.size == 97


def test_minchiate_values_mx1():
    v = MINCHIATE_97.value
    assert sum(v) == 142
    assert sum(1 for x in v if x) == 25
    assert [
        v[MINCHIATE_97.parse(c)]
        for c in (
            "T36",
            "T40",
            "T30",
            "T35",
            "T28",
            "T29",
            "T1",
            "T2",
            "T5",
            "M",
            "Kd",
            "Qd",
            "T21",
        )
    ] == [10, 10, 5, 5, 5, 0, 5, 3, 3, 5, 5, 0, 0]


def test_minchiate_suit_orders_m22():
    def high_to_low(suit):
        cards = [c for c in range(97) if MINCHIATE_97.suit[c] == "cdsb".index(suit)]
        return " ".join(
            MINCHIATE_97.labels[c][:-1]
            for c in sorted(cards, key=lambda c: -MINCHIATE_97.strength[c])
        )

    assert high_to_low("c") == "K Q N J A 2 3 4 5 6 7 8 9 10"
    assert high_to_low("d") == "K Q N J A 2 3 4 5 6 7 8 9 10"
    assert high_to_low("s") == "K Q N J 10 9 8 7 6 5 4 3 2 A"
    assert high_to_low("b") == "K Q N J 10 9 8 7 6 5 4 3 2 A"


def test_masks_and_codes_round_trip():
    mask = ITALIAN_40.mask_of("3c Ad Kb")
    assert ITALIAN_40.codes(mask) == ["3c", "Ad", "Kb"]
    assert ITALIAN_40.format_mask(mask) == "3c Ad Kb"
    with pytest.raises(ValueError, match="twice"):
        ITALIAN_40.mask_of(["3c", "3c"])
    assert sum(ITALIAN_40.suit_mask) == ITALIAN_40.full_mask
    assert sum(MINCHIATE_97.suit_mask) == MINCHIATE_97.full_mask

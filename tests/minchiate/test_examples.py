"""RULES.md E.1 worked examples MX-1, MX-2, MX-3, MX-5 and MX-6 as tests."""

import pytest

from mazzo.envs.minchiate.combos import (
    COMBO_VALUE,
    DIECINE,
    HIGH_RUN,
    KINGS,
    LOW_RUN,
    ONE_13_28,
    ONE_40_M,
    find_combos,
)
from mazzo.envs.minchiate.deck import MINCHIATE_97
from mazzo.envs.minchiate.kernel import end_rounding, ratchet, settle
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.tables import COUNTERS, QUALIFYING, VALUE, card_points

from .helpers import labels, mask, play_position, play_script

A, B = 0, 1


# ----------------------------------------------------------------------------------- MX-1
def test_mx1_values_and_counts():
    assert card_points(mask("T36 T37 T38 T39 T40")) == 50
    assert card_points(mask("T30 T31 T32 T33 T34 T35")) == 30
    assert card_points(mask("T1 T10 T13 T20 T28")) == 25
    assert card_points(mask("M")) == 5
    assert card_points(mask("Kc Kd Ks Kb")) == 20
    assert card_points(mask("T2 T3 T4 T5")) == 12
    assert sum(VALUE) == 142 and COUNTERS.bit_count() == 25
    assert QUALIFYING.bit_count() == 33
    zero_qualifying = labels(QUALIFYING & ~COUNTERS)
    assert zero_qualifying == ["T21", "T22", "T23", "T24", "T25", "T26", "T27", "T29"]
    t29 = MINCHIATE_97.parse("T29")
    assert VALUE[t29] == 0 and COMBO_VALUE[t29] == 5


# ----------------------------------------------------------------------------------- MX-2
MX2_HAND = "T1 T2 T3 T13 T28 T29 T30 T32 T33 T34 T36 T37 T38 T40 M Kc Kd Ks 7b 4c T17"


def test_mx2_declarations_table():
    combos = find_combos(mask(MX2_HAND))
    rows = [(c.kind, labels(c.members), c.points, c.bonus, c.score) for c in combos]
    assert rows == [
        (LOW_RUN, ["T1", "T2", "T3"], 11, 5, 16),
        (HIGH_RUN, ["T28", "T29", "T30"], 15, 5, 20),
        (HIGH_RUN, ["T32", "T33", "T34"], 15, 5, 20),
        (HIGH_RUN, ["T36", "T37", "T38"], 30, 5, 35),
        (ONE_13_28, ["T1", "T13", "T28"], 15, 5, 20),
        (ONE_40_M, ["T1", "T40", "M"], 20, 0, 20),
        (KINGS, ["Kc", "Kd", "Ks"], 15, 5, 20),
    ]  # no diecine (T10, T20 missing); T40 alone is no run
    total = sum(c.score for c in combos)
    assert total == 151
    assert ratchet(0 + total, 0, 60) == (31, 2)  # one event of 151 from D = 0


def test_mx2_flag_checks():
    hand = mask(MX2_HAND)
    assert sum(c.score for c in find_combos(hand, bonus_own=True)) == 156
    no_matto = (hand & ~mask("M")) | mask("6c")  # the Matto replaced by a 0-card
    assert sum(c.score for c in find_combos(no_matto)) == 11 + 15 + 15 + 30 + 15 + 15 == 101


# ----------------------------------------------------------------------------------- MX-3
def score(cards: str, **flags: str) -> list[int]:
    return [c.score for c in find_combos(mask(cards), **flags)]  # type: ignore[arg-type]


def test_mx3_diecine():
    assert score("T10 T20 T30 T40") == [25]
    assert score("T10 T20 T30 T40", diecine="two_triples") == [15, 20]
    assert score("T10 T20 T40") == []
    assert score("T10 T20 T40", diecine="any_three") == [20]
    assert score("T20 T30 T40") == [20]
    assert score("T10 T20 T30") == [15]
    assert [c.kind for c in find_combos(mask("T10 T20 T30"))] == [DIECINE]


def test_mx3_runs():
    all_high = " ".join(f"T{n}" for n in range(28, 41))
    assert score(all_high) == [90]
    assert score(all_high + " M") == [95]
    assert score("T28 T29 T30 T31 T32 T33 M") == [35]  # one merged run, one Matto bonus
    assert score("T28 T29 T31 T32 T33") == [15]  # T28-T29 too short; T29 alone counts 0
    assert score("T3 T4 T5") == [9]
    assert score("T1 T2 T4 T5") == []


def test_reference_values_table():
    """M-9.7 reference values (without the Matto bonus)."""
    table = {
        "T1 T2 T3": 11,
        "T2 T3 T4": 9,
        "T1 T2 T3 T4": 14,
        "T2 T3 T4 T5": 12,
        "T1 T2 T3 T4 T5": 17,
        "T36 T37 T38": 30,
        "T1 T13 T28": 15,
        "T1 T40 M": 20,
        "Kc Kd Ks": 15,
        "Kc Kd Ks Kb": 20,
    }
    for cards, value in table.items():
        assert score(cards) == [value], cards


# ----------------------------------------------------------------------------------- MX-5
def winner_of(leader: int, cards: str) -> int:
    seats = [(leader + i) % 4 for i in range(4)]
    s = play_position(dict(zip(seats, cards.split(), strict=True)), leader)
    play_script(s, [(seat, f"play {c}") for seat, c in zip(seats, cards.split(), strict=True)])
    return s.tricks[-1][2]


def test_mx5a_trick_resolution():
    assert winner_of(1, "3c 9c Ac 2c") == 3  # round suit: A > 2 > 3 > 9
    assert winner_of(1, "3s 9s As 10s") == 0  # long suit: 10 high
    assert winner_of(1, "Ac Jc 10c 2c") == 2  # a J beats every pip
    assert winner_of(1, "10s Js As 9s") == 2


H = "M T3 5c Kd 2d"


def legal_after(plays: list[tuple[int, str]], hand: str, suits_led: tuple[str, ...] = ()) -> list:
    """Legal labels for S3 holding ``hand`` after S1, S2 played ``plays`` (S1 leads)."""
    hands = dict(plays)
    hands[3] = hand
    s = play_position(hands, 1 if plays else 3, suits_led)
    play_script(s, [(seat, f"play {c}") for seat, c in plays])
    return sorted(s.action_label(a)[5:] for a in s.legal_actions())


@pytest.mark.parametrize(
    ("plays", "hand", "suits_led", "legal"),
    [
        ([(1, "7d"), (2, "4d")], H, (), ["2d", "Kd", "M"]),  # first coins lead, no trump
        ([(1, "7d"), (2, "T9")], H, (), ["Kd"]),  # trumped: King rule, no Matto
        ([(1, "7d"), (2, "T9")], H, ("d",), ["2d", "Kd", "M"]),  # coins led before
        ([(1, "4s"), (2, "5s")], H, (), ["M", "T3"]),  # no swords: must trump
        ([(1, "T9"), (2, "T10")], H, (), ["M", "T3"]),
        ([(1, "4s"), (2, "5s")], "M 5c 2d", (), ["2d", "5c", "M"]),  # no trumps: anything
        ([], H, (), ["2d", "5c", "Kd", "M", "T3"]),  # H leads
    ],
)
def test_mx5b_legal_plays(plays, hand, suits_led, legal):
    assert legal_after(plays, hand, suits_led) == legal


def test_mx5c_matto_lead():
    s = play_position({1: "M 4c", 2: "5b 9c", 3: "2b", 0: "T7 3c"}, 1)
    play_script(s, [(1, "play M")])
    assert s.led == -1 and s.legal_mask() == mask("5b 9c")  # the second player is free
    play_script(s, [(2, "play 5b"), (3, "play 2b")])
    assert s.legal_mask() == mask("T7")  # batons led (by 5b); S0 is void: must trump
    n_events = len(s.events)
    play_script(s, [(0, "play T7")])
    assert s.tricks[-1] == (1, tuple(MINCHIATE_97.parse_many("M 5b 2b T7")), 0)
    assert s.piles[B] == mask("M") and s.piles[A] == mask("5b 2b T7")
    assert s.matto_owner == 1 and s.matto_debt
    assert len(s.events) == n_events  # 5b and 2b are worth 0: no capture event


# ----------------------------------------------------------------------------------- MX-6
MX6 = [  # (team, points, D after, R after)
    (B, 15, -15, 0),
    (B, 5, -20, 0),
    (A, 5, -15, 0),
    (A, 3, -12, 0),
    (A, 10, -2, 0),
    (A, 151, 29, 2),
    (B, 35, -6, 2),
    (B, 20, -26, 2),
    (A, 25, -1, 2),
    (A, 10, 9, 2),
    (B, 70, -1, 1),
    (A, 5, 4, 1),
]


def test_mx6_resti_sequence():
    """Every row's D and R after (the table's own columns) by the engine's ratchet, then the
    final net event T_A = 120, T_B = 150 through the kernel's settlement (empty piles: T_X is
    then the declared points kept for the end, plus 10 for trick 21, M-13.2): D = -26, the end
    rounding -1, R = 0: a draw."""
    d = r = 0
    for team, points, d_after, r_after in MX6:
        d, r = ratchet(d + (points if team == A else -points), r, 60)
        assert (d, r) == (d_after, r_after)
    assert (d, r) == (4, 1)  # the last row of RULES.md MX-6 before the final event
    # T_A = 120 declared; T_B = 140 declared + 10 for trick 21 (won by S1, team B)
    _pa, _pb, _d, _r, d_final, resti = settle((0, 0), 0, -1, 1, (120, 140), d, r, Rules())
    assert (d_final, resti) == (-26, 0)
    assert end_rounding(d_final, 60) == -1
    # RULES.md MX-6: "Naively netting all points (A 329, B 295, so +34) would give A +1":
    # the same points as one event give another result, so the ratchet matters
    naive_d, naive_r = ratchet(329 - 295, 0, 60)
    assert naive_r + end_rounding(naive_d, 60) == 1 != resti


def test_mx6_order_sensitivity():
    d, r = ratchet(50 + 15, 0, 60)
    d, r = ratchet(d - 20, r, 60)
    assert (d, r) == (-15, 1) and r + end_rounding(d, 60) == 0
    d, r = ratchet(50 - 20, 0, 60)
    d, r = ratchet(d + 15, r, 60)
    assert (d, r) == (45, 0) and r + end_rounding(d, 60) == 1


@pytest.mark.parametrize(
    ("d", "resti"),
    [(0, 0), (1, 1), (59, 1), (60, 1), (61, 2), (119, 2), (120, 2), (121, 3), (-1, -1),
     (-60, -1), (-61, -2)],
)  # fmt: skip
def test_mx6_end_rounding(d, resti):
    assert end_rounding(d, 60) == resti


@pytest.mark.parametrize(
    ("d", "r", "expected"),
    [(60, 0, (0, 1)), (-60, 0, (0, -1)), (59, 2, (59, 2)), (-59, 0, (-59, 0)), (120, -1, (0, 1)),
     (181, 0, (1, 3)), (-121, 1, (-1, -1))],
)  # fmt: skip
def test_the_ratchet_turns_each_full_unit_into_a_resto(d, r, expected):
    """M-14.2 at its edges: a lead of exactly one unit (60) is one resto and no points left;
    59 stays points; several units at once, either side."""
    assert ratchet(d, r, 60) == expected

"""Full golden deals worked out by hand from RULES.md Part A (default flags).

Each deal gives the stream (built from the intended packets by the M-5.4 / M-6.1 index form),
every decision, and the expected robbed and face-up cards, every scoring event with D and R after
it, the trick winners, the Matto settlement, both end counts and the final resti. The numbers in
the comments are the hand count; the engine must agree with them.
"""

from envs.minchiate import Phase, Rules, State, make_deal
from envs.minchiate.combos import HIGH_RUN, LOW_RUN

from .helpers import build_stream, codes, labels, mask, play_script

A, B = 0, 1


def tricks(*rows: str) -> list[tuple[int, str]]:
    """'S1 2d, S2 T6, ...' rows -> (seat, 'play X') steps."""
    out = []
    for row in rows:
        for item in row.split(","):
            seat, card = item.split()
            out.append((int(seat[1]), f"play {card}"))
    return out


def winners(state: State) -> list[int]:
    return [w for _, _, w in state.tricks]


def event_rows(state: State) -> list[tuple[int, int, str, int, int]]:
    return [(e.team, e.points, e.cause, e.d_after, e.r_after) for e in state.events]


# ----------------------------------------------------------------------------------- deal 1
# Dealer S0; cutter S3 (team B); S1 leads. Dealing order S1, S2, S3, S0.
# Cut: T36 and T22 qualify, 6c stops (r = 2) and goes to the bottom of the pack, so the Fola
# P[84..94] ends with it. The dealer robs T39 and T21 from the top (5s stops him), then takes the
# counter Kc and T29 (T23..T27 are 0-value sopraventi: left).
DEAL1 = build_stream(
    dealer=0,
    robbed="T36 T22",
    stop="6c",
    hands={
        1: ("T13 T14 T15 T16 T34 T37 M 2d Jd Ad", "8d 7d 2c 3c 4c 3s 2s 5b 4b 3b T5"),
        2: ("T4 T6 T17 T18 T19 T33 T35 T38 T40 Qc", "Nc Jc Ac Qs Ns Js Qb Nb Jb 10b T20"),
        3: ("T1 T2 T3 T7 T11 T12 T32 Kd Qd Nd", "9d 10d 5c 7c 8c Ks As 2b Ab 7s Kb"),
        0: ("T8 T9 T10 T28 T30 T31 10c 3d 4d 5d", "6d 6s 4s 9b 8b 7b 6b 8s 9s 10s 9c"),
    },
    fola="T39 T21 5s T29 Kc T23 T24 T25 T26 T27 6c",
)

DEAL1_DECISIONS = [
    # M-8: the cutter discards r = 2, then the dealer robbed 2 + took 2 = 4.
    (3, "discard T22"),
    (3, "discard 7s"),
    (0, "discard T21"),
    (0, "discard 8s"),
    (0, "discard 9s"),
    (0, "discard 10s"),
    # M-9: S1 and S2 hold no combination. S3: low run T1-T2-T3 (11), then kings Kd Ks Kb (15,
    # skipped). S0: high run T28-T29-T30-T31 (5 + 5 + 5 + 5 = 20).
    (3, "declare"),
    (3, "skip"),
    (0, "declare"),
]

DEAL1_PLAY = tricks(
    "S1 2d, S2 T6, S3 Kd, S0 3d",  # 1 first coins lead, S2 trumps: King rule forces S3's Kd
    "S2 T20, S3 T7, S0 T8, S1 M",  # 2 the Matto into a trick won by A: B owes a card
    "S2 T40, S3 T1, S0 T9, S1 T5",  # 3
    "S2 T38, S3 T2, S0 T10, S1 T13",  # 4
    "S2 T35, S3 T36, S0 T28, S1 T14",  # 5
    "S3 T3, S0 T29, S1 T15, S2 T4",  # 6
    "S0 T39, S1 T37, S2 T17, S3 T11",  # 7
    "S0 T30, S1 T34, S2 T18, S3 T12",  # 8
    "S1 T16, S2 T19, S3 T32, S0 T31",  # 9
    "S3 Qd, S0 4d, S1 Jd, S2 T33",  # 10 S2 void in coins must trump
    "S2 Qc, S3 5c, S0 Kc, S1 2c",  # 11 nobody holds a trump any more
    "S0 9b, S1 3b, S2 Qb, S3 Kb",  # 12
    "S3 Nd, S0 5d, S1 Ad, S2 10b",  # 13
    "S3 9d, S0 6d, S1 8d, S2 Jb",  # 14 round suit: 6 beats 8 and 9
    "S0 6s, S1 2s, S2 Qs, S3 Ks",  # 15
    "S3 10d, S0 4s, S1 7d, S2 Nb",  # 16 round suit: 7 beats 10
    "S1 3c, S2 Ac, S3 7c, S0 9c",  # 17 round suit: A beats 3
    "S2 Ns, S3 As, S0 8b, S1 3s",  # 18
    "S2 Js, S3 8c, S0 7b, S1 4c",  # 19
    "S2 Nc, S3 2b, S0 10c, S1 5b",  # 20
    "S2 Jc, S3 Ab, S0 6b, S1 4b",  # 21
)

# (team, points, cause, D after, R after), M-14.5 order.
DEAL1_EVENTS = [
    (B, 10, "cutter_rob", -10, 0),  # T36 10 + T22 0
    (B, 3, "faceup", -13, 0),  # S1's T5 (S2 T20, S3 Kb, S0 9c follow; 9c is worth 0)
    (A, 5, "faceup", -8, 0),  # S2's T20
    (B, 5, "faceup", -13, 0),  # S3's Kb
    (A, 10, "dealer_rob", -3, 0),  # T39 10 + T21 0; the taken T29 and Kc score nothing
    (B, 11, "declare", -14, 0),  # S3: 1-2-3
    (A, 20, "declare", 6, 0),  # S0: 28-29-30-31
    (A, 5, "capture", 11, 0),  # t1: B's Kd (2d is 0)
    (A, 8, "capture", 19, 0),  # t3: T1 5 + T5 3
    (A, 8, "capture", 27, 0),  # t4: T2 3 + T13 5
    (B, 10, "capture", 17, 0),  # t5: A's T35 5 + T28 5
    (A, 3, "capture", 20, 0),  # t6: T3 3 + T15 0
    (A, 10, "capture", 30, 0),  # t7: T37 10 + T11 0
    (B, 5, "capture", 25, 0),  # t8: T30 5 + T18 0
    (B, 5, "capture", 20, 0),  # t9: T19 0 + T31 5
    (A, 68, "final", 88, 2),  # T_A 168 - T_B 100; end rounding ceil(88 / 60) = 2
]

# A won tricks 1-4, 6, 7, 10, 11, 14, 17-21 (14 tricks, 55 cards: the Matto of trick 2 went to
# B), plus the payment T12 = 56 cards. Card points 142 - 55 = 87. Pile combinations: T1..T5
# (17) and T37-T38-T39-T40 (40); T29 and T33 stand alone; 10-20-40 is no diecina; 2 kings.
# Surplus 56 - 42 = 14; last trick 10. T_A = 87 + 57 + 14 + 10 = 168.
# B won tricks 5, 8, 9, 12, 13, 15, 16 (28 cards) plus the Matto, minus T12 = 28 cards. Counters:
# T28 T30 T31 T32 T34 T35 (30) + T36 (10) + Kb Ks (10) + M (5) = 55. Runs T30-T31-T32 (15) and
# T34-T35-T36 (20), each +5 for the Matto in the pile = 45. T_B = 55 + 45 = 100.
DEAL1_COUNTS = (
    (87, 57, 56, 14, 10, 168),
    (55, 45, 28, 0, 0, 100),
)


def _run_deal1(rules: Rules | None = None) -> State:
    s = State.new(make_deal(0, DEAL1), rules)
    play_script(s, DEAL1_DECISIONS)
    return s


def test_deal1_setup():
    s = State.new(make_deal(0, DEAL1))
    st = s.setup
    assert s.cutter == 3
    assert labels(sum(1 << c for c in st.robbed)) == ["T22", "T36"]
    assert st.stop == mask("6c").bit_length() - 1 and st.stop_in_fola
    assert [labels(1 << c)[0] if c >= 0 else None for c in st.faceup] == ["9c", "T5", "T20", "Kb"]
    assert [labels(1 << c)[0] for c in st.dealer_robbed] == ["T39", "T21"]
    assert st.dealer_taken == mask("T29 Kc")
    assert st.fola == mask("T23 T24 T25 T26 T27 5s 6c")
    assert [h.bit_count() for h in s.hands] == [25, 21, 21, 23]
    assert s.phase is Phase.DISCARD_CUTTER and s.to_play == 3
    assert s.legal_mask() & mask("T22 7s") and not s.legal_mask() & mask("T36 Kd T1")


def test_deal1_declarations_and_fola():
    s = State.new(make_deal(0, DEAL1))
    play_script(s, DEAL1_DECISIONS[:6])
    assert s.phase is Phase.DECLARE and s.to_play == 3  # S1 and S2 had nothing to offer
    offer = s.offered()
    assert offer is not None and offer.kind == LOW_RUN and offer.members == mask("T1 T2 T3")
    assert offer.score == 11 and not s.fola_exposed
    assert s.info_view(3).offered == offer and s.info_view(1).offered is None
    play_script(s, DEAL1_DECISIONS[6:8])
    assert s.to_play == 0 and s.offered() == (HIGH_RUN, mask("T28 T29 T30 T31"), 20, 0)
    play_script(s, DEAL1_DECISIONS[8:])
    assert s.phase is Phase.PLAY and s.to_play == 1 and s.fola_exposed
    assert s.fola == mask("T21 T22 T23 T24 T25 T26 T27 5s 6c 7s 8s 9s 10s")
    assert [(seat, c.score) for seat, c in s.declared] == [(3, 11), (0, 20)]


def test_deal1_king_rule_trick():
    s = _run_deal1()
    play_script(s, DEAL1_PLAY[:2])
    assert s.legal_actions() == [s.parse_action("play Kd")]  # exactly the king: no Matto either
    play_script(s, DEAL1_PLAY[2:4])
    assert winners(s) == [2]


def test_deal1_full():
    s = _run_deal1()
    play_script(s, DEAL1_PLAY)
    assert s.is_terminal()
    assert winners(s) == [2, 2, 2, 2, 3, 0, 0, 1, 3, 2, 0, 3, 3, 0, 3, 1, 2, 2, 2, 2, 2]
    assert event_rows(s) == DEAL1_EVENTS
    res = s.result()
    assert res.matto == (1, True, mask("T12").bit_length() - 1, False)  # lowest 0-value card
    assert res.end_counts is not None
    for count, (pts, combos, cards, surplus, last, total) in zip(
        res.end_counts, DEAL1_COUNTS, strict=True
    ):
        assert (count.card_points, count.combo_points, count.cards) == (pts, combos, cards)
        assert (count.surplus, count.last_trick, count.total) == (surplus, last, total)
    assert [c.members for c in res.end_counts[0].combos] == [
        mask("T1 T2 T3 T4 T5"),
        mask("T37 T38 T39 T40"),
    ]
    assert [(c.members, c.bonus) for c in res.end_counts[1].combos] == [
        (mask("T30 T31 T32"), 5),
        (mask("T34 T35 T36"), 5),
    ]
    assert (res.d_final, res.r_play, res.end_resti, res.resti) == (88, 0, 2, 2)
    assert s.returns() == (2, -2, 2, -2)


def test_deal1_agent_payment():
    """The same deal with matto_payment = agent: S1 hands over Kb instead of T12. A's pile gains
    5 card points and a third king (kings Kc Kd Kb = 15): T_A = 92 + 72 + 14 + 10 = 188;
    T_B = 50 + 45 = 95; net 93; D = 20 + 93 = 113; end rounding 2; R = 2."""
    s = _run_deal1(Rules(matto_payment="agent"))
    play_script(s, DEAL1_PLAY)
    assert s.phase is Phase.MATTO_PAY and s.to_play == 1
    assert s.legal_mask() == s.piles[B] & ~mask("M")
    play_script(s, [(1, "pay Kb")])
    res = s.result()
    assert res.end_counts is not None
    assert [c.total for c in res.end_counts] == [188, 95]
    assert res.events[-1][:3] == (A, 93, "final")
    assert (res.d_final, res.resti) == (113, 2)


# ----------------------------------------------------------------------------------- deal 2
# Dealer S2; cutter S1 (team B) robs the full 13: T40..T33 and T21..T25. The 14th card, Kb, goes
# to the bottom of the 84-card pack: it is the dealer's face-up 21st card. The Fola is empty, so
# the dealer neither robs nor takes; S1 discards 13. Dealing order S3, S0, S1, S2; S3 leads.
DEAL2 = build_stream(
    dealer=2,
    robbed="T40 T39 T38 T37 T36 T35 T34 T33 T21 T22 T23 T24 T25",
    stop="Kb",
    hands={
        3: ("M T2 T3 T4 T5 T6 T7 T8 Jc Ac", "2c Jd Ad 2d Js 10s 9s Jb 10b 9b T1"),
        0: ("T9 T10 T11 T12 T13 T14 T15 T16 T17 7c", "8c Kd 7d 8d Ks 4s 3s Nb 8b 7b Kc"),
        1: ("Qc 5c 6c Qd 5d 6d Qs 6s 5s Qb", "6b 5b 9c 10c 9d 10d As 2s Ab 2b T26"),
        2: ("T18 T19 T20 T27 T28 T29 T30 T31 T32 4b", "3b Nc 3c 4c Nd 3d 4d Ns 8s 7s Kb"),
    },
    fola="",  # r = 13: the pack is exactly 84 cards; its bottom card Kb is the stop card
)

DEAL2_DECISIONS = [
    *[(1, f"discard {c}") for c in codes("T21 T22 T23 T24 T25 9c 10c 9d 10d As 2s Ab 2b")],
    (3, "declare"),  # T1..T5 = 17, + 5 for the Matto in hand = 22
    (0, "declare"),  # kings Kc Kd Ks = 15
    (1, "declare"),  # T33..T40 = 15 + 50 = 65
    (2, "declare"),  # T28..T32 = 25 (T29 counts 5 in a run)
]

DEAL2_PLAY = tricks(
    "S3 T1, S0 T10, S1 T40, S2 T20",  # 1
    "S1 T39, S2 T28, S3 T2, S0 T13",  # 2
    "S1 T38, S2 T30, S3 T3, S0 T9",  # 3
    "S1 T37, S2 T31, S3 T4, S0 T11",  # 4
    "S1 T36, S2 T32, S3 T5, S0 T12",  # 5
    "S1 T35, S2 T29, S3 T6, S0 T14",  # 6
    "S1 T34, S2 T27, S3 T7, S0 T15",  # 7
    "S1 T33, S2 T19, S3 T8, S0 T16",  # 8
    "S1 T26, S2 T18, S3 M, S0 T17",  # 9 the Matto in a trick its own team wins: no debt
    "S1 Qc, S2 Nc, S3 Jc, S0 Kc",  # 10
    "S0 Kd, S1 Qd, S2 Nd, S3 Jd",  # 11
    "S0 Ks, S1 Qs, S2 Ns, S3 Js",  # 12
    "S0 7b, S1 5b, S2 Kb, S3 9b",  # 13
    "S2 3c, S3 Ac, S0 7c, S1 5c",  # 14
    "S3 10s, S0 4s, S1 6s, S2 8s",  # 15 long suit: 10 high
    "S3 Ad, S0 7d, S1 5d, S2 3d",  # 16
    "S3 Jb, S0 Nb, S1 Qb, S2 4b",  # 17
    "S1 6c, S2 4c, S3 2c, S0 8c",  # 18
    "S3 2d, S0 8d, S1 6d, S2 4d",  # 19
    "S3 9s, S0 3s, S1 5s, S2 7s",  # 20
    "S3 10b, S0 8b, S1 6b, S2 3b",  # 21
)

DEAL2_EVENTS = [
    (B, 65, "cutter_rob", -5, -1),  # T33..T35 15 + T36..T40 50; -65 converts one resto
    (B, 5, "faceup", -10, -1),  # S3's T1 (S1's T26 is worth 0)
    (A, 5, "faceup", -5, -1),  # S0's Kc
    (A, 5, "faceup", 0, -1),  # S2's Kb (the stop card)
    (B, 22, "declare", -22, -1),  # S3
    (A, 15, "declare", -7, -1),  # S0
    (B, 65, "declare", -12, -2),  # S1: -72 converts
    (A, 25, "declare", 13, -2),  # S2
    (B, 10, "capture", 3, -2),  # t1: T10 + T20
    (B, 10, "capture", -7, -2),  # t2: T28 + T13
    (B, 5, "capture", -12, -2),  # t3: T30
    (B, 5, "capture", -17, -2),  # t4: T31
    (B, 5, "capture", -22, -2),  # t5: T32
    (B, 305, "final", -327, -8),  # T_A 40 - T_B 345; end rounding -ceil(327 / 60) = -6
]

# A won tricks 10-13: the four kings and 12 suit cards. 20 card points + 4 kings (20) = 40.
# B won the other 17 tricks (68 cards, the Matto included): 142 - 20 = 122 card points. Pile
# combinations, each +5 for the Matto except 1-40-M: T1..T5 17 + 5, T28..T40 90 + 5, 1-13-28
# 15 + 5, 10-20-30-40 25 + 5, 1-40-M 20 = 187. Surplus 68 - 42 = 26; last trick 10. T_B = 345.
DEAL2_COUNTS = ((20, 20, 16, 0, 0, 40), (122, 187, 68, 26, 10, 345))


def test_deal2_full():
    s = State.new(make_deal(2, DEAL2))
    st = s.setup
    assert len(st.robbed) == 13 and labels(1 << st.stop) == ["Kb"] and not st.stop_in_fola
    assert st.faceup[2] == st.stop and st.fola == 0 and st.dealer_robbed == ()
    assert s.phase is Phase.DISCARD_CUTTER and s.to_play == 1 and s.hands[1].bit_count() == 34
    play_script(s, DEAL2_DECISIONS)
    assert s.phase is Phase.PLAY and s.to_play == 3
    assert s.fola.bit_count() == 13 and s.fola == s.discards[1]
    play_script(s, DEAL2_PLAY)
    assert winners(s) == [1] * 9 + [0, 0, 0, 2, 3, 3, 3, 1, 3, 3, 3, 3]
    assert event_rows(s) == DEAL2_EVENTS
    res = s.result()
    assert res.matto == (3, False, -1, False)
    assert res.end_counts is not None
    got = [(c.card_points, c.combo_points, c.cards, c.surplus, c.last_trick, c.total)
           for c in res.end_counts]  # fmt: skip
    assert got == list(DEAL2_COUNTS)
    assert (res.d_final, res.r_play, res.end_resti, res.resti) == (-327, -2, -6, -8)
    assert s.returns() == (-8, 8, -8, 8)

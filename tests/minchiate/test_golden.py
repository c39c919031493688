"""Full golden deals worked out by hand from RULES.md Part A (default flags).

Each deal gives the stream (built from the intended packets by the M-5.4 / M-6.1 index form),
every decision, and the expected robbed and face-up cards, every scoring event with D and R after
it, the trick winners, the Matto settlement, both end counts and the final resti. The numbers in
the comments are the hand count; the engine must agree with them.
"""

from mazzo.envs.minchiate import Phase, Rules, State, make_deal
from mazzo.envs.minchiate.combos import HIGH_RUN, LOW_RUN

from .deals import DEAL1, DEAL1_DECISIONS, DEAL1_PLAY, DEAL2, DEAL2_DECISIONS, DEAL2_PLAY
from .helpers import labels, mask, play_script

A, B = 0, 1


def winners(state: State) -> list[int]:
    return [w for _, _, w in state.tricks]


def event_rows(state: State) -> list[tuple[int, int, str, int, int]]:
    return [(e.team, e.points, e.cause, e.d_after, e.r_after) for e in state.events]


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
    res = s.outcome()
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
    res = s.outcome()
    assert res.end_counts is not None
    assert [c.total for c in res.end_counts] == [188, 95]
    assert res.events[-1][:3] == (A, 93, "final")
    assert (res.d_final, res.resti) == (113, 2)


# ----------------------------------------------------------------------------------- deal 2
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
    res = s.outcome()
    assert res.matto == (3, False, -1, False)
    assert res.end_counts is not None
    got = [(c.card_points, c.combo_points, c.cards, c.surplus, c.last_trick, c.total)
           for c in res.end_counts]  # fmt: skip
    assert got == list(DEAL2_COUNTS)
    assert (res.d_final, res.r_play, res.end_resti, res.resti) == (-327, -2, -6, -8)
    assert s.returns() == (-8, 8, -8, 8)

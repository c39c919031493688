"""The C.3 Minchiate flags, each checked against hand-derived values: the golden deals replayed
under other flags, a deal built so that discarding is impossible, and last-trick Matto
positions."""

import pytest

from mazzo.envs.cards.errors import IllegalAction
from mazzo.envs.minchiate import Phase, Rules, State, make_deal
from mazzo.envs.minchiate.deck import MINCHIATE_97

from .deals import (
    DEAL1,
    DEAL1_DECISIONS,
    DEAL1_PLAY,
    DEAL2,
    DEAL2_DECISIONS,
    DEAL2_PLAY,
    impossible_stream,
)
from .helpers import codes, mask, play_position, play_script

A, B = 0, 1
NO_DECLARE = [step for step in DEAL1_DECISIONS if step[1].startswith("discard")]


def deal1(rules: Rules, decisions=DEAL1_DECISIONS, plays=DEAL1_PLAY) -> State:
    s = State.new(make_deal(0, DEAL1), rules)
    play_script(s, decisions)
    play_script(s, plays)
    assert s.is_terminal()
    return s


def d_path(s: State) -> list[int]:
    return [e.d_after for e in s.events]


def test_faceup_dealer_only():
    """Only S0's 9c (worth 0) is face up: the events B 3, A 5, B 5 of the other 21st cards
    disappear, so every later D is 3 higher than in deal 1. Final 91 -> 2 resti."""
    s = deal1(Rules(faceup_21st="dealer_only"))
    assert s.setup.faceup == (MINCHIATE_97.parse("9c"), -1, -1, -1)
    assert d_path(s) == [-10, 0, -11, 9, 14, 22, 30, 20, 23, 33, 28, 23, 91]
    assert s.R == 2
    assert s.info_view(1).faceup == s.setup.faceup


def test_dealer_takes_counters_only():
    s = State.new(make_deal(0, DEAL1), Rules(dealer_takes="counters_only"))
    assert s.setup.dealer_taken == mask("Kc")
    assert s.setup.fola == mask("T23 T24 T25 T26 T27 T29 5s 6c")
    play_script(s, DEAL1_DECISIONS[:2])
    assert s.phase is Phase.DISCARD_DEALER and s.to_discard == 3  # robbed 2 + taken 1


def test_score_taken_cards():
    """The taken Kc (5) and T29 (0) score one event for A right after the dealer's robbing."""
    s = deal1(Rules(score_taken_cards=True))
    assert [(e.team, e.points, e.cause) for e in s.events[4:6]] == [
        (A, 10, "dealer_rob"),
        (A, 5, "dealer_take"),
    ]
    assert d_path(s) == [-10, -13, -8, -13, -3, 2, -9, 11, 16, 24, 32, 22, 25, 35, 30, 25, 93]
    assert s.R == 2


def test_capture_bonus_off():
    s = deal1(Rules(capture_bonus=False))
    assert [e.cause for e in s.events].count("capture") == 0
    assert s.events[-1].d_after == 6 + 68 and s.R == 2


def test_declaration_score_timing_end():
    """No declare events; the declared 20 (A) and 11 (B) join the end counts: 188 - 111 = 77."""
    s = deal1(Rules(declaration_score_timing="end"))
    assert "declare" not in [e.cause for e in s.events]
    assert d_path(s) == [-10, -13, -8, -13, -3, 2, 10, 18, 8, 11, 21, 16, 11, 88]
    counts = s.outcome().end_counts
    assert counts is not None
    assert [(c.declared, c.total) for c in counts] == [(20, 188), (11, 111)]
    assert s.R == 2


def test_declarations_auto_all():
    """S3 declares both offers (11 + 15 = 26), S0 his run (20); no DECLARE decisions."""
    s = State.new(make_deal(0, DEAL1), Rules(declarations="auto_all"))
    play_script(s, NO_DECLARE)
    assert s.phase is Phase.PLAY
    play_script(s, DEAL1_PLAY)
    assert [(e.points, e.d_after) for e in s.events if e.cause == "declare"] == [
        (26, -29),
        (20, -9),
    ]
    assert d_path(s)[-1] == 5 + 68 and s.R == 2


def test_declare_timing_with_first_card():
    """Each player declares right after his card of trick 1 (combinations of his 21 cards); the
    Fola is exposed after the last declaration, before the trick is gathered. The events are
    those of the default timing."""
    s = State.new(make_deal(0, DEAL1), Rules(declare_timing="with_first_card"))
    play_script(s, NO_DECLARE)
    assert s.phase is Phase.PLAY and s.to_play == 1
    play_script(s, DEAL1_PLAY[:3])  # S1 2d, S2 T6: no combinations; S3 Kd
    assert s.phase is Phase.DECLARE and s.to_play == 3
    offered = s.offered()
    assert offered is not None and offered.members == mask("T1 T2 T3")
    play_script(s, [(3, "declare"), (3, "skip")])
    assert s.phase is Phase.PLAY and s.to_play == 0 and not s.fola_exposed
    play_script(s, [(0, "play 3d"), (0, "declare")])
    assert s.fola_exposed and len(s.tricks) == 1 and s.to_play == 2
    play_script(s, DEAL1_PLAY[4:])
    reference = deal1(Rules())
    assert s.events == reference.events and s.returns() == reference.returns()


def test_fola_exposure_never():
    s = State.new(make_deal(0, DEAL1), Rules(fola_exposure="never"))
    play_script(s, DEAL1_DECISIONS)
    assert s.phase is Phase.PLAY and not s.fola_exposed
    assert s.info_view(1).fola_known == mask("6c")  # only the public stop card
    assert s.info_view(3).fola_known == mask("6c T22 7s")  # plus S3's own discards
    assert s.info_view(0).fola_known == mask("6c 5s T23 T24 T25 T26 T27 T21 8s 9s 10s")


def test_king_rule_off():
    s = State.new(make_deal(0, DEAL1), Rules(king_rule=False))
    play_script(s, DEAL1_DECISIONS)
    play_script(s, DEAL1_PLAY[:2])
    assert s.legal_mask() == mask("Kd Qd Nd 9d 10d")


def test_must_overtrump():
    """Deal 1's trick 5 as a position: S2 leads T35; S3 must beat it (T36 only), then S0 must
    beat T36 (T39 only); S1 cannot beat T39: any trump, and the Matto stays legal."""
    hands = {2: "T35", 3: "T3 T11 T12 T32 T36", 0: "T28 T29 T30 T31 T39", 1: "T14 M 4c"}
    s = play_position(hands, 2, rules=Rules(must_overtrump=True))
    play_script(s, [(2, "play T35")])
    assert s.legal_mask() == mask("T36")
    with pytest.raises(IllegalAction, match="must overtrump T35"):
        s.apply(s.parse_action("play T32"))
    play_script(s, [(3, "play T36")])
    assert s.legal_mask() == mask("T39")
    play_script(s, [(0, "play T39")])
    assert s.legal_mask() == mask("T14 M")
    default = play_position(hands, 2)
    play_script(default, [(2, "play T35")])
    assert default.legal_mask() == mask("T3 T11 T12 T32 T36")
    # A plain suit led: a void player who trumps over a trump must overtrump too.
    s = play_position(
        {0: "4c", 1: "T9", 2: "T5 T12 5d", 3: "Kc"}, 0, ["c"], Rules(must_overtrump=True)
    )
    play_script(s, [(0, "play 4c"), (1, "play T9")])
    assert s.legal_mask() == mask("T12")


def test_end_count_flags():
    """T_A = 87 + 57 + 14 + 10, T_B = 55 + 45 by default (test_golden)."""
    s = deal1(Rules(end_recount_combos=False))
    counts = s.outcome().end_counts
    assert counts is not None and [c.total for c in counts] == [111, 55]
    assert counts[0].combos == () and s.events[-1].d_after == 20 + 56
    s = deal1(Rules(matto_bonus_at_end=False))
    counts = s.outcome().end_counts
    assert counts is not None and [c.combo_points for c in counts] == [57, 35]
    s = deal1(Rules(surplus_base=50, last_trick_bonus=0))
    counts = s.outcome().end_counts
    assert counts is not None and [(c.surplus, c.last_trick, c.total) for c in counts] == [
        (6, 0, 150),
        (0, 0, 100),
    ]
    assert s.events[-1].d_after == 70 and s.R == 2


def test_resti_unit():
    """Unit 20: D reaches 27 after trick 4 (one resto, D = 7); the rest stays within 20 until
    the final +68: D = 68, end rounding ceil(68 / 20) = 4, R = 5."""
    s = deal1(Rules(resti_unit=20))
    assert d_path(s) == [-10, -13, -8, -13, -3, -14, 6, 11, 19, 7, -3, 0, 10, 5, 0, 68]
    assert [e.r_after for e in s.events][8:10] == [0, 1]
    assert s.R == 5


def test_diecine_two_triples_at_end():
    """Deal 2: B's pile holds T10 T20 T30 T40: 10-20-30 (15 + 5) and 20-30-40 (20 + 5) = 45
    instead of 30; T_B = 360, net -320, D = -342, end rounding -6, R = -8."""
    s = State.new(make_deal(2, DEAL2), Rules(diecine="two_triples"))
    play_script(s, DEAL2_DECISIONS)
    play_script(s, DEAL2_PLAY)
    counts = s.outcome().end_counts
    assert counts is not None and counts[1].total == 360
    assert s.events[-1].d_after == -342 and s.R == -8


def test_rob_cap():
    s = State.new(make_deal(0, DEAL1), Rules(rob_cap=1))
    st = s.setup
    assert [MINCHIATE_97.labels[c] for c in st.robbed] == ["T36"]
    assert MINCHIATE_97.labels[st.stop] == "T22" and st.stop_in_fola  # a qualifying stop card
    # The pack shifts by one: the Fola is 9c T39 T21 5s T29 Kc T23..T27 T22; 9c stops the dealer.
    assert st.dealer_robbed == () and st.dealer_taken == mask("T39 T29 Kc")
    assert st.fola == mask("9c T21 5s T23 T24 T25 T26 T27 T22")
    s0 = State.new(make_deal(0, DEAL1), Rules(rob_cap=0))
    assert s0.setup.robbed == () and s0.phase is Phase.DISCARD_DEALER
    with pytest.raises(ValueError, match="rob_cap"):
        Rules(rob_cap=14)


# ------------------------------------------------------------------ impossible discards (MA-9)
def test_impossible_discard_redeal():
    s = State.new(make_deal(0, impossible_stream()))
    assert s.is_terminal() and s.is_void() and s.returns() == (0, 0, 0, 0)
    assert s.legal_mask() == 0 and s.outcome().void
    with pytest.raises(IllegalAction, match="the deal is void"):
        s.apply(0)


def test_impossible_discard_relax():
    """The 8 zero cards first, then T29, then the 3-point cards T2..T5 (any order within)."""
    s = State.new(make_deal(0, impossible_stream()), Rules(impossible_discard="relax"))
    assert s.phase is Phase.DISCARD_CUTTER and s.to_discard == 13
    zeros = codes("2c 3c 4c 5c 7c 8c 9c 10c")
    for card in zeros:
        assert s.legal_mask() == mask(" ".join(zeros[zeros.index(card) :]))
        play_script(s, [(3, f"discard {card}")])
    assert s.legal_mask() == mask("T29")
    play_script(s, [(3, "discard T29")])
    assert s.legal_mask() == mask("T2 T3 T4 T5")
    with pytest.raises(IllegalAction, match="lowest-valued"):
        s.apply(s.parse_action("discard T1"))
    play_script(s, [(3, f"discard {c}") for c in codes("T5 T3 T2 T4")])
    assert s.phase is not Phase.DISCARD_CUTTER and s.hands[3].bit_count() == 21


def test_discard_rule_any():
    s = State.new(make_deal(0, impossible_stream()), Rules(discard_rule="any"))
    assert s.legal_mask() == s.hands[3]  # 34 cards, counters included
    play_script(s, [(3, "discard T40")])
    assert s.fola & mask("T40")


# ------------------------------------------------------------------ the Matto in trick 21
def last_trick(plays: str, piles: tuple[str, str], rules: Rules) -> State:
    """Trick 21 led by S0 (20 earlier tricks stubbed); ``plays`` in seat order S0..S3."""
    cards = plays.split()
    s = play_position({seat: cards[seat] for seat in range(4)}, 0, rules=rules)
    s.tricks = [(0, (), 0)] * 20
    s.piles = [mask(piles[0]), mask(piles[1])]
    play_script(s, [(seat, f"play {cards[seat]}") for seat in range(4)])
    assert s.is_terminal()
    return s


def matto(s: State) -> tuple[int, bool, str, bool]:
    m = s.outcome().matto
    assert m is not None
    return m.owner, m.debt, MINCHIATE_97.labels[m.paid] if m.paid >= 0 else "", m.lost


def test_matto_last_trick_default_and_lost():
    default = last_trick("3c M Kc 4c", ("T8", "T6 T7"), Rules())
    assert matto(default) == (1, True, "T6", False)  # B owes; pays its lowest 0-card
    assert default.piles[B] == mask("T7 M")
    lost = last_trick("3c M Kc 4c", ("T8", "T6 T7"), Rules(matto_last_trick_lost=True))
    assert matto(lost) == (1, False, "", True)
    assert lost.piles[A] == mask("T8 3c Kc 4c M")
    assert [e.cause for e in lost.events] == ["final"]  # no death bonus without its flag
    own = last_trick("3c M 4c Kc", ("T8", "T6 T7"), Rules(matto_last_trick_lost=True))
    assert matto(own) == (1, False, "", True) and own.piles[A] == mask("T8 M")


def test_matto_death_bonus():
    rules = Rules(matto_last_trick_lost=True, matto_death_bonus=True)
    s = last_trick("3c M Kc 4c", ("T8", "T6 T7"), rules)
    # A wins trick 21; no capture (the Matto never counts, 4c is 0); the lost Matto scores 5
    # for A at once. End: T_A = Kc 5 + M 5 + last trick 10 = 20, T_B = 0 (T6, T7).
    assert [(e.team, e.points, e.cause) for e in s.events] == [
        (A, 5, "matto_death"),
        (A, 20, "final"),
    ]
    # No trick for B at all: the Matto itself goes over at the settlement (M-13.1).
    s = last_trick("3c M Kc 4c", ("T8", ""), Rules(matto_death_bonus=True))
    assert matto(s) == (1, True, "", True) and s.piles[A] & mask("M")
    assert [e.cause for e in s.events] == ["matto_death", "final"]

"""The worked examples of RULES.md E.2 (CX-1 to CX-7), each as a test."""

import pytest

from mazzo.envs.calabresella.actions import BID_BASE, PASS, SPLIT_BASE, Phase
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.calabresella.match import Match
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.scoring import pile_thirds, settle
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.errors import IllegalAction

from .helpers import cards, deck_from_positions, new_state, play
from .test_golden import DEAL1, DEAL2, FAIL4_SCRIPT, SOLO2_SCRIPT


# ---------------------------------------------------------------------------------- CX-1
def test_cx1_counting_and_truncation():
    pile = cards("As Ab Ad 3c 2c Kc Jd Ns Js 4c 5d 6s 7b")
    assert pile_thirds(pile) == 15
    made = settle(Rules(), 1, 0, 15, 6, last_side=0)
    assert made.points == (6, 5) and made.success
    failed = settle(Rules(), 1, 0, 15, 6, last_side=1)
    assert failed.points == (5, 6) and not failed.success


@pytest.mark.parametrize(("s", "before"), [(18, (6, 4)), (16, (5, 5)), (17, (5, 5))])
def test_cx1_remainder_cases_always_total_11(s, before):
    for last in (0, 1):
        st = settle(Rules(), 0, 0, s, 6, last_side=last)
        assert (st.points[0] - (last == 0), st.points[1] - (last == 1)) == before
        assert sum(st.points) == 11


def test_total_is_always_exactly_11_ca8():
    for s in range(33):
        for last in (0, 1):
            assert sum(settle(Rules(), 0, 0, s, 6, last).points) == 11


# ---------------------------------------------------------------------------------- CX-2
def _auction_state():
    return new_state(list(ITALIAN_40.labels), dealer=2)  # A0 = S0, A1 = S1, A2 = S2


def _labels(mask):
    return [ITALIAN_40.labels[a] if a < 40 else a for a in bit_list(mask)]


def test_cx2a_higher_bid_wins():
    s = _auction_state()
    play(s, [(0, "pass"), (1, "bid chiamo"), (2, "bid solo")])
    assert s.contract_name() == "solo" and s.seat_of[s.soloist] == 2
    assert s.rules.contract_values[s.contract] == 2


def test_cx2b_lower_bid_is_masked_and_rejected():
    s = _auction_state()
    play(s, [(0, "bid solo")])
    legal = bit_list(s.legal_mask())
    assert legal == [PASS, BID_BASE + 2, BID_BASE + 3, BID_BASE + 4]
    with pytest.raises(IllegalAction, match="bid chiamo"):
        s.apply(BID_BASE)


def test_cx2c_after_scegliete_only_pass():
    s = _auction_state()
    play(s, [(0, "bid scegliete")])
    assert bit_list(s.legal_mask()) == [PASS]
    play(s, [(1, "pass"), (2, "pass")])
    assert s.seat_of[s.soloist] == 0 and s.rules.contract_values[s.contract] == 16
    assert s.phase is Phase.SPLIT


def test_cx2d_all_pass_is_void():
    s = _auction_state()
    play(s, [(0, "pass"), (1, "pass"), (2, "pass")])
    assert s.is_terminal() and s.is_void() and s.returns() == (0, 0, 0)
    assert s.result() == {"void": True, "dealer": 2, "contract": None, "returns": [0, 0, 0]}


def test_cx2e_equal_bid_is_illegal():
    s = _auction_state()
    play(s, [(0, "bid chiamo"), (1, "pass")])
    with pytest.raises(IllegalAction, match="illegal action 'bid chiamo'"):
        s.apply(s.parse_action("bid chiamo"))


# ---------------------------------------------------------------------------------- CX-4
def test_cx4_scegliete_split_encoding():
    monte = "4c 6s Kc As"
    deck = deck_from_positions(
        "3c 2c Ac 5c 6c 7c Jc Nc 3d 2d Ad Kd",
        "Nd Jd 7d 6d 5d 4d 3s 2s Ks Ns Js 7s",
        "5s 4s 3b 2b Ab Kb Nb Jb 7b 6b 5b 4b",
        monte,
    )
    assert sorted(ITALIAN_40.parse(c) for c in monte.split()) == [3, 9, 20, 25]

    def after_split(label):
        s = new_state(deck, dealer=2)
        play(s, [(0, "bid scegliete"), (1, "pass"), (2, "pass")])
        action = s.parse_action(label)
        s.apply(action)
        return s, action

    s, action = after_split("split 6")
    assert action == 52 == SPLIT_BASE + 0b0110
    assert s.received[s.d1] == cards("Kc As") and s.received[s.d2] == cards("4c 6s")
    assert (s.to_play, s.left) == (s.seat_of[s.d1], 2)
    s, action = after_split("split 15")
    assert action == 61 and s.received[s.d1] == cards(monte) and s.left == 4
    s, action = after_split("split 0")
    assert action == 46 and s.received[s.d2] == cards(monte)
    assert (s.to_play, s.left) == (s.seat_of[s.d2], 4)


def test_only_2_2_splits_flag():
    s = new_state(DEAL1, dealer=0, rules=Rules(scegliete_splits="only_2_2"))
    play(s, [(1, "bid scegliete"), (2, "pass"), (0, "pass")])
    assert [a - SPLIT_BASE for a in bit_list(s.legal_mask())] == [3, 5, 6, 9, 10, 12]


# ---------------------------------------------------------------------------------- CX-5
@pytest.mark.parametrize(
    ("contract", "sol_thirds", "sol_tricks", "last", "m", "success", "raw_sol", "raw_def", "pw"),
    [
        (1, 21, 8, 0, 1, True, 2, 0, (4, -2)),  # Solo, 7 - 4
        (1, 15, 6, 1, 1, False, 0, 2, (-4, 2)),  # Solo, 5 - 6
        (2, 32, 12, 0, 2, True, 8, 0, (16, -8)),  # Solissimo cappotto
        (0, 0, 0, 1, 2, False, 0, 2, (-4, 2)),  # Chiamo, defenders' cappotto
        (2, 30, 11, 0, 3, True, 12, 0, (24, -12)),  # Solissimo stramazzo
        (3, 2, 1, 1, 3, False, 0, 24, (-48, 24)),  # Dividete, defenders' stramazzo
        (4, 14, 5, 1, 1, False, 0, 16, (-32, 16)),  # Scegliete failed
    ],
)
def test_cx5_payouts(contract, sol_thirds, sol_tricks, last, m, success, raw_sol, raw_def, pw):
    st = settle(Rules(), contract, 0, sol_thirds, sol_tricks, last)
    assert (st.multiplier, st.success) == (m, success)
    assert st.raw == (raw_sol, raw_def, raw_def)
    assert st.pairwise == (pw[0], pw[1], pw[1]) and sum(st.pairwise) == 0


def test_cx5_stramazzo_flags():
    assert settle(Rules(stramazzo=False), 2, 0, 30, 11, 0).raw[0] == 4
    raw_zero = settle(Rules(stramazzo_def="raw_zero"), 2, 0, 30, 11, 0)
    assert raw_zero.multiplier == 1  # the defenders hold 2 thirds > 0
    assert settle(Rules(cappotto_mult=4), 2, 0, 32, 12, 0).raw[0] == 16


def test_payout_mode_difference_and_raw_rewards():
    st = settle(Rules(payout_mode="difference"), 1, 0, 21, 8, 0)  # 8 - 3: difference 5
    assert st.unit == 2 * 5 and st.pairwise == (20, -10, -10)
    s = new_state(DEAL2, dealer=2, rules=Rules(reward_mode="raw"))
    play(s, SOLO2_SCRIPT)
    assert s.returns() == (0, 2, 0)


# ---------------------------------------------------------------------------------- CX-6
def _rotated(deck, dealer, script, seat_map):
    """The same deck and positions with another dealer: seats in the script are renamed."""
    return deck, dealer, [(seat_map[s], label) for s, label in script]


def _match(rules, deck, dealer, totals):
    first = Deal.from_codes(ITALIAN_40, dealer, deck, 3)
    return Match(rules, first, lambda d: Deal(d, tuple(range(40))), totals=totals)


@pytest.mark.parametrize(("rule", "winners"), [("individual", [0]), ("seed_sum", [1, 2])])
def test_cx6a_solo_success_for_s0(rule, winners):
    # SOLO2 with dealer S1: positions A0, A1, A2 are S2, S0, S1, so S0 is the soloist.
    deck, dealer, script = _rotated(DEAL2, 1, SOLO2_SCRIPT, {0: 2, 1: 0, 2: 1})
    m = _match(Rules(match_rule=rule), deck, dealer, [19, 12, 15])
    play_match(m, script)
    assert m.totals == [21, 12, 15]
    assert list(m.winners) == winners and m.is_terminal()


@pytest.mark.parametrize(("rule", "winners"), [("individual", []), ("seed_sum", [0, 2])])
def test_cx6b_chiamo_failure_for_s1(rule, winners):
    # FAIL4 with dealer S2: positions A0, A1, A2 are S0, S1, S2, so S1 is the soloist.
    deck, dealer, script = _rotated(DEAL1, 2, FAIL4_SCRIPT, {1: 0, 2: 1, 0: 2})
    m = _match(Rules(match_rule=rule), deck, dealer, [19, 12, 15])
    play_match(m, script)
    assert m.totals == [20, 12, 16]
    assert list(m.winners) == winners
    if not winners:  # play continues: the next deal is dealt by the next dealer
        assert not m.is_terminal() and m.state.deal.dealer == 0 and len(m.finished) == 1


def test_cx6c_tie_at_the_top_means_one_more_deal():
    deck, dealer, script = _rotated(DEAL1, 2, FAIL4_SCRIPT, {1: 0, 2: 1, 0: 2})
    m = _match(Rules(), deck, dealer, [20, 5, 20])
    play_match(m, script)
    assert m.totals == [21, 5, 21] and not m.winners and m.state.phase is Phase.BID


def play_match(m, script):
    for seat, label in script:
        assert m.to_play == seat
        m.apply(m.parse_action(label))


def test_all_pass_redeal_rules_in_a_match():
    for how, dealer, no_chiamo in [
        ("redeal_same_dealer", 2, False),
        ("redeal_next_dealer", 0, False),
        ("next_deal_no_chiamo", 2, True),
    ]:
        m = _match(Rules(all_pass=how), list(ITALIAN_40.labels), 2, None)
        play_match(m, [(0, "pass"), (1, "pass"), (2, "pass")])
        assert m.state.deal.dealer == dealer and m.state.no_chiamo == no_chiamo
        assert m.totals == [0, 0, 0] and len(m.finished) == 1
        if no_chiamo:
            assert not (m.legal_mask() >> BID_BASE) & 1


def test_forced_chiamo_eldest():
    s = new_state(list(ITALIAN_40.labels), 2, Rules(all_pass="forced_chiamo_eldest"))
    play(s, [(0, "pass"), (1, "pass"), (2, "pass")])
    assert s.phase is Phase.CALL and s.soloist == 0 and s.contract_name() == "chiamo"


# ---------------------------------------------------------------------------------- CX-7
def test_cx7_four_players():
    rules = Rules(players=4)
    deck = [ITALIAN_40.labels[(7 * i) % 40] for i in range(40)]
    s = new_state(deck, 3, rules)
    assert s.seat_of == (0, 1, 2) and s.to_play == 0
    order = [ITALIAN_40.parse(c) for c in deck]
    for pos, seat in enumerate((0, 1, 2)):
        expect = sum(1 << order[12 * j + 4 * pos + i] for j in range(3) for i in range(4))
        assert s.hands[pos] == expect, seat
    play(s, [(0, "pass"), (1, "bid solissimo"), (2, "pass")])
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    assert s.returns()[3] == 0 and sum(s.returns()) == 0
    nxt = new_state(deck, 0, rules)
    assert nxt.seat_of == (1, 2, 3)

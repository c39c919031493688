"""The arena's numbers on a synthetic run with answers derived by hand: two agents A and B,
three players, the six duplicate lineups, three deals:

- deal 0: whoever sits in S0 is soloist of a Chiamo and makes it: payoffs (2, -1, -1) in every
  lineup (a seat advantage, no skill);
- deal 1: a Solo by S0 that A makes and B fails: (2, -1, -1) when A sits in S0, (-2, 1, 1) when
  B does;
- deal 2: void in every lineup.
"""

import math

import pytest

from mazzo.arena.report import format_table, summary_json
from mazzo.arena.runner import ArenaRun, make_plan
from mazzo.arena.stats import ELO_PER_NATURAL
from mazzo.arena.summary import deal_diffs, summarize, tally
from mazzo.arena.table import GameOutcome
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game

T975_2DF = 4.302652729749464  # t(0.975, 2), table 4.303


def _game(payoffs, contract=None, success=None):
    return GameOutcome(
        payoffs=payoffs,
        void=contract is None,
        contract=contract,
        soloist=0 if contract else None,
        success=success,
        decisions=(1, 1, 1),
        seconds=(0.001, 0.002, 0.003),
    )


@pytest.fixture(scope="module")
def run():
    deals = generate_deals(get_game("calabresella"), get_game("calabresella").rules({}), 3, seed=0)
    plan = make_plan(deals, ["A=random", "B=random"], "pairs", seed=0)
    A = 0
    assert plan.lineups == ((0, 1, 1), (1, 1, 0), (1, 0, 1), (1, 0, 0), (0, 0, 1), (0, 1, 0))
    deal0 = tuple(_game((2, -1, -1), "chiamo", True) for _ in plan.lineups)
    deal1 = tuple(
        _game((2, -1, -1), "solo", True) if lu[0] == A else _game((-2, 1, 1), "solo", False)
        for lu in plan.lineups
    )
    deal2 = tuple(_game((0, 0, 0)) for _ in plan.lineups)
    return ArenaRun(plan, (deal0, deal1, deal2), seconds=2.0, workers=1)


def test_mean_payoff_and_interval(run):
    s = summarize(run)
    a, b = s.agents
    # A's 9 seat-games per deal. Deal 0: seat 0 three times (+2), seats 1 and 2 three times
    # each (-1): total 0. Deal 1: lineups AYY +2, AAB +2-1, ABA +2-1, BBA +1, BAB +1,
    # BAA +1+1: total 8. Deal 2: 0. Deal scores 0, 8/9, 0.
    assert a.mean.mean == pytest.approx(8 / 27) and b.mean.mean == pytest.approx(-8 / 27)
    sd = math.sqrt(((0 - 8 / 27) ** 2 * 2 + (8 / 9 - 8 / 27) ** 2) / 2)
    assert a.mean.sd == pytest.approx(sd)
    assert a.mean.low == pytest.approx(8 / 27 - T975_2DF * sd / math.sqrt(3))
    assert a.mean.high == pytest.approx(8 / 27 + T975_2DF * sd / math.sqrt(3))
    assert a.seat_games == b.seat_games == 27
    # Per seat, over the 3 deals: S0 = (2*3 + 2*3 + 0) / 9 for A; B in S0: (2*3 - 2*3) / 9.
    assert a.seat_means[0] == pytest.approx(12 / 9) and b.seat_means[0] == pytest.approx(0.0)


def test_win_rate_counts(run):
    s = summarize(run)
    a, b = s.agents
    # Positive seat payoffs. A: deal 0 its 3 seat-0 games; deal 1: AYY 1, AAB 1, ABA 1,
    # BBA 1, BAB 1, BAA 2 = 7; deal 2 none. B: deal 0 three; deal 1: BBA (S1 +1) and
    # BAB (S2 +1) = 2.
    assert (a.wins, b.wins) == (10, 5)
    assert a.win_rate.mean == pytest.approx((3 / 9 + 7 / 9 + 0) / 3)
    assert b.win_rate.mean == pytest.approx((3 / 9 + 2 / 9 + 0) / 3)


def test_paired_difference_and_rating(run):
    s = summarize(run, anchor="B")
    (pair,) = s.pairs
    assert (pair.a, pair.b) == ("A", "B")
    # Both always sit together: A - B = (0, 16/9, 0).
    assert pair.diff.mean == pytest.approx(16 / 27)
    assert (pair.a_better, pair.equal, pair.b_better) == (1, 2, 0)
    assert pair.verdict == "no significant difference"  # three deals prove little
    # Duplicate matches: A 1 win + 2 draws = 2 points, B 1; plus one virtual draw each way:
    # 2.5 : 1.5, Elo difference 400 log10(2.5 / 1.5).
    a, b = s.agents
    assert b.elo == 0.0 and a.elo == pytest.approx(400 * math.log10(2.5 / 1.5), abs=1e-6)
    # SE of the difference: 1 / sqrt(n p (1 - p)) with n = 4, p = 0.625.
    assert a.elo_se == pytest.approx(ELO_PER_NATURAL / math.sqrt(4 * 0.625 * 0.375), rel=1e-6)
    centred = summarize(run)
    assert centred.agents[0].elo == pytest.approx(-centred.agents[1].elo)


def test_voids_contracts_and_zero_sum(run):
    s = summarize(run)
    assert (s.games, s.void_games, s.void_deals, s.zero_sum) == (18, 6, 1, True)
    got = {(c.agent, c.contract): (c.bid, c.made, c.seat_games) for c in s.contracts}
    # S0 is the soloist: A sits there in 3 lineups per deal, B in 3.
    assert got == {
        ("A", "chiamo"): (3, 3, 27),
        ("A", "solo"): (3, 3, 27),
        ("B", "chiamo"): (3, 3, 27),
        ("B", "solo"): (3, 0, 27),
    }
    assert [c.contract for c in s.contracts] == ["chiamo", "solo", "chiamo", "solo"]
    solo_b = next(c for c in s.contracts if c.agent == "B" and c.contract == "solo")
    assert solo_b.bid_rate == pytest.approx(3 / 27) and solo_b.made_rate == 0.0


def test_timing_is_summed_per_agent(run):
    t = summarize(run).timing
    # A fills 9 seats per deal, 3 in each seat: 3 deals x 3 x (0.001 + 0.002 + 0.003).
    assert t.decisions == (27, 27)
    assert t.act_seconds[0] == pytest.approx(3 * 3 * 0.006)
    assert (t.seconds, t.workers) == (2.0, 1)


def test_bootstrap_and_reports(run):
    s = summarize(run, bootstrap=300)
    a = s.agents[0]
    assert a.bootstrap is not None and 0.0 <= a.bootstrap[0] <= a.bootstrap[1] <= 8 / 9
    assert s.pairs[0].bootstrap is not None
    assert summarize(run, bootstrap=300) == s  # seeded: the same intervals again
    data = summary_json(s)
    assert data["format"] == "mazzo-arena/1" and data["void_games"] == 6
    assert data["agents"][0]["mean_payoff"]["mean"] == pytest.approx(8 / 27)
    assert data["pairs"][0]["deals_a_better"] == 1 and "seconds" not in str(data)
    table = format_table(s)
    assert "void games 6 (33.3%) on 1 deals" in table and "zero-sum" in table
    assert "1/2/0" in table and "11.1% (0%)" in table
    with pytest.raises(ValueError, match="unknown rating anchor 'C'"):
        summarize(run, anchor="C")


def test_deal_diffs_are_the_pairs_values(run):
    """The per-deal differences behind ``PairStats.diff`` (what ``paired_margin`` and ``mazzo
    exploit --beside`` compare deal by deal): A - B = (0, 16/9, 0), the reverse its negation."""
    diffs = deal_diffs(run, 0, 1)
    assert list(diffs) == pytest.approx([0.0, 16 / 9, 0.0])
    assert list(deal_diffs(run, 1, 0)) == pytest.approx([0.0, -16 / 9, 0.0])
    assert tally(diffs) == (1, 2, 0) and tally(-diffs) == (0, 2, 1)
    assert float(diffs.mean()) == pytest.approx(summarize(run).pairs[0].diff.mean)

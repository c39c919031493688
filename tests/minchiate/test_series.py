"""The optional series layer: dealer rotation, cumulative resti, void deals redealt by the same
dealer (M-4.2, M-8.5), and the engine protocol delegated to the current deal."""

import random

import pytest

from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate import Rules, Series, make_deal

from .deals import DEAL1, DEAL1_DECISIONS, DEAL1_PLAY, impossible_stream
from .helpers import play_script


def dealer_source(rng: random.Random, log: list[int]):
    def next_deal(dealer: int) -> Deal:
        log.append(dealer)
        order = list(range(97))
        rng.shuffle(order)
        return Deal(dealer, tuple(order))

    return next_deal


def test_series_rotates_redeals_and_accumulates():
    rng, asked = random.Random(4), []
    impossible = make_deal(0, impossible_stream())  # void for dealer 0 (M-8.5)
    queue = [make_deal(0, DEAL1)]

    def next_deal(dealer: int) -> Deal:
        if queue:
            asked.append(dealer)
            return queue.pop()
        return dealer_source(rng, asked)(dealer)

    series = Series(Rules(), impossible, next_deal, n_deals=4)
    assert asked == [0] and len(series.finished) == 1 and series.finished[0].is_void()
    assert series.state.deal.order == make_deal(0, DEAL1).order and series.to_play == 3
    play_script(series, DEAL1_DECISIONS)
    play_script(series, DEAL1_PLAY)
    assert series.resti == 2 and series.deals == 1 and series.returns() == (2, -2, 2, -2)
    assert series.state.dealer == 1 and asked[-1] == 1  # the deal passes to S1
    view = series.info_view(0)
    assert (view.series_resti, view.deals_done, view.dealer) == (2, 1, 1)
    assert view == series.state.info_view(0)._replace(series_resti=2, deals_done=1)
    assert series.state.info_view(0).series_resti == 0  # a bare deal knows no series
    while not series.is_terminal():
        series.apply(rng.choice(series.legal_actions()))
    assert series.deals == 4 and series.to_play == -1 and series.legal_actions() == []
    res = series.result()
    assert (
        res["deals"] == 4 and res["deal_resti"][0] == 2 and sum(res["deal_resti"]) == series.resti
    )
    assert [s.dealer for s in series.finished if not s.is_void()] == [0, 1, 2, 3]
    assert res["last_deal"]["resti"] == res["deal_resti"][-1]


def test_series_clone_is_independent():
    rng = random.Random(2)
    series = Series(Rules(), make_deal(0, DEAL1), dealer_source(rng, []), n_deals=1)
    copy = series.clone()
    series.apply(series.legal_actions()[0])
    assert copy.state.history == [] and series.state.history
    with pytest.raises(ValueError, match="n_deals >= 1"):
        Series(Rules(), make_deal(0, DEAL1), dealer_source(rng, []), n_deals=0)

"""The optional series layer: dealer rotation, cumulative resti, void deals redealt by the same
dealer (M-4.2, M-8.5)."""

import random

import pytest

from envs.minchiate import Rules, Series, State, make_deal

from .deals import DEAL1, DEAL1_DECISIONS, DEAL1_PLAY, impossible_stream
from .helpers import play_script, random_playout


def ids(codes: list[str]) -> list[int]:
    return list(make_deal(0, codes).order)


def test_series_rotates_and_accumulates():
    rng = random.Random(4)
    series = Series(Rules(), first_dealer=0, n_deals=4)
    s = series.start(ids(impossible_stream()))  # void for dealer 0 (M-8.5)
    assert s.is_void()
    series.finish()
    assert (series.dealer, series.deals, series.voids, series.resti) == (0, 0, 1, 0)
    s = series.start(ids(DEAL1))
    play_script(s, DEAL1_DECISIONS)
    play_script(s, DEAL1_PLAY)
    series.finish()
    assert (series.dealer, series.deals, series.resti) == (1, 1, 2)  # golden deal 1: R = 2
    dealers, total = [], 2
    while not series.is_over():
        stream = list(range(97))
        rng.shuffle(stream)
        s = series.start(stream)
        dealers.append(s.dealer)
        random_playout(s, rng)
        total += 0 if s.is_void() else s.R
        series.finish()
    assert dealers[:3] == [1, 2, 3] and series.deals == 4
    assert series.resti == total == sum(series.results)
    assert series.returns() == (total, -total, total, -total)


def test_series_errors():
    series = Series(n_deals=1)
    with pytest.raises(ValueError, match="no finished deal"):
        series.finish()
    s = series.start(ids(DEAL1))
    with pytest.raises(ValueError, match="not finished"):
        series.start(ids(DEAL1))
    random_playout(s, random.Random(0))
    series.finish()
    assert series.is_over()
    with pytest.raises(ValueError, match="the series is over"):
        series.start(ids(DEAL1))
    with pytest.raises(ValueError, match="first_dealer"):
        Series(first_dealer=4)
    with pytest.raises(ValueError, match="needs 97 cards"):
        Series().start(list(range(96)))
    assert isinstance(s, State)

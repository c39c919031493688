"""Seating: every agent occupies every seat equally often, for 2, 3 and 4 Calabresella
players and for Minchiate's partnerships, in both schemes; the lineups are the documented ones."""

import dataclasses
from itertools import combinations

import numpy as np
import pytest

from mazzo.arena.seating import (
    SCHEMES,
    expand,
    lineups_for,
    mixed_units,
    pair_units,
    seat_counts,
    units_for,
)
from mazzo.envs.registry import Game, get_game

X, Y = 0, 1


def _units(game, n_players):
    g = get_game(game)
    flags = {} if g.seats(g.rules()) == n_players else {"players": n_players}
    return units_for(g, g.rules(flags))


TABLES = [("calabresella", 2), ("calabresella", 3), ("calabresella", 4), ("minchiate", 4)]


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("game", "n_players"), TABLES)
@pytest.mark.parametrize("n_agents", [2, 3, 4, 5])
def test_every_agent_sits_in_every_seat_equally_often(scheme, game, n_players, n_agents):
    lineups = lineups_for(scheme, n_agents, _units(game, n_players))
    counts = seat_counts(lineups, n_agents)
    assert counts.shape == (n_agents, n_players)
    assert counts.min() > 0 and (counts == counts[0, 0]).all(), counts
    assert len(set(lineups)) == len(lineups)  # no lineup played twice
    for a, b in combinations(range(n_agents), 2):  # every pair meets (ratings stay connected)
        assert any(a in lu and b in lu for lu in lineups)


def test_three_players_two_agents_is_xyy_and_yxx_rotated():
    lineups = lineups_for("pairs", 2, _units("calabresella", 3))
    assert lineups == ((X, Y, Y), (Y, Y, X), (Y, X, Y), (Y, X, X), (X, X, Y), (X, Y, X))
    # In each seat: X three times (once alone, twice with a partner), Y three times.
    assert seat_counts(lineups, 2).tolist() == [[3, 3, 3], [3, 3, 3]]
    assert set(mixed_units(2, 3)) == set(lineups)


def test_two_and_four_players():
    assert lineups_for("pairs", 2, _units("calabresella", 2)) == ((X, Y), (Y, X))
    four = lineups_for("pairs", 2, _units("calabresella", 4))
    assert len(four) == 8 and sorted(lu.count(X) for lu in four) == [1, 1, 1, 1, 3, 3, 3, 3]
    assert len(lineups_for("mixed", 2, _units("calabresella", 4))) == 2**4 - 2


def test_minchiate_partners_are_one_agent_and_teams_swap():
    units = _units("minchiate", 4)
    assert units == ((0, 2), (1, 3))
    assert lineups_for("pairs", 2, units) == ((X, Y, X, Y), (Y, X, Y, X))
    for scheme in SCHEMES:
        for lineup in lineups_for(scheme, 4, units):
            assert lineup[0] == lineup[2] and lineup[1] == lineup[3]
            assert lineup[0] != lineup[1]  # two agents, one per partnership
    # Four agents head to head: 6 pairs x 2 lineups; each agent on each team equally often.
    lineups = lineups_for("pairs", 4, units)
    assert len(lineups) == 12
    assert (seat_counts(lineups, 4) == 3).all()


def test_mixed_tables_of_distinct_agents():
    three = lineups_for("mixed", 3, _units("calabresella", 3))
    assert sorted(three) == sorted(
        [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    )
    four = mixed_units(4, 3)
    assert len(four) == 24 and all(len(set(t)) == 3 for t in four)


def test_pairs_count_and_expand():
    assert len(pair_units(3, 3)) == 3 * 6
    assert expand((X, Y), ((0, 2), (1, 3))) == (X, Y, X, Y)
    assert seat_counts([(0, 1), (1, 0), (0, 1)], 2).tolist() == [[2, 1], [1, 2]]
    assert isinstance(seat_counts([(0, 1)], 2), np.ndarray)


def test_errors():
    with pytest.raises(ValueError, match="unknown seating scheme 'swiss'"):
        lineups_for("swiss", 2, _units("calabresella", 3))
    with pytest.raises(ValueError, match="at least 2 agents"):
        lineups_for("pairs", 1, _units("calabresella", 3))
    minchiate = get_game("minchiate")
    three_seats = Game(minchiate.info, dataclasses.replace(minchiate._ops, seats=lambda rules: 3))
    with pytest.raises(ValueError, match="do not fit"):
        units_for(three_seats, minchiate.rules())

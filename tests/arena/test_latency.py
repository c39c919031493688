"""Time per decision as a distribution (``mazzo.arena.latency``): the histogram's quantiles on
hand-made samples, its merge over games and agents in the summary, the report's median and 95th
percentile, and the arena's own counts (every decision in exactly one bin, left out of the
results' equality). No test here measures a real clock."""

from __future__ import annotations

import dataclasses
import json
import math
import re

import pytest

from mazzo.arena.latency import BINS_PER_DECADE, FLOOR, add, bin_of, merge, quantile
from mazzo.arena.report import format_table, timing_json
from mazzo.arena.runner import ArenaRun, make_plan, run_arena
from mazzo.arena.summary import summarize
from mazzo.arena.table import GameOutcome
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game

WIDTH = 10 ** (1 / BINS_PER_DECADE)  # a bin's ratio of upper to lower edge


def _near(value: float, expected: float) -> bool:
    """Within a bin's width of ``expected`` (the quantile is the centre of its bin)."""
    return expected / WIDTH <= value <= expected * WIDTH


def test_quantiles_of_a_known_sample() -> None:
    h: dict[int, int] = {}
    for _ in range(100):
        add(h, 1e-3)
    for _ in range(10):
        add(h, 1.0)
    assert sum(h.values()) == 110 and len(h) == 2
    assert _near(quantile(h, 0.5), 1e-3)
    assert _near(quantile(h, 100 / 110), 1e-3)  # the 100th decision is still a fast one
    assert _near(quantile(h, 0.95), 1.0)  # rank 105 is a slow one
    assert _near(quantile(h, 1.0), 1.0)


def test_bins_are_log_spaced_from_the_floor() -> None:
    assert bin_of(0.0) == bin_of(FLOOR) == bin_of(-1.0) == 0
    assert bin_of(FLOOR * 10) == BINS_PER_DECADE
    assert bin_of(FLOOR * 1e6) == 6 * BINS_PER_DECADE
    assert bin_of(2e-3) - bin_of(1e-3) == round(math.log10(2) * BINS_PER_DECADE)


def test_merging_adds_counts_and_bad_quantiles_are_refused() -> None:
    into = {3: 1, 5: 2}
    merge(into, [(5, 1), (9, 4)])
    assert into == {3: 1, 5: 3, 9: 4}
    assert math.isnan(quantile({}, 0.5))
    for q in (0.0, -0.1, 1.5):
        with pytest.raises(ValueError, match=rf"quantile {q!r}: must be in \(0, 1\]"):
            quantile(into, q)


def _game(latency: tuple[tuple[tuple[int, int], ...], ...]) -> GameOutcome:
    return GameOutcome(
        payoffs=(0.0, 0.0, 0.0), void=True, contract=None, soloist=None, success=None,
        decisions=tuple(sum(n for _, n in seat) for seat in latency),
        seconds=(0.0, 0.0, 0.0), latency=latency,
    )  # fmt: skip


def test_the_summary_merges_each_agents_games_and_the_report_shows_them() -> None:
    game = get_game("calabresella")
    deals = generate_deals(game, game.rules({}), 1, seed=0)
    plan = make_plan(deals, ["A=random", "B=random"], "pairs", seed=0)
    fast, slow = bin_of(1e-4), bin_of(1e-2)  # A decides in 0.1 ms, B in 10 ms
    outcomes = tuple(
        _game(tuple(((fast, 3),) if agent == 0 else ((slow, 2),) for agent in lineup))
        for lineup in plan.lineups
    )
    s = summarize(ArenaRun(plan, (outcomes,), seconds=1.0, workers=1))
    assert _near(s.timing.median[0], 1e-4) and _near(s.timing.p95[0], 1e-4)
    assert _near(s.timing.median[1], 1e-2) and _near(s.timing.p95[1], 1e-2)
    agents = timing_json(s)["agents"]
    assert _near(agents[0]["us_median"], 100.0) and _near(agents[1]["us_p95"], 1e4)
    json.dumps(agents)  # plain numbers
    line = format_table(s).strip().splitlines()[-1]
    assert re.search(r"B 0 us \(median 1\d\.\d ms, p95 1\d\.\d ms\)", line)  # act_seconds: 0


def test_the_arena_bins_every_decision_once_and_compares_without_times() -> None:
    game = get_game("minchiate")
    deals = generate_deals(game, game.rules({}), 3, seed=2)
    run = run_arena(make_plan(deals, ["random", "heuristic"], "pairs", seed=1), 1)
    for deal in run.outcomes:
        for o in deal:
            assert [sum(n for _, n in seat) for seat in o.latency] == list(o.decisions)
            assert all(list(seat) == sorted(seat) for seat in o.latency)
            assert dataclasses.replace(o, latency=()) == o  # measured: not part of equality
    s = summarize(run)
    assert all(math.isfinite(m) and m > 0 for m in s.timing.median)
    assert all(p >= m for p, m in zip(s.timing.p95, s.timing.median, strict=True))

"""The runner: results reproduce exactly for any number of workers, each game is the plain
engine loop with the documented generators, pairwise payoffs are zero-sum, void deals are
counted, and agent failures are reported with where they happened."""

import dataclasses
import pickle

import pytest

from mazzo.agents.base import RandomAgent
from mazzo.arena.plan import Entrant, parse_entrant
from mazzo.arena.report import _dump, summary_json
from mazzo.arena.runner import make_plan, run_arena
from mazzo.arena.streams import agent_rng
from mazzo.arena.summary import summarize
from mazzo.arena.table import ArenaError
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game

from .agents import CrashAgent, FloatAgent, IllegalAgent, NotAnAgent, PassAgent


def _deals(n=12, seed=1, **flags):
    return generate_deals(get_game("calabresella"), get_game("calabresella").rules(flags), n, seed)


def _strip(run):
    """Outcomes without the measured times."""
    return [[dataclasses.replace(o, seconds=()) for o in deal] for deal in run.outcomes]


def test_results_do_not_depend_on_the_number_of_workers():
    plan = make_plan(_deals(10), ["random", "heuristic", "random"], "pairs", seed=4)
    runs = [run_arena(plan, workers) for workers in (1, 2, 3)]
    assert _strip(runs[0]) == _strip(runs[1]) == _strip(runs[2])
    texts = {_dump(summary_json(summarize(r, bootstrap=200))) for r in runs}
    assert len(texts) == 1
    agents = ["random", "heuristic", "random"]
    other_seed = run_arena(make_plan(plan.deal_set, agents, "pairs", seed=5), 1)
    assert _strip(other_seed) != _strip(runs[0])


def test_plans_and_outcomes_pickle():
    """Workers started by spawn or forkserver (Python's future default) receive the plan
    pickled and send outcomes back pickled."""
    plan = make_plan(_deals(3, players=4, aperta=True), ["random", "heuristic"], "mixed", seed=2)
    back = pickle.loads(pickle.dumps(plan))
    assert back == plan and back.deal_set.rules == plan.deal_set.rules
    run = run_arena(plan, 1)
    assert pickle.loads(pickle.dumps(run.outcomes)) == run.outcomes


def test_each_game_is_the_engine_loop_with_the_documented_generators():
    plan = make_plan(_deals(4), ["random", "random"], "pairs", seed=9)
    run = run_arena(plan, 1)
    spec, rules = get_game("calabresella"), plan.deal_set.rules
    agent = RandomAgent()
    for i, deal in enumerate(plan.deal_set.deals):
        for r in range(len(plan.lineups)):
            state = spec.new_state(deal, rules)
            rngs = [agent_rng(9, i, r, s) for s in range(3)]
            decisions = [0, 0, 0]
            while not state.is_terminal():
                seat = state.to_play
                state.apply(agent.act(state.info_view(seat), rngs[seat]))
                decisions[seat] += 1
            got = run.outcomes[i][r]
            assert got.payoffs == state.returns()
            assert got.decisions == tuple(decisions)
            result = state.result()
            assert got.void == result["void"] and got.contract == result["contract"]
            if not got.void:
                assert got.soloist == result["soloist"] and got.success == result["success"]


def test_the_stronger_agent_comes_out_on_top():
    """Signs end to end: the heuristic baseline beats random play clearly on 30 deals."""
    s = summarize(run_arena(make_plan(_deals(30), ["random", "heuristic"]), 2))
    weak, strong = s.agents
    assert strong.mean.low > 0 > weak.mean.high and strong.elo > weak.elo
    assert strong.win_rate.mean > weak.win_rate.mean
    (pair,) = s.pairs
    assert (pair.a, pair.b) == ("random", "heuristic") and pair.diff.high < 0
    assert pair.verdict == "heuristic better" and pair.b_better > pair.a_better


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pairwise_payoffs_are_zero_sum(players):
    plan = make_plan(_deals(15, players=players), ["random", "random"], "pairs", seed=0)
    run = run_arena(plan, 1)
    games = [o for deal in run.outcomes for o in deal]
    assert len(games) == 15 * len(plan.lineups)
    assert all(len(o.payoffs) == players and sum(o.payoffs) == 0 for o in games)
    assert any(o.payoffs != (0,) * players for o in games)
    assert summarize(run).zero_sum
    if players == 4:  # the idle dealer's seat gets nothing
        assert all(
            o.payoffs[d.dealer] == 0
            for d, g in zip(plan.deal_set.deals, run.outcomes, strict=True)
            for o in g
        )


def test_raw_rewards_are_reported_as_not_zero_sum():
    run = run_arena(make_plan(_deals(6, reward_mode="raw"), ["random", "random"]), 1)
    assert not summarize(run).zero_sum


def test_void_deals_are_counted_not_dropped():
    passers = [Entrant("p1", PassAgent), Entrant("p2", PassAgent)]
    run = run_arena(make_plan(_deals(5), passers), 1)
    s = summarize(run)
    assert s.games == 5 * 6 and s.void_games == 30 and s.void_deals == 5
    assert all(o.payoffs == (0, 0, 0) and o.contract is None for d in run.outcomes for o in d)
    assert all(a.mean.mean == 0 and a.win_rate.mean == 0 and a.wins == 0 for a in s.agents)
    assert s.pairs[0].equal == 5 and s.contracts == ()
    assert s.agents[0].spec == "tests.arena.agents.PassAgent"
    # Against a random agent some games are void, some not; every one is kept and counted.
    mixed = run_arena(make_plan(_deals(40), [Entrant("p", PassAgent), "random"]), 2)
    sm = summarize(mixed)
    voids = [o for d in mixed.outcomes for o in d if o.void]
    assert sm.games == 240 and sm.void_games == len(voids) > 0
    assert sm.void_deals == sum(any(o.void for o in d) for d in mixed.outcomes)
    # Under all_pass=forced_chiamo_eldest no deal is void: the eldest must play Chiamo.
    forced = run_arena(make_plan(_deals(5, all_pass="forced_chiamo_eldest"), passers), 1)
    assert summarize(forced).void_games == 0
    assert all(o.contract == "chiamo" for d in forced.outcomes for o in d)


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        (IllegalAgent, r"agent 'bad' in seat S\d \(deal 0, lineup 0\) chose 999: .*illegal"),
        (FloatAgent, r"agent 'bad' in seat S\d \(deal 0, lineup 0\) chose 1.5"),
    ],
)
def test_agent_failures_name_the_agent_and_the_game(factory, message):
    # The first failing deal in deal order is reported, whatever the number of workers.
    plan = make_plan(_deals(6), [Entrant("bad", factory), "random"])
    for workers in (1, 2, 3):
        with pytest.raises(ArenaError, match=message):
            run_arena(plan, workers)


def test_an_agent_bug_propagates_from_the_workers():
    plan = make_plan(_deals(8), [Entrant("crash", CrashAgent), "random"])
    for workers in (1, 2):
        with pytest.raises(RuntimeError, match="agent bug"):
            run_arena(plan, workers)


class FailsOnLaterDeals:
    """Random play, but an illegal action in the first game of any deal dealt by S2 (deals 2,
    5, 8, ...: the generated dealer is deal index mod 3)."""

    def __init__(self):
        self.random = RandomAgent()

    def act(self, view, rng):
        if view.dealer == 2 and view.phase == 0:
            return 999
        return self.random.act(view, rng)


def test_the_first_failing_deal_is_reported_for_any_worker_count():
    plan = make_plan(_deals(30), [Entrant("late", FailsOnLaterDeals), "random"])
    for workers in (1, 2):
        with pytest.raises(ArenaError, match=r"\(deal 2, lineup 0\)"):
            run_arena(plan, workers)


def test_plan_checks_agents_and_labels():
    deals = _deals(2)
    plan = make_plan(deals, ["random", "random", "mine=random"])
    assert plan.labels == ("random", "random#2", "mine")
    assert plan.n_games == 2 * len(plan.lineups) == 2 * 18
    with pytest.raises(ValueError, match="unknown agent 'nobody' for calabresella"):
        make_plan(deals, ["random", "nobody"])
    with pytest.raises(ValueError, match="calabresella agent 'random': unknown parameter 'depth'"):
        make_plan(deals, ["random", "random:depth=3"])
    with pytest.raises(ValueError, match="at least 2 agents"):
        make_plan(deals, ["random"])
    with pytest.raises(ValueError, match="did not return an agent"):
        make_plan(deals, ["random", Entrant("x", NotAnAgent)])
    with pytest.raises(ValueError, match="empty label"):
        parse_entrant("=random")
    assert parse_entrant("fast=random:x=1") == Entrant("fast", "random:x=1")
    assert parse_entrant("random:x=1") == Entrant("random:x=1", "random:x=1")
    with pytest.raises(ValueError, match="workers"):
        run_arena(plan, 0)


def test_progress_is_reported_per_deal():
    class Count:
        def __init__(self):
            self.total, self.done = None, 0

        def start(self, total):
            self.total = total

        def advance(self, n):
            self.done += n

    for workers in (1, 2):
        count = Count()
        run_arena(make_plan(_deals(7), ["random", "random"]), workers, count)
        assert (count.total, count.done) == (7, 7)


class Steps:
    """A progress sink that records the size of each progress step."""

    def __init__(self):
        self.steps = []

    def start(self, total):
        pass

    def advance(self, n):
        self.steps.append(n)


def test_chunks_start_at_one_deal_so_progress_moves_at_once():
    """Workers get one deal at a time until a deal is timed, then chunks of about half a
    second: the first progress step is a single deal for any number of workers."""

    for workers in (1, 2):
        steps = Steps()
        run_arena(make_plan(_deals(40), ["random", "random"]), workers, steps)
        assert steps.steps[0] == 1 and sum(steps.steps) == 40
        assert workers == 1 or max(steps.steps) > 1  # fast deals grow into larger chunks


def test_chunks_of_an_agent_that_waits_are_timed_by_the_wall_clock(monkeypatch):
    """An agent that waits (a remote bot, a sleep) uses little CPU: its chunks are sized by
    at least ``WALL_SHARE`` of their wall time, so progress still moves about every
    ``CHUNK_SECONDS / WALL_SHARE`` seconds (by CPU time alone, a chunk would take many)."""
    import time

    from mazzo.arena import workers as pool

    real = pool.Table.play_deals

    def play_deals(self, start, deals):  # 20 ms of waiting per deal, on top of the play
        time.sleep(0.02 * len(deals))
        return real(self, start, deals)

    monkeypatch.setattr(pool.Table, "play_deals", play_deals)
    monkeypatch.setattr(pool, "CHUNK_SECONDS", 0.1)

    steps = Steps()
    run_arena(make_plan(_deals(60), ["random", "random"]), 1, steps)
    bound = pool.CHUNK_SECONDS / (pool.WALL_SHARE * 0.02)  # 10 deals
    assert steps.steps[0] == 1 and sum(steps.steps) == 60
    assert max(steps.steps) <= bound, steps.steps


def test_an_interrupt_keeps_the_finished_first_deals(monkeypatch):
    """``KeyboardInterrupt`` during play: ``ArenaInterrupted`` carries the finished prefix as a
    run of its own, equal to a run of just those deals."""
    from mazzo.arena import workers as pool
    from mazzo.arena.runner import ArenaInterrupted

    plan = make_plan(_deals(9), ["random", "heuristic"], seed=3)
    real = pool.Table.play_deals
    interrupted_at = []

    def play_deals(self, start, deals):  # the interrupt comes while a chunk holding deal 5 plays
        if start + len(deals) > 5:
            interrupted_at.append(start)
            raise KeyboardInterrupt
        return real(self, start, deals)

    monkeypatch.setattr(pool.Table, "play_deals", play_deals)
    with pytest.raises(ArenaInterrupted) as caught:
        run_arena(plan, 1)
    part = caught.value.run
    (k,) = interrupted_at
    assert 1 <= k <= 5  # chunks start at one deal
    assert caught.value.planned == 9 and part.planned == 9 and len(part.outcomes) == k
    monkeypatch.undo()
    head = make_plan(plan.deal_set.head(k), ["random", "heuristic"], seed=3)
    assert part.plan == head and _strip(part) == _strip(run_arena(head, 1))

"""The arena plays a chunk's deals in lockstep, deciding every game on turn for the same agent
object in one ``act_each`` call, and its results are exactly those of the plain one-at-a-time
engine loop (each game ``agent.act(view, rng)`` with ``streams.agent_rng(seed, deal, lineup,
seat)``): for random, heuristic, PIMC and network agents, sampling ones included, for one
process or two."""

import numpy as np
import pytest

from mazzo.agents.base import RandomAgent, act_each
from mazzo.agents.registry import make_agent
from mazzo.arena.plan import Entrant
from mazzo.arena.report import _dump, summary_json
from mazzo.arena.runner import ArenaRun, make_plan, run_arena
from mazzo.arena.streams import agent_rng
from mazzo.arena.summary import summarize
from mazzo.arena.table import Table
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game


def one_at_a_time(plan):
    """The arena before lockstep: every game alone, deal by deal, lineup by lineup."""
    spec, rules = plan.deal_set.game, plan.deal_set.rules
    n = len(plan.lineups[0])
    agents = [[make_agent(e.source, plan.deal_set.game) for _ in range(n)] for e in plan.entrants]
    out = []
    for i, deal in enumerate(plan.deal_set.deals):
        games = []
        for r, lineup in enumerate(plan.lineups):
            state = spec.new_state(deal, rules)
            rngs = [agent_rng(plan.seed, i, r, s) for s in range(n)]
            decisions = [0] * n
            while not state.is_terminal():
                seat = state.to_play
                state.apply(agents[lineup[seat]][seat].act(state.info_view(seat), rngs[seat]))
                decisions[seat] += 1
            result = state.result()
            contract = result.get("contract")
            games.append(
                (
                    tuple(state.returns()),
                    bool(result.get("void", False)),
                    contract,
                    result.get("soloist") if contract is not None else None,
                    result.get("success") if contract is not None else None,
                    tuple(decisions),
                )
            )
        out.append(games)
    return out


def _plain(run):
    return [
        [(o.payoffs, o.void, o.contract, o.soloist, o.success, o.decisions) for o in deal]
        for deal in run.outcomes
    ]


CASES = [  # (game, agents, deals, worker counts)
    ("calabresella", ["bot", "heuristic", "random"], 12, (1, 2)),
    ("calabresella", ["bot:sample=true", "pimc:samples=3,ms=0,exact=1"], 3, (1,)),
    ("minchiate", ["bot", "heuristic"], 6, (1,)),
    ("minchiate", ["bot:sample=true", "random"], 6, (1, 2)),
]


@pytest.mark.parametrize(("game", "agents", "n", "workers"), CASES)
def test_lockstep_results_are_those_of_the_one_at_a_time_loop(game, agents, n, workers):
    deals = generate_deals(get_game(game), get_game(game).rules(), n, 7)
    plan = make_plan(deals, agents, "pairs", seed=3)
    reference = one_at_a_time(plan)
    runs = [run_arena(plan, w) for w in workers]
    assert all(_plain(run) == reference for run in runs)
    again = ArenaRun(plan, runs[0].outcomes, 0.0, 1)
    texts = {_dump(summary_json(summarize(r))) for r in (*runs, again)}
    assert len(texts) == 1


class Recorder:
    """Random play through ``act_each`` that records the size of every call."""

    name = "recorder"
    sizes: list[int] = []  # noqa: RUF012 (shared by the copies built per seat, in-process)

    def __init__(self):
        self.random = RandomAgent()

    def act(self, view, rng):
        return self.random.act(view, rng)

    def act_each(self, views, rngs):
        Recorder.sizes.append(len(views))
        return [self.random.act(v, r) for v, r in zip(views, rngs, strict=True)]


def test_games_on_turn_for_one_agent_are_decided_in_one_call():
    deals = generate_deals(get_game("calabresella"), get_game("calabresella").rules(), 60, 2)
    plan = make_plan(deals, [Entrant("rec", Recorder), "random"], seed=1)
    Recorder.sizes.clear()
    played = Table(plan).play_deals(0, plan.deal_set.deals)
    assert played.error is None and not played.stopped and len(played.outcomes) == 60
    # 120 games, the recorder in one or two of the three seats of each: its objects (one per
    # seat) are asked for many games at once, never for more views than it has games
    assert 10 <= max(Recorder.sizes) <= 120
    rec_decisions = sum(
        o.decisions[s]
        for d in played.outcomes
        for o, lineup in zip(d, plan.lineups, strict=True)
        for s in range(3)
        if lineup[s] == 0
    )
    assert sum(Recorder.sizes) == rec_decisions and len(Recorder.sizes) < rec_decisions / 5
    # The same games as the plain loop with a random agent in its place (same generators).
    again = run_arena(plan, 1)
    assert _plain(again) == one_at_a_time(make_plan(deals, ["random", "random"], seed=1))


def test_act_each_matches_act_with_one_generator_per_view():
    game = get_game("minchiate")
    rules = game.rules()
    views = []
    for k in range(5):
        state = game.new_state(game.deal_random(np.random.default_rng(k), rules), rules)
        views.append(state.info_view(state.to_play))
    for spec in ("bot", "bot:sample=true", "heuristic", "random"):
        agent = make_agent(spec, "minchiate")
        each = act_each(agent, views, [np.random.default_rng(k) for k in range(5)])
        assert each == [agent.act(v, np.random.default_rng(k)) for k, v in enumerate(views)]
    with pytest.raises(ValueError, match="one generator per view"):
        act_each(agent, views, [np.random.default_rng(0)])


def test_every_decision_of_a_batched_call_gets_its_share_of_the_time():
    deals = generate_deals(get_game("calabresella"), get_game("calabresella").rules(), 20, 4)
    run = run_arena(make_plan(deals, ["bot", "heuristic"]), 1)
    for deal in run.outcomes:
        for o in deal:
            assert all((t > 0) == (d > 0) for t, d in zip(o.seconds, o.decisions, strict=True))
    assert all(t > 0 for t in summarize(run).timing.act_seconds)

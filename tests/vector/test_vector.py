"""The vector runner against the PettingZoo env (same deals, same actions: equal observations,
masks, acting seats and rewards = returns x reward_scale) on every flag variant; auto-reset,
illegal actions (nothing moves), bad input, determinism and the deal sources."""

from __future__ import annotations

import numpy as np
import pytest

from mazzo.envs.cards.errors import IllegalAction
from mazzo.envs.deals import DealStream
from mazzo.envs.registry import all_games, get_game
from mazzo.envs.vector import VectorRunner

from .variants import cases, variant_id

STEPS = {"calabresella": 120, "minchiate": 200}


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return ((rng.random(mask.shape) + 1) * mask).argmax(axis=1)


def env_for(game, flags, state):
    env = game.raw_env(**flags)
    env.reset(options={"deal": game.write_record(state)})
    return env


@pytest.mark.parametrize(
    ("name", "flags"), cases(), ids=lambda c: variant_id(c) if isinstance(c, dict) else c
)
def test_runner_equals_the_pettingzoo_env(name, flags):
    game = get_game(name)
    runner = VectorRunner(name, 3, rules=flags, seed=len(variant_id(flags)))
    batch = runner.reset()
    envs = [env_for(game, flags, s) for s in runner.states]
    rng = np.random.default_rng(7)
    ended = 0
    for _ in range(STEPS[name]):
        for i, env in enumerate(envs):
            agent = env.agent_selection
            assert agent == f"player_{batch.seat[i]}"
            seen = env.observe(agent)
            assert seen["observation"].tobytes() == batch.obs[i].tobytes()
            assert np.array_equal(seen["action_mask"], batch.mask[i])
        actions = random_actions(rng, batch.mask)
        batch = runner.step(actions)
        for i, env in enumerate(envs):
            env.step(int(actions[i]))
            assert bool(batch.done[i]) == all(env.terminations.values())
            if batch.done[i]:
                ended += 1
                want = [env.rewards[a] for a in env.possible_agents]
                assert want == [r * env.reward_scale for r in batch.returns[i].tolist()]
                envs[i] = env_for(game, flags, runner.states[i])
            else:
                assert not batch.returns[i].any()
    assert ended >= 2


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_auto_reset_reports_the_ended_deals_returns(game):
    runner = VectorRunner(game, 5, seed=3)
    batch = runner.reset()
    assert not batch.done.any() and not batch.returns.any()
    assert batch.returns.shape == (5, game.seats(runner.rules))
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(300):
        before = runner.states
        batch = runner.step(random_actions(rng, batch.mask))
        after = runner.states
        for i in range(5):
            if batch.done[i]:
                ended += 1
                assert before[i].is_terminal() and after[i] is not before[i]
                assert tuple(batch.returns[i].tolist()) == before[i].returns()
                assert not after[i].is_terminal() and not after[i].history
            else:
                assert after[i] is before[i] and not batch.returns[i].any()
    assert ended >= 3
    assert runner.deals.dealt == 5 + ended  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_views_states_and_legal_counts_describe_the_batch(game):
    runner = VectorRunner(game.name, 4, seed=9)
    batch = runner.reset()
    rng = np.random.default_rng(9)
    for _ in range(30):
        views = runner.views()
        assert [v.seat for v in views] == batch.seat.tolist()
        assert [s.to_play for s in runner.states] == batch.seat.tolist()
        assert runner.legal_counts().tolist() == [v.legal_mask.bit_count() for v in views]
        obs = np.empty_like(batch.obs)
        runner.encoder.encode_batch(views, obs)
        assert obs.tobytes() == batch.obs.tobytes()
        batch = runner.step(random_actions(rng, batch.mask))
    for a in (batch.seat, batch.obs, batch.mask, batch.done, batch.returns):
        with pytest.raises(ValueError, match="read-only"):
            a[0] = 1


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_an_illegal_action_names_its_engine_and_moves_nothing(game):
    runner = VectorRunner(game, 4, seed=5)
    batch = runner.reset()
    rng = np.random.default_rng(5)
    for _ in range(7):
        batch = runner.step(random_actions(rng, batch.mask))
    records = [game.write_record(s) for s in runner.states]
    obs, mask = batch.obs.copy(), batch.mask.copy()
    actions = random_actions(rng, batch.mask)
    illegal = int(np.flatnonzero(batch.mask[2] == 0)[0])
    for bad in (illegal, game.info.num_actions, -1):
        actions[2] = bad
        with pytest.raises(IllegalAction, match=r"^engine 2: illegal action") as err:
            runner.step(actions)
        assert err.value.engine == 2  # type: ignore[attr-defined]
        assert [game.write_record(s) for s in runner.states] == records
        assert np.array_equal(batch.obs, obs) and np.array_equal(batch.mask, mask)
    actions[2] = int(np.flatnonzero(batch.mask[2])[0])
    runner.step(actions)  # the runner still works


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match=r"n .* must be an integer >= 1, got 0"):
        VectorRunner("calabresella", 0)
    with pytest.raises(ValueError, match="unknown game 'skat'"):
        VectorRunner("skat", 2)
    with pytest.raises(TypeError, match="calabresella needs"):
        VectorRunner("calabresella", 2, rules=get_game("minchiate").rules())
    with pytest.raises(ValueError, match="seed must be an integer >= 0"):
        VectorRunner("minchiate", 2, seed=-1)
    runner = VectorRunner("calabresella", 2, rules={"players": 4})
    assert runner.seats == 4
    with pytest.raises(ValueError, match="call reset"):
        runner.step(np.zeros(2, np.int64))
    runner.reset()
    with pytest.raises(ValueError, match=r"shape \(2,\), got int64 of shape \(3,\)"):
        runner.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="integer array"):
        runner.step(np.zeros(2, np.float32))


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_same_seed_and_actions_give_the_same_batches(game):
    a, b = VectorRunner(game, 6, seed=11), VectorRunner(game, 6, seed=11)
    ba, bb = a.reset(), b.reset()
    rng = np.random.default_rng(1)
    for _ in range(80):
        for field in ("seat", "obs", "mask", "done", "returns"):
            assert np.array_equal(getattr(ba, field), getattr(bb, field))
        actions = random_actions(rng, ba.mask)
        ba, bb = a.step(actions), b.step(actions)
    c = VectorRunner(game, 6, seed=12)
    assert not np.array_equal(c.reset().obs, VectorRunner(game, 6, seed=11).reset().obs)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_deal_stream_position_restores_the_same_deals(game):
    rules = game.rules()
    stream = DealStream(game, rules, seed=np.random.SeedSequence(42))
    head = [next(stream) for _ in range(5)]
    saved = stream.position()
    assert saved["dealt"] == 5
    tail = [stream.next_deal() for _ in range(7)]
    stream.restore(saved)
    assert [next(stream) for _ in range(7)] == tail and stream.dealt == 12
    other = DealStream(game.name, rules, seed=42)
    assert [next(other) for _ in range(5)] == head
    fresh = DealStream(game, rules, seed=99)
    fresh.restore(saved)  # a position carries the generator's whole state
    assert [next(fresh) for _ in range(7)] == tail
    for bad in (
        {},
        {"dealt": -1, "bit_generator": saved["bit_generator"]},
        {"dealt": 1, "bit_generator": {"bit_generator": "MT19937"}},
    ):
        with pytest.raises(ValueError, match="position must be"):
            stream.restore(bad)


def test_runner_resumes_from_a_saved_deal_stream_position():
    game = get_game("minchiate")
    stream = DealStream(game, game.rules(), seed=5)
    runner = VectorRunner(game, 2, deals=stream)
    runner.reset()
    saved = stream.position()
    later = VectorRunner(game, 2, deals=stream)
    first = later.reset().obs.copy()
    stream.restore(saved)
    assert np.array_equal(VectorRunner(game, 2, deals=stream).reset().obs, first)


def test_a_finite_deal_source_that_runs_out_is_an_error():
    game = get_game("calabresella")
    rules = game.rules()
    deals = [game.deal_random(np.random.default_rng(i), rules) for i in range(2)]
    runner = VectorRunner(game, 2, deals=iter(deals))
    batch = runner.reset()
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="deals ran out"):
        for _ in range(200):
            batch = runner.step(random_actions(rng, batch.mask))

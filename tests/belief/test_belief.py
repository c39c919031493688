"""Belief models and the learned-inference search (``mazzo.agents.belief``, ``mazzo.training.belief``,
``ipimc``): the holder classes of both games (true states and sampled worlds agree), the
resampling arithmetic, the numpy forward pass against torch's, the file format and its errors,
the ``ipimc`` spec, ``ipimc`` with a flat belief being exactly ``pimc``, a model that learns
(held-out log-loss far below a constant predictor's) and the ``mazzo belief`` command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from mazzo.agents.belief import (
    BeliefWorlds,
    effective_size,
    holder_map,
    load_belief,
    systematic_counts,
    tempered,
)
from mazzo.agents.registry import make_agent
from mazzo.envs.registry import get_game
from mazzo.training.belief import BeliefConfig, BeliefNet, collect, fit, train_belief, write_belief
from tests.cli_runner import run_cli

GAMES = ("calabresella", "minchiate")


def sampler_of(game_name: str) -> Any:
    """The game's world sampler class."""
    return __import__(f"mazzo.agents.{game_name}.sampler", fromlist=["WorldSampler"]).WorldSampler


def play_states(game_name: str, deals: int, seed: int = 3) -> list[Any]:
    """Card-play states of heuristic deals (copies, every fourth decision)."""
    game = get_game(game_name)
    rules = game.rules({})
    agent = make_agent("heuristic", game)
    play = __import__(f"mazzo.envs.{game_name}.actions", fromlist=["Phase"]).Phase.PLAY
    out = []
    for d in range(deals):
        rng = np.random.default_rng([seed, d])
        state: Any = game.new_state(game.deal_random(rng, rules), rules)
        k = 0
        while not state.is_terminal():
            view = state.info_view(state.to_play)
            if view.phase is play:
                k += 1
                if k % 4 == 1:
                    out.append(state.clone())
            state.apply(agent.act(view, rng))
    return out


@pytest.mark.parametrize("game_name", GAMES)
def test_holder_classes_of_states_and_of_sampled_worlds_agree(game_name: str) -> None:
    holders = holder_map(game_name)
    sampler_type = __import__(
        f"mazzo.agents.{game_name}.sampler", fromlist=["WorldSampler"]
    ).WorldSampler
    rng = np.random.default_rng(0)
    for state in play_states(game_name, 3):
        seat = state.to_play
        view = state.info_view(seat)
        truth = holders.of_state(state, seat)
        assert truth.shape == (holders.n_cards,)
        assert set(np.unique(truth)) <= set(range(holders.n_classes))
        hand = [c for c in range(holders.n_cards) if view.hand >> c & 1]
        assert (truth[hand] == 0).all()  # the seat's own hand is class 0
        hidden = holders.hidden(view)
        assert not hidden & view.hand
        for cards in view.played_by:
            assert not hidden & cards
        # every hidden card that is in some hand is in another seat's (class 1..)
        for c in range(holders.n_cards):
            if hidden >> c & 1:
                assert truth[c] != 0
        sampler = sampler_type(view)
        prior = holders.prior(view, sampler)
        assert np.allclose(np.exp(prior).sum(axis=1), 1, atol=1e-4)
        # the true world and every sampled one are possible under the constraint prior
        assert (prior[np.arange(holders.n_cards), truth] > np.log(1e-5)).all()
        for _ in range(5):
            world = sampler.sample_assignment(rng)
            by_assignment = holders.of_assignment(view, world)
            rebuilt = sampler.sample(np.random.default_rng(1))  # a world state, same shape
            assert by_assignment.shape == truth.shape
            # the classes of the determinized world equal those of its assignment
            if game_name == "minchiate":
                from mazzo.envs.minchiate.worlds import determinize

                state_of = determinize(view, world)
            else:
                from mazzo.envs.calabresella.worlds import determinize as det

                state_of = det(view, *world)
            assert (holders.of_state(state_of, seat) == by_assignment).all()
            # what the view shows has the same class in every world
            seen = [c for c in range(holders.n_cards) if not hidden >> c & 1]
            assert (by_assignment[seen] == truth[seen]).all()
            assert (prior[np.arange(holders.n_cards), by_assignment] > np.log(1e-5)).all()
            # a card the prior pins (one class) has that class in every world
            pinned = np.flatnonzero(prior.max(axis=1) > -1e-6)
            assert (by_assignment[pinned] == prior[pinned].argmax(axis=1)).all()
            del rebuilt


def test_systematic_counts_are_floor_or_ceil_of_the_shares() -> None:
    rng = np.random.default_rng(5)
    for _ in range(200):
        w = rng.random(rng.integers(1, 40)) ** 3
        n = int(rng.integers(1, 100))
        counts = systematic_counts(w, n, float(rng.random()))
        assert counts.sum() == n
        share = n * w / w.sum()
        assert (counts >= np.floor(share) - 1e-9).all() and (counts <= np.ceil(share) + 1e-9).all()


def test_tempering_keeps_the_effective_sample_size() -> None:
    rng = np.random.default_rng(8)
    for _ in range(100):
        score = rng.normal(0, rng.uniform(0.1, 30), int(rng.integers(2, 300)))
        score -= score.max()
        ess = float(rng.uniform(0.05, 0.95))
        a = tempered(score, 1.0, ess)
        assert 0 <= a <= 1
        assert effective_size(np.exp(a * score)) >= ess * len(score) - 1e-6
        if a < 1:  # the largest such exponent: a little more falls below
            assert effective_size(np.exp(min(1.0, a + 1e-3) * score)) < ess * len(score) + 1e-3
    flat = np.zeros(10)
    assert tempered(flat, 0.7, 0.9) == 0.7


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A small model per game, trained on 30 heuristic deals."""
    out = {}
    for game_name in GAMES:
        folder = tmp_path_factory.mktemp(f"belief-{game_name}")
        config = BeliefConfig(
            game=game_name, deals=30, epochs=2, hidden=(32,), uniform_worlds=20, seed=11
        )
        train_belief(config, folder, log=lambda _: None)
        out[game_name] = folder
    return out


@pytest.mark.parametrize("game_name", GAMES)
def test_numpy_forward_pass_equals_torch(game_name: str, tmp_path: Path) -> None:
    holders = holder_map(game_name)
    game = get_game(game_name)
    encoder = game.encoder(game.rules({}))
    torch.manual_seed(0)
    net = BeliefNet(encoder.obs_size, (24, 16), holders.n_cards, holders.n_classes)
    with torch.no_grad():  # the file keeps float16 weights; the arithmetic is float32
        for p in net.parameters():
            p.copy_(p.half().float())
    config = BeliefConfig(game=game_name, hidden=(24, 16))
    with torch.no_grad():  # the last layer starts at zero; give it weights to compare
        net.linears()[-1].weight.copy_(torch.randn_like(net.linears()[-1].weight).half().float())
    write_belief(tmp_path, net, config, game.rules({}), {})
    model = load_belief(tmp_path, game_name)
    obs = np.random.default_rng(0).random((7, encoder.obs_size)).astype(np.float32)
    prior = np.log(
        np.random.default_rng(1).dirichlet(np.ones(holders.n_classes), (7, holders.n_cards))
    )
    prior = prior.astype(np.float32)
    with torch.no_grad():
        expected = net(torch.from_numpy(obs), torch.from_numpy(prior)).numpy()
    assert np.allclose(model.log_probs_of(obs, prior), expected, atol=1e-5)
    state = play_states(game_name, 1)[0]
    view = state.info_view(state.to_play)
    row = model.log_probs(view, sampler_of(game_name)(view))
    assert row.shape == (holders.n_cards, holders.n_classes)
    assert np.allclose(np.exp(row).sum(axis=1), 1, atol=1e-5)


def test_bad_belief_folders_are_refused_with_the_reason(
    tmp_path: Path, tiny_models: dict[str, Path]
) -> None:
    with pytest.raises(ValueError, match="not a belief model folder"):
        load_belief(tmp_path / "nowhere", "minchiate")
    with pytest.raises(ValueError, match="holds a calabresella belief model, not a minchiate"):
        load_belief(tiny_models["calabresella"], "minchiate")
    bad = tmp_path / "bad"
    bad.mkdir()
    meta = json.loads((tiny_models["minchiate"] / "meta.json").read_text())
    (bad / "meta.json").write_text(json.dumps({**meta, "format": "something/9"}))
    with pytest.raises(ValueError, match="format 'something/9', expected 'mazzo-belief/1'"):
        load_belief(bad, "minchiate")
    (bad / "meta.json").write_text(json.dumps({**meta, "hidden": [33]}))
    (bad / "weights.npz").write_bytes((tiny_models["minchiate"] / "weights.npz").read_bytes())
    with pytest.raises(ValueError, match="layer 0 is"):
        load_belief(bad, "minchiate")
    with pytest.raises(ValueError, match="minchiate agent 'ipimc': 'belief=/no/such'"):
        make_agent("ipimc:belief=/no/such", "minchiate")
    with pytest.raises(ValueError, match="'pool=0'"):
        make_agent(f"ipimc:belief={tiny_models['minchiate']},pool=0", "minchiate")


@pytest.mark.parametrize("game_name", GAMES)
def test_ipimc_with_a_flat_belief_is_pimc(game_name: str, tiny_models: dict[str, Path]) -> None:
    """alpha=0 and pool=1: the same uniform draws, every weight 1: pimc's exact values."""
    folder = tiny_models[game_name]
    ipimc = make_agent(f"ipimc:belief={folder},alpha=0,pool=1,ms=0,samples=8,prior=0", game_name)
    pimc = make_agent("pimc:ms=0,samples=8", game_name)
    assert ipimc.name.startswith("ipimc:")
    for state in play_states(game_name, 2)[:12]:
        view = state.info_view(state.to_play)
        a = ipimc.search(view, np.random.default_rng(4))
        b = pimc.search(view, np.random.default_rng(4))
        assert a == b


@pytest.mark.parametrize("game_name", GAMES)
def test_ipimc_with_an_untrained_network_is_pimc(game_name: str, tmp_path: Path) -> None:
    """A network that learned nothing (its last layer is zero) predicts the constraint prior:
    against the prior every weight is 1, so pool=1 evaluates pimc's worlds with pimc's values."""
    holders = holder_map(game_name)
    game = get_game(game_name)
    net = BeliefNet(game.encoder(game.rules({})).obs_size, (8,), holders.n_cards, holders.n_classes)
    write_belief(tmp_path, net, BeliefConfig(game=game_name, hidden=(8,)), game.rules({}), {})
    ipimc = make_agent(
        f"ipimc:belief={tmp_path},pool=1,against=prior,ms=0,samples=8,prior=0", game_name
    )
    pimc = make_agent("pimc:ms=0,samples=8", game_name)
    for state in play_states(game_name, 2)[:10]:
        view = state.info_view(state.to_play)
        (a, va), (b, vb) = (agent.search(view, np.random.default_rng(6)) for agent in (ipimc, pimc))
        assert a == b and va.keys() == vb.keys()  # weights 1 up to float32 rounding
        assert all(abs(va[k] - vb[k]) < 1e-5 for k in va)


@pytest.mark.parametrize("game_name", GAMES)
def test_belief_weights_prefer_the_worlds_the_model_prefers(
    game_name: str, tiny_models: dict[str, Path]
) -> None:
    model = load_belief(tiny_models[game_name], game_name)
    worlds = BeliefWorlds(model, pool=4, alpha=1.0, ess=0.0)  # untempered, against the pool
    sampler_type = __import__(
        f"mazzo.agents.{game_name}.sampler", fromlist=["WorldSampler"]
    ).WorldSampler
    rng = np.random.default_rng(2)
    state = play_states(game_name, 1)[2]
    view = state.info_view(state.to_play)
    sampler = sampler_type(view)
    pool = [sampler.sample_assignment(rng) for _ in range(40)]
    w = worlds.weights(view, sampler, pool)
    logq = model.log_probs(view, sampler)
    hidden = [c for c in range(model.holders.n_cards) if model.holders.hidden(view) >> c & 1]
    n_classes = model.holders.n_classes
    where = [model.holders.of_assignment(view, x) for x in pool]
    share = {  # the pool's own share of each (card, class), smoothed by half a world
        (c, k): (sum(int(w[c] == k) for w in where) + 0.5) / (len(pool) + 0.5 * n_classes)
        for c in hidden
        for k in range(n_classes)
    }
    score = [sum(logq[c, w[c]] - np.log(share[c, int(w[c])]) for c in hidden) for w in where]
    assert w.max() == 1.0
    assert np.allclose(np.log(w), np.array(score) - max(score), atol=1e-6)
    # against the constraint prior: the network's own evidence, log q - log prior
    prior = model.holders.prior(view, sampler)
    own = [sum(logq[c, w[c]] - prior[c, w[c]] for c in hidden) for w in where]
    by_prior = BeliefWorlds(model, pool=4, alpha=1.0, ess=0.0, against="prior")
    by_prior_w = by_prior.weights(view, sampler, pool)
    assert np.allclose(np.log(by_prior_w), np.array(own) - max(own), atol=1e-4)
    drawn = worlds.draw(view, sampler, 16, rng)
    assert sum(c for _, c in drawn) == 16
    flat = BeliefWorlds(model, pool=1, alpha=1.0).draw(view, sampler, 16, rng)
    assert len(flat) == 16 and abs(sum(c for _, c in flat) - 16) < 1e-9


def test_a_belief_model_learns_the_hidden_cards() -> None:
    """Trained on 400 Calabresella deals of the heuristic, the held-out log-loss per hidden
    card is well below a constant predictor's (each card's class frequencies in the training
    rows) and below the exact uniform sampler's on the same decisions: the model reads what
    the play shows about the hands, beyond the rules' constraints."""
    config = BeliefConfig(
        game="calabresella",
        deals=400,
        epochs=8,
        hidden=(256,),
        uniform_worlds=40,
        seed=3,
        uniform_every=10,
    )
    data = collect(config, range(config.deals))
    _, report = fit(config, data, log=lambda _: None)
    train, held = data.deal < 340, data.deal >= 360  # 85% trained on, 5% to choose, 10% held
    freq = np.zeros((data.classes.shape[1], 4)) + 1.0
    for k in range(4):
        freq[:, k] += ((data.classes[train] == k) & data.hidden[train]).sum(axis=0)
    freq /= freq.sum(axis=1, keepdims=True)
    cards = np.nonzero(data.hidden[held])
    constant = -np.log(freq[cards[1], data.classes[held][cards]]).mean()
    assert report["heldout_logloss"] < 0.9 * constant
    assert report["uniform_compared_decisions"] >= 25
    assert report["model_logloss_same_decisions"] < 0.95 * report["uniform_logloss"]


def test_mazzo_belief_trains_and_writes_a_model_ipimc_plays(tmp_path: Path) -> None:
    out = tmp_path / "model"
    result = run_cli(
        "belief", "--game", "calabresella", "--agents", "heuristic", "--n", "40",
        "--hidden", "16", "--epochs", "1", "--dropout", "0.1", "--workers", "1",
        "--out", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "uniform_logloss" in result.stdout and f"ipimc:belief={out}" in result.stdout
    meta = json.loads((out / "meta.json").read_text())
    assert meta["format"] == "mazzo-belief/1" and meta["hidden"] == [16]
    assert meta["config"]["dropout"] == 0.1
    agent = make_agent(f"ipimc:belief={out},samples=4,ms=0", "calabresella")
    state = play_states("calabresella", 1)[0]
    view = state.info_view(state.to_play)
    assert view.legal_mask >> agent.act(view, np.random.default_rng(0)) & 1
    bad = run_cli("belief", "--game", "calabresella", "--agents", "pimc:foo=1", "--out", str(out))
    assert bad.returncode == 2 and "unknown parameter 'foo'" in bad.stderr
    bad = run_cli("belief", "--game", "calabresella", "--dropout", "1.5", "--out", str(out))
    assert bad.returncode == 2 and "'1.5': a dropout must be >= 0 and < 1" in bad.stderr
    bad = run_cli("belief", "--game", "calabresella", "--data", "x.npy", "--out", str(out))
    assert bad.returncode == 2 and "--data 'x.npy': give a file name ending in .npz" in bad.stderr


def test_kept_decisions_are_fitted_again_without_playing(tmp_path: Path) -> None:
    config = BeliefConfig(game="calabresella", deals=20, epochs=1, hidden=(8,), seed=2)
    data = tmp_path / "decisions.npz"
    first = train_belief(config, tmp_path / "a", log=lambda _: None, data=data)
    assert data.exists()
    said: list[str] = []
    second = train_belief(config, tmp_path / "b", log=said.append, data=data)
    assert said[0].startswith("read ") and first["heldout_logloss"] == second["heldout_logloss"]
    kept = np.load(data)
    assert kept["obs"].dtype == np.float16 and len(kept["obs"]) == first["train_decisions"] + (
        first["valid_decisions"] + first["heldout_decisions"]
    )

"""Distillation of search labels (``mazzo.training.rl.distill``): the decisions read back are the
positions the search saw (the replayed view's encoding, the search's action legal there), the
soft targets are distributions that put the search's choice first, distillation moves the
policy towards the search (held-out agreement above the untrained network's and above the
share of the most common action), a run starts from a checkpoint (``init_from``) and
distils before self-play, refusing labels or checkpoints of other rules, and PPO with
``distill_coef`` keeps learning the labels during self-play (expert iteration mixed with
self-play), resumably."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from mazzo.agents.nets import PolicyValueNet
from mazzo.agents.neural import read_policy
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import game_names, get_game
from mazzo.training.rl.collect import Rollout
from mazzo.training.rl.distill import (
    distill,
    label_cross_entropy,
    label_decisions,
    soft_targets,
)
from mazzo.training.rl.dmc import DMCConfig
from mazzo.training.rl.ppo import PPOConfig, ppo_update, train
from mazzo.training.search_labels import label_games, write_search_labels

SEARCHER = "pimc:samples=2,ms=0"
TINY = {
    "n_envs": 8, "rollout_decisions": 256, "minibatch": 128, "epochs": 1, "hidden": (32,),
    "threads": 1, "eval_every": 0, "snapshot_every": 1, "max_snapshots": 2,
}  # fmt: skip


def quiet(_line):
    pass


@pytest.fixture(scope="module")
def labels(tmp_path_factory):
    """Per game: a labels file of the searcher in every seat on 6 deals."""
    out = {}
    for name in game_names():
        game = get_game(name)
        path = tmp_path_factory.mktemp(name) / "labels.jsonl"
        write_search_labels(generate_deals(game, game.rules(), 6, 11), [SEARCHER], path)
        out[name] = path
    return out


def _searched_lines(path):
    lines = [json.loads(t) for t in path.read_text().splitlines()[1:]]
    return [ln for ln in lines if len(ln["values"]) > 1]


@pytest.mark.parametrize("game", game_names())
def test_the_decisions_are_the_positions_the_search_saw(game, labels):
    g = get_game(game)
    rules = g.rules()
    enc = g.encoder(rules)
    data = label_decisions([labels[game]], g, rules, enc, reward_scale=0.5)
    lines = _searched_lines(labels[game])
    assert len(data) == len(lines) > 10
    for i in (0, len(lines) // 2, len(lines) - 1):
        ln = lines[i]
        state = g.replay(ln["record"])
        view = state.info_view(ln["seat"])
        assert state.to_play == ln["seat"]
        want = enc.encode(view)
        np.testing.assert_array_equal(data.obs[i], want.astype(np.float16))
        assert data.action[i] == ln["action"] and data.mask[i, ln["action"]] == 1
        assert data.ret[i] == pytest.approx(ln["outcome"] * 0.5)
    assert data.obs.dtype == np.float16 and data.target.dtype == np.float32
    np.testing.assert_allclose(data.target.sum(1), 1.0, rtol=1e-5)
    assert (data.target * (1 - data.mask)).sum() == 0  # no target mass on illegal actions
    assert (data.target.argmax(1) == data.action).all()  # the search's choice weighs most


@pytest.mark.parametrize("chunk", [1, 7])
def test_reading_in_chunks_gives_the_same_rows(labels, chunk):
    """Rows are stacked ``chunk`` at a time (about one copy of the labels in memory while
    reading); any chunk size gives the same arrays, with and without a limit."""
    g = get_game("minchiate")
    rules, enc = g.rules(), g.encoder(g.rules())
    whole = label_decisions([labels["minchiate"]], g, rules, enc, 0.5, chunk=10_000)
    parts = label_decisions([labels["minchiate"]], g, rules, enc, 0.5, chunk=chunk)
    assert len(parts) == len(whole) > 2 * 7
    for name in ("obs", "mask", "action", "target", "ret"):
        a, b = getattr(whole, name), getattr(parts, name)
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)
    cut = label_decisions([labels["minchiate"]], g, rules, enc, 0.5, limit=15, chunk=chunk)
    np.testing.assert_array_equal(cut.obs, whole.obs[:15])
    np.testing.assert_array_equal(cut.target, whole.target[:15])
    with pytest.raises(ValueError, match="chunk must be >= 1, got 0"):
        label_decisions([labels["minchiate"]], g, rules, enc, 0.5, chunk=0)


def test_soft_targets_follow_the_values():
    t = soft_targets({"3": 1.0, "5": 0.0, "7": 1.0}, 3, 10, soft=0.5, temperature=0.25)
    assert t.sum() == pytest.approx(1.0)
    assert t[3] > t[7] > t[5] > 0 and t[[0, 1, 2, 4, 6, 8, 9]].sum() == 0
    assert t[7] == pytest.approx(0.5 / (2 + np.exp(-4)))  # softmax of (1, 0, 1) / 0.25
    hard = soft_targets({"3": 1.0, "5": 0.0}, 5, 10, soft=0.0, temperature=0.25)
    assert hard[5] == 1 and hard.sum() == 1  # soft 0: the search's action alone, whatever its value


def test_limit_and_incomplete_deals(labels, tmp_path):
    g = get_game("calabresella")
    rules, enc = g.rules(), g.encoder(g.rules())
    assert len(label_decisions([labels["calabresella"]], g, rules, enc, 1.0, limit=5)) == 5
    cut = tmp_path / "cut.jsonl"
    text = labels["calabresella"].read_text()
    cut.write_text(text[: len(text) - 40])  # a crash in the last deal's last line
    games = list(label_games(cut))
    deals = {lines[0]["deal"] for _, lines in games}
    assert deals == set(range(5))  # the cut deal is left out whole


def test_bad_files_are_named(labels, tmp_path):
    g = get_game("calabresella")
    rules, enc = g.rules(), g.encoder(g.rules())
    other = tmp_path / "other.jsonl"
    other.write_text('{"format": "something-else"}\n')
    with pytest.raises(ValueError, match=r"other\.jsonl is not a mazzo-search-labels/1 file"):
        label_decisions([other], g, rules, enc, 1.0)
    with pytest.raises(ValueError, match="labels of 'minchiate', this run plays 'calabresella'"):
        label_decisions([labels["minchiate"]], g, rules, enc, 1.0)
    four = g.rules({"players": 4})
    with pytest.raises(ValueError, match="labels under flags"):
        label_decisions([labels["calabresella"]], g, four, g.encoder(four), 1.0)
    with pytest.raises(ValueError, match="soft must be in"):
        label_decisions([labels["calabresella"]], g, rules, enc, 1.0, soft=2.0)


@pytest.mark.parametrize("game", game_names())
def test_distillation_learns_the_search(game, labels):
    g = get_game(game)
    rules, enc = g.rules(), g.encoder(rules := g.rules())
    data = label_decisions([labels[game]], g, rules, enc, 0.5, soft=0.0)
    torch.set_num_threads(1)  # a tiny net: extra OpenMP threads only spin on a busy machine
    torch.manual_seed(0)
    net = PolicyValueNet(enc.obs_size, enc.num_actions, (64,))
    untrained = distill(
        net, torch.optim.Adam(net.parameters()), data, 0, 64, torch.Generator(), holdout=0.0
    )
    stats = distill(
        net, torch.optim.Adam(net.parameters(), lr=3e-3), data, 30, 64,
        torch.Generator().manual_seed(0), holdout=0.0,
    )  # fmt: skip
    common = np.bincount(data.action).max() / len(data)
    # measured on the decisions it learned (holdout 0): it fits the search's choices
    assert stats["agreement"] > max(common, untrained["agreement"]) + 0.2
    assert stats["heldout_cross_entropy"] < untrained["heldout_cross_entropy"] / 2


def test_a_run_starts_from_a_checkpoint_and_distils(labels, tmp_path):
    game = "calabresella"
    base = train(PPOConfig(game=game, total_decisions=256, **TINY), tmp_path / "base", log=quiet)
    said: list[str] = []
    cfg = PPOConfig(
        game=game, total_decisions=256, lr=1e-9, init_from=str(tmp_path / "base"),
        distill_labels=(str(labels[game]),), distill_epochs=1, distill_lr=1e-9, **TINY,
    )  # fmt: skip
    net = train(cfg, tmp_path / "run", log=said.append)
    assert any(s.startswith(f"initialised from {tmp_path / 'base'}") for s in said)
    assert any(s.startswith("labels: 1 file(s), ") for s in said)
    assert any(s.startswith("distillation of ") for s in said)
    for k, v in base.state_dict().items():  # tiny rates: the start's weights, nearly unmoved
        assert torch.allclose(v, net.state_dict()[k], atol=1e-4), k
    _model, meta = read_policy(tmp_path / "run")
    assert meta["config"]["init_from"] == str(tmp_path / "base")


def test_init_from_refuses_another_shape_or_game(labels, tmp_path):
    train(PPOConfig(game="calabresella", total_decisions=256, **TINY), tmp_path / "base", log=quiet)
    wide = {**TINY, "hidden": (16,)}
    with pytest.raises(ValueError, match=r"hidden widths are \[32\], this run's are \[16\]"):
        train(
            PPOConfig(game="calabresella", total_decisions=256, init_from=str(tmp_path / "base"), **wide),
            tmp_path / "a", log=quiet,
        )  # fmt: skip
    with pytest.raises(ValueError, match='its game is "calabresella", this run\'s is "minchiate"'):
        train(
            PPOConfig(game="minchiate", total_decisions=256, init_from=str(tmp_path / "base"), **TINY),
            tmp_path / "b", log=quiet,
        )  # fmt: skip
    with pytest.raises(ValueError, match="neither a mazzo checkpoint"):
        train(
            PPOConfig(game="calabresella", total_decisions=256, init_from=str(tmp_path / "none"), **TINY),
            tmp_path / "c", log=quiet,
        )  # fmt: skip


def test_bad_distill_settings_are_refused():
    with pytest.raises(ValueError, match="distill_soft must be in"):
        PPOConfig(game="calabresella", distill_soft=1.5)
    with pytest.raises(ValueError, match="distill_epochs must be >= 0"):
        PPOConfig(game="calabresella", distill_epochs=-1)
    with pytest.raises(ValueError, match=r"distill_coef must be >= 0, got -0\.5"):
        PPOConfig(game="calabresella", distill_coef=-0.5)
    with pytest.raises(ValueError, match=r"distill_coef = 0\.2 needs search labels"):
        PPOConfig(game="calabresella", distill_coef=0.2)
    with pytest.raises(ValueError, match="the search labels would go unused"):
        PPOConfig(game="calabresella", distill_labels=("x.jsonl",), distill_epochs=0)
    with pytest.raises(ValueError, match="the DMC trainer has no policy loss"):
        DMCConfig(game="calabresella", distill_labels=("x.jsonl",), distill_coef=0.2)


def test_a_run_writes_its_own_labels_and_distils_them(tmp_path):
    said: list[str] = []
    cfg = PPOConfig(
        game="calabresella", total_decisions=256, label_deals=2, label_workers=1,
        label_searcher=SEARCHER, **TINY,
    )  # fmt: skip
    train(cfg, tmp_path / "run", log=said.append)
    path = tmp_path / "run" / "labels.jsonl"
    header = json.loads(path.read_text().splitlines()[0])
    assert header["searcher"] == SEARCHER and header["deals"] == 2 and header["seed"] == 424242
    assert any(s.startswith("labels: 2 deals (2 written now,") for s in said)
    assert any(s.startswith("labels: 1 file(s), ") for s in said)
    assert any(s.startswith("distillation of ") for s in said)
    lines = [json.loads(t) for t in path.read_text().splitlines()[1:]]
    assert lines[-1]["deal"] == 1 and lines[-1]["deal_end"]


def test_a_run_labels_the_positions_its_opponents_lead_to(tmp_path):
    cfg = PPOConfig(
        game="calabresella", total_decisions=256, label_deals=2, label_workers=1,
        label_searcher=SEARCHER, label_opponents=("random",), distill_epochs=0,
        distill_coef=0.1, **TINY,
    )  # fmt: skip
    said: list[str] = []
    train(cfg, tmp_path / "run", log=said.append)
    path = tmp_path / "run" / "labels.jsonl"
    text = path.read_text().splitlines()
    header = json.loads(text[0])
    assert header["searcher"] == SEARCHER and header["opponents"] == ["random"]
    assert any(s.startswith(f"labels: {SEARCHER} against random on 2 deals") for s in said)
    lines = [json.loads(t) for t in text[1:]]
    lineups = header["lineups"]  # the searcher's seats only: the opponents' are not labelled
    assert all(lineups[ln["lineup"]][ln["seat"]] == 0 for ln in lines)
    assert {ln["lineup"] for ln in lines} == set(range(len(lineups))) and len(lineups) > 1


def test_labelling_the_evaluation_deals_is_refused():
    with pytest.raises(ValueError, match="label_seed must differ from eval_seed"):
        PPOConfig(game="calabresella", label_deals=10, label_seed=1000, eval_seed=1000)


def _rollout(data, n):
    """A rollout of ``n`` rows over label positions with zero advantages: a PPO update on it
    moves the policy only through the entropy and label terms."""
    z = np.zeros(n, np.float32)
    return Rollout(
        obs=data.obs[:n].astype(np.float32), mask=data.mask[:n].copy(), action=data.action[:n],
        logp=z.copy(), value=z.copy(), advantage=z.copy(), ret=z.copy(),
        phase=np.zeros(n, np.int64), extra=np.zeros((n, 0), np.float32), deals=0,
        deal_returns=np.zeros(0, np.float32),
    )  # fmt: skip


def test_ppo_with_distill_coef_learns_the_labels_during_self_play(labels):
    g = get_game("calabresella")
    rules, enc = g.rules(), g.encoder(g.rules())
    data = label_decisions([labels["calabresella"]], g, rules, enc, 0.5, soft=0.0)
    torch.set_num_threads(1)

    def after(coef):
        torch.manual_seed(0)
        net = PolicyValueNet(enc.obs_size, enc.num_actions, (64,))
        cfg = PPOConfig(
            game="calabresella", distill_labels=("x",), distill_coef=coef, ent_coef=0.0,
            epochs=30, minibatch=64, distill_epochs=0 if coef else 1,
        )  # fmt: skip
        opt = torch.optim.Adam(net.parameters(), lr=3e-3)
        stats = ppo_update(net, opt, _rollout(data, 64), cfg, torch.Generator(), labels=data)
        with torch.no_grad():
            ce, agree = label_cross_entropy(net, data, 4096, torch.Generator().manual_seed(1))
        return stats, float(ce), agree

    plain, ce0, agree0 = after(0.0)
    taught, ce1, agree1 = after(1.0)
    assert "distill_ce" not in plain and "distill_ce" in taught
    common = np.bincount(data.action).max() / len(data)
    assert agree1 > max(agree0, common) + 0.2  # the label term alone moved it to the search
    assert ce1 < ce0 / 2


def test_a_run_with_distill_coef_resumes_exactly(labels, tmp_path):
    kw = TINY | {
        "game": "calabresella", "distill_labels": (str(labels["calabresella"]),),
        "distill_epochs": 0, "distill_coef": 0.5,
    }  # fmt: skip
    said: list[str] = []
    a = train(PPOConfig(total_decisions=768, **kw), tmp_path / "a", log=said.append)
    assert not any(s.startswith("distillation of ") for s in said)  # no pass before self-play
    train(PPOConfig(total_decisions=256, **kw), tmp_path / "b", log=quiet)
    said.clear()
    b = train(PPOConfig(total_decisions=768, **kw), tmp_path / "b", resume=True, log=said.append)
    assert any(s.startswith("labels: 1 file(s), ") for s in said)  # read again on resume
    for k, v in a.state_dict().items():
        assert torch.equal(v, b.state_dict()[k]), k
    # a finished run resumed with nothing left to learn does not read them again
    said.clear()
    train(PPOConfig(total_decisions=768, **kw), tmp_path / "b", resume=True, log=said.append)
    assert not any(s.startswith("labels: ") for s in said), said


def test_init_from_another_rule_set_only_when_asked(tmp_path):
    """A warm start for a variant: the default rules' network into a four-player run, refused
    unless ``init_foreign_rules`` says so, and then named in the log."""
    base = train(
        PPOConfig(game="calabresella", total_decisions=256, **TINY), tmp_path / "base", log=quiet
    )
    four = {"game": "calabresella", "flags": {"players": 4}, "total_decisions": 256, **TINY}
    with pytest.raises(ValueError, match=r'its flags is \{\}, this run\'s is \{"players": 4\} '
                                         r"\(init_foreign_rules = true allows it\)"):  # fmt: skip
        train(PPOConfig(init_from=str(tmp_path / "base"), **four), tmp_path / "a", log=quiet)
    said: list[str] = []
    net = train(
        PPOConfig(init_from=str(tmp_path / "base"), init_foreign_rules=True, lr=1e-9, **four),
        tmp_path / "b", log=said.append,
    )  # fmt: skip
    assert any("trained for the rules {}" in s for s in said if s.startswith("initialised from"))
    for k, v in base.state_dict().items():
        assert torch.allclose(v, net.state_dict()[k], atol=1e-4), k
    _model, meta = read_policy(tmp_path / "b")
    assert meta["flags"] == {"players": 4}  # the run's own rules, whatever it started from


def test_init_from_names_a_shipped_bot(tmp_path):
    shipped = {**TINY, "hidden": (256, 256)}
    said: list[str] = []
    train(PPOConfig(game="calabresella", total_decisions=256, init_from="bot", lr=1e-9, **shipped),
          tmp_path / "a", log=said.append)  # fmt: skip
    assert any(s.startswith("initialised from bot (") for s in said)
    with pytest.raises(
        ValueError, match=r"init_from 'bot@99': calabresella ships versions \[1\] of its bot"
    ):
        train(PPOConfig(game="calabresella", total_decisions=256, init_from="bot@99", **shipped),
              tmp_path / "b", log=quiet)  # fmt: skip

"""The expert-iteration recipe (``mazzo.training.rl.expert_iteration``): its config's refusals,
each round's PPO config, a whole tiny run through ``mazzo train`` (rounds, gate, bot folder
and card), resuming across a round boundary to the same result, and rule flags on the
command line."""

import json
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from mazzo.agents.neural import read_policy
from mazzo.agents.shipped import named_weights
from mazzo.envs.registry import get_game
from mazzo.training.rl import expert_iteration
from mazzo.training.rl.config import make_config
from mazzo.training.rl.evaluate import Margin
from mazzo.training.rl.expert_iteration import (
    PASSES,
    ExitConfig,
    _Clock,
    past_bests,
    round_config,
)
from mazzo.training.rl.levels import ship_levels
from tests.cli_runner import ROOT, run_cli

TINY = {
    "game": "calabresella",
    "rounds": 1,
    "bootstrap_decisions": 2048,
    "round_decisions": 1024,
    "rollout_decisions": 1024,
    "n_envs": 16,
    "minibatch": 256,
    "hidden": [32, 32],
    "label_deals": 8,
    "label_workers": 1,
    # the bootstrap network of a few updates passes every auction: the search bids itself so
    # that the labels hold card play
    "label_searcher": "ipimc:ms=0,samples=4,others=own,prior=0.5,net={net}",
    "gate_deals": 4,
    "gate_workers": 1,
    "eval_every": 0,
    "threads": 1,
    "pool_agents": ["random"],
    "eval_opponents": ["random"],
}


def _config(**changes):
    return make_config(ExitConfig, {**TINY, **changes})


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"pool_agents": ["heuristic"]}, "trains without the heuristic"),
        ({"label_opponents": ["heuristic@1"]}, "trains without the heuristic"),
        ({"bc_decisions": 1000}, "no imitation"),
        ({"label_searcher": "ipimc:ms=0"}, "must search with the best network"),
        ({"gate_seed": 1000}, "gate_seed 1000 must differ from eval_seed"),
        ({"gate_seed": 424243}, "the rounds' label seeds"),
        ({"eval_seed": 424242}, "never label the evaluation deals"),
        ({"round_decisions": 0}, "round_decisions must be >= 1"),
        ({"label_window": 0}, "label_window must be >= 1"),
        ({"gate_against": "heuristic"}, "gate_against 'heuristic': expert iteration trains"),
        ({"gate_against": "nn:{net}"}, "a fixed agent .* not the best network"),
    ],
)
def test_the_recipe_refuses_what_it_promises_not_to_do(changes, message):
    with pytest.raises(ValueError, match=message):
        _config(**changes)


def test_each_round_starts_from_the_best_and_searches_with_it(tmp_path):
    cfg = _config(rounds=3, past_bests=1, pool_agents=["pimc:samples=4,ms=0"])
    zero = round_config(cfg, 0, None, [])
    assert (zero.init_from, zero.label_deals, zero.distill_coef) == ("", 0, 0.0)
    assert zero.total_decisions == cfg.bootstrap_decisions and zero.seed == cfg.seed
    best, older = tmp_path / "round-02", [tmp_path / "round-00", tmp_path / "round-01"]
    third = round_config(cfg, 3, best, older[-1:])
    assert third.init_from == str(best)
    assert third.label_searcher == f"ipimc:ms=0,samples=4,others=own,prior=0.5,net=nn:{best}"
    assert third.label_opponents == (f"nn:{best}",)
    assert third.label_seed == cfg.label_seed + 3 and third.seed == cfg.seed + 3
    assert third.pool_agents == ("pimc:samples=4,ms=0", f"nn:{older[-1]}")
    assert third.total_decisions == cfg.round_decisions
    assert third.distill_coef == cfg.distill_coef and third.hidden == cfg.hidden
    assert third.distill_labels == ()  # its own labels only, written by its run (label_deals)
    labelled = _config(labels_only_phases=["play"])  # the bootstrap has no labels: PPO's
    assert round_config(labelled, 0, None, []).labels_only_phases == ()
    assert round_config(labelled, 1, best, []).labels_only_phases == ("play",)
    window = round_config(cfg, 3, best, older[-1:], older[1:] + [best])
    assert window.distill_labels == tuple(str(d / "labels.jsonl") for d in older[1:] + [best])


def test_bootstrap_only_keys_and_the_rounds_self_play():
    cfg = _config(
        phase_ent_coef={"bid": 0.1}, phase_ent_floor={"bid": 0.3}, self_play=0.8,
        bootstrap_only=["phase_ent_coef", "phase_ent_floor"], round_self_play=0.5,
    )  # fmt: skip
    zero = round_config(cfg, 0, None, [])
    assert zero.phase_ent_floor == {"bid": 0.3} and zero.self_play == 0.8
    one = round_config(cfg, 1, Path("best"), [])
    assert one.phase_ent_coef == {} and one.phase_ent_floor == {} and one.self_play == 0.5
    with pytest.raises(ValueError, match="bootstrap_only names"):
        _config(bootstrap_only=["no_such_key"])
    with pytest.raises(ValueError, match="round_self_play must be in"):
        _config(round_self_play=1.5)


def _write(path: Path, values: dict) -> Path:
    lines = ['algorithm = "exit"'] + [f"{k} = {json.dumps(v)}" for k, v in values.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def _records(run: Path) -> list[dict]:
    out = []
    for line in (run / "rounds.jsonl").read_text().splitlines():
        record = json.loads(line)
        record.pop("wall_s"), record.pop("total_wall_s")
        out.append(record)
    return out


def test_a_tiny_run_writes_its_rounds_gate_and_bot(tmp_path):
    config = _write(tmp_path / "tiny.toml", TINY)
    run = tmp_path / "run"
    out = run_cli("train", str(config), "--run-dir", str(run), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    records = _records(run)
    assert [r["round"] for r in records] == [0, 1]
    assert records[0]["promoted"] and records[0]["gate"] is None
    gate = records[1]["gate"]
    assert gate["deals"] == 4 and gate["low"] <= gate["mean"] <= gate["high"]
    assert records[1]["promoted"] == (gate["low"] > 0)
    assert records[1]["best"] == (1 if gate["low"] > 0 else 0)
    assert (run / "round-01" / "labels.jsonl").exists()
    assert json.loads((run / "round-01" / "gate.json").read_text()) == gate
    # the bot is the best round's network, with its card
    model, meta = read_policy(run / "bot")
    best, _ = read_policy(run / f"round-{records[-1]['best']:02d}")
    assert all(torch.equal(model[k], best[k]) for k in best)
    assert meta["game"] == "calabresella" and meta["flags"] == {}
    card = (run / "bot" / "CARD.md").read_text()
    assert "no imitation and no heuristic opponent" in card and "| 1 |" in card
    # a finished run resumed with no more rounds does no more work
    again = run_cli("train", str(config), "--resume", str(run), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert _records(run) == records


def test_a_run_resumed_at_a_round_boundary_ends_as_one_run(tmp_path):
    whole = _write(tmp_path / "whole.toml", TINY)
    first = _write(tmp_path / "first.toml", {**TINY, "rounds": 0})
    a, b = tmp_path / "a", tmp_path / "b"
    assert run_cli("train", str(whole), "--run-dir", str(a), cwd=tmp_path).returncode == 0
    out = run_cli("train", str(first), "--run-dir", str(b), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert [r["round"] for r in _records(b)] == [0]
    out = run_cli("train", str(first), "--resume", str(b), "--set", "rounds=1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "rounds: 0 -> 1" in out.stderr
    assert _records(a) == _records(b)
    wa, _ = read_policy(a / "bot")
    wb, _ = read_policy(b / "bot")
    assert all(torch.equal(wa[k], wb[k]) for k in wa)


def test_a_run_resumed_by_another_spelling_of_its_folder_goes_on(tmp_path):
    """Started as ``run`` (relative), resumed as its absolute path inside an unfinished round:
    the round's configs name the earlier rounds as they were typed, and the resume derives the
    same ones (it was refused: "the checkpoint's config is ...")."""
    config = _write(tmp_path / "tiny.toml", TINY)
    assert run_cli("train", str(config), "--run-dir", "run", cwd=tmp_path).returncode == 0
    run = tmp_path / "run"
    records = _records(run)
    lines = (run / "rounds.jsonl").read_text().splitlines(keepends=True)
    (run / "rounds.jsonl").write_text("".join(lines[:-1]))  # round 1 unfinished again
    out = run_cli("train", str(config), "--resume", str(run.resolve()), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert _records(run) == records


def test_a_label_window_learns_the_earlier_rounds_labels_too(tmp_path):
    """``label_window = 2``: round 2 learns its own labels and round 1's (round 0, the
    bootstrap, has none), whether round 1 was promoted or not."""
    config = _write(tmp_path / "tiny.toml", {**TINY, "rounds": 2, "label_window": 2})
    run = tmp_path / "run"
    out = run_cli("train", str(config), "--run-dir", "run", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert [r["round"] for r in _records(run)] == [0, 1, 2]
    one = json.loads((run / "round-01" / "config.json").read_text())
    two = json.loads((run / "round-02" / "config.json").read_text())
    assert one["distill_labels"] == []
    assert two["distill_labels"] == [str(Path("run") / "round-01" / "labels.jsonl")]
    assert "labels: 2 file(s)" in out.stdout


def test_a_resumed_run_refuses_another_recipe(tmp_path):
    config = _write(tmp_path / "tiny.toml", {**TINY, "rounds": 0})
    run = tmp_path / "run"
    assert run_cli("train", str(config), "--run-dir", str(run), cwd=tmp_path).returncode == 0
    out = run_cli("train", str(config), "--resume", str(run), "--set", "label_deals=9")
    assert out.returncode == 2
    assert "a resumed run cannot change label_deals" in out.stderr
    # the workers do not change the labels or the gate: a run moved to more cores goes on
    more = run_cli("train", str(config), "--resume", str(run), "--set", "label_workers=2",
                   "--set", "gate_workers=2", cwd=tmp_path)  # fmt: skip
    assert more.returncode == 0, more.stderr
    again = run_cli("train", str(config), "--run-dir", str(run), cwd=tmp_path)
    assert again.returncode == 2 and "already holds a run" in again.stderr


def test_rule_flags_on_the_command_line_train_for_those_rules(tmp_path):
    config = _write(tmp_path / "tiny.toml", {**TINY, "rounds": 0, "bootstrap_decisions": 1024})
    run = tmp_path / "run"
    out = run_cli("train", str(config), "--run-dir", str(run), "--flag", "players=4", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    _, meta = read_policy(run / "bot")
    assert meta["flags"] == {"players": 4}
    bad = run_cli("train", str(config), "--flag", "players=7", cwd=tmp_path)
    assert bad.returncode == 2 and "players" in bad.stderr and "7" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_variant_warm_started_from_the_default_rules_bot(tmp_path):
    """``init_from = "bot"`` with ``init_foreign_rules``: a run for rules no bot is shipped for
    (``auction = until_two_passes``) starts from the shipped default-rules bot, and its card
    says so; without the key, the refusal says how. Where a bot is shipped for the run's rules
    (four players), ``bot`` is that one and needs no key."""
    values = {**TINY, "rounds": 0, "bootstrap_decisions": 1024, "hidden": [256, 256],
              "init_from": "bot", "lr": 1e-9}  # fmt: skip
    refused = run_cli("train", str(_write(tmp_path / "a.toml", values)), "--run-dir",
                      str(tmp_path / "a"), "--flag", VARIANT, cwd=tmp_path)  # fmt: skip
    assert refused.returncode == 2 and "init_foreign_rules = true allows it" in refused.stderr
    assert "Traceback" not in refused.stderr and not (tmp_path / "a").exists()  # nothing written
    config = _write(tmp_path / "b.toml", {**values, "init_foreign_rules": True})
    run = tmp_path / "b"
    out = run_cli("train", str(config), "--run-dir", str(run), "--flag", VARIANT, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    model, meta = read_policy(run / "bot")
    shipped, _ = read_policy(
        named_weights("bot", get_game("calabresella"), get_game("calabresella").rules())
    )
    assert meta["flags"] == {"auction": "until_two_passes"}
    assert all(torch.allclose(model[k], shipped[k], atol=1e-4) for k in shipped)  # lr 1e-9
    card = (run / "bot" / "CARD.md").read_text()
    assert "warm-started from `bot` (a network trained for other rules" in card
    assert "from no weights" not in card
    four = run_cli("train", str(_write(tmp_path / "c.toml", values)), "--run-dir",
                   str(tmp_path / "c"), "--flag", "players=4", cwd=tmp_path)  # fmt: skip
    assert four.returncode == 0, four.stderr
    model, meta = read_policy(tmp_path / "c" / "bot")
    four_bot, _ = read_policy(ROOT / "checkpoints" / "calabresella" / "rules" / "players=4")
    assert all(torch.allclose(model[k], four_bot[k], atol=1e-4) for k in four_bot)


VARIANT = "auction=until_two_passes"  # a rule set no bot is shipped for


def test_a_rounds_clock_is_kept_while_it_runs_and_adds_up_over_sessions(tmp_path):
    """A round's wall time survives a process killed outright (written as it runs) and adds
    up over the sessions that finish it."""
    clock = _Clock(tmp_path / "round-01", every=0.02)
    start = time.monotonic()
    with clock:
        time.sleep(0.2)
        while_running = json.loads((tmp_path / "round-01" / "wall.json").read_text())["seconds"]
        assert 0.02 <= while_running <= time.monotonic() - start
    first = clock.total()
    assert first >= 0.2
    with _Clock(tmp_path / "round-01", every=10.0) as again:
        time.sleep(0.05)
    assert again.total() >= first + 0.05


def test_the_pool_holds_the_past_bests_before_the_best():
    bests = [Path(f"round-{k:02d}") for k in range(4)]
    assert past_bests(bests, 2) == bests[1:3]
    assert past_bests(bests, 9) == bests[:3]
    assert past_bests(bests, 0) == []  # (it held every earlier best: a slice from -0)
    assert past_bests(bests[:1], 2) == [] and past_bests([], 2) == []


def test_a_failed_round_keeps_its_network_after_the_passes_when_that_one_gates_better(
    tmp_path, monkeypatch
):
    """``gate_passes``: round 1's final network fails its gate, the network as the passes
    left it (``round-01/passes``) passes its own; the round is promoted with that network, and
    the next round starts from it, searches with it and is gated against it (the gate's
    outcomes are set here: what is checked is what the recipe does with them)."""
    played = []

    def margin(deals, a, b, seed=0, workers=1):
        played.append((a.source, b.source))
        good = a.source.endswith(PASSES) or "round-02" in a.source
        return Margin("best", 0.5 if good else -0.1, 0.2 if good else -0.4, 0.8, 4)

    monkeypatch.setattr(expert_iteration, "paired_margin", margin)
    cfg = _config(rounds=2, gate_passes=True, eval_every=0)
    run = tmp_path / "run"
    expert_iteration.train(cfg, run, log=lambda *a: None)
    one = run / "round-01"
    records = _records(run)
    assert records[1]["network"] == PASSES and records[1]["promoted"]
    assert records[1]["gate"]["mean"] == -0.1 and records[1]["passes_gate"]["mean"] == 0.5
    assert played[:2] == [(f"nn:{one}", f"nn:{run / 'round-00'}"),
                          (f"nn:{one / PASSES}", f"nn:{run / 'round-00'}")]  # fmt: skip
    kept, meta = read_policy(one / PASSES)
    assert meta["decisions"] == 0 and meta["game"] == "calabresella"
    final, _ = read_policy(one)
    assert any(not torch.equal(kept[k], final[k]) for k in kept)  # PPO moved it after
    two = json.loads((run / "round-02" / "config.json").read_text())
    assert two["init_from"] == str(one / PASSES)
    assert two["label_searcher"].endswith(f"net=nn:{one / PASSES}")
    assert two["pool_agents"] == ["random", f"nn:{run / 'round-00'}"]
    # round 2 is promoted on its own network (the passes' gate is not played then): the bot
    assert records[2]["network"] == "" and records[2]["passes_gate"] is None
    assert played[2:] == [(f"nn:{run / 'round-02'}", f"nn:{one / PASSES}")]
    bot, _ = read_policy(run / "bot")
    two_final, _ = read_policy(run / "round-02")
    assert all(torch.equal(bot[k], two_final[k]) for k in bot)
    assert "after the passes +0.500" in (run / "bot" / "CARD.md").read_text()
    # the ladder's level of round 1 is the network it was promoted with
    levels = ship_levels(run, tmp_path / "out", count=4)
    level, meta = read_policy(levels[1])
    assert meta["level"]["round"] == 1
    assert all(torch.equal(level[k], kept[k].half()) for k in kept)


@pytest.mark.parametrize("changes", [{}, {"gate_passes": True, "distill_epochs": 0}])
def test_without_gate_passes_no_network_is_kept_after_the_passes(changes, tmp_path):
    """Not asked, or asked where there are no passes (that network would be the best)."""
    config = _write(tmp_path / "tiny.toml", {**TINY, **changes})
    assert run_cli("train", str(config), "--run-dir", "run", cwd=tmp_path).returncode == 0
    assert not (tmp_path / "run" / "round-01" / PASSES).exists()
    assert _records(tmp_path / "run")[1]["passes_gate"] is None


def test_gate_against_an_agent_gates_the_margins_over_it_and_plays_each_best_once(
    tmp_path, monkeypatch
):
    """``gate_against``: the candidate and the best each play the yardstick on the gate's
    deals; the gate is the candidate's margin less the best's, deal by deal, and a network's
    margins (``gate_vs.json``) are played once: a promoted candidate's serve when it is the
    best (the margins are set here: what is checked is what the recipe does with them)."""
    margins = {"round-00": [0.0, 0.0, 1.0, 1.0], "round-01": [1.0, 1.0, 2.0, 2.0],
               "round-02": [1.0, 1.0, 2.0, 1.0]}  # fmt: skip
    played = []

    def diffs(deals, a, b, seed=0, workers=1):
        played.append((Path(a.source.removeprefix("nn:")).name, b.source, seed, len(deals.deals)))
        return np.asarray(margins[Path(a.source.removeprefix("nn:")).name])

    monkeypatch.setattr(expert_iteration, "paired_diffs", diffs)
    monkeypatch.setattr(expert_iteration, "paired_margin", None)  # no head-to-head game
    cfg = _config(rounds=2, gate_against="random", eval_every=0)
    run = tmp_path / "run"
    expert_iteration.train(cfg, run, log=lambda *a: None)
    records = _records(run)
    assert records[1]["promoted"] and records[1]["gate"]["mean"] == 1.0  # every deal +1
    assert not records[2]["promoted"] and records[2]["gate"]["mean"] == -0.25
    assert records[2]["best"] == 1
    # round 1's margins, played as the candidate, served as the best's in round 2's gate
    assert played == [(r, "random", cfg.gate_seed, 4) for r in ("round-01", "round-00",
                                                                  "round-02")]  # fmt: skip
    kept = json.loads((run / "round-01" / "gate_vs.json").read_text())
    assert kept == {"against": "random", "seed": cfg.gate_seed, "deals": 4,
                    "margins": margins["round-01"]}  # fmt: skip
    assert "against `random`" in (run / "bot" / "CARD.md").read_text()


def test_gate_against_plays_margins_again_for_another_yardstick(tmp_path, monkeypatch):
    """A best's kept margins serve only for the same yardstick, seed and deal count."""
    net = tmp_path / "round-00"
    net.mkdir()
    (net / "gate_vs.json").write_text(json.dumps(
        {"against": "pimc:ms=0", "seed": 777000, "deals": 4, "margins": [9.0] * 4}))  # fmt: skip
    played = []

    def diffs(deals, a, b, seed=0, workers=1):
        played.append(b.source)
        return np.zeros(len(deals.deals))

    monkeypatch.setattr(expert_iteration, "paired_diffs", diffs)
    cfg = _config(gate_against="random")
    deals = SimpleNamespace(deals=[object()] * 4)
    got = expert_iteration._margins_against(net, deals, cfg, workers=1)
    assert played == ["random"] and got.tolist() == [0.0] * 4
    again = expert_iteration._margins_against(net, deals, cfg, workers=1)
    assert played == ["random"] and again.tolist() == [0.0] * 4  # kept now


@pytest.mark.parametrize(
    ("spec", "message"),
    [("no_such_agent", "unknown agent 'no_such_agent'"), ("pimc:samples", "bad item 'samples'")],
)
def test_gate_against_a_bad_agent_is_refused_before_any_work(spec, message, tmp_path):
    cfg = _config(gate_against=spec)
    with pytest.raises(ValueError, match=f"gate_against '{spec}': .*{message}"):
        expert_iteration.train(cfg, tmp_path / "run", log=lambda *a: None)
    assert not (tmp_path / "run").exists()


def test_a_tiny_run_gated_against_an_agent(tmp_path):
    config = _write(tmp_path / "tiny.toml", {**TINY, "gate_against": "random"})
    assert run_cli("train", str(config), "--run-dir", "run", cwd=tmp_path).returncode == 0
    run = tmp_path / "run"
    gate = _records(run)[1]["gate"]
    assert gate["deals"] == 4 and gate["low"] <= gate["mean"] <= gate["high"]
    mine = json.loads((run / "round-01" / "gate_vs.json").read_text())["margins"]
    best = json.loads((run / "round-00" / "gate_vs.json").read_text())["margins"]
    assert len(mine) == len(best) == 4
    assert gate["mean"] == pytest.approx(float(np.mean(np.subtract(mine, best))))


def test_a_tiny_run_with_labels_only_phases(tmp_path):
    """``labels_only_phases`` through a whole run: the bootstrap (no labels) learns every phase
    by PPO, the round names card play as learnt from its labels alone; a misspelt phase is
    refused naming the game's phases."""
    config = _write(tmp_path / "tiny.toml", {**TINY, "labels_only_phases": ["play"]})
    assert run_cli("train", str(config), "--run-dir", "run", cwd=tmp_path).returncode == 0
    one = json.loads((tmp_path / "run" / "round-01" / "config.json").read_text())
    zero = json.loads((tmp_path / "run" / "round-00" / "config.json").read_text())
    assert one["labels_only_phases"] == ["play"] and zero["labels_only_phases"] == []
    bad = _write(tmp_path / "bad.toml", {**TINY, "labels_only_phases": ["plya"]})
    out = run_cli("train", str(bad), "--run-dir", "bad", cwd=tmp_path)
    assert out.returncode != 0 and "unknown phase(s) ['plya']" in out.stderr
    assert not (tmp_path / "bad").exists()  # refused before the bootstrap

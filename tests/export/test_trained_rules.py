"""Bots that know their rules (``mazzo.agents.trained_rules``): a trained agent (``nn:``, the shipped
``bot``, ``onnx:``) asked to play rules other than those it was trained for is refused before
anything is dealt, with each differing flag named with both values, everywhere (the arena,
``mazzo eval``, ``mazzo play``, the server's ``open``); the one switch (``foreign_rules=true``
in the spec, ``--foreign-rules`` on the commands) lets it play, and the output says so; and
every flag is compared (the one that looked policy-free, ``match_rule``, is shown to matter)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mazzo.agents.registry import make_agent
from mazzo.agents.trained_rules import (
    ForeignRules,
    check_rules_fit,
    rule_differences,
    trained_rules,
)
from mazzo.arena.runner import make_plan
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game
from mazzo.serve.bots import Bots
from mazzo.serve.protocol import Limits
from mazzo.serve.server import Server
from tests.cli_runner import run_cli
from tests.export.helpers import tiny_checkpoint

CAL = get_game("calabresella")


@pytest.fixture(scope="module")
def three_player_run(tmp_path_factory):
    """A tiny Calabresella policy trained (so its checkpoint says) for the default 3 players."""
    return tiny_checkpoint(tmp_path_factory.mktemp("cal") / "run", "calabresella")


def test_every_trained_agent_knows_its_rules(three_player_run, tiny_bundles):
    nn = make_agent(f"nn:{three_player_run}", CAL)
    assert trained_rules(nn) == CAL.rules()
    assert trained_rules(make_agent("bot", CAL)) == CAL.rules()
    for name, (_, bundle) in tiny_bundles.items():
        game = get_game(name)
        assert trained_rules(make_agent(f"onnx:{bundle}", game)) == game.rules()
    for baseline in ("random", "heuristic", "pimc"):
        assert trained_rules(make_agent(baseline, CAL)) is None


def test_the_arena_refuses_foreign_rules_naming_each_flag(three_player_run):
    deals = generate_deals(CAL, CAL.rules({"players": 4, "aperta": True}), 2, seed=0)
    with pytest.raises(ForeignRules) as caught:
        make_plan(deals, [f"net=nn:{three_player_run}", "heuristic"])
    message = str(caught.value)
    assert "net was trained for other rules" in message
    assert "aperta false (trained) vs true (here)" in message
    assert "players 3 (trained) vs 4 (here)" in message
    assert "foreign_rules=true" in message and "--foreign-rules" in message
    assert caught.value.differences == [("aperta", False, True), ("players", 3, 4)]


def test_the_switch_lets_it_play_and_says_so(three_player_run):
    deals = generate_deals(CAL, CAL.rules({"players": 4}), 2, seed=0)
    plan = make_plan(deals, [f"net=nn:{three_player_run}", "heuristic"], foreign_rules=True)
    assert plan.notes == (
        "note: net plays rules it was not trained for: players 3 (trained) vs 4 (here)",
    )
    in_spec = make_plan(deals, [f"net=nn:{three_player_run},foreign_rules=true", "heuristic"])
    assert in_spec.notes == plan.notes
    same = make_plan(generate_deals(CAL, CAL.rules(), 2, 0), [f"nn:{three_player_run}", "random"])
    assert same.notes == ()


def test_an_onnx_bundle_is_refused_the_same_way(tiny_bundles):
    _, bundle = tiny_bundles["calabresella"]
    deals = generate_deals(CAL, CAL.rules({"players": 2}), 1, seed=0)
    with pytest.raises(ForeignRules, match=r"players 3 \(trained\) vs 2 \(here\)"):
        make_plan(deals, [f"onnx:{bundle}", "random"])
    assert make_plan(deals, [f"onnx:{bundle},foreign_rules=true", "random"]).notes


def test_match_rule_matters_so_it_is_compared():
    """Calabresella's ``match_rule`` (who wins a match) looked policy-free, but it changes when
    a match ends (under ``seed_sum`` the same seeded match is over after the first deal), so
    what the seats see next: it is compared like every flag."""
    lengths = []
    for value in ("individual", "seed_sum"):
        env = CAL.env(match_rule=value, match=True)
        env.reset(seed=5)
        rng = np.random.default_rng(9)
        steps = 0
        for _ in env.agent_iter(max_iter=600):
            obs, _, term, trunc, _ = env.last()
            steps += 1
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        lengths.append(steps)
    assert lengths[0] != lengths[1]
    seed_sum = CAL.rules({"match_rule": "seed_sum"})
    assert rule_differences(CAL, CAL.rules(), seed_sum) == [
        ("match_rule", "individual", "seed_sum")
    ]
    with pytest.raises(ForeignRules, match="match_rule individual"):
        check_rules_fit(make_agent("bot", CAL), "bot", CAL, seed_sum)


def test_mazzo_eval_refuses_then_accepts_with_the_switch(three_player_run):
    args = ["eval", f"nn:{three_player_run}", "random", "--n", "2", "--workers", "1"]
    refused = run_cli(*args, "--flag", "players=4")
    assert refused.returncode == 2, refused.stderr
    assert "players 3 (trained) vs 4 (here)" in refused.stderr
    assert "Traceback" not in refused.stderr
    allowed = run_cli(*args, "--flag", "players=4", "--foreign-rules")
    assert allowed.returncode == 0, allowed.stderr
    assert "plays rules it was not trained for: players 3 (trained) vs 4 (here)" in allowed.stdout


def test_mazzo_play_refuses_before_anything_is_dealt(three_player_run, tmp_path):
    save = tmp_path / "deal.jsonl"
    args = ["play", "--opponents", f"nn:{three_player_run}", "--flag", "players=4"]
    refused = run_cli(*args, "--save", str(save))
    assert refused.returncode == 2 and "players 3 (trained) vs 4 (here)" in refused.stderr
    assert not save.exists()


def test_the_server_reports_each_bots_rules_and_refuses_an_open():
    server = Server(Bots([("bot", "bot"), ("random", "random")]), Limits())
    conn = server.connect("t")
    listed = server.handle(conn, json.dumps({"type": "bots"}))[0]
    by_name = {b["name"]: b for b in listed["bots"]["calabresella"]}
    assert by_name["random"]["rules"] is None
    assert by_name["bot"]["rules"]["players"] == 3 and by_name["bot"]["rules"]["aperta"] is False
    open_ = {"type": "open", "mode": "table", "game": "calabresella", "flags": {"aperta": True},
             "seats": ["client", "bot", "random"], "seed": 1}  # fmt: skip
    error = server.handle(conn, json.dumps(open_))[0]
    assert error["type"] == "error" and error["code"] == "foreign_rules"
    assert "aperta false (trained) vs true (here)" in error["message"]
    four = {"type": "open", "mode": "table", "game": "calabresella", "flags": {"players": 4},
            "seats": ["client", "bot", "random", "random"], "seed": 1}  # fmt: skip
    assert server.handle(conn, json.dumps(four))[0]["type"] == "opened"  # its own bot is shipped
    seat = {"type": "open", "mode": "seat", "game": "calabresella", "flags": {"aperta": True},
            "seat": 1, "bot": "bot"}  # fmt: skip
    assert server.handle(conn, json.dumps(seat))[0]["code"] == "foreign_rules"
    lenient = Server(Bots([("bot", "bot"), ("random", "random")], foreign_rules=True), Limits())
    opened = lenient.handle(lenient.connect("t"), json.dumps(open_))[0]
    assert opened["type"] == "opened"

"""The PettingZoo face (api_test and seed_test per variant run in tests/contract/): explicit-deal
resets and replay, labels, results in infos, rewards, rendering, and every error path."""

import json

import numpy as np
import pytest

from envs import calabresella_v0
from envs.calabresella.actions import NUM_ACTIONS
from envs.calabresella.encode import OBS_SIZE
from envs.cards.errors import IllegalAction
from envs.common.aec import IllegalMoveWarning

from .test_golden import DEAL2, SOLO2_SCRIPT


def record_of(script, dealer=2, deck=DEAL2, flags=None):
    actions = []
    for seat, label in script:
        verb, _, arg = label.partition(" ")
        actions.append([f"S{seat}", "bid", "pass"] if label == "pass" else [f"S{seat}", verb, arg])
    return {
        "format": "calabresella-deal/1",
        "rules": {"flags": flags or {}},
        "dealer": dealer,
        "deck": deck,
        "actions": actions,
    }


def play_labels(env, labels):
    for label in labels:
        env.step(env.unwrapped.parse_action(label))


def test_reset_with_explicit_deal_and_play_to_the_end():
    env = calabresella_v0.env()
    env.reset(seed=1, options={"deal": record_of([])})
    assert env.agent_selection == "player_0"
    obs = env.observe("player_0")
    assert obs["observation"].shape == (OBS_SIZE,) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (NUM_ACTIONS,)
    assert env.observe("player_1")["action_mask"].sum() == 0  # not on turn
    raw = env.unwrapped
    assert raw.legal_labels() == [
        "pass", "bid chiamo", "bid solo", "bid solissimo", "bid dividete", "bid scegliete"
    ]  # fmt: skip
    total = dict.fromkeys(env.possible_agents, 0.0)
    for seat, label in SOLO2_SCRIPT:
        assert env.agent_selection == f"player_{seat}"
        env.step(raw.parse_action(label))
        for a in env.possible_agents:
            total[a] += env.rewards[a]
    assert all(env.terminations.values())
    result = env.infos["player_1"]["result"]
    assert result["contract"] == "solo" and result["points"] == {"soloist": 8, "defenders": 3}
    assert result["pairwise"] == [-2, 4, -2]
    assert total == {"player_0": -2 / 16, "player_1": 4 / 16, "player_2": -2 / 16}
    assert sum(total.values()) == 0
    for _agent in env.agent_iter():
        _, _reward, term, _, _ = env.last()
        assert term
        env.step(None)
    assert env.agents == []


def test_record_with_actions_replays_and_round_trips():
    rec = record_of(SOLO2_SCRIPT)
    env = calabresella_v0.raw_env()
    env.reset(options={"deal": json.dumps(rec)})  # JSON text works as well as a dict
    assert all(env.terminations.values())
    out = env.deal_record()
    assert out["actions"] == rec["actions"] and out["deck"] == rec["deck"]
    assert out["result"]["pairwise"] == [-2, 4, -2]
    env2 = calabresella_v0.raw_env()
    env2.reset(options={"deal": out})
    assert env2.infos["player_0"]["result"] == out["result"]


def test_partial_record_resumes_mid_deal():
    env = calabresella_v0.env()
    env.reset(options={"deal": record_of(SOLO2_SCRIPT[:10])})
    assert env.unwrapped.game.phase.name == "PLAY"
    assert env.agent_selection == "player_0"
    assert env.unwrapped.action_label(env.unwrapped.parse_action("play 2b")) == "play 2b"


def test_raw_env_rejects_illegal_action_and_changes_nothing():
    env = calabresella_v0.raw_env()
    env.reset(options={"deal": record_of(SOLO2_SCRIPT[:3])})
    before = env.deal_record()
    with pytest.raises(
        IllegalAction,
        match=r"illegal action 'discard Ac'.*S1 does not hold Ac.*legal: \[discard 2c",
    ):
        env.step(env.unwrapped.parse_action("discard Ac"))  # S1 does not hold Ac
    with pytest.raises(IllegalAction, match="not an action id"):
        env.step(99)
    assert env.deal_record() == before and env.agent_selection == "player_1"


def test_wrapped_env_ends_the_deal_on_an_illegal_move():
    env = calabresella_v0.env()
    env.reset(options={"deal": record_of([])})
    with pytest.warns(
        IllegalMoveWarning, match=r"player_0: illegal action 'card Ac'.*legal: \[pass"
    ):
        env.step(0)  # a card id during the auction
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0}
    assert env.infos["player_1"]["illegal_move"]["agent"] == "player_0"


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match=r"unknown calabresella flag .playres.*env options"):
        calabresella_v0.env(playres=4)
    with pytest.raises(ValueError, match="'players' must be one of"):
        calabresella_v0.env(players=5)
    with pytest.raises(ValueError, match="render_mode"):
        calabresella_v0.env(render_mode="rgb_array")
    env = calabresella_v0.env()
    bad = [
        (record_of([], deck=DEAL2[:-1]), "needs 40 cards, got 39"),
        (record_of([], deck=[*DEAL2[:-1], "3c"]), "appears twice"),
        (record_of([], deck=[*DEAL2[:-1], "8b"]), "unknown card code '8b'"),
        (record_of([], dealer=3), "dealer must be a seat 0..2"),
        (record_of([], flags={"players": 4}), "flags differ"),
        (record_of([(1, "pass")]), "action 0.*S0's turn"),
        (record_of([(0, "bid tutto")]), "unknown contract"),
        (record_of([(0, "play Ac")]), "is not a BID action"),
        (
            {"format": "minchiate-deal/1", "dealer": 0, "deck": DEAL2},
            "expected 'calabresella-deal/1'",
        ),
        ("{not json", "not valid JSON"),
    ]
    for record, msg in bad:
        with pytest.raises(ValueError, match=msg):
            env.reset(options={"deal": record})


def test_unknown_reset_option_warns():
    env = calabresella_v0.env()
    with pytest.warns(UserWarning, match="ignoring unknown reset option"):
        env.reset(options={"dael": {}})


def test_render_ansi_shows_the_table():
    env = calabresella_v0.env(render_mode="ansi")
    env.reset(options={"deal": record_of(SOLO2_SCRIPT)})
    text = env.render()
    assert "Auction: S0 pass, S1 solo, S2 pass" in text
    assert "Result: solo made" in text and "S1 +4" in text
    assert " 12. S1 Ad  S2 7d  S0 Kd  -> S1" in text


def test_match_mode_pays_each_deal_and_ends_with_a_winner():
    env = calabresella_v0.env(match=True, target=5)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    steps = deal_results = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        paid[agent] += reward
        if reward and not term:
            deal_results += 1
            assert "contract" in info["deal_result"] and info["match"]["deals"] >= 1
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    summary = info["match"]
    assert max(summary["totals"]) >= 5 and summary["winners"] and summary["deals"] >= 1
    assert abs(sum(paid.values())) < 1e-9 and steps > 40
    assert deal_results >= summary["deals"] - 1 > 0 or summary["deals"] == 1


def test_two_player_controller_sums_the_defenders():
    env = calabresella_v0.raw_env(players=2)
    env.reset(seed=0)
    game = env.game
    assert game.seat_of[1] == game.seat_of[2] != game.seat_of[0]
    assert "pass" not in env.legal_labels()

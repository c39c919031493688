"""The PettingZoo face (api_test and seed_test per variant run in tests/contract/): explicit-deal
resets and replay, labels, results in infos, rewards, series mode, rendering, and every error path."""

import json

import numpy as np
import pytest

from mazzo.envs import minchiate_v0
from mazzo.envs.cards.errors import IllegalAction
from mazzo.envs.common.aec import ActionTypeError, IllegalMoveWarning
from mazzo.envs.common.infos import INFO_KEYS
from mazzo.envs.minchiate.actions import NUM_ACTIONS
from mazzo.envs.minchiate.encode import OBS_SIZE

from .deals import DEAL1, DEAL1_DECISIONS, DEAL1_PLAY, impossible_stream

SCRIPT = DEAL1_DECISIONS + DEAL1_PLAY
# The env families (the contract suite runs api_test and seed_test over the registry's variants).
FAMILIES = [
    {},
    {"deals": 3},
    {"matto_payment": "agent", "declare_timing": "with_first_card"},
    {"declarations": "auto_all", "must_overtrump": True, "fola_exposure": "never"},
]


def record_of(script, dealer=0, stream=DEAL1, flags=None):
    actions = []
    for seat, label in script:
        verb, _, arg = label.partition(" ")
        actions.append([f"S{seat}", "declare", verb] if not arg else [f"S{seat}", verb, arg])
    rec = {"format": "minchiate-deal/1", "dealer": dealer, "stream": stream, "actions": actions}
    if flags is not None:
        rec["rules"] = {"ruleset": "cardavia", "flags": flags}
    return rec


def test_reset_with_explicit_deal_and_play_to_the_end():
    env = minchiate_v0.env()
    env.reset(seed=1, options={"deal": record_of([])})
    assert env.agent_selection == "player_3"  # the cutter discards first
    obs = env.observe("player_3")
    assert obs["observation"].shape == (OBS_SIZE,) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (NUM_ACTIONS,)
    assert obs["action_mask"].sum() == 15 and env.observe("player_0")["action_mask"].sum() == 0
    raw = env.unwrapped
    assert "discard T22" in raw.legal_labels() and "discard T36" not in raw.legal_labels()
    total = dict.fromkeys(env.possible_agents, 0.0)
    for seat, label in SCRIPT:
        assert env.agent_selection == f"player_{seat}"
        env.step(raw.parse_action(label))
        for a in env.possible_agents:
            total[a] += env.rewards[a]
    assert all(env.terminations.values())
    result = env.unwrapped.result()
    assert result["resti"] == 2 and result["returns"] == [2, -2, 2, -2]
    assert result["matto"] == {"owner": 1, "debt": True, "paid": "T12", "lost": False}
    assert result["end_counts"]["A"]["total"] == 168 and result["end_counts"]["B"]["total"] == 100
    assert result["events"][0] == {
        "team": "B", "points": 10, "cause": "cutter_rob", "seat": 3, "trick": 0, "D": -10, "R": 0
    }  # fmt: skip
    json.dumps(result)  # JSON-ready
    assert minchiate_v0.REWARD_SCALE == 1 / 14  # 1 / payoff_bound of the default rules
    assert total == pytest.approx(
        {"player_0": 2 / 14, "player_1": -2 / 14, "player_2": 2 / 14, "player_3": -2 / 14}
    )
    for _agent in env.agent_iter():
        _, _reward, term, _, _ = env.last()
        assert term
        env.step(None)
    assert env.agents == []


def test_record_with_actions_replays_and_round_trips():
    rec = record_of(SCRIPT)
    env = minchiate_v0.raw_env()
    env.reset(options={"deal": json.dumps(rec)})  # JSON text works as well as a dict
    assert all(env.terminations.values())
    out = env.deal_record()
    assert out["actions"] == rec["actions"] and out["stream"] == rec["stream"]
    assert out["result"]["resti"] == 2
    env2 = minchiate_v0.raw_env(rich_infos=True)
    env2.reset(options={"deal": out})
    assert env2.infos["player_0"]["result"] == out["result"] == env2.result()


def test_partial_record_resumes_mid_deal():
    env = minchiate_v0.env()
    env.reset(options={"deal": record_of(SCRIPT[:11])})  # trick 1: S1 2d, S2 T6
    assert env.unwrapped.game.phase.name == "PLAY" and env.agent_selection == "player_3"
    assert env.unwrapped.legal_labels() == ["play Kd"]  # the King rule


def test_raw_env_rejects_illegal_action_and_changes_nothing():
    env = minchiate_v0.raw_env()
    env.reset(options={"deal": record_of(SCRIPT[:11])})
    before = env.deal_record()
    with pytest.raises(
        IllegalAction,
        match=r"illegal action 'play Qd'.*King rule: S3 must play Kd.*legal: \[play Kd\]",
    ):
        env.step(env.unwrapped.parse_action("play Qd"))
    with pytest.raises(IllegalAction, match="not an action id"):
        env.step(99)
    assert env.deal_record() == before and env.agent_selection == "player_3"


def test_wrapped_env_ends_the_deal_on_an_illegal_move():
    env = minchiate_v0.env()
    env.reset(options={"deal": record_of([])})
    with pytest.warns(IllegalMoveWarning, match=r"player_3: illegal action 'discard T36'.*legal:"):
        env.step(35)  # T36: a counter
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": 0.0, "player_3": -1.0}
    assert env.infos["player_1"]["illegal_move"] == 1 and env.infos["player_1"]["offender"] == 3
    rich = minchiate_v0.env(rich_infos=True)
    rich.reset(options={"deal": record_of([])})
    with pytest.warns(IllegalMoveWarning):
        rich.step(35)
    assert rich.infos["player_1"]["illegal_move"]["agent"] == "player_3"
    assert "illegal action 'discard T36'" in rich.infos["player_1"]["illegal_move"]["reason"]


def test_void_deal_ends_a_single_deal_episode_with_zero_rewards():
    env = minchiate_v0.raw_env()
    env.reset(options={"deal": record_of([], stream=impossible_stream())})
    assert all(env.terminations.values()) and env.result()["void"]
    assert env.rewards == dict.fromkeys(env.possible_agents, 0.0)
    info = env.infos["player_0"]
    assert (info["void"], info["deal_over"], info["deals"], info["deal_score"]) == (1, 1, 1, 0.0)
    rich = minchiate_v0.raw_env(rich_infos=True)
    rich.reset(options={"deal": record_of([], stream=impossible_stream())})
    assert rich.infos["player_0"]["result"]["void"]


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match=r"unknown minchiate flag .kingrule.*env options"):
        minchiate_v0.env(kingrule=False)
    with pytest.raises(ValueError, match="'diecine' must be one of"):
        minchiate_v0.env(diecine="all")
    with pytest.raises(ValueError, match="'deals' must be an integer >= 1"):
        minchiate_v0.env(deals=0)
    with pytest.raises(ValueError, match="render_mode"):
        minchiate_v0.env(render_mode="rgb_array")
    env = minchiate_v0.env()
    bad = [
        (record_of([], stream=DEAL1[:-1]), "needs 97 cards, got 96"),
        (record_of([], stream=[*DEAL1[:-1], "T1"]), "appears twice"),
        (record_of([], stream=[*DEAL1[:-1], "T41"]), "unknown card code 'T41'"),
        (record_of([], dealer=4), "dealer must be a seat 0..3"),
        (record_of([], flags={"king_rule": False}), "flags differ"),
        (record_of([(0, "discard 6d")]), "S3 is on turn"),
        (record_of([(3, "discard T36")]), "only zero-value cards"),
        (record_of([(3, "play T22")]), "is not a DISCARD_CUTTER action"),
        ({"format": "calabresella-deal/1", "dealer": 0, "stream": DEAL1}, "minchiate-deal/1"),
        ("{not json", "not valid JSON"),
    ]
    for record, msg in bad:
        with pytest.raises(ValueError, match=msg):
            env.reset(options={"deal": record})


def test_unknown_reset_option_warns():
    env = minchiate_v0.env()
    with pytest.warns(UserWarning, match="ignoring unknown reset option"):
        env.reset(options={"dael": {}})


def test_render_ansi_shows_the_table():
    env = minchiate_v0.env(render_mode="ansi")
    env.reset(options={"deal": record_of(SCRIPT)})
    text = env.render()
    assert "Cut: robbed T36 T22; stop card 6c" in text
    assert "Declared: S3 low run [T1 T2 T3] = 11; S0 high run [T28 T29 T30 T31] = 20" in text
    assert "   1. S1 2d  S2 T6  S3 Kd  S0 3d  -> S2" in text
    assert "T_A = 168, T_B = 100" in text


def test_series_mode_pays_each_deal():
    env = minchiate_v0.env(deals=3, rich_infos=True)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    deal_ends = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        paid[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        if "deal_result" in info and info["series"]["deals"] > deal_ends:
            deal_ends = info["series"]["deals"]
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    summary = info["series"]
    assert summary["deals"] == 3 and deal_ends == 2
    assert (
        paid["player_0"] == pytest.approx(summary["resti"] / 14) and abs(sum(paid.values())) < 1e-9
    )
    assert env.unwrapped.series_summary() == summary


def random_episode(env, seed, check):
    """Play one seeded episode with random legal moves, calling ``check(env)`` after the reset
    and after every step (dead steps included)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    check(env)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        check(env)


@pytest.mark.parametrize("kwargs", FAMILIES, ids=str)
def test_infos_are_fixed_numeric_keys_on_every_step(kwargs):
    env = minchiate_v0.env(**kwargs)
    for seed in range(2):
        ended = {}  # the infos of the step that ended the episode, before the dead steps
        deal_ends = []

        def check(env, ended=ended, deal_ends=deal_ends):
            for agent, info in env.infos.items():
                assert tuple(info) == INFO_KEYS, info
                assert all(type(v) in (int, float) for v in info.values()), info
                seat = env.possible_agents.index(agent)
                assert info["seat"] == seat and info["team"] == seat % 2
                assert (info["illegal_move"], info["offender"]) == (0, -1)
            if (
                env.agents
                and env.infos[env.agents[0]]["deal_over"]
                and not any(env.terminations.values())
            ):
                deal_ends.append(env.infos[env.agents[0]]["deals"])
            if len(env.agents) == 4 and all(env.terminations.values()):
                ended.update(env.infos)

        random_episode(env, seed, check)
        last = [ended[a] for a in env.possible_agents]
        raw = env.unwrapped
        result = raw.result()
        assert all(i["deal_over"] == 1 for i in last)
        assert [i["deal_score"] for i in last] == result["returns"]
        if raw.deals > 1:
            summary = raw.series_summary()
            assert last[0]["deals"] == summary["deals"] + summary["voids"]
            assert [i["total_score"] for i in last] == summary["returns"]
            # each deal end inside the series is flagged on exactly one step
            assert deal_ends == sorted(set(deal_ends)) and len(deal_ends) >= summary["deals"] - 1
        else:
            assert last[0]["deals"] == 1 and [i["total_score"] for i in last] == result["returns"]


def test_infos_of_the_golden_deal():
    env = minchiate_v0.env()
    env.reset(options={"deal": record_of([])})
    assert env.infos["player_2"] == dict(
        zip(INFO_KEYS, (2, 0, 0, 0.0, 0.0, 0, 0, 0, -1), strict=True)
    )
    play_labels = [label for _seat, label in SCRIPT]
    for label in play_labels[:-1]:
        env.step(env.unwrapped.parse_action(label))
        assert env.infos["player_0"]["deal_over"] == 0
    env.step(env.unwrapped.parse_action(play_labels[-1]))
    assert [env.infos[a]["deal_score"] for a in env.possible_agents] == [2.0, -2.0, 2.0, -2.0]
    assert [env.infos[a]["team"] for a in env.possible_agents] == [0, 1, 0, 1]
    assert env.infos["player_3"]["deal_over"] == 1 and env.infos["player_3"]["deals"] == 1


def test_rich_infos_are_the_json_results():
    env = minchiate_v0.env(rich_infos=True)
    env.reset(options={"deal": record_of([])})
    for _seat, label in SCRIPT:
        assert env.infos == {a: {} for a in env.possible_agents}
        env.step(env.unwrapped.parse_action(label))
    assert env.infos == {a: {"result": env.unwrapped.result()} for a in env.possible_agents}
    with pytest.raises(ValueError, match="'rich_infos' must be true or false, got 1"):
        minchiate_v0.env(rich_infos=1)
    with pytest.raises(ValueError, match=r"series_summary\(\) needs the env option deals > 1"):
        env.unwrapped.series_summary()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="no deal of this episode has finished yet"):
        env.unwrapped.result()


def test_illegal_move_infos_keep_the_fixed_keys():
    env = minchiate_v0.env()
    env.reset(options={"deal": record_of([])})
    with pytest.warns(IllegalMoveWarning):
        env.step(35)
    assert all(tuple(i) == INFO_KEYS for i in env.infos.values())
    assert env.infos["player_0"] == dict(
        zip(INFO_KEYS, (0, 0, 0, 0.0, 0.0, 0, 0, 1, 3), strict=True)
    )
    with pytest.raises(
        ValueError, match=r"ended on an illegal move: player_3: illegal action 'discard T36'"
    ):
        env.unwrapped.result()


@pytest.mark.parametrize("scale", ["abc", 0, -1, float("nan"), float("-inf"), False, [1]])
def test_reward_scale_must_be_a_finite_positive_number(scale):
    with pytest.raises(
        ValueError, match=r"minchiate env option 'reward_scale' must be a finite number > 0, got"
    ):
        minchiate_v0.env(reward_scale=scale)
    assert minchiate_v0.raw_env(reward_scale=2).reward_scale == 2.0


@pytest.mark.parametrize(
    "action", [40.0, np.float32(3.0), np.array(3.0), False, np.bool_(False), "discard 6d", [3]]
)
def test_env_step_wants_an_int_action(action):
    env = minchiate_v0.env()
    env.reset(options={"deal": record_of([])})  # S3 discards
    with pytest.raises(
        ActionTypeError,
        match=r"player_3: the action must be an int \(an id 0..98 of Discrete\(99\)\), given .*\(type ",
    ):
        env.step(action)
    assert env.agent_selection == "player_3" and not any(env.terminations.values())
    env.step(np.array(env.unwrapped.parse_action("discard T22")))  # a 0-d int array is an int
    assert env.agent_selection == "player_3" and not any(env.terminations.values())
    with pytest.raises(ActionTypeError, match=r"given 40.0 \(type float\)$"):
        env.step(40.0)


def test_steps_after_the_end_say_the_deal_is_over():
    env = minchiate_v0.raw_env()
    env.reset(options={"deal": record_of(SCRIPT)})  # a record that ends
    with pytest.raises(
        ValueError, match=r"the deal is over: player_0 is done and its only valid action is None"
    ):
        env.step(0)
    for _ in env.possible_agents:
        env.step(None)
    with pytest.raises(RuntimeError, match=r"the deal is over; call reset\(\)"):
        env.step(0)
    env.reset(options={"deal": record_of(SCRIPT)})  # reset starts afresh
    assert len(env.agents) == 4

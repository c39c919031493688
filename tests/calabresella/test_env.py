"""The PettingZoo face (api_test and seed_test per variant run in tests/contract/): explicit-deal
resets and replay, labels, results in infos, rewards, rendering, and every error path."""

import json

import numpy as np
import pytest

from mazzo import cli
from mazzo.envs import calabresella_v0
from mazzo.envs.calabresella.actions import NUM_ACTIONS
from mazzo.envs.calabresella.encode import OBS_SIZE
from mazzo.envs.cards.errors import IllegalAction
from mazzo.envs.common.aec import ActionTypeError, IllegalMoveWarning
from mazzo.envs.common.infos import INFO_KEYS

from .test_golden import DEAL2, SOLO2_SCRIPT

# The env families (the contract suite runs api_test and seed_test over the registry's variants).
FAMILIES = [{}, {"players": 4}, {"players": 2}, {"match": True}, {"aperta": True}]


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
    result = env.unwrapped.result()
    assert result["contract"] == "solo" and result["points"] == {"soloist": 8, "defenders": 3}
    assert result["pairwise"] == [-2, 4, -2]
    scale = calabresella_v0.REWARD_SCALE  # 1 / payoff_bound of the default rules: 1/96
    assert scale == 1 / 96
    assert total == {"player_0": -2 * scale, "player_1": 4 * scale, "player_2": -2 * scale}
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
    env2 = calabresella_v0.raw_env(rich_infos=True)
    env2.reset(options={"deal": out})
    assert env2.infos["player_0"]["result"] == out["result"] == env2.result()


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
    assert env.infos["player_1"]["illegal_move"] == 1 and env.infos["player_1"]["offender"] == 0
    assert env.infos["player_2"]["deal_over"] == 0
    with pytest.raises(ValueError, match=r"ended on an illegal move: player_0: illegal action"):
        env.unwrapped.result()
    rich = calabresella_v0.env(rich_infos=True)
    rich.reset(options={"deal": record_of([])})
    with pytest.warns(IllegalMoveWarning):
        rich.step(0)
    assert rich.infos["player_1"]["illegal_move"]["agent"] == "player_0"
    assert "illegal action 'card Ac'" in rich.infos["player_1"]["illegal_move"]["reason"]


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
        (record_of([(1, "pass")]), r"action #0.*S0 is on turn \(BID\), not S1"),
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
    env = calabresella_v0.env(match=True, target=5, rich_infos=True)
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
    assert env.unwrapped.match_summary() == summary


def test_two_player_controller_sums_the_defenders():
    """A due (RULES.md CA-19) one seat controls both defender positions and is paid the sum of
    their C-9.5 payments: +Vm each when the soloist fails, -Vm each when he makes it; so
    -+2Vm against the soloist's +-2Vm. Rewards at scale 1, summed over the env's steps."""
    values = (1, 2, 4, 8, 16)  # contract_values, RULES.md C.3
    outcomes = set()
    for seed in range(8):
        env = calabresella_v0.env(players=2, reward_scale=1)
        env.reset(seed=seed)
        raw = env.unwrapped
        game = raw.game
        assert game.seat_of[1] == game.seat_of[2] != game.seat_of[0]
        assert "pass" not in raw.legal_labels()
        rng = np.random.default_rng(seed)
        paid = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            paid[agent] += reward
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        st = game.settlement
        soloist_seat = game.seat_of[st.soloist]
        defender_seat = game.seat_of[(st.soloist + 1) % 3]
        assert defender_seat == game.seat_of[(st.soloist + 2) % 3] != soloist_seat
        vm = values[st.contract] * st.multiplier
        sign = 1 if st.success else -1
        assert paid[f"player_{soloist_seat}"] == sign * 2 * vm
        assert paid[f"player_{defender_seat}"] == -sign * 2 * vm  # -+Vm from each defender
        outcomes.add((soloist_seat, st.success))
    assert len(outcomes) >= 3  # both seats as soloist, made and failed contracts among them


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


def check_numeric_infos(env):
    for agent, info in env.infos.items():
        assert tuple(info) == INFO_KEYS, info
        assert all(type(v) in (int, float) for v in info.values()), info
        assert info["seat"] == env.possible_agents.index(agent)
        assert info["deal_over"] in (0, 1) and info["void"] in (0, 1) and info["team"] in (-1, 0, 1)
        assert (info["illegal_move"], info["offender"]) == (0, -1)


@pytest.mark.parametrize("kwargs", FAMILIES, ids=str)
def test_infos_are_fixed_numeric_keys_on_every_step(kwargs):
    env = calabresella_v0.env(**kwargs)
    for seed in range(3):
        ended = {}  # the infos of the step that ended the episode, before the dead steps

        def check(env, ended=ended):
            check_numeric_infos(env)
            if len(env.agents) == len(env.possible_agents) and all(env.terminations.values()):
                ended.update(env.infos)

        random_episode(env, seed, check)
        last = [ended[a] for a in env.possible_agents]
        raw = env.unwrapped
        result = raw.result()
        assert all(i["deal_over"] == 1 for i in last)
        assert last[0]["deals"] == (raw.match_summary()["deals"] if raw.match else 1)
        assert [i["deal_score"] for i in last] == result["returns"]
        assert last[0]["void"] == int(result["void"])
        if not result["void"]:
            teams = [i["team"] for i in last]
            assert teams[result["soloist"]] == 0 and all(teams[d] == 1 for d in result["defenders"])


def test_infos_in_a_deal_follow_the_auction_and_the_settlement():
    env = calabresella_v0.env()
    env.reset(options={"deal": record_of([])})
    assert env.infos["player_1"] == dict(
        zip(INFO_KEYS, (1, -1, 0, 0.0, 0.0, 0, 0, 0, -1), strict=True)
    )
    total = dict.fromkeys(env.possible_agents, 0.0)
    for step, (_seat, label) in enumerate(SOLO2_SCRIPT):
        env.step(env.unwrapped.parse_action(label))
        for a in env.possible_agents:
            total[a] += env.rewards[a]
        if step == 2:  # S1 bid solo, the others passed: the sides are known
            assert [env.infos[a]["team"] for a in env.possible_agents] == [1, 0, 1]
    scores = [env.infos[a]["deal_score"] for a in env.possible_agents]
    assert scores == [-2.0, 4.0, -2.0]
    assert scores == pytest.approx([total[a] * 96 for a in env.possible_agents])
    assert all(env.infos[a]["deal_over"] == 1 and env.infos[a]["deals"] == 1 for a in env.agents)


def test_match_infos_count_the_deals_and_flag_each_deal_end():
    env = calabresella_v0.env(match=True, target=5)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    ends, totals = [], dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, _reward, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for a in env.possible_agents:
            totals[a] += env.rewards[a]
        info = env.infos[agent]
        if info["deal_over"]:
            ends.append(info["deals"])
            assert info["total_score"] == pytest.approx(totals[agent] / env.unwrapped.reward_scale)
    summary = env.unwrapped.match_summary()
    assert ends == list(range(1, summary["deals"] + 1))


def test_rich_infos_are_the_json_results():
    env = calabresella_v0.env(rich_infos=True)
    env.reset(options={"deal": record_of([])})
    for _seat, label in SOLO2_SCRIPT:
        assert env.infos == {a: {} for a in env.possible_agents}
        env.step(env.unwrapped.parse_action(label))
    assert env.infos == {a: {"result": env.unwrapped.result()} for a in env.possible_agents}
    with pytest.raises(ValueError, match="'rich_infos' must be true or false, got 'yes'"):
        calabresella_v0.env(rich_infos="yes")
    with pytest.raises(ValueError, match=r"match_summary\(\) needs the env option match=True"):
        env.unwrapped.match_summary()
    with pytest.raises(ValueError, match="no deal of this episode has finished yet"):
        env.reset(seed=0)
        env.unwrapped.result()


@pytest.mark.parametrize("scale", ["abc", 0, -1, -0.5, float("nan"), float("inf"), True])
def test_reward_scale_must_be_a_finite_positive_number(scale):
    with pytest.raises(
        ValueError, match=r"calabresella env option 'reward_scale' must be a finite number > 0, got"
    ):
        calabresella_v0.env(reward_scale=scale)
    assert calabresella_v0.raw_env(reward_scale="0.5").reward_scale == 0.5
    # None (the default) is one over the rules' payoff bound: rewards of a deal lie in [-1, 1]
    assert calabresella_v0.raw_env(reward_scale=None).reward_scale == 1 / 96
    assert calabresella_v0.raw_env(players=2, payout_mode="difference").reward_scale == 1 / 1056


@pytest.mark.parametrize(
    "action", [40.0, np.float64(40.0), np.array(40.0), True, np.bool_(True), "play Ac", None]
)
def test_env_step_wants_an_int_action(action):
    env = calabresella_v0.env()
    env.reset(options={"deal": record_of(SOLO2_SCRIPT[:10])})  # S0 to play
    with pytest.raises(
        ActionTypeError,
        match=r"player_0: the action must be an int \(an id 0..61 of Discrete\(62\)\), given .*\(type ",
    ) as raised:
        env.step(action)
    # the error raised is both a TypeError and (as all bad input here) a ValueError
    assert isinstance(raised.value, TypeError) and isinstance(raised.value, ValueError)
    assert env.agent_selection == "player_0" and not any(env.terminations.values())
    env.step(np.int64(env.unwrapped.parse_action("play 2b")))  # NumPy ints are ints
    assert env.agent_selection == "player_1"


def test_int_action_errors_name_the_type():
    env = calabresella_v0.env()
    env.reset(seed=0)
    with pytest.raises(ActionTypeError, match=r"given 40.0 \(type float\)$"):
        env.step(40.0)
    with pytest.raises(ActionTypeError, match=r"given np.float64\(40.0\) \(type numpy.float64\)"):
        env.step(np.float64(40.0))
    with pytest.raises(
        ActionTypeError, match=r"\(type str\); to play by label use env.unwrapped.parse_action"
    ):
        env.step("pass")


def test_steps_after_the_end_say_the_deal_is_over():
    env = calabresella_v0.raw_env()
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        env.step(0)
    env.reset(options={"deal": record_of(SOLO2_SCRIPT)})  # a record that ends
    with pytest.raises(
        ValueError,
        match=r"the deal is over: player_0 is done and its only valid action is None \(the dead step\), got 5",
    ):
        env.step(5)
    for _ in env.possible_agents:
        env.step(None)
    assert env.agents == []
    with pytest.raises(RuntimeError, match=r"the deal is over; call reset\(\)"):
        env.step(5)
    with pytest.raises(RuntimeError, match=r"the deal is over; call reset\(\)"):
        env.step(None)
    match = calabresella_v0.raw_env(match=True, target=1)
    match.reset(options={"deal": record_of(SOLO2_SCRIPT, flags={"target": 1})})
    assert all(match.terminations.values())  # one deal reaches the target
    for _ in match.possible_agents:
        match.step(None)
    with pytest.raises(RuntimeError, match=r"the match is over; call reset\(\)"):
        match.step(0)


def test_cli_demo_takes_render_mode_as_a_flag(capsys):
    assert cli.main(["demo", "--deals", "1", "--flag", "render_mode=human"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("=== deal 1 of 1") and out.count("Auction:") > 10  # after every move
    assert cli.main(["demo", "--deals", "1", "--flag", "render_mode=ansi"]) == 0
    assert capsys.readouterr().out.count("Auction:") == 1
    assert cli.main(["demo", "--flag", "render_mode=rgb"]) == 2
    assert (
        "render_mode must be 'ansi' (after each deal, the default) or 'human'"
        in capsys.readouterr().err
    )
    assert cli.main(["demo", "--flag", "reward_scale=abc"]) == 2
    assert "option 'reward_scale' must be a finite number > 0, got 'abc'" in capsys.readouterr().err

"""Minchiate through the training tools: the single-agent Gymnasium env (env checker, masks,
rewards, void deals redealt), ``mazzo play`` driven end to end through a pseudo-terminal
(pexpect: private discards, quit, a bad seat; the whole deal with wrong inputs is in
test_play.py), ``mazzo demo``, ``replay``
and ``rules``, and the per-seat text view."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pexpect
import pytest
from gymnasium.utils.env_checker import check_env

import mazzo.training.single_agent  # noqa: F401 (registers the ids)
from mazzo.envs.minchiate import Phase, Rules, State
from mazzo.envs.minchiate.render import render_view
from mazzo.envs.minchiate.view import action_is_visible
from mazzo.envs.registry import get_game
from mazzo.training.single_agent import SingleAgentEnv

from ..minchiate.helpers import random_deal
from .test_play import PROMPT


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"seat": None, "opponents": "random"}, {"seat": 3, "declarations": "auto_all"},
     {"opponents": "random", "matto_payment": "agent", "fola_exposure": "never"}],
    ids=str,
)  # fmt: skip
def test_gymnasium_env_checker(kwargs):
    env = SingleAgentEnv(game="minchiate", **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)


def test_masks_rewards_and_results():
    env = gym.make("mazzo/Minchiate-v0", opponents="heuristic")
    rng = np.random.default_rng(0)
    total = 0.0
    phases = set()
    for episode in range(25):
        obs, info = env.reset(seed=episode)
        assert info["seat"] == 0 and obs["observation"].shape == (2572,)
        done = False
        while not done:
            mask = env.unwrapped.action_masks()
            assert mask.any() and (mask == obs["action_mask"].astype(bool)).all()
            phases.add(env.unwrapped.state.phase)
            obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            assert not truncated
            if not done:
                assert reward == 0.0
        assert not env.unwrapped.action_masks().any()
        assert reward == pytest.approx(info["result"]["returns"][0] / 14)  # 1 / payoff_bound
        total += reward
    assert Phase.PLAY in phases
    assert total < 0  # a random learner loses to the heuristic on average
    assert env.unwrapped.render() is None  # render_mode None


def test_render_and_void_deals_are_redealt():
    env = SingleAgentEnv(game="minchiate", opponents="random", render_mode="ansi")
    env.reset(seed=1)
    assert "Phase" in env.render()
    # a deal the learner never acts in (void: too few legal discards) is redealt at once
    env = SingleAgentEnv(game="minchiate", opponents="random")
    env.game = _VoidFirst(env.game)
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"].any() and not env.state.is_terminal()


class _VoidFirst:
    """A game spec whose first state is a finished (void) deal."""

    def __init__(self, spec):
        self._spec, self._calls = spec, 0

    def __getattr__(self, name):
        return getattr(self._spec, name)

    def new_state(self, deal, rules):
        self._calls += 1
        s = self._spec.new_state(deal, rules)
        if self._calls == 1:
            s.phase, s.to_play, s.void = Phase.DONE, -1, True
        return s


def test_errors():
    with pytest.raises(ValueError, match="seat must be"):
        SingleAgentEnv(game="minchiate", seat=4)
    with pytest.raises(ValueError, match="unknown minchiate flag"):
        SingleAgentEnv(game="minchiate", colour="red")


def test_render_view_shows_only_the_seat_s_knowledge():
    import random

    rng = random.Random(3)
    for _ in range(40):
        s = State.new(random_deal(rng), Rules())
        while not s.is_terminal() and len(s.tricks) < rng.randrange(21):
            s.apply(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        for seat in range(4):
            text = render_view(s.info_view(seat))
            assert f"You are S{seat}" in text and "Your hand" in text
            for other in range(4):
                if other != seat and s.hands[other]:
                    from mazzo.envs.minchiate.render import format_hand

                    assert format_hand(s.hands[other]) not in text


def test_discards_are_private_until_the_fola_is_exposed():
    import random

    rng = random.Random(1)
    seen = 0
    while seen < 20:
        s = State.new(random_deal(rng), Rules())
        if s.phase is not Phase.DISCARD_CUTTER:
            continue
        a = s.legal_actions()[0]
        assert action_is_visible(s, a, s.cutter)
        assert not any(action_is_visible(s, a, q) for q in range(4) if q != s.cutter)
        while s.phase is not Phase.PLAY:
            s.apply(s.legal_actions()[-1])
        assert all(action_is_visible(s, s.legal_actions()[0], q) for q in range(4))
        seen += 1


# ---------------------------------------------------------------------- the command line
def spawn(tmp_path, *args):
    cmd = [sys.executable, "-m", "mazzo", "play", "--game", "minchiate",
           "--save", str(tmp_path / "deal.json"), *args]  # fmt: skip
    child = pexpect.spawn(cmd[0], cmd[1:], encoding="utf-8", timeout=60)
    child.delaybeforesend = None  # pexpect waits 50 ms before each send by default
    return child


def test_other_seats_discards_are_hidden_in_play(tmp_path):
    # seed 3: S2 is the cutter and S3 the dealer; both discard before S0 plays
    child = spawn(tmp_path, "--seed", "3", "--seat", "0")
    child.expect(PROMPT)
    before = child.before
    assert "S2: discard a card" in before and "S3: discard a card" in before
    assert not re.search(r"S[0-3]: discard (?!a card)", before)  # no card named
    child.sendline("quit")
    child.expect("bye")
    child.expect(pexpect.EOF)


def test_quit_and_end_of_input(tmp_path):
    child = spawn(tmp_path, "--seed", "1")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("saved 1 deal to .*unfinished")
    child.expect("bye")
    child.expect(pexpect.EOF)
    child = spawn(tmp_path, "--seed", "1", "--force")  # the same save file, overwritten
    child.expect(PROMPT)
    child.sendeof()
    child.expect("saved 1 deal to .*unfinished")
    child.expect("bye")
    child.expect(pexpect.EOF)
    record = json.loads((tmp_path / "deal.json").read_text())
    assert not get_game("minchiate").replay(record).is_terminal()  # the deal so far


def test_bad_seat_is_an_error(tmp_path):
    child = spawn(tmp_path, "--seat", "4")
    child.expect("--seat must be 0..3")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "mazzo", *args], capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip


def test_demo_replay_and_rules(tmp_path):
    out = run_cli("demo", "--game", "minchiate", "--deals", "2", "--seed", "4")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("=== deal") == 2 and "Total rewards: player_0" in out.stdout
    assert "net resti" in out.stdout
    rules = run_cli("rules", "--game", "minchiate")
    assert rules.returncode == 0 and "king_rule = True" in rules.stdout
    spec = get_game("minchiate")
    s = State.new(random_deal(__import__("random").Random(2)), Rules())
    rng = np.random.default_rng(0)
    from mazzo.agents.registry import make_agent

    h = make_agent("heuristic", "minchiate")
    while not s.is_terminal():
        s.apply(h.act(s.info_view(s.to_play), rng))
    path = tmp_path / "r.json"
    path.write_text(json.dumps(spec.write_record(s)))
    rep = run_cli("replay", str(path))
    assert rep.returncode == 0, rep.stderr
    assert json.loads(rep.stdout[rep.stdout.index("{") :])["returns"] == list(s.returns())

"""The shipped bot's versions (``mazzo.agents.shipped.shipped_bots``): earlier bots stay loadable as
``bot@N`` from ``checkpoints/<game>/vN/``, the folder itself is the latest, and a version that
was never shipped is refused with the versions there are."""

import json

import numpy as np
import pytest
import torch

from mazzo.agents.registry import agent_info, make_agent
from mazzo.agents.shipped import SHIPPED, shipped_bots
from mazzo.envs.registry import game_names, get_game


def _folder(path):
    path.mkdir(parents=True)
    (path / "meta.json").write_text(json.dumps({"game": "x"}))
    return path


def test_versions_are_the_v_folders_then_the_latest(tmp_path):
    assert shipped_bots(tmp_path, "minchiate") == {}
    latest = _folder(tmp_path / "minchiate")
    assert shipped_bots(tmp_path, "minchiate") == {1: latest}
    v1 = _folder(latest / "v1")
    (latest / "v7").mkdir()  # no meta.json: not a shipped bot
    (latest / "vx").mkdir()
    (latest / "belief").mkdir()
    assert shipped_bots(tmp_path, "minchiate") == {1: v1, 2: latest}
    v2 = _folder(latest / "v2")
    assert list(shipped_bots(tmp_path, "minchiate").items()) == [(1, v1), (2, v2), (3, latest)]


@pytest.mark.parametrize("game", game_names())
def test_every_shipped_version_loads_and_the_plain_name_is_the_latest(game):
    bots = shipped_bots(SHIPPED, game)
    info = agent_info("bot", game)
    assert info.versions == tuple(bots) and bots[max(bots)] == SHIPPED / game
    g = get_game(game)
    rules = g.rules()
    state = g.new_state(g.deal_random(np.random.default_rng(3), rules), rules)
    view = g.view(state, state.to_play)
    for version in bots:
        action = make_agent(f"bot@{version}", game).act(view, np.random.default_rng(0))
        assert action in state.legal_actions()
    with pytest.raises(ValueError, match=r"no version 99 \(in .bot@99.\); versions: "):
        make_agent("bot@99", game)


def test_the_searches_use_the_bot_their_defaults_were_measured_with():
    """``ipimc`` (prior and others) and ``pimc:others=bot`` hold the weights of ``bot@1`` in
    Minchiate, where ``bot`` is a later version with other weights."""
    v1, latest = make_agent("bot@1", "minchiate"), make_agent("bot", "minchiate")
    w1, wl = v1.net.state_dict(), latest.net.state_dict()
    assert not all(torch.equal(w1[k], wl[k]) for k in w1)  # the versions differ
    for spec in ("ipimc", "pimc:others=bot"):
        agent = make_agent(spec, "minchiate")
        inner = agent.other.net.state_dict()
        assert all(torch.equal(inner[k], w1[k]) for k in w1), spec
        if spec == "ipimc":
            prior_net = agent.player.network.net.state_dict()
            assert all(torch.equal(prior_net[k], w1[k]) for k in w1)


def test_net_sets_the_network_inside_the_searches():
    """``net``: expert iteration's next round searches with the improved network, in the prior
    and the decisions outside card play alike; a spec that is no network, or a network nothing
    uses, is refused by name."""
    v2 = make_agent("bot@2", "minchiate").net.state_dict()
    agent = make_agent("ipimc:net=bot@2", "minchiate")
    for inner in (agent.other.net.state_dict(), agent.player.network.net.state_dict()):
        assert all(torch.equal(inner[k], v2[k]) for k in v2)
    assert "net=bot@2" in agent.name
    with pytest.raises(ValueError, match=r"'ipimc': 'net=heuristic' is not a network"):
        make_agent("ipimc:net=heuristic", "minchiate")
    with pytest.raises(ValueError, match=r"'ipimc': 'net=bot@2' is unused"):
        make_agent("ipimc:net=bot@2,others=own,prior=0", "minchiate")

"""The server's bots: ``--bot`` options, one agent per game that has it, bad specs refused."""

import pytest

from mazzo.agents.registry import known_agents
from mazzo.envs.registry import game_names
from mazzo.serve.bots import Bots, parse_bot_option


def test_bot_options():
    assert parse_bot_option("quick=pimc:samples=4,ms=50") == ("quick", "pimc:samples=4,ms=50", None)
    assert parse_bot_option("heuristic") == ("heuristic", "heuristic", None)
    assert parse_bot_option("pimc:samples=4") == ("pimc", "pimc:samples=4", None)
    assert parse_bot_option("heuristic@1") == ("heuristic", "heuristic@1", None)
    game = game_names()[0]
    assert parse_bot_option(f"{game}/fast=nn:runs/a/b") == ("fast", "nn:runs/a/b", game)
    assert parse_bot_option(f"{game}/heuristic") == ("heuristic", "heuristic", game)
    assert parse_bot_option("n=nn:runs/a") == ("n", "nn:runs/a", None)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        parse_bot_option("chess/x=heuristic")
    with pytest.raises(ValueError, match="a bot name is 1-40 letters"):
        parse_bot_option("bad name=heuristic")
    with pytest.raises(ValueError, match="non-empty"):
        parse_bot_option("x=")


def test_bots_are_built_for_every_game_that_has_the_agent():
    bots = Bots([("quick", "pimc:samples=2,ms=20"), ("r", "random")])
    for game in game_names():
        assert bots.names(game) == ["quick", "r"]
        assert bots.get(game, "quick").agent.name.startswith("pimc")
        assert [b["spec"] for b in bots.describe()[game]] == ["pimc:samples=2,ms=20", "random"]
    with pytest.raises(KeyError):
        bots.get(game_names()[0], "nobody")


def test_bad_bots_are_refused():
    with pytest.raises(ValueError, match="no game has agent 'zebra'"):
        Bots([("z", "zebra")])
    with pytest.raises(ValueError, match="bot 'r' is given twice"):
        Bots([("r", "random"), ("r", "heuristic")])
    first, second = game_names()[:2]
    bots = Bots([parse_bot_option(f"{first}/r=random"), parse_bot_option(f"{second}/r=heuristic")])
    assert bots.get(first, "r").spec == "random" and bots.get(second, "r").spec == "heuristic"
    assert bots.names(first) == ["r"]
    with pytest.raises(ValueError, match="samples"):
        Bots([("p", "pimc:samples=-3")])
    assert Bots([("z", "zebra"), ("r", "random")], skip_missing=True).names(game_names()[0]) == [
        "r"
    ]


def test_the_default_bots_include_the_shipped_ones():
    from mazzo.serve.bots import DEFAULT_BOTS

    bots = Bots([parse_bot_option(b) for b in DEFAULT_BOTS], skip_missing=True)
    for game in game_names():
        want = ["random", "heuristic"] + (["bot"] if "bot" in known_agents(game) else [])
        assert bots.names(game) == want


def test_a_default_bot_whose_extra_is_missing_is_left_out(monkeypatch, caplog):
    """Without torch (a ``mazzo[serve]`` install) the shipped ``bot`` is left out of the
    defaults, saying which extra it needs; asked for by name, it is an error."""
    import sys

    from mazzo.serve.bots import DEFAULT_BOTS

    for module in ("mazzo.agents.neural", "mazzo.agents.nets"):
        if module in sys.modules:
            monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "torch", None)
    bots = Bots([parse_bot_option(b) for b in DEFAULT_BOTS], skip_missing=True)
    for game in game_names():
        assert bots.names(game) == ["random", "heuristic"]
    if any("bot" in known_agents(g) for g in game_names()):
        assert "bot bot=bot left out: it needs the 'train' extra" in caplog.text
        with pytest.raises(ModuleNotFoundError):
            Bots([("mine", "bot")])

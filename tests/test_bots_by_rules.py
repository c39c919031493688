"""Bots by rules: ``bot`` at a table of other rules than the default is the bot shipped for
those rules (``checkpoints/<game>/rules/<flags>/``) where there is one, in ``make_agent``, the
arena, terminal play and the server; where there is none, the refusal names the rule sets that
have one. A tiny bot trained here for Calabresella with four players stands in for a shipped
one (``mazzo.agents.shipped.SHIPPED`` pointed at a folder of the test's)."""

import shutil

import numpy as np
import pytest

import mazzo.agents.shipped as shipped_module
from mazzo.agents.registry import make_agent
from mazzo.agents.shipped import bot_for_rules, rules_bots
from mazzo.agents.trained_rules import ForeignRules, check_rules_fit, trained_rules
from mazzo.envs.cards.flags import resolved_flags
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game
from mazzo.serve.bots import Bots
from mazzo.training.rl.ppo import PPOConfig, train
from mazzo.training.rl.ship import ship
from tests.cli_runner import ROOT, run_cli

GAME = get_game("calabresella")
FOUR = GAME.rules({"players": 4})


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    root = tmp_path_factory.mktemp("checkpoints")
    shutil.copytree(ROOT / "checkpoints" / "calabresella", root / "calabresella",
                    ignore=shutil.ignore_patterns("selfplay", "belief", "rules"))  # fmt: skip
    run = tmp_path_factory.mktemp("run") / "four"
    cfg = PPOConfig(game="calabresella", flags={"players": 4}, total_decisions=512, n_envs=8,
                    rollout_decisions=256, minibatch=128, hidden=(16,), eval_every=0, threads=1)  # fmt: skip
    train(cfg, run, log=lambda _line: None)
    ship(run, root / "calabresella" / "rules" / "players=4", "# a test bot for four players\n")
    return root


@pytest.fixture
def four_players_bot(shipped, monkeypatch):
    monkeypatch.setattr(shipped_module, "SHIPPED", shipped)
    return shipped / "calabresella" / "rules" / "players=4"


def test_bot_is_the_bot_of_the_tables_rules(four_players_bot):
    assert rules_bots(shipped_module.SHIPPED, "calabresella") == {"players=4": four_players_bot}
    assert bot_for_rules(GAME, FOUR) == four_players_bot
    assert bot_for_rules(GAME, GAME.rules()) is None  # the default bot serves the default rules
    agent = make_agent("bot", GAME, FOUR)
    assert resolved_flags(trained_rules(agent)) == resolved_flags(FOUR)
    assert check_rules_fit(agent, "bot", GAME, FOUR) is None
    default = make_agent("bot", GAME, GAME.rules())
    assert resolved_flags(trained_rules(default)) == resolved_flags(GAME.rules())


def test_a_version_or_rules_without_a_bot_are_refused_naming_the_rule_sets(four_players_bot):
    pinned = make_agent("bot@1", GAME, FOUR)  # a version asked for: that bot, whatever the table
    with pytest.raises(ForeignRules, match="players=4") as e:
        check_rules_fit(pinned, "bot@1", GAME, FOUR)
    assert "bot is shipped for the default rules and for players=4" in str(e.value)
    two = GAME.rules({"players": 2})
    with pytest.raises(ForeignRules, match="and for players=4"):
        check_rules_fit(make_agent("bot", GAME, two), "bot", GAME, two)


def test_the_arena_and_the_server_play_the_bot_of_the_rules(four_players_bot, tmp_path):
    out = run_cli("eval", "bot", "random", "--game", "calabresella", "--flag", "players=4",
                  "--n", "2", "--workers", "1", "--out", str(tmp_path / "e"))  # fmt: skip
    assert out.returncode == 0, out.stderr
    bots = Bots([("bot", "bot")], skip_missing=False)
    served = bots.get("calabresella", "bot", FOUR)
    assert resolved_flags(trained_rules(served.agent)) == resolved_flags(FOUR)
    assert bots.get("calabresella", "bot", FOUR) is served  # built once
    assert bots.fit(GAME, "bot", FOUR) is None
    assert bots.get("calabresella", "bot") is not served  # no rules: the default bot


def test_the_bots_reply_says_which_bots_open_other_rules(four_players_bot):
    bots = Bots([("bot", "bot"), ("any", "bot:foreign_rules=true"), ("h", "heuristic")])
    described = {b["name"]: b for b in bots.describe()["calabresella"]}
    assert described["bot"]["foreign_rules"] is False
    assert described["bot"]["other_rules"] == [{"players": 4}]
    assert described["any"]["foreign_rules"] is True
    assert described["h"]["foreign_rules"] is False and described["h"]["other_rules"] == []
    lenient = Bots([("bot", "bot")], foreign_rules=True)
    assert lenient.describe()["calabresella"][0]["foreign_rules"] is True


def plays_whole_deals(agent, game, rules, deals, seed):
    """``agent`` in every seat plays ``deals`` generated deals to the end, each action legal."""
    for deal in generate_deals(game, rules, deals, seed).deals:
        state, rng = game.new_state(deal, rules), np.random.default_rng(0)
        while not state.is_terminal():
            action = agent.act(state.info_view(state.to_play), rng)
            assert action in state.legal_actions()
            state.apply(action)


@pytest.mark.parametrize("players", [4, 2])
def test_the_shipped_calabresella_variant_bots_are_bot_at_their_tables(players):
    """The recipe's bots for ``players=4`` and ``players=2`` (a due;
    ``checkpoints/calabresella/rules/players=N``): ``bot`` at such a table loads it, trained
    for those rules, with its card, and plays whole deals (a due: the defender's two seats
    included)."""
    rules = GAME.rules({"players": players})
    folder = bot_for_rules(GAME, rules)
    assert folder == ROOT / "checkpoints" / "calabresella" / "rules" / f"players={players}"
    assert f"players={players}" in (folder / "CARD.md").read_text()
    agent = make_agent("bot", GAME, rules)
    assert resolved_flags(trained_rules(agent)) == resolved_flags(rules)
    assert check_rules_fit(agent, "bot", GAME, rules) is None
    plays_whole_deals(agent, GAME, rules, deals=3, seed=11)


def test_a_table_without_a_bot_is_refused_naming_every_shipped_rule_set():
    """At a table whose rules no bot was trained for (``aperta``), ``bot`` is refused and the
    refusal names the rule sets that have one, the a due and four players both."""
    aperta = GAME.rules({"aperta": True})
    with pytest.raises(ForeignRules, match="players=2") as e:
        check_rules_fit(make_agent("bot", GAME, aperta), "bot", GAME, aperta)
    assert "players=4" in str(e.value)


def test_the_shipped_minchiate_variant_bot_is_bot_at_such_a_table():
    """The recipe's bot for ``declare_timing = with_first_card`` (half precision): ``bot`` at
    such a table loads it and plays; at the default table ``bot`` is the default bot."""
    minchiate = get_game("minchiate")
    variant = minchiate.rules({"declare_timing": "with_first_card"})
    folder = bot_for_rules(minchiate, variant)
    assert folder == ROOT / "checkpoints" / "minchiate" / "rules" / "declare_timing=with_first_card"
    agent = make_agent("bot", minchiate, variant)
    assert resolved_flags(trained_rules(agent)) == resolved_flags(variant)
    plays_whole_deals(agent, minchiate, variant, deals=1, seed=3)  # every seat half precision


def test_a_bot_folder_of_other_rules_is_a_path_and_a_searchs_net_bot_is_the_tables_bot():
    """``nn:checkpoints/calabresella/rules/players=4`` names that folder (a first item with a
    path for key is no key=value); ``ipimc:net=bot`` at a four-player table searches with the
    four-player bot inside, keeps its name, and fits the table; elsewhere ``net=bot`` is the
    default bot."""
    from mazzo.agents.specs import parse_spec

    spec = parse_spec("nn:checkpoints/calabresella/rules/players=4,foreign_rules=true")
    assert spec.positional == "checkpoints/calabresella/rules/players=4"
    assert spec.params == {"foreign_rules": "true"}
    assert parse_spec("pimc:samples=4").params == {"samples": "4"}
    folder = ROOT / "checkpoints" / "calabresella" / "rules" / "players=4"
    assert resolved_flags(trained_rules(make_agent(f"nn:{folder}", GAME))) == resolved_flags(FOUR)
    search = make_agent("ipimc:net=bot", GAME, FOUR)
    assert resolved_flags(trained_rules(search)) == resolved_flags(FOUR)
    assert search.name.endswith("net=bot") and check_rules_fit(search, "ipimc", GAME, FOUR) is None
    default = make_agent("ipimc:net=bot", GAME)
    assert resolved_flags(trained_rules(default)) == resolved_flags(GAME.rules())

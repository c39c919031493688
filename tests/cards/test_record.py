"""The shared D.3 record machinery (mazzo.envs.cards.record) through both games: one signature, one
validation, the ``expect`` block and the stored ``result`` checked by ``replay`` and by the env's
``reset(options={"deal": record})``."""

import copy
import json
import re

import numpy as np
import pytest

from mazzo.envs.calabresella import record as cala_record
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.record import DealRecord
from mazzo.envs.minchiate import record as minc_record
from mazzo.envs.registry import all_games, get_game

GAMES = [g.name for g in all_games()]
RECORD_MODULES = {"calabresella": cala_record, "minchiate": minc_record}


def played(game_name: str, seed: int, flags=None, stop: int | None = None, **options):
    """A deal of ``game_name`` played by uniform random legal actions (``stop`` actions, or to
    the end)."""
    game = get_game(game_name)
    rules = game.rules(flags)
    rng = np.random.default_rng(seed)
    state = game.new_state(game.deal_random(rng, rules), rules, **options)
    n = 0
    while not state.is_terminal() and (stop is None or n < stop):
        state.apply(int(rng.choice(bit_list(state.legal_mask()))))
        n += 1
    return state


@pytest.mark.parametrize("name", GAMES)
def test_same_signatures_in_both_games(name):
    module = RECORD_MODULES[name]
    state = played(name, 1)
    rec = module.write_record(state, with_result=True, expect=True)
    parsed = module.read_record(json.dumps(rec), None)
    assert isinstance(parsed, DealRecord)
    assert parsed.deal == state.deal and parsed.rules == state.rules
    assert [list(a) for a in parsed.actions] == rec["actions"]
    assert parsed.expect == rec["expect"] and parsed.result == rec["result"]
    assert parsed.options == {}
    again = module.replay(rec, None)
    assert again.history == state.history and again.result() == state.result()
    fresh = get_game(name).new_state(parsed.deal, parsed.rules)
    module.apply_record_actions(fresh, parsed.actions)
    assert fresh.history == state.history
    assert get_game(name).read_record(rec, None) == parsed  # the registry passes it through


def test_calabresella_no_chiamo_is_a_start_option():
    flags = {"all_pass": "next_deal_no_chiamo"}
    state = played("calabresella", 3, flags, no_chiamo=True)
    rec = cala_record.write_record(state)
    assert rec["no_chiamo"] is True
    parsed = cala_record.read_record(rec)
    assert parsed.options == {"no_chiamo": True}
    assert cala_record.replay(rec).history == state.history
    assert cala_record.read_record({**rec, "no_chiamo": False}).options == {}
    with pytest.raises(ValueError, match="'no_chiamo' must be true or false, got 'yes'"):
        cala_record.read_record({**rec, "no_chiamo": "yes"})


def test_calabresella_expect_block():
    state = played("calabresella", 5)
    rec = cala_record.write_record(state, expect=True)
    expect = rec["expect"]
    result = state.result()
    assert list(expect) == ["void", "contract", "soloist", "returns", "thirds"]
    assert expect["returns"] == result["returns"] and expect["void"] == result["void"]
    assert expect["contract"] == result["contract"]
    if not result["void"]:
        assert expect["soloist"] == result["soloist"] and expect["thirds"] == result["thirds"]
    assert list(rec) == ["format", "rules", "dealer", "deck", "actions", "expect", "result"]
    cala_record.replay(json.loads(json.dumps(rec)))
    early = played("calabresella", 5, stop=2)  # mid-auction: no contract yet
    assert cala_record.write_record(early, expect=True)["expect"]["contract"] is None
    bad = copy.deepcopy(rec)
    bad["expect"]["returns"] = [9, 9, 9]
    with pytest.raises(ValueError, match=re.escape("expect.returns: the record says [9, 9, 9]")):
        cala_record.replay(bad)
    with pytest.raises(ValueError, match=re.escape("unknown key(s) ['winner'] in 'expect'")):
        cala_record.replay({**rec, "expect": {"winner": 1}})


@pytest.mark.parametrize("name", GAMES)
def test_a_contradicting_result_is_reported(name):
    game = get_game(name)
    state = played(name, 7)
    rec = json.loads(json.dumps(game.write_record(state)))
    returns = rec["result"]["returns"]
    bad = copy.deepcopy(rec)
    bad["result"]["returns"] = [r + 1 for r in returns]
    want = (
        f"result.returns: the record says {[r + 1 for r in returns]!r}, "
        f"the replay gives {returns!r}"
    )
    with pytest.raises(ValueError, match=re.escape(want)):
        game.replay(bad, None)
    with pytest.raises(ValueError, match=re.escape(want)):
        game.env().reset(options={"deal": bad})
    extra = copy.deepcopy(rec)
    extra["result"]["bogus"] = 1
    with pytest.raises(ValueError, match=re.escape("result.bogus: the record says 1, the repl")):
        game.replay(extra, None)
    unfinished = copy.deepcopy(rec)
    unfinished["actions"] = rec["actions"][:3]
    with pytest.raises(ValueError, match="the replay stops unfinished after 3 actions"):
        game.replay(unfinished, None)
    with pytest.raises(ValueError, match="must be an object"):
        game.replay({**rec, "result": [1]}, None)
    game.replay(rec, None)  # the true result replays
    env = game.env()
    env.reset(options={"deal": rec})
    assert all(env.unwrapped.terminations.values())


@pytest.mark.parametrize("name", GAMES)
def test_a_contradicting_expect_is_reported_by_the_env(name):
    game = get_game(name)
    state = played(name, 11, stop=6)
    rec = RECORD_MODULES[name].write_record(state, expect=True)
    env = game.env()
    env.reset(options={"deal": rec})  # the true expect block
    bad = copy.deepcopy(rec)
    bad["expect"]["returns"] = [1] * len(rec["expect"]["returns"])
    with pytest.raises(ValueError, match=r"expect\.returns: the record says \[1, 1"):
        env.reset(options={"deal": bad})


CHAINS = [("calabresella", {"match": True}), ("minchiate", {"deals": 2})]


@pytest.mark.parametrize(("name", "kwargs"), CHAINS)
def test_chained_envs_check_the_recorded_deal(name, kwargs):
    game = get_game(name)
    rec = json.loads(json.dumps(game.write_record(played(name, 13))))
    env = game.env(**kwargs)
    env.reset(options={"deal": rec})  # the record's deal ends; the chain deals the next one
    assert not any(env.unwrapped.terminations.values())
    rec["result"]["returns"] = [r - 1 for r in rec["result"]["returns"]]
    with pytest.raises(ValueError, match=r"result\.returns"):
        env.reset(options={"deal": rec})


@pytest.mark.parametrize("name", GAMES)
def test_one_validation_for_both_games(name):
    game = get_game(name)
    rec = game.write_record(played(name, 2, stop=2))
    first = rec["actions"][0]
    other = f"S{(int(first[0][1:]) + 1) % game.seats(game.rules())}"
    cases = [
        ([first[0], first[1]], "an action is a [seat, verb, arg] triple of strings"),
        ([first[0], first[1], True], "an action is a [seat, verb, arg] triple of strings"),
        ("S1 play Ac", "an action is a [seat, verb, arg] triple of strings"),
        (["X1", first[1], first[2]], "bad seat 'X1'"),
        ([first[0], "shout", "x"], "unknown verb 'shout'; verbs: "),
        ([other, first[1], first[2]], "is on turn"),
    ]
    for triple, message in cases:
        bad = {**rec, "actions": [triple]}
        with pytest.raises(ValueError, match=re.escape("action #0 ") + ".*" + re.escape(message)):
            game.replay(bad, None)
    with pytest.raises(ValueError, match=re.escape(f"a {game.info.title} deal needs")):
        game.replay({**rec, _deck_key(rec): []}, None)
    with pytest.raises(ValueError, match="'actions' must be a list"):
        game.replay({**rec, "actions": "S0 play Ac"}, None)
    with pytest.raises(ValueError, match=re.escape("unknown key(s) ['nope'] in 'rules'")):
        game.replay({**rec, "rules": {"nope": 1}}, None)
    with pytest.raises(ValueError, match=r"'rules\.flags' must be an object"):
        game.replay({**rec, "rules": {"flags": []}}, None)


def _deck_key(rec: dict) -> str:
    return "deck" if "deck" in rec else "stream"


def test_a_split_argument_is_written_as_a_number_and_read_in_either_form():
    """RULES.md D.3: a split's argument is the 4-bit mask as an integer; records written before
    mazzo wrote it so hold the string ("9"), which still replays."""
    flags = {"allowed_contracts": ["scegliete"], "players": 3}
    game = get_game("calabresella")
    for seed in range(200):
        state = played("calabresella", seed, flags)
        rec = game.write_record(state)
        splits = [i for i, (_, verb, _) in enumerate(rec["actions"]) if verb == "split"]
        if splits:
            i = splits[0]
            seat, _, mask = rec["actions"][i]
            assert type(mask) is int and 0 <= mask < 16
            assert json.loads(json.dumps(rec))["actions"][i] == [seat, "split", mask]
            assert game.replay(rec, None).history == state.history
            rec["actions"][i] = [seat, "split", str(mask)]  # an older record's form
            assert game.replay(rec, None).history == state.history
            return
    pytest.fail("no deal of 200 chose a split")

"""Rules validate themselves through both doors: ``Rules(...)`` directly and
``Rules.from_flags`` (a flags mapping, as JSON and the CLI give it). Every bad field raises a
ValueError naming the flag, the value as given and what is allowed."""

import pytest

from mazzo.envs.calabresella.rules import Rules

# (field, bad value as given, words of what is allowed)
BAD = [
    ("players", 5, "[3, 2, 4]"),
    ("players", 1, "[3, 2, 4]"),
    ("players", "3", "an integer"),
    ("players", True, "an integer"),
    ("auction", "open", "'until_two_passes'"),
    ("allowed_contracts", ("chiamo", "tutti"), "allowed: ['chiamo'"),
    ("allowed_contracts", (), "must name a contract"),
    ("allowed_contracts", ("solo", "solo"), "repeats a contract"),
    ("allowed_contracts", "solo", "a list"),
    ("all_pass", "redeal", "'forced_chiamo_eldest'"),
    ("chiamo_monte_exposed", 1, "true or false"),
    ("chiamo_return_public", "no", "true or false"),
    ("allow_call_own_card", None, "true or false"),
    ("solissimo_view_monte", 0, "true or false"),
    ("scegliete_splits", "2_2", "'only_2_2'"),
    ("first_lead", "dealer", "'dealer_left'"),
    ("cappotto_mult", 0, ">= 1"),
    ("cappotto_mult", 2.0, "an integer"),
    ("stramazzo", "yes", "true or false"),
    ("stramazzo_mult", -3, ">= 1"),
    ("stramazzo_def", "zero", "'raw_zero'"),
    ("contract_values", (1,), "5 positive integers"),
    ("contract_values", (1, 2, 4, 8, 16, 32), "5 positive integers"),
    ("contract_values", (1, 2, 0, 8, 16), "5 positive integers"),
    ("contract_values", (1, 2, 4, 8, 16.5), "a list of int"),
    ("contract_values", 16, "a list"),
    ("payout_mode", "double", "'difference'"),
    ("reward_mode", "zero_sum", "'pairwise'"),
    ("match_rule", "team", "'seed_sum'"),
    ("target", 0, ">= 1"),
    ("target", 21.0, "an integer"),
    ("aperta", "on", "true or false"),
    ("aperta_payout_factor", 0.0, "> 0"),
    ("aperta_payout_factor", -1, "> 0"),
    ("aperta_payout_factor", float("inf"), "> 0"),
    ("aperta_payout_factor", "1", "a number"),
]


def _as_json(value):
    return list(value) if isinstance(value, tuple) else value


@pytest.mark.parametrize(("name", "value", "allowed"), BAD, ids=lambda x: str(x))
def test_direct_construction_rejects_bad_fields(name, value, allowed):
    with pytest.raises(ValueError) as err:
        Rules(**{name: value})
    msg = str(err.value)
    assert f"'{name}'" in msg and allowed in msg, msg
    if value not in ((), ("chiamo", "tutti")):  # a member list names the bad members only
        assert repr(value) in msg or repr(_as_json(value)) in msg, msg


@pytest.mark.parametrize(("name", "value", "allowed"), BAD, ids=lambda x: str(x))
def test_from_flags_rejects_bad_fields(name, value, allowed):
    with pytest.raises(ValueError) as err:
        Rules.from_flags({name: _as_json(value)})
    msg = str(err.value)
    assert f"'{name}'" in msg and allowed in msg, msg


def test_from_flags_keeps_its_messages():
    cases = [
        ({"colour": 1}, "unknown calabresella flag 'colour'; known flags: players, auction"),
        ({"players": 5}, "calabresella flag 'players' must be one of [3, 2, 4], got 5"),
        ({"players": "3"}, "calabresella flag 'players' must be an integer, got '3'"),
        ({"contract_values": [1]}, "calabresella flag 'contract_values' needs 5 positive "
         "integers (chiamo..scegliete), got [1]"),
        ({"allowed_contracts": ["x"]}, "calabresella flag 'allowed_contracts': unknown "
         "member(s) ['x']; allowed: ['chiamo', 'solo', 'solissimo', 'dividete', 'scegliete']"),
        ({"all_pass": "forced_chiamo_eldest", "allowed_contracts": ["solo"]},
         "all_pass='forced_chiamo_eldest' needs 'chiamo' in allowed_contracts"),
        ({"all_pass": "next_deal_no_chiamo", "allowed_contracts": ["chiamo"]},
         "all_pass='next_deal_no_chiamo' needs a contract other than chiamo"),
        ({"target": 0}, "calabresella flag 'target' must be >= 1"),
        ({"aperta_payout_factor": 0}, "calabresella flag 'aperta_payout_factor' must be > 0"),
    ]  # fmt: skip
    for flags, start in cases:
        with pytest.raises(ValueError) as err:
            Rules.from_flags(flags)
        assert str(err.value).startswith(start), (flags, str(err.value))


def test_cross_field_rules_hold_for_direct_construction_too():
    with pytest.raises(ValueError, match="needs 'chiamo' in allowed_contracts"):
        Rules(all_pass="forced_chiamo_eldest", allowed_contracts=("solo",))
    with pytest.raises(ValueError, match="needs a contract other than chiamo"):
        Rules(all_pass="next_deal_no_chiamo", allowed_contracts=("chiamo",))


def test_good_values_build_and_normalise():
    assert Rules(contract_values=[1, 2, 4, 8, 16]) == Rules()  # a list, as a tuple
    assert Rules(aperta_payout_factor=1) == Rules() and Rules().aperta_payout_factor == 1.0
    assert hash(Rules(allowed_contracts=list(Rules().allowed_contracts))) == hash(Rules())
    flags = {"players": 2, "auction": "until_two_passes", "allowed_contracts": ["solo"],
             "cappotto_mult": 4, "contract_values": [5, 4, 3, 2, 1], "aperta": True,
             "aperta_payout_factor": 0.5, "target": 31}  # fmt: skip
    rules = Rules.from_flags(flags)
    assert rules.to_flags() == flags and Rules.from_flags(rules.to_flags()) == rules

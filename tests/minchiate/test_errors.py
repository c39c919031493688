"""Error cases: illegal actions raise ``IllegalAction`` naming the action, the rule and the legal
labels, and leave the state unchanged; malformed deals, labels and flags raise ``ValueError``
naming the problem."""

import dataclasses
import re

import pytest

from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.errors import IllegalAction
from mazzo.envs.minchiate import Rules, State, make_deal
from mazzo.envs.minchiate.state import _LISTS, _SCALARS

from .deals import DEAL1, DEAL1_DECISIONS, DEAL1_PLAY
from .helpers import FRESH, codes, play_script


def snapshot(s: State) -> tuple:
    scalars = tuple(getattr(s, n) for n in _SCALARS)
    return scalars + tuple(list(getattr(s, n)) for n in _LISTS)


def at(decisions: int, plays: int = 0, rules: Rules | None = None) -> State:
    s = State.new(make_deal(0, DEAL1), rules)
    play_script(s, DEAL1_DECISIONS[:decisions])
    play_script(s, DEAL1_PLAY[:plays])
    return s


def rejects(s: State, label_or_action, reason: str, legal: list[str] | None = None) -> None:
    """Apply must raise IllegalAction naming the label, the reason and the legal labels, and
    change nothing."""
    before, clone = snapshot(s), s.clone()
    action = (
        s.parse_action(label_or_action) if isinstance(label_or_action, str) else label_or_action
    )
    with pytest.raises(IllegalAction) as info:
        s.apply(action)
    message = str(info.value)
    assert reason in message, message
    if isinstance(label_or_action, str):
        assert repr(label_or_action) in message and info.value.label == label_or_action
    want = [s.action_label(a) for a in s.legal_actions()]
    assert info.value.legal == want and all(label in message for label in want[:40])
    if legal is not None:
        assert want == legal
    assert snapshot(s) == before and snapshot(clone) == before


def test_discard_of_a_counter_and_of_t29():
    s = at(0)
    rejects(s, "discard T36", "only zero-value cards other than T29 may be discarded")
    rejects(s, "discard T2", "only zero-value cards other than T29 may be discarded")
    rejects(s, "discard 6d", "S3 does not hold 6d")
    s = at(2)  # the dealer's turn: he took T29 and Kc
    rejects(s, "discard T29", "only zero-value cards other than T29 may be discarded")
    rejects(s, "discard Kc", "only zero-value cards other than T29 may be discarded")
    rejects(s, 97, "S0 must discard a card")


def test_king_rule_violation():
    s = at(9, 2)
    rejects(s, "play Qd", "King rule: S3 must play Kd", ["play Kd"])
    rejects(s, "play T1", "King rule: S3 must play Kd")


def test_follow_and_trump_violations():
    s = at(9, 3)
    rejects(s, "play T8", "must follow suit (coins (d) led)")
    s = at(9, 4)  # trick 2: S2 leads T20 ...
    play_script(s, [(2, "play T20")])
    rejects(s, "play Ks", "must play a trump (trumps led)")
    s = at(9, 36 + 3)  # trick 10: S3 Qd, S0 4d, S1 Jd; S2 is void in coins
    rejects(s, "play Qc", "must trump (void in coins (d))", ["play T33"])
    rejects(s, "play Kc", "S2 does not hold Kc")


def test_wrong_kind_of_action():
    s = at(6)  # S3 is offered his low run
    rejects(s, 5, "S3 must declare or skip the offered combination (low run [T1 T2 T3] = 11)")
    s = at(9)
    rejects(s, 97, "S1 must play a card")
    for bad in (99, -1, "play T1", True, 1.0, None):
        with pytest.raises(IllegalAction, match="not an action id"):
            s.apply(bad)  # type: ignore[arg-type]


def test_after_the_end_and_matto_pay():
    s = at(9, 84, Rules(matto_payment="agent"))
    rejects(s, "pay M", "S1 must pay a card of team B's pile other than the Matto")
    rejects(s, "pay T40", "S1 must pay a card of team B's pile other than the Matto")
    play_script(s, [(1, "pay T12")])
    assert s.is_terminal()
    with pytest.raises(IllegalAction, match="the deal is over"):
        s.apply(0)


def test_label_errors():
    s = at(9)
    for label, reason in [
        ("play X9", "unknown card code 'X9'"),
        ("discard T8", "'discard T8' is not a PLAY action"),
        ("declare", "'declare' is not a PLAY action"),
        ("fly T8", "unknown verb 'fly'"),
        ("play", "cannot parse"),
        ("play T8 T9", "cannot parse"),
    ]:
        with pytest.raises(ValueError, match=re.escape(reason)):
            s.parse_action(label)


@pytest.mark.parametrize(
    ("dealer", "stream", "reason"),
    [
        (0, codes(FRESH)[:96], "needs 97 cards, got 96"),
        (0, [*codes(FRESH)[:96], "T1"], "card T1 appears twice"),
        (0, [*codes(FRESH)[:96], "T41"], "unknown card code 'T41'"),
        (0, [*codes(FRESH)[:96], "Kx"], "unknown card code 'Kx'"),
        (4, codes(FRESH), "dealer must be a seat 0..3, got 4"),
        (-1, codes(FRESH), "dealer must be a seat 0..3, got -1"),
        ("0", codes(FRESH), "dealer must be a seat 0..3, got '0'"),
        (True, codes(FRESH), "dealer must be a seat 0..3, got True"),
        (0, FRESH.replace("Kb", "Q"), "unknown card code 'Q'"),
    ],
)
def test_malformed_deals(dealer, stream, reason):
    with pytest.raises(ValueError, match=re.escape(reason)):
        make_deal(dealer, stream)


def test_unvalidated_deal_objects():
    order = tuple(range(97))
    with pytest.raises(ValueError, match="97 cards"):
        State.new(Deal(0, order[:96]))
    with pytest.raises(ValueError, match="not a permutation"):
        State.new(Deal(0, (*order[:96], 0)))
    with pytest.raises(ValueError, match=re.escape("dealer must be a seat 0..3")):
        State.new(Deal(4, order))


@pytest.mark.parametrize(
    ("flags", "reason"),
    [
        ({"nope": 1}, "unknown minchiate flag 'nope'"),
        ({"diecine": "three"}, "flag 'diecine' must be one of"),
        ({"king_rule": 1}, "flag 'king_rule' must be true or false"),
        ({"rob_cap": "3"}, "flag 'rob_cap' must be an integer"),
        ({"rob_cap": 14}, "flag 'rob_cap' must be 0..13"),
        ({"resti_unit": 0}, "flag 'resti_unit' must be >= 1"),
        ({"surplus_base": -1}, "flag 'surplus_base' must be >= 0"),
        ({"matto_payment": "manual"}, "flag 'matto_payment' must be one of"),
    ],
)
def test_bad_flags(flags, reason):
    with pytest.raises(ValueError, match=re.escape(reason)):
        Rules.from_flags(flags)


def test_flags_round_trip():
    rules = Rules.from_flags({"diecine": "two_triples", "rob_cap": 5, "king_rule": False})
    assert rules.to_flags() == {"diecine": "two_triples", "king_rule": False, "rob_cap": 5}
    assert Rules.from_flags(rules.to_flags()) == rules and Rules.from_flags(None) == Rules()


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"diecine": "bogus"}, "flag 'diecine' must be one of ['merge_four', 'two_triples', "
         "'any_three'], got 'bogus'"),
        ({"matto_payment": 3}, "flag 'matto_payment' must be a string, got 3"),
        ({"king_rule": 1}, "flag 'king_rule' must be true or false, got 1"),
        ({"rob_cap": True}, "flag 'rob_cap' must be an integer, got True"),
        ({"resti_unit": 2.5}, "flag 'resti_unit' must be an integer, got 2.5"),
        ({"rob_cap": -1}, "flag 'rob_cap' must be 0..13"),
        ({"surplus_base": -3}, "flag 'surplus_base' must be >= 0, got -3"),
        ({"faceup_21st": "none"}, "flag 'faceup_21st' must be one of ['all', 'dealer_only']"),
    ],
)  # fmt: skip
def test_rules_built_directly_validate_every_field(kwargs, reason):
    """The constructor door checks what ``from_flags`` checks, in the same words."""
    with pytest.raises(ValueError, match=re.escape(reason)):
        Rules(**kwargs)


def test_both_doors_reject_a_bad_choice_alike():
    with pytest.raises(ValueError) as direct:
        Rules(diecine="bogus")
    with pytest.raises(ValueError) as flags:
        Rules.from_flags({"diecine": "bogus"})
    assert str(direct.value) == str(flags.value)
    with pytest.raises(ValueError, match=re.escape("flag 'declarations' must be one of")):
        dataclasses.replace(Rules(), declarations="sometimes")


def test_restore_names_missing_and_unknown_fields():
    s = State.new(make_deal(0, DEAL1))
    fields = {n: getattr(s, n) for n in _SCALARS + _LISTS if n != "play_legal"}
    assert snapshot(State.restore(**fields)) == snapshot(s)
    del fields["fola"]
    with pytest.raises(ValueError, match=re.escape("missing fields ['fola'], unknown fields []")):
        State.restore(**fields)
    with pytest.raises(ValueError, match=re.escape("unknown fields ['colour']")):
        State.restore(**fields, fola=s.fola, colour=1)

"""RULES.md D.3 ``minchiate-deal/1`` records: reading a record into a ``State`` (replaying its
``actions`` and checking its optional ``expect`` block) and writing a state back out as a record
that replays to the same outcome.

Every malformed part raises ``ValueError`` naming it: not 97 distinct known cards, a bad dealer,
an unknown flag or ruleset, a bad seat, verb or argument, an action by the wrong seat, an illegal
action, an action after the end, or an ``expect`` value the replay does not reproduce.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from envs.cards.deal import Deal
from envs.cards.flags import require_same_rules
from envs.cards.replay import label_to_triple, load_record, parse_seat, seat_token, triple_to_label
from envs.minchiate.actions import parse_label
from envs.minchiate.config import RULESET, Rules
from envs.minchiate.deck import MINCHIATE_97
from envs.minchiate.rules import State
from envs.minchiate.scoring import TEAM_NAMES

__all__ = ["FORMAT", "apply_record_actions", "read_record", "replay", "write_record"]

FORMAT = "minchiate-deal/1"
VERBS = ("discard", "declare", "play", "pay")
EXPECT_KEYS = ("robbed", "first_events", "events", "resti", "returns", "void")


def _rules(spec: object) -> Rules | None:
    if spec is None:
        return None
    if not isinstance(spec, Mapping):
        raise ValueError(f"'rules' must be an object with 'ruleset' and 'flags', got {spec!r}")
    unknown = set(spec) - {"ruleset", "flags"}
    if unknown:
        raise ValueError(f"unknown key(s) {sorted(unknown)} in 'rules'; known: flags, ruleset")
    ruleset = spec.get("ruleset", RULESET)
    if ruleset != RULESET:
        raise ValueError(f"unknown Minchiate ruleset {ruleset!r}; supported: {RULESET!r}")
    flags = spec.get("flags", {})
    if not isinstance(flags, Mapping):
        raise ValueError(f"'rules.flags' must be an object, got {flags!r}")
    return Rules.from_flags(flags)


def read_record(
    record: Mapping[str, Any] | str, rules: Rules | None = None
) -> tuple[Rules, Deal, list[Any], dict[str, Any]]:
    """Parse a record -> (rules, deal, raw action triples, expect block).

    Args:
        record: the D.3 object, as a dict or JSON text. A ``result`` key (written by
            :func:`write_record`) is accepted and ignored.
        rules: the rules in force (an environment's). If the record names flags too, they must
            agree with these. Without ``rules`` the record's flags (or the defaults) are used.

    Raises:
        ValueError: see the module docstring.
    """
    rec = load_record(
        record, FORMAT, {"dealer", "stream"}, {"rules", "actions", "expect", "result"}
    )
    rec_rules = _rules(rec.get("rules"))
    if rules is None:
        rules = rec_rules or Rules()
    elif rec_rules is not None:
        require_same_rules(rec_rules, rules)
    deal = Deal.from_codes(MINCHIATE_97, rec["dealer"], rec["stream"], 4)
    actions = rec.get("actions", [])
    if isinstance(actions, str) or not isinstance(actions, Sequence):
        raise ValueError(f"'actions' must be a list of [seat, verb, arg] triples, got {actions!r}")
    expect = rec.get("expect", {})
    if not isinstance(expect, Mapping):
        raise ValueError(f"'expect' must be an object, got {expect!r}")
    unknown = set(expect) - set(EXPECT_KEYS)
    if unknown:
        raise ValueError(f"unknown key(s) {sorted(unknown)} in 'expect'; known: {EXPECT_KEYS}")
    return rules, deal, list(actions), dict(expect)


def _apply_triple(state: Any, i: int, triple: object) -> None:
    where = f"action #{i} {triple!r}"
    if (
        isinstance(triple, str)
        or not isinstance(triple, Sequence)
        or len(triple) != 3
        or not all(isinstance(x, str) for x in triple)
    ):
        raise ValueError(f"{where}: an action is a [seat, verb, arg] triple of strings")
    if state.is_terminal():
        raise ValueError(f"{where}: the deal is already over")
    seat = parse_seat(triple[0], 4)
    verb, arg = triple[1], triple[2]
    if verb not in VERBS:
        raise ValueError(f"{where}: unknown verb {verb!r}; verbs: {', '.join(VERBS)}")
    if verb == "declare" and arg not in ("declare", "skip"):
        raise ValueError(f"{where}: a declaration is 'declare' or 'skip', got {arg!r}")
    if seat != state.to_play:
        raise ValueError(f"{where}: S{state.to_play} is on turn ({state.phase.name}), not S{seat}")
    try:
        action = parse_label(triple_to_label(verb, arg), state.phase)
        state.apply(action)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from e


def _event_pairs(state: State) -> list[list[Any]]:
    return [[TEAM_NAMES[e.team], e.points] for e in state.events]


def _observed(state: State) -> dict[str, Any]:
    """The values an ``expect`` block can assert, as JSON-ready data."""
    return {
        "robbed": [MINCHIATE_97.labels[c] for c in state.setup.robbed],
        "events": [[TEAM_NAMES[e.team], e.points, e.cause] for e in state.events],
        "resti": state.R if state.is_terminal() and not state.void else 0,
        "returns": list(state.returns()),
        "void": state.void,
    }


def _check_expect(state: State, expect: Mapping[str, Any]) -> None:
    seen = _observed(state)
    for key, want in expect.items():
        if key == "first_events":
            got: Any = _event_pairs(state)[: len(want)] if isinstance(want, list) else None
            want = [list(p) for p in want] if isinstance(want, list) else want
        else:
            got = seen[key]
            if key == "events" and isinstance(want, list):
                want = [list(e) for e in want]
        if got != want:
            raise ValueError(f"expect.{key}: the record says {want!r}, the replay gives {got!r}")


def apply_record_actions(game: Any, actions: Sequence[Any]) -> None:
    """Apply D.3 action triples to ``game`` (a ``State`` or ``Series``), checking each one.

    Raises:
        ValueError: a malformed triple, an action by a seat not on turn, an illegal action, or
            an action after the end; the message names the action's position in the list.
    """
    for i, triple in enumerate(actions):
        _apply_triple(game, i, triple)


def replay(
    record: Mapping[str, Any] | str, rules: Rules | None = None, check_expect: bool = True
) -> State:
    """Build the deal of a D.3 record and replay its actions (possibly a partial list); with
    ``check_expect``, check its ``expect`` block against the replay.

    Raises:
        ValueError: any malformed part of the record (see the module docstring).
    """
    rules, deal, actions, expect = read_record(record, rules)
    state = State.new(deal, rules)
    apply_record_actions(state, actions)
    if check_expect:
        _check_expect(state, expect)
    return state


def write_record(state: State, with_result: bool = True, expect: bool = False) -> dict[str, Any]:
    """The D.3 record of ``state``'s deal and actions (replayed to label each action by the
    phase it was taken in), JSON-ready; with ``with_result`` and a finished deal, its
    ``result``; with ``expect``, an ``expect`` block of its outcome so far (checked on replay)."""
    replay = State.new(state.deal, state.rules)
    triples = []
    for seat, action in state.history:
        verb, arg = label_to_triple(replay.action_label(action))
        triples.append([seat_token(seat), verb, arg])
        replay.apply(action)
    out: dict[str, Any] = {
        "format": FORMAT,
        "rules": {"ruleset": RULESET, "flags": state.rules.to_flags()},
        "dealer": state.dealer,
        "stream": state.deal.codes(MINCHIATE_97),
        "actions": triples,
    }
    if expect:
        out["expect"] = _observed(state)
    if with_result and state.is_terminal():
        out["result"] = state.result()
    return out

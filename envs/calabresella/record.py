"""Calabresella D.3 records (``calabresella-deal/1``): reading a record into rules, a deal and
its actions, replaying it, and writing a played deal back out so that replaying it reproduces
the same outcome.

A record: ``{"format", "rules": {"flags": {...}}, "dealer", "deck": [40 codes], "actions":
[["S1", "bid", "chiamo"], ...]}``, plus the optional ``no_chiamo`` (the deal is a no-Chiamo
redeal; a mazzo extension), ``expect`` and ``result`` (the written-out result; ignored on read).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envs.calabresella.config import Rules
from envs.calabresella.deck import ITALIAN_40
from envs.calabresella.rules import State
from envs.cards.deal import Deal
from envs.cards.flags import require_same_rules
from envs.cards.replay import label_to_triple, load_record, parse_seat, seat_token, triple_to_label

__all__ = ["FORMAT", "apply_record_actions", "read_record", "replay", "write_record"]

FORMAT = "calabresella-deal/1"
_REQUIRED = {"dealer", "deck"}
_OPTIONAL = {"rules", "actions", "expect", "result", "no_chiamo"}


def read_record(
    record: Mapping[str, Any] | str, rules: Rules | None = None
) -> tuple[Rules, Deal, list[Any], bool]:
    """Parse a record -> (rules, deal, raw action triples, no_chiamo).

    Args:
        record: the D.3 object, as a dict or JSON text.
        rules: the rules in force (an environment's). If the record names flags too, they must
            agree with these. Without ``rules`` the record's flags (or the defaults) are used.

    Raises:
        ValueError: malformed JSON or keys, a bad deck (count, duplicates, unknown codes), a bad
            dealer, unknown flags, or flags that contradict ``rules``.
    """
    rec = load_record(record, FORMAT, _REQUIRED, _OPTIONAL)
    rec_rules = _record_rules(rec.get("rules"))
    if rules is None:
        rules = rec_rules or Rules()
    elif rec_rules is not None:
        require_same_rules(rec_rules, rules)
    deal = Deal.from_codes(ITALIAN_40, rec["dealer"], rec["deck"], rules.players)
    actions = rec.get("actions", [])
    if not isinstance(actions, list):
        raise ValueError(f"'actions' must be a list of [seat, verb, arg] triples, got {actions!r}")
    no_chiamo = rec.get("no_chiamo", False)
    if not isinstance(no_chiamo, bool):
        raise ValueError(f"'no_chiamo' must be true or false, got {no_chiamo!r}")
    return rules, deal, actions, no_chiamo


def _record_rules(block: Any) -> Rules | None:
    if block is None:
        return None
    if not isinstance(block, Mapping) or set(block) - {"flags", "ruleset"}:
        raise ValueError(f"'rules' must be an object with 'flags', got {block!r}")
    flags = block.get("flags", {})
    if not isinstance(flags, Mapping):
        raise ValueError(f"'rules.flags' must be an object, got {flags!r}")
    return Rules.from_flags(flags)


def apply_record_actions(state: Any, actions: list[Any]) -> None:
    """Apply D.3 action triples to ``state`` (a ``State`` or ``Match``), checking each seat.

    Raises:
        ValueError: a malformed triple, an action by a seat not on turn, or an illegal action;
            the message names the action's position in the list.
    """
    n = len(state.returns())
    for i, triple in enumerate(actions):
        if not (isinstance(triple, list | tuple) and len(triple) == 3):
            raise ValueError(f"action {i}: expected [seat, verb, arg], got {triple!r}")
        seat_tok, verb, arg = triple
        try:
            seat = parse_seat(seat_tok, n)
            if state.is_terminal():
                raise ValueError("the deal is already over")
            if seat != state.to_play:
                raise ValueError(f"it is S{state.to_play}'s turn, not {seat_tok}'s")
            state.apply(state.parse_action(triple_to_label(str(verb), str(arg))))
        except ValueError as e:
            raise ValueError(f"action {i} {list(triple)}: {e}") from None


def replay(record: Mapping[str, Any] | str, rules: Rules | None = None) -> State:
    """Build the deal of ``record`` and apply its actions. Raises ValueError (see above)."""
    rules, deal, actions, no_chiamo = read_record(record, rules)
    state = State.new(deal, rules, no_chiamo=no_chiamo)
    apply_record_actions(state, actions)
    return state


def write_record(state: State, with_result: bool = True) -> dict[str, Any]:
    """A D.3 record of ``state``'s deal and every action taken so far (JSON-ready)."""
    seq = State.new(state.deal, state.rules, no_chiamo=state.no_chiamo)
    actions = []
    for pos, action in state.history:
        verb, arg = label_to_triple(seq.action_label(action))
        actions.append([seat_token(seq.seat_of[pos]), verb, arg])
        seq.apply(action)
    out: dict[str, Any] = {
        "format": FORMAT,
        "rules": {"flags": state.rules.to_flags()},
        "dealer": state.deal.dealer,
        "deck": state.deal.codes(ITALIAN_40),
        "actions": actions,
    }
    if state.no_chiamo:
        out["no_chiamo"] = True
    if with_result and state.is_terminal():
        out["result"] = state.result()
    return out

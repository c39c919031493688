"""Calabresella D.3 records (``calabresella-deal/1``): the game's record vocabulary, on top of
the shared record machinery of ``mazzo.envs.cards.record`` (reading, checking, replaying, writing).

A record: ``{"format", "rules": {"flags": {...}}, "dealer", "deck": [40 codes], "actions":
[["S1", "bid", "chiamo"], ...]}``, plus the optional ``no_chiamo`` (the deal is a no-Chiamo
redeal; a mazzo extension), ``expect`` (values the replay must reproduce: ``void``,
``contract``, ``soloist``, ``returns``, ``thirds``) and ``result`` (the written-out result; the
replay must reproduce it too).

The vocabulary: verbs ``bid``, ``call``, ``return``, ``discard``, ``play``, ``split``; the
triple ``[S, "bid", "pass"]`` is the label ``pass``, any other ``[S, verb, arg]`` the label
``verb arg``. A split's argument is the 4-bit mask as an integer (RULES.md D.3: ``["S1",
"split", 9]``); records written before that held it as a string (``"9"``), which reading still
accepts.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.scoring import pile_thirds
from mazzo.envs.calabresella.state import State
from mazzo.envs.cards import record as core
from mazzo.envs.cards.record import DealRecord

__all__ = [
    "EXPECT_KEYS",
    "FORMAT",
    "VOCABULARY",
    "apply_record_actions",
    "check_record",
    "read_record",
    "replay",
    "write_record",
]

FORMAT = "calabresella-deal/1"
VERBS = ("bid", "call", "return", "discard", "play", "split")
EXPECT_KEYS = ("void", "contract", "soloist", "returns", "thirds")


def _to_label(verb: str, arg: str | int) -> str:
    return "pass" if (verb, arg) == ("bid", "pass") else f"{verb} {arg}"


def _to_triple(label: str) -> tuple[str, str | int]:
    label = " ".join(label.split())
    if label == "pass":
        return "bid", "pass"
    verb, _, arg = label.partition(" ")
    if verb == "split" and arg.isdigit():
        return verb, int(arg)  # RULES.md D.3: the mask as an integer
    return verb, arg


def _observe(state: State) -> dict[str, Any]:
    """The values an ``expect`` block can assert, JSON-ready: ``void`` (an all-pass deal),
    ``contract`` (its name, None before the auction ends or when void), ``soloist`` (a seat or
    None), ``returns`` (per seat) and ``thirds`` (the thirds each side took so far)."""
    contract = state.contract_name() or None
    sides = ("soloist", "defenders")
    return {
        "void": state.is_terminal() and state.is_void(),
        "contract": contract,
        "soloist": state.seat_of[state.soloist] if contract else None,
        "returns": list(state.returns()),
        "thirds": dict(zip(sides, (pile_thirds(p) for p in state.piles), strict=True)),
    }


VOCABULARY = core.RecordVocabulary(
    format=FORMAT,
    title="Calabresella",
    deck=ITALIAN_40,
    deck_key="deck",
    rules_type=Rules,
    seats=lambda rules: rules.players,
    new_state=State.new,
    verbs=VERBS,
    to_label=_to_label,
    to_triple=_to_triple,
    expect_keys=EXPECT_KEYS,
    observe=_observe,
    options=("no_chiamo",),
    start_options=lambda state: {"no_chiamo": True} if state.no_chiamo else {},
)


def read_record(record: Mapping[str, Any] | str, rules: Rules | None = None) -> DealRecord:
    """Parse a record -> ``DealRecord`` (a no-Chiamo redeal has ``options={"no_chiamo": True}``).

    Args:
        record: the D.3 object, as a dict or JSON text.
        rules: the rules in force (an environment's). If the record names flags too, they must
            agree with these. Without ``rules`` the record's flags (or the defaults) are used.

    Raises:
        ValueError: malformed JSON or keys, a bad deck (count, duplicates, unknown codes), a bad
            dealer, unknown flags, flags that contradict ``rules``, a bad ``expect`` or
            ``no_chiamo``.
    """
    return core.read(VOCABULARY, record, rules)


def apply_record_actions(state: Any, actions: Sequence[Any]) -> None:
    """Apply D.3 action triples to ``state`` (a ``State`` or ``Match``), checking each seat.

    Raises:
        ValueError: a malformed triple, an action by a seat not on turn, or an illegal action;
            the message names the action's position in the list.
    """
    core.apply_actions(VOCABULARY, state, actions)


def check_record(parsed: DealRecord, game: Any) -> None:
    """Check the replayed deal against the record's ``expect`` and ``result``; ``game`` is its
    ``State``, or a chain of deals that started with it.

    Raises:
        ValueError: naming the first differing keys with the record's and the replay's values.
    """
    core.check_replay(VOCABULARY, parsed, game)


def replay(record: Mapping[str, Any] | str, rules: Rules | None = None) -> State:
    """Build the deal of ``record``, apply its actions and check its ``expect`` and ``result``.

    Raises:
        ValueError: see :func:`read_record`, :func:`apply_record_actions`, :func:`check_record`.
    """
    state: State = core.replay(VOCABULARY, record, rules)
    return state


def write_record(state: State, with_result: bool = True, expect: bool = False) -> dict[str, Any]:
    """A D.3 record of ``state``'s deal and every action taken so far (JSON-ready); with
    ``with_result`` and a finished deal, its ``result``; with ``expect``, an ``expect`` block."""
    return core.write(VOCABULARY, state, with_result, expect)

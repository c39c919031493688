"""RULES.md D.3 ``minchiate-deal/1`` records: the game's record vocabulary, on top of the shared
record machinery of ``mazzo.envs.cards.record`` (reading, checking, replaying, writing).

A record: ``{"format", "rules": {"ruleset": "cardavia", "flags": {...}}, "dealer", "stream": [97
codes], "actions": [["S3", "discard", "T22"], ...]}``, plus the optional ``expect`` (values the
replay must reproduce: ``robbed``, ``first_events``, ``events``, ``resti``, ``returns``,
``void``) and ``result`` (the written-out result; the replay must reproduce it too).

The vocabulary: verbs ``discard``, ``declare``, ``play``, ``pay``; the declaration triple
``[S, "declare", "declare" | "skip"]`` is the label ``declare`` or ``skip``, any other
``[S, verb, arg]`` the label ``verb arg``.

Every malformed part raises ``ValueError`` naming it: not 97 distinct known cards, a bad dealer,
an unknown flag or ruleset, a bad seat, verb or argument, an action by the wrong seat, an illegal
action, an action after the end, or an ``expect`` or ``result`` value the replay does not
reproduce.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mazzo.envs.cards import record as core
from mazzo.envs.cards.record import DealRecord
from mazzo.envs.minchiate.deck import MINCHIATE_97
from mazzo.envs.minchiate.rules import RULESET, Rules
from mazzo.envs.minchiate.scoring import TEAM_NAMES
from mazzo.envs.minchiate.state import State

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

FORMAT = "minchiate-deal/1"
VERBS = ("discard", "declare", "play", "pay")
EXPECT_KEYS = ("robbed", "first_events", "events", "resti", "returns", "void")
DECLARE_CHOICES = ("declare", "skip")


def _to_label(verb: str, arg: str | int) -> str:
    if verb == "declare":
        if arg not in DECLARE_CHOICES:
            raise ValueError(f"a declaration is 'declare' or 'skip', got {arg!r}")
        return arg
    return f"{verb} {arg}"


def _to_triple(label: str) -> tuple[str, str | int]:
    label = " ".join(label.split())
    if label in DECLARE_CHOICES:
        return "declare", label
    verb, _, arg = label.partition(" ")
    return verb, arg


def _observe(state: State) -> dict[str, Any]:
    """The values an ``expect`` block can assert, as JSON-ready data (``first_events`` are the
    event (team, points) pairs, of which a record lists the first few)."""
    return {
        "robbed": [MINCHIATE_97.labels[c] for c in state.setup.robbed],
        "events": [[TEAM_NAMES[e.team], e.points, e.cause] for e in state.events],
        "resti": state.R if state.is_terminal() and not state.void else 0,
        "returns": list(state.returns()),
        "void": state.void,
        "first_events": [[TEAM_NAMES[e.team], e.points] for e in state.events],
    }


VOCABULARY = core.RecordVocabulary(
    format=FORMAT,
    title="Minchiate",
    deck=MINCHIATE_97,
    deck_key="stream",
    rules_type=Rules,
    seats=lambda rules: 4,
    new_state=State.new,
    verbs=VERBS,
    to_label=_to_label,
    to_triple=_to_triple,
    expect_keys=EXPECT_KEYS,
    observe=_observe,
    prefix_keys=frozenset({"first_events"}),
    ruleset=RULESET,
)


def read_record(record: Mapping[str, Any] | str, rules: Rules | None = None) -> DealRecord:
    """Parse a record -> ``DealRecord`` (its ``expect`` block in ``expect``).

    Args:
        record: the D.3 object, as a dict or JSON text.
        rules: the rules in force (an environment's). If the record names flags too, they must
            agree with these. Without ``rules`` the record's flags (or the defaults) are used.

    Raises:
        ValueError: see the module docstring.
    """
    return core.read(VOCABULARY, record, rules)


def apply_record_actions(game: Any, actions: Sequence[Any]) -> None:
    """Apply D.3 action triples to ``game`` (a ``State`` or ``Series``), checking each one.

    Raises:
        ValueError: a malformed triple, an action by a seat not on turn, an illegal action, or
            an action after the end; the message names the action's position in the list.
    """
    core.apply_actions(VOCABULARY, game, actions)


def check_record(parsed: DealRecord, game: Any) -> None:
    """Check the replayed deal against the record's ``expect`` and ``result``; ``game`` is its
    ``State``, or a chain of deals that started with it.

    Raises:
        ValueError: naming the first differing keys with the record's and the replay's values.
    """
    core.check_replay(VOCABULARY, parsed, game)


def replay(record: Mapping[str, Any] | str, rules: Rules | None = None) -> State:
    """Build the deal of a D.3 record, replay its actions (possibly a partial list) and check
    its ``expect`` block and stored ``result`` against the replay.

    Raises:
        ValueError: any malformed part of the record (see the module docstring).
    """
    state: State = core.replay(VOCABULARY, record, rules)
    return state


def write_record(state: State, with_result: bool = True, expect: bool = False) -> dict[str, Any]:
    """The D.3 record of ``state``'s deal and actions (replayed to label each action by the
    phase it was taken in), JSON-ready; with ``with_result`` and a finished deal, its
    ``result``; with ``expect``, an ``expect`` block of its outcome so far (checked on replay)."""
    return core.write(VOCABULARY, state, with_result, expect)

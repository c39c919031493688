"""Calabresella's flat action space (RULES.md D.5), its phases, and action labels.

Layout of ``Discrete(62)``:

=========  =====================================================================
id         meaning
=========  =====================================================================
0 .. 39    card (D.2 index): call, return, discard or play, by phase
40         PASS (label ``pass``)
41 .. 45   bid CHIAMO, SOLO, SOLISSIMO, DIVIDETE, SCEGLIETE (``bid chiamo`` ...)
46 .. 61   SPLIT(m), m = id - 46: bit i = the i-th monte card in canonical index order
           goes to D1 (``split 6``)
=========  =====================================================================

Labels follow the D.3 log vocabulary; a card action's verb depends on the phase, so
:func:`action_label` takes the phase, and :func:`parse_label` checks the verb against it.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from enum import IntEnum

from mazzo.envs.calabresella.deck import ITALIAN_40

__all__ = [
    "BID_BASE",
    "CONTRACTS",
    "NUM_ACTIONS",
    "PASS",
    "SPLIT_BASE",
    "Contract",
    "Phase",
    "action_label",
    "parse_label",
]


class Phase(IntEnum):
    """Decision phases of a deal (RULES.md D.5), plus DONE."""

    BID = 0
    CALL = 1
    RETURN = 2
    SOLO_DISCARD = 3
    DIV_DISCARD = 4
    SPLIT = 5
    SCE_DISCARD = 6
    PLAY = 7
    DONE = 8


class Contract(IntEnum):
    """The five contracts, lowest to highest (C-4.1)."""

    CHIAMO = 0
    SOLO = 1
    SOLISSIMO = 2
    DIVIDETE = 3
    SCEGLIETE = 4


CONTRACTS: tuple[str, ...] = ("chiamo", "solo", "solissimo", "dividete", "scegliete")
NUM_CARDS = 40
PASS = 40
BID_BASE = 41  # bid of contract c is BID_BASE + c
SPLIT_BASE = 46  # split m is SPLIT_BASE + m
NUM_ACTIONS = 62

CARD_VERB: dict[Phase, str] = {
    Phase.CALL: "call",
    Phase.RETURN: "return",
    Phase.SOLO_DISCARD: "discard",
    Phase.DIV_DISCARD: "discard",
    Phase.SCE_DISCARD: "discard",
    Phase.PLAY: "play",
}


def action_label(action: int, phase: Phase | None = None) -> str:
    """Label of ``action`` in the D.3 vocabulary. Card actions need the phase for their verb;
    without it they are labelled ``card Xx``."""
    if 0 <= action < NUM_CARDS:
        verb = CARD_VERB.get(phase, "card") if phase is not None else "card"
        return f"{verb} {ITALIAN_40.labels[action]}"
    if action == PASS:
        return "pass"
    if BID_BASE <= action < SPLIT_BASE:
        return f"bid {CONTRACTS[action - BID_BASE]}"
    if SPLIT_BASE <= action < NUM_ACTIONS:
        return f"split {action - SPLIT_BASE}"
    raise ValueError(f"action id {action!r} is outside Discrete({NUM_ACTIONS})")


def parse_label(label: str, phase: Phase | None = None) -> int:
    """Label -> action id. With ``phase``, a card verb must match it (``play`` in PLAY, ...).

    Raises:
        ValueError: an unknown verb, card, contract or split, or a verb that does not belong to
            the given phase.
    """
    if not isinstance(label, str):
        raise ValueError(f"an action label must be a string, got {label!r}")
    words = label.split()
    if words == ["pass"] or words == ["bid", "pass"]:
        return PASS
    if len(words) != 2:
        raise ValueError(f"cannot parse action label {label!r}")
    verb, arg = words
    if verb == "bid":
        if arg not in CONTRACTS:
            raise ValueError(f"unknown contract {arg!r} in {label!r}; contracts: {list(CONTRACTS)}")
        return BID_BASE + CONTRACTS.index(arg)
    if verb == "split":
        if not arg.isdigit() or not 0 <= int(arg) < 16:
            raise ValueError(f"a split is an integer 0..15, got {arg!r} in {label!r}")
        return SPLIT_BASE + int(arg)
    if verb in ("call", "return", "discard", "play", "card"):
        card = ITALIAN_40.parse(arg)
        if phase is not None and verb != "card" and CARD_VERB.get(phase) != verb:
            raise ValueError(f"{label!r} is not a {phase.name} action")
        return card
    raise ValueError(f"unknown verb {verb!r} in action label {label!r}")

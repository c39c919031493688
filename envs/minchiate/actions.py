"""Minchiate's flat action space (RULES.md D.4), its phases, and action labels.

Layout of ``Discrete(99)``:

=========  =====================================================================
id         meaning
=========  =====================================================================
0 .. 96    card (D.1 index): ``discard Xx`` in the two discard phases, ``play Xx``
           in PLAY, ``pay Xx`` in MATTO_PAY (flag ``matto_payment = agent``)
97         DECLARE the combination on offer (label ``declare``)
98         SKIP it (label ``skip``)
=========  =====================================================================

Phases (one actor per step; a player with no decision in a phase is skipped):

==============  ==========  ====================================================
phase           actor       mask
==============  ==========  ====================================================
DISCARD_CUTTER  S(d+3)      card in hand, value 0, not T29 (``discard_rule``)
DISCARD_DEALER  S(d)        same
DECLARE         S(d+1) ..   {97, 98}: one step per combination, M-9.7 order
PLAY            trick order M-11.3 (exactly {K of L} under the King rule)
MATTO_PAY       Matto owner card in his team's pile other than the Matto
DONE            nobody      empty
==============  ==========  ====================================================

Labels follow the D.3 log vocabulary; a card action's verb depends on the phase, so
:func:`action_label` takes the phase, and :func:`parse_label` checks the verb against it.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from enum import IntEnum

from mazzo.envs.minchiate.deck import MINCHIATE_97

__all__ = [
    "CARD_VERB",
    "DECLARE",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "SKIP",
    "Phase",
    "action_label",
    "parse_label",
]


class Phase(IntEnum):
    """Decision phases of a deal (RULES.md D.4), plus DONE."""

    DISCARD_CUTTER = 0
    DISCARD_DEALER = 1
    DECLARE = 2
    PLAY = 3
    MATTO_PAY = 4
    DONE = 5


NUM_CARDS = 97
DECLARE = 97
SKIP = 98
NUM_ACTIONS = 99

CARD_VERB: dict[Phase, str] = {
    Phase.DISCARD_CUTTER: "discard",
    Phase.DISCARD_DEALER: "discard",
    Phase.PLAY: "play",
    Phase.MATTO_PAY: "pay",
}
_CARD_VERBS = ("discard", "play", "pay", "card")


def action_label(action: int, phase: Phase | None = None) -> str:
    """Label of ``action`` in the D.3 vocabulary (``discard T8``, ``play Kd``, ``pay T6``,
    ``declare``, ``skip``). Card actions need the phase for their verb; without it (or in a phase
    without card actions) they are labelled ``card Xx``.

    Raises:
        ValueError: ``action`` is not an id of ``Discrete(99)``.
    """
    if type(action) is int and 0 <= action < NUM_CARDS:
        verb = CARD_VERB.get(phase, "card") if phase is not None else "card"
        return f"{verb} {MINCHIATE_97.labels[action]}"
    if action == DECLARE:
        return "declare"
    if action == SKIP:
        return "skip"
    raise ValueError(f"action id {action!r} is outside Discrete({NUM_ACTIONS})")


def parse_label(label: str, phase: Phase | None = None) -> int:
    """Label -> action id. With ``phase``, a card verb must match it (``play`` in PLAY, ...) and
    ``declare``/``skip`` belong to DECLARE.

    Raises:
        ValueError: an unknown verb or card, or a verb that does not belong to the given phase.
    """
    if not isinstance(label, str):
        raise ValueError(f"an action label must be a string, got {label!r}")
    words = label.split()
    if len(words) == 1 and words[0] in ("declare", "skip"):
        if phase is not None and phase is not Phase.DECLARE:
            raise ValueError(f"{label!r} is not a {phase.name} action")
        return DECLARE if words[0] == "declare" else SKIP
    if len(words) != 2:
        raise ValueError(f"cannot parse action label {label!r}")
    verb, arg = words
    if verb not in _CARD_VERBS:
        raise ValueError(
            f"unknown verb {verb!r} in action label {label!r}; verbs: discard, play, pay, "
            "declare, skip"
        )
    card = MINCHIATE_97.parse(arg)
    if phase is not None and verb != "card" and CARD_VERB.get(phase) != verb:
        raise ValueError(f"{label!r} is not a {phase.name} action")
    return card

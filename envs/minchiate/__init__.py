"""Minchiate (Cardavia ruleset, RULES.md Part A): the pure rules engine.

``State`` plays one deal from a ``Deal`` (dealer + 97-card stream); ``Rules`` holds the flags;
``InfoView`` is one seat's knowledge; ``replay`` / ``write_record`` read and write D.3 records;
``Series`` chains deals. The action layout is in ``mazzo.envs.minchiate.actions``.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from collections.abc import Sequence

from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate.actions import (
    DECLARE,
    NUM_ACTIONS,
    SKIP,
    Phase,
    action_label,
    parse_label,
)
from mazzo.envs.minchiate.combos import Combo, find_combos
from mazzo.envs.minchiate.deck import MINCHIATE_97
from mazzo.envs.minchiate.record import read_record, replay, write_record
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.scoring import DealResult, EndCount, Event
from mazzo.envs.minchiate.series import Series
from mazzo.envs.minchiate.state import State
from mazzo.envs.minchiate.view import InfoView

__all__ = [
    "DECLARE",
    "NUM_ACTIONS",
    "SKIP",
    "Combo",
    "DealResult",
    "EndCount",
    "Event",
    "InfoView",
    "Phase",
    "Rules",
    "Series",
    "State",
    "action_label",
    "find_combos",
    "make_deal",
    "parse_label",
    "read_record",
    "replay",
    "write_record",
]


def make_deal(dealer: int, stream: Sequence[str] | str) -> Deal:
    """A validated Minchiate ``Deal`` from card codes (a list, or one space-separated string).

    Raises:
        ValueError: not 97 distinct known card codes, or a dealer outside 0..3.
    """
    codes = stream.split() if isinstance(stream, str) else stream
    return Deal.from_codes(MINCHIATE_97, dealer, codes, 4, "Minchiate")

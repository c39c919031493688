"""The Calabresella contract procedures and monte exchanges (RULES.md C-5): the call of a card
and its giver, the monte taken in Chiamo and Solo, set aside in Solissimo, shared in Dividete and
split in Scegliete, who discards next, and who leads the first trick. Pure functions returning
values; the ``State`` applies them to itself.

Must not import numpy, torch, gymnasium or pettingzoo, nor ``state`` (the State imports this).
"""

from __future__ import annotations

from mazzo.envs.calabresella.actions import SPLIT_BASE
from mazzo.envs.calabresella.kernel import BIT, FULL40
from mazzo.envs.calabresella.rules import Rules

__all__ = [
    "ALL_SPLITS",
    "GIVER_MONTE",
    "GIVER_NONE",
    "GIVER_OWN",
    "SPLITS_2_2",
    "call_giver",
    "call_mask",
    "dividete_pairs",
    "first_leader",
    "monte_mask",
    "split_cards",
    "split_mask",
]

GIVER_NONE = -3  # no call yet (or not Chiamo)
GIVER_OWN = -2  # the called card was the soloist's own (only with allow_call_own_card)
GIVER_MONTE = -1  # the called card lay in the monte (C-5.1 c)
ALL_SPLITS = sum(1 << (SPLIT_BASE + m) for m in range(16))
SPLITS_2_2 = sum(1 << (SPLIT_BASE + m) for m in range(16) if m.bit_count() == 2)


def monte_mask(monte: tuple[int, int, int, int]) -> int:
    """Bitmask of the four monte cards."""
    return BIT[monte[0]] | BIT[monte[1]] | BIT[monte[2]] | BIT[monte[3]]


def call_mask(rules: Rules, soloist_hand: int) -> int:
    """Cards the Chiamo soloist may call: any he does not hold (C-5.1 a), or any card with
    ``allow_call_own_card``."""
    return FULL40 & ~(0 if rules.allow_call_own_card else soloist_hand)


def split_mask(rules: Rules) -> int:
    """Legal SPLIT actions of Scegliete (``scegliete_splits``)."""
    return SPLITS_2_2 if rules.scegliete_splits == "only_2_2" else ALL_SPLITS


def call_giver(hands: list[int], card: int, soloist: int) -> int:
    """Who holds the called card (C-5.1 b, c): a defender's position, ``GIVER_OWN`` or
    ``GIVER_MONTE``."""
    for pos in ((soloist + 1) % 3, (soloist + 2) % 3):
        if (hands[pos] >> card) & 1:
            return pos
    return GIVER_OWN if (hands[soloist] >> card) & 1 else GIVER_MONTE


def dividete_pairs(monte: tuple[int, int, int, int]) -> tuple[int, int]:
    """Dividete (C-5.4): the first two monte cards go to D1, the last two to D2."""
    return BIT[monte[0]] | BIT[monte[1]], BIT[monte[2]] | BIT[monte[3]]


def split_cards(monte: tuple[int, int, int, int], m: int) -> tuple[int, int]:
    """Scegliete (C-5.5): the cards of split ``m`` for D1 and for D2 (bit i of ``m`` = the i-th
    monte card in canonical index order goes to D1)."""
    cards = sorted(monte)
    to_d1 = sum(BIT[cards[i]] for i in range(4) if (m >> i) & 1)
    return to_d1, monte_mask(monte) ^ to_d1


def first_leader(rules: Rules, soloist: int, seat_of: tuple[int, int, int], dealer: int) -> int:
    """The position leading trick 1 (``first_lead``; C-6.1)."""
    lead = rules.first_lead
    if lead == "soloist":
        return soloist
    if lead == "dealer_left":
        n = rules.players
        return 2 if n == 2 else seat_of.index((dealer - 1) % n)
    return 0

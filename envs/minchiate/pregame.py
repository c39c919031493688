"""The rules of the pre-play decisions of a Minchiate deal, as pure functions: which discards
are legal (M-8.2, MA-8, MA-9), when a deal is void for want of legal discards (M-8.5), who
discards how many cards in turn (M-8.1), the combinations a player is offered (M-9, MA-11), and
whether the Fola is exposed after the declarations (M-10.1).

``state.State`` runs the phases (the discards, the declarations in turn, the exposure) with
these; nothing here reads or changes a ``State``.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.minchiate.combos import Combo, find_combos
from mazzo.envs.minchiate.dealing import Setup
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.tables import DISCARDABLE, RELAX_CLASSES

__all__ = [
    "dealer_discards",
    "discard_mask",
    "discard_turns",
    "discards_impossible",
    "fola_exposed_after_declarations",
    "offers",
]


def discard_mask(hand: int, rules: Rules) -> int:
    """M-8.2 / MA-8 / MA-9: the legal discards from ``hand``."""
    if rules.discard_rule == "any":
        return hand
    if rules.impossible_discard == "relax":
        for cls in RELAX_CLASSES:  # the lowest-valued class still in hand
            if hand & cls:
                return hand & cls
    return hand & DISCARDABLE


def discards_impossible(hand: int, n: int, rules: Rules) -> bool:
    """M-8.5: ``hand`` holds fewer than the ``n`` legal discards due, under ``impossible_discard
    = redeal``: the deal is void (the same dealer redeals, a series layer's business)."""
    return (
        rules.discard_rule == "zero_not_29"
        and rules.impossible_discard == "redeal"
        and (hand & DISCARDABLE).bit_count() < n
    )


def dealer_discards(setup: Setup) -> int:
    """M-8.1: the dealer discards as many cards as he robbed and took."""
    return len(setup.dealer_robbed) + setup.dealer_taken.bit_count()


def discard_turns(setup: Setup, dealer: int) -> tuple[tuple[Phase, int, int], ...]:
    """M-8.1: the discard turns in order as (phase, seat, cards to discard): the cutter's (as many
    as he robbed), then the dealer's (``dealer_discards``); a turn of 0 cards is skipped."""
    return (
        (Phase.DISCARD_CUTTER, setup.cutter, len(setup.robbed)),
        (Phase.DISCARD_DEALER, dealer, dealer_discards(setup)),
    )


def offers(holder: int, rules: Rules) -> tuple[Combo, ...]:
    """M-9: the combinations a player may declare from ``holder`` (his hand; with
    ``with_first_card`` plus the card he has just played), in canonical order."""
    return find_combos(holder, rules.diecine, True, rules.matto_bonus_in_own_combo)


def fola_exposed_after_declarations(rules: Rules) -> bool:
    """M-10.1 (flag ``fola_exposure``): the Fola is turned face up once the declarations end."""
    return rules.fola_exposure == "after_declarations"

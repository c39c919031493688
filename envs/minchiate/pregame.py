"""The pre-play decisions of a Minchiate deal: the discards down to 21 (M-8, MA-8, MA-9), the
declarations of versicole (M-9, MA-11, MA-16) and the Fola exposure (M-10).

Functions over a ``State`` (``envs.minchiate.rules``), which calls them from ``new`` and
``apply``; they call back ``State.start_play``, ``State.resume_trick1`` and
``State.score_event``.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.minchiate.actions import DECLARE, Phase
from envs.minchiate.combos import find_combos
from envs.minchiate.tables import BIT, DISCARDABLE, RELAX_CLASSES

if TYPE_CHECKING:
    from envs.minchiate.rules import State

__all__ = [
    "apply_declare",
    "apply_discard",
    "discard_mask",
    "expose_fola",
    "open_declarations",
    "start_declarations",
    "start_discards",
]


def discard_mask(s: State, hand: int) -> int:
    """M-8.2 / MA-8 / MA-9: the legal discards from ``hand``."""
    rules = s.rules
    if rules.discard_rule == "any":
        return hand
    if rules.impossible_discard == "relax":
        for cls in RELAX_CLASSES:  # the lowest-valued class still in hand
            if hand & cls:
                return hand & cls
    return hand & DISCARDABLE


def start_discards(s: State, phase: Phase, seat: int, n: int) -> bool:
    """Open a discard phase of ``n`` cards; False if there is nothing to discard. Voids the
    deal when too few legal discards are held under ``impossible_discard = redeal``."""
    if n == 0:
        return False
    rules = s.rules
    if (
        rules.discard_rule == "zero_not_29"
        and rules.impossible_discard == "redeal"
        and (s.hands[seat] & DISCARDABLE).bit_count() < n
    ):
        s.void = True  # M-8.5: the same dealer redeals (a series layer's business)
        s.phase, s.to_play = Phase.DONE, -1
        return True
    s.phase, s.to_play, s.to_discard = phase, seat, n
    return True


def apply_discard(s: State, card: int) -> None:
    """One discard (a legal card of the player on turn); opens the next phase when done."""
    seat = s.to_play
    s.hands[seat] ^= BIT[card]
    s.discards[seat] |= BIT[card]
    s.fola |= BIT[card]  # M-8.4: face down into the Fola
    s.to_discard -= 1
    if s.to_discard:
        return
    if s.phase is Phase.DISCARD_CUTTER:
        n = len(s.setup.dealer_robbed) + s.setup.dealer_taken.bit_count()
        if start_discards(s, Phase.DISCARD_DEALER, s.dealer, n):
            return
    start_declarations(s)


def start_declarations(s: State) -> None:
    """After the discards: declarations in order S(d+1) .. S(d) (M-9.1), or straight to play."""
    if s.trick1_declare:  # MA-11: each player declares right after his first card
        return s.start_play()
    s.decl_k = 0
    next_declarer(s)


def next_declarer(s: State) -> None:
    """Offer the next declarer with a combination; after the last, expose the Fola and play."""
    while s.decl_k < 4:
        seat = (s.dealer + 1 + s.decl_k) & 3
        if open_declarations(s, seat, s.hands[seat]):
            return
        s.decl_k += 1
    expose_fola(s)
    s.start_play()


def open_declarations(s: State, seat: int, holder: int) -> bool:
    """Find ``seat``'s combinations in ``holder``; True if a DECLARE decision is pending."""
    rules = s.rules
    combos = find_combos(holder, rules.diecine, True, rules.matto_bonus_in_own_combo)
    if not combos:
        return False
    if rules.declarations == "auto_all":
        s.declared += [(seat, c) for c in combos]
        score_declared(s, seat, sum(c.score for c in combos))
        return False
    s.offers, s.offer_i, s.decl_sum = combos, 0, 0
    s.phase, s.to_play = Phase.DECLARE, seat
    return True


def apply_declare(s: State, action: int) -> None:
    """DECLARE or SKIP the combination on offer; after the player's last offer, score his total
    and move on."""
    seat = s.to_play
    combo = s.offers[s.offer_i]
    if action == DECLARE:
        s.declared.append((seat, combo))
        s.decl_sum += combo.score
    s.offer_i += 1
    if s.offer_i < len(s.offers):
        return
    s.offers, s.offer_i = (), 0
    score_declared(s, seat, s.decl_sum)
    if s.trick1_declare:
        s.phase = Phase.PLAY
        return s.resume_trick1()
    s.decl_k += 1
    next_declarer(s)


def score_declared(s: State, seat: int, points: int) -> None:
    """M-9.6: one event per player (or kept for the end count, MA-16)."""
    if not points:
        return
    if s.rules.declaration_score_timing == "end":
        s.decl_end[seat & 1] += points
    else:
        s.score_event(seat & 1, points, "declare", seat, 0)


def expose_fola(s: State) -> None:
    """M-10.1 (flag ``fola_exposure``)."""
    if s.rules.fola_exposure == "after_declarations":
        s.fola_exposed = True

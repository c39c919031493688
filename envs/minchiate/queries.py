"""The read-only queries of a Minchiate deal: legality, labels, the offer on the table and the
returns.

Functions of a ``protocol.DealState`` that read and never write (no cache either: the legal plays
are ``play_legal``, which every transition keeps). ``state.State`` binds them as its methods
(``legal_mask = queries.legal_mask``), so ``state.legal_mask()`` calls the function here with
no extra call in between. The rules they apply are the helpers' (``pregame``'s legal discards,
``kernel``'s legal plays).

Must not import numpy, torch, gymnasium or pettingzoo, nor ``state`` (the State imports this).
"""

from __future__ import annotations

from mazzo.envs.cards.bits import bit_list
from mazzo.envs.minchiate import actions
from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.minchiate.combos import Combo
from mazzo.envs.minchiate.kernel import play_mask
from mazzo.envs.minchiate.pregame import discard_mask
from mazzo.envs.minchiate.protocol import DealState
from mazzo.envs.minchiate.tables import MATTO, MATTO_BIT, SUIT_BASE, SUIT_CARDS, cards_of

__all__ = [
    "DECLARE_MASK",
    "action_label",
    "is_terminal",
    "is_void",
    "legal_actions",
    "legal_mask",
    "offered",
    "parse_action",
    "plays",
    "returns",
]

DECLARE_MASK = (1 << 97) | (1 << 98)


def is_terminal(state: DealState) -> bool:
    """True once the deal is settled or void."""
    return state.phase is Phase.DONE


def is_void(state: DealState) -> bool:
    """True for a deal voided because discarding was impossible (M-8.5); returns are 0."""
    return state.void


def returns(state: DealState) -> tuple[int, int, int, int]:
    """Per seat: +R for team A's seats, -R for team B's (M-14.4); zero before the end and for
    a void deal."""
    if state.phase is not Phase.DONE or state.void:
        return (0, 0, 0, 0)
    r = state.R
    return (r, -r, r, -r)


def offered(state: DealState) -> Combo | None:
    """The combination on offer in the DECLARE phase (None otherwise)."""
    return state.offers[state.offer_i] if state.phase is Phase.DECLARE else None


def legal_mask(state: DealState) -> int:
    """Bitmask over the 99 action ids of the legal actions (0 when the deal is over)."""
    phase = state.phase
    if phase is Phase.PLAY:
        return state.play_legal
    if phase is Phase.DECLARE:
        return DECLARE_MASK
    if phase is Phase.MATTO_PAY:
        return state.piles[state.matto_owner & 1] & ~MATTO_BIT
    if phase is Phase.DONE:
        return 0
    return discard_mask(state.hands[state.to_play], state.rules)


def legal_actions(state: DealState) -> list[int]:
    """The legal action ids in increasing order."""
    if state.phase is Phase.PLAY:
        m = state.play_legal
        led = state.led
        if 0 <= led < 4:
            f = (m >> SUIT_BASE[led]) & 0x3FFF
            if f:  # following suit (or the King rule): one table lookup
                cards = SUIT_CARDS[led][f]
                return [MATTO, *cards] if m & MATTO_BIT else list(cards)
        return cards_of(m)
    if state.phase is Phase.DECLARE:
        return [97, 98]
    return bit_list(legal_mask(state))


def plays(state: DealState, seat: int) -> int:
    """M-11.3 (``kernel.play_mask``): the legal plays of ``seat`` in the trick as it is."""
    return play_mask(
        state.hands[seat], state.led, state.top_trump, state.suits_led, state.king_rule,
        state.overtrump,
    )  # fmt: skip


def action_label(state: DealState, action: int) -> str:
    """Label of ``action`` in the current phase (D.3 vocabulary)."""
    return actions.action_label(action, state.phase)


def parse_action(state: DealState, label: str) -> int:
    """Label -> action id; a card verb must match the current phase. Raises ValueError."""
    return actions.parse_label(label, state.phase)

"""The read-only queries of a Calabresella deal: legality, labels, returns and the result.

Functions of a ``protocol.DealState`` that read and never write (no cache either). ``state.State``
binds them as its methods (``legal_mask = queries.legal_mask``), so ``state.legal_mask()`` calls
the function here with no extra call in between. The rules they apply are the helpers' (the
``kernel``'s legal plays, the ``auction``'s bids, the ``exchanges``' calls and splits, the
``scoring``'s returns and result).

Must not import numpy, torch, gymnasium or pettingzoo, nor ``state`` (the State imports this).
"""

from __future__ import annotations

from typing import Any

from mazzo.envs.calabresella import actions, auction, exchanges
from mazzo.envs.calabresella.actions import CONTRACTS, Phase
from mazzo.envs.calabresella.kernel import SUIT, legal_play_list, legal_plays
from mazzo.envs.calabresella.protocol import DealState
from mazzo.envs.calabresella.scoring import deal_result, per_seat, seat_returns
from mazzo.envs.cards.bits import bit_list

__all__ = [
    "action_label",
    "contract_name",
    "is_terminal",
    "is_void",
    "legal_actions",
    "legal_mask",
    "monte_mask",
    "parse_action",
    "raw_increments",
    "result",
    "returns",
    "side_of",
]

_PLAY, _DONE = Phase.PLAY, Phase.DONE  # bound once: an enum attribute costs a lookup per use


def is_terminal(s: DealState) -> bool:
    """True once the deal is settled or void (all passed)."""
    return s.phase is _DONE


def is_void(s: DealState) -> bool:
    """True for a deal that ended with every player passing (C-4.4)."""
    return s.phase is _DONE and s.contract < 0


def side_of(s: DealState, pos: int) -> int:
    """0 for the soloist's position, 1 for a defender's."""
    return 0 if pos == s.soloist else 1


def legal_mask(s: DealState) -> int:
    """Bitmask over the 62 action ids of the legal actions (0 when the deal is over)."""
    phase = s.phase
    if phase is _PLAY:
        return legal_plays(s.hands[s.pos], SUIT[s.trick[0]] if s.trick else -1)
    if phase is Phase.BID:
        return auction.bid_mask(s.rules, s.no_chiamo, s.high_bid)
    if phase is Phase.CALL:
        return exchanges.call_mask(s.rules, s.hands[s.soloist])
    if phase is Phase.SPLIT:
        return exchanges.split_mask(s.rules)
    if phase is Phase.DONE:
        return 0
    return s.hands[s.pos]  # RETURN and the three discard phases


def legal_actions(s: DealState) -> list[int]:
    """The legal action ids in increasing order."""
    if s.phase is _PLAY:
        trick = s.trick
        return legal_play_list(s.hands[s.pos], SUIT[trick[0]] if trick else -1)
    return bit_list(legal_mask(s))


def monte_mask(s: DealState) -> int:
    """Bitmask of the four cards dealt to the monte."""
    return exchanges.monte_mask(s.monte)


def action_label(s: DealState, action: int) -> str:
    """Label of ``action`` in the current phase (D.3 vocabulary)."""
    return actions.action_label(action, s.phase)


def parse_action(s: DealState, label: str) -> int:
    """Label -> action id; a card verb must match the current phase. Raises ValueError."""
    return actions.parse_label(label, s.phase)


def returns(s: DealState) -> tuple[int, ...]:
    """Per player seat: the settlement of C-9.5 (``reward_mode``), zero-sum under pairwise.

    Zero before the end and for a void deal. With 2 players the defender's two positions
    are summed; with 4 players the idle dealer gets 0.
    """
    return seat_returns(s.settlement, s.rules, s.seat_of)


def raw_increments(s: DealState) -> tuple[int, ...]:
    """Per player seat: the game-point total increments of C-9.1 (never negative)."""
    if s.settlement is None:
        return (0,) * s.rules.players
    return per_seat(s.settlement.raw, s.seat_of, s.rules.players)


def contract_name(s: DealState) -> str:
    """Name of the contract being played ('' before the auction ends or when void)."""
    return CONTRACTS[s.contract] if s.contract >= 0 else ""


def result(s: DealState) -> dict[str, Any]:
    """The full result of a finished deal, JSON-ready (RULES.md C-7 to C-9; the keys are
    listed in ``scoring.deal_result``).

    Raises:
        ValueError: the deal is not over.
    """
    if s.phase is not _DONE:
        raise ValueError("the deal is not over: no result yet")
    return deal_result(s.settlement, s.rules, s.deal.dealer, s.seat_of, s.called, s.giver)

"""The Calabresella auction (RULES.md C-4): which bids are legal, who speaks next, and what an
all-pass auction turns into. Pure functions of the auction's integers; the ``State`` applies
their answers to itself.

Must not import numpy, torch, gymnasium or pettingzoo, nor ``state`` (the State imports this).
"""

from __future__ import annotations

from mazzo.envs.calabresella.actions import BID_BASE, PASS
from mazzo.envs.calabresella.rules import Rules

__all__ = ["bid_mask", "forced_soloist", "next_bidder"]


def bid_mask(rules: Rules, no_chiamo: bool, high_bid: int) -> int:
    """Legal auction actions: pass or an allowed contract above the highest bid (C-4.2); a due
    (CA-19), the soloist names any allowed contract and may not pass. No Chiamo in a redeal
    under ``all_pass = next_deal_no_chiamo``."""
    allowed = rules.allowed_bits
    if no_chiamo:
        allowed &= ~1
    if rules.players == 2:
        return allowed << BID_BASE
    higher = allowed & ~((1 << (high_bid + 1)) - 1)
    return (1 << PASS) | (higher << BID_BASE)


def next_bidder(rules: Rules, pos: int, n_bids: int, passed: int, high_bid: int) -> int:
    """The position that speaks after ``pos``, or -1 once the auction is over.

    ``n_bids`` counts the calls made so far (including ``pos``'s), ``passed`` is the bitmask of
    the positions that passed, ``high_bid`` the highest contract bid (-1: none).
    """
    if rules.players == 2:  # a due: one call
        return -1
    if rules.auction == "single_round":
        return pos + 1 if n_bids < 3 else -1
    # until_two_passes: speak in turn, skipping passers, until one bidder is left
    n_passed = passed.bit_count()
    if n_passed < 2 or (n_passed == 2 and high_bid < 0):
        nxt = (pos + 1) % 3
        while (passed >> nxt) & 1:
            nxt = (nxt + 1) % 3
        return nxt
    return -1


def forced_soloist(rules: Rules) -> int:
    """After an all-pass auction: the position that must play Chiamo (A0, the eldest, under
    ``all_pass = forced_chiamo_eldest``), or -1 when the deal is void (C-4.4)."""
    return 0 if rules.all_pass == "forced_chiamo_eldest" else -1

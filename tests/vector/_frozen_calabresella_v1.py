"""A frozen copy of the Calabresella encoder of ENCODING_VERSION 1 as it stood before the
``Encoder`` classes (``encode(view, scale)``), kept only to prove the new encoder bit-for-bit equal
(tests/vector/test_encoder.py). Do not edit.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mazzo.envs.calabresella.actions import BID_BASE, PASS
from mazzo.envs.calabresella.scoring import pile_thirds
from mazzo.envs.calabresella.state import GIVER_MONTE
from mazzo.envs.calabresella.view import InfoView
from mazzo.envs.common.arrays import bits_to_array
from mazzo.envs.common.layout import offsets

__all__ = ["BINARY_LAYOUT", "ENCODING_VERSION", "OBS_SIZE", "SCALAR_LAYOUT", "encode", "obs_high"]

ENCODING_VERSION = 1

BINARY_LAYOUT: tuple[tuple[str, int], ...] = (
    ("phase", 9),
    ("my_position", 4),
    ("to_play", 3),
    ("role", 3),
    ("hand", 40),
    ("partner_hand", 40),
    ("bids", 18),
    ("high_bid", 5),
    ("no_chiamo", 1),
    ("contract", 5),
    ("soloist", 3),
    ("called", 40),
    ("giver", 5),
    ("returned", 40),
    ("known_monte", 40),
    ("discards", 40),
    ("split_d1", 40),
    ("split_d2", 40),
    ("trick", 120),
    ("trick_leader", 3),
    ("played_by", 120),
    ("void", 12),
    ("pile_soloist", 40),
    ("pile_defenders", 40),
)
SCALAR_LAYOUT: tuple[tuple[str, int], ...] = (
    ("n_tricks", 1),
    ("thirds", 2),
    ("tricks_won", 2),
    ("totals", 4),
)
N_BINARY = sum(n for _, n in BINARY_LAYOUT)
OBS_SIZE = N_BINARY + sum(n for _, n in SCALAR_LAYOUT)

OFFSET = offsets(BINARY_LAYOUT + SCALAR_LAYOUT)

# Offsets as module constants (the encoder below is on the hot path of every env step).
O_PHASE, O_MYPOS, O_TOPLAY, O_ROLE = (
    OFFSET[k] for k in ("phase", "my_position", "to_play", "role")
)
O_HAND, O_PARTNER, O_BIDS, O_HIGH = (
    OFFSET[k] for k in ("hand", "partner_hand", "bids", "high_bid")
)
O_NOCH, O_CONTRACT, O_SOLO, O_CALLED = (
    OFFSET[k] for k in ("no_chiamo", "contract", "soloist", "called")
)
O_GIVER, O_RETURNED, O_MONTE, O_DISC = (
    OFFSET[k] for k in ("giver", "returned", "known_monte", "discards")
)
O_SPLIT1, O_SPLIT2, O_TRICK, O_LEADER = (
    OFFSET[k] for k in ("split_d1", "split_d2", "trick", "trick_leader")
)
O_PLAYED, O_VOID, O_PILE_S, O_PILE_D = (
    OFFSET[k] for k in ("played_by", "void", "pile_soloist", "pile_defenders")
)
_REL = ((0, 1, 2), (2, 0, 1), (1, 2, 0))  # _REL[me][pos] = (pos - me) % 3


def obs_high() -> npt.NDArray[np.float32]:
    """Upper bounds of the observation (1 everywhere except the unbounded match totals)."""
    high = np.ones(OBS_SIZE, np.float32)
    high[OFFSET["totals"] : OFFSET["totals"] + 4] = np.inf
    return high


def encode(v: InfoView, target: int = 21) -> npt.NDArray[np.float32]:
    """Encode one view (``target``: the match target, scaling the totals)."""
    me = v.position if v.position >= 0 else 0
    rel = _REL[me]
    b = 1 << (O_PHASE + v.phase)
    b |= 1 << (O_MYPOS + (v.position if v.position >= 0 else 3))
    if v.to_play >= 0:
        b |= 1 << (O_TOPLAY + rel[v.to_play])
    b |= v.hand << O_HAND | v.partner_hand << O_PARTNER
    if v.bids:
        b |= _auction_bits(v, rel)
    if v.soloist >= 0:
        b |= 1 << (O_SOLO + rel[v.soloist])
        if v.position >= 0:
            b |= 1 << (O_ROLE + (v.position - v.soloist) % 3)
    if v.called >= 0:
        g = v.giver
        b |= 1 << (O_CALLED + v.called)
        b |= 1 << (O_GIVER + (rel[g] if g >= 0 else 3 if g == GIVER_MONTE else 4))
    if v.returned >= 0:
        b |= 1 << (O_RETURNED + v.returned)
    b |= v.known_monte << O_MONTE | v.discards << O_DISC
    b |= v.split_d1 << O_SPLIT1 | v.split_d2 << O_SPLIT2
    b |= _play_bits(v, rel)
    out = np.empty(OBS_SIZE, np.float32)
    out[:N_BINARY] = bits_to_array(b, N_BINARY)
    n, seat, totals = v.n_players, v.seat, v.totals
    out[N_BINARY:] = (
        v.n_tricks / 12.0,
        pile_thirds(v.piles[0]) / 32.0,
        pile_thirds(v.piles[1]) / 32.0,
        v.tricks_won[0] / 12.0,
        v.tricks_won[1] / 12.0,
        totals[seat] / target,
        totals[(seat + 1) % n] / target,
        totals[(seat + 2) % n] / target if n > 2 else 0.0,
        totals[(seat + 3) % n] / target if n > 3 else 0.0,
    )
    return out


def _auction_bits(v: InfoView, rel: tuple[int, int, int]) -> int:
    b = 0
    last = [-1, -1, -1]
    high = -1
    for pos, action in v.bids:
        last[pos] = action
        if action != PASS:
            high = action - BID_BASE
    for pos in range(3):
        a = last[pos]
        if a >= 0:
            b |= 1 << (O_BIDS + 6 * rel[pos] + (0 if a == PASS else 1 + a - BID_BASE))
    if high >= 0:
        b |= 1 << (O_HIGH + high)
    if v.no_chiamo:
        b |= 1 << O_NOCH
    if v.contract >= 0:
        b |= 1 << (O_CONTRACT + v.contract)
    return b


def _play_bits(v: InfoView, rel: tuple[int, int, int]) -> int:
    leader = v.leader
    b = v.piles[0] << O_PILE_S | v.piles[1] << O_PILE_D
    for i, card in enumerate(v.trick):
        b |= 1 << (O_TRICK + 40 * rel[(leader + i) % 3] + card)
    if v.phase == 7:  # PLAY: the leader of the trick in progress
        b |= 1 << (O_LEADER + rel[leader])
    played, void = v.played_by, v.void
    r0, r1, r2 = rel
    b |= played[0] << (O_PLAYED + 40 * r0) | played[1] << (O_PLAYED + 40 * r1)
    b |= played[2] << (O_PLAYED + 40 * r2)
    b |= void[0] << (O_VOID + 4 * r0) | void[1] << (O_VOID + 4 * r1) | void[2] << (O_VOID + 4 * r2)
    return b

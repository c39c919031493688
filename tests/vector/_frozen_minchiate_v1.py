"""A frozen copy of the Minchiate encoder of ENCODING_VERSION 1 as it stood before the
``Encoder`` classes (``encode(view, scale)``), kept only to prove the new encoder bit-for-bit equal
(tests/vector/test_encoder.py). Do not edit.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mazzo.envs.cards.bits import mask_of
from mazzo.envs.common.arrays import bits_to_array
from mazzo.envs.common.layout import offsets
from mazzo.envs.minchiate.view import InfoView

__all__ = ["BINARY_LAYOUT", "ENCODING_VERSION", "OBS_SIZE", "SCALAR_LAYOUT", "encode", "obs_high"]

ENCODING_VERSION = 1
C = 97

BINARY_LAYOUT: tuple[tuple[str, int], ...] = (
    ("phase", 6),
    ("to_play", 4),
    ("dealer", 4),
    ("cutter", 4),
    ("hand", C),
    ("discards", C),
    ("robbed", C),
    ("stop_card", C),
    ("faceup", 4 * C),
    ("dealer_robbed", C),
    ("dealer_taken", C),
    ("declared", 4 * C),
    ("fola_known", C),
    ("fola_exposed", 1),
    ("offer_kind", 6),
    ("offer_cards", C),
    ("trick", 4 * C),
    ("trick_leader", 4),
    ("led", 5),
    ("played_by", 4 * C),
    ("suits_led", 4),
    ("matto_owner", 4),
    ("matto_debt", 1),
    ("pile_mine", C),
    ("pile_theirs", C),
)
SCALAR_LAYOUT: tuple[tuple[str, int], ...] = (
    ("n_tricks", 1),
    ("d_lead", 1),
    ("d_behind", 1),
    ("r_ahead", 1),
    ("r_behind", 1),
    ("series_ahead", 1),
    ("series_behind", 1),
)
N_BINARY = sum(n for _, n in BINARY_LAYOUT)
OBS_SIZE = N_BINARY + sum(n for _, n in SCALAR_LAYOUT)
RESTI_SCALE = 8.0

OFFSET = offsets(BINARY_LAYOUT + SCALAR_LAYOUT)

O_PHASE, O_TOPLAY, O_DEALER, O_CUTTER = (
    OFFSET[k] for k in ("phase", "to_play", "dealer", "cutter")
)
O_HAND, O_DISC, O_ROBBED, O_STOP = (OFFSET[k] for k in ("hand", "discards", "robbed", "stop_card"))
O_FACEUP, O_DROB, O_DTAKE, O_DECL = (
    OFFSET[k] for k in ("faceup", "dealer_robbed", "dealer_taken", "declared")
)
O_FOLA, O_FOLA_EXP, O_OKIND, O_OCARDS = (
    OFFSET[k] for k in ("fola_known", "fola_exposed", "offer_kind", "offer_cards")
)
assert O_OCARDS == O_FOLA + C + 7 and O_OKIND == O_FOLA + C + 1
O_TRICK, O_LEADER, O_LED, O_PLAYED = (
    OFFSET[k] for k in ("trick", "trick_leader", "led", "played_by")
)
O_SUITS, O_MOWNER, O_MDEBT, O_MINE, O_THEIRS = (
    OFFSET[k] for k in ("suits_led", "matto_owner", "matto_debt", "pile_mine", "pile_theirs")
)
# The grouped assembly in _deal_bits / _play_bits relies on these contiguous layouts.
assert (O_DISC, O_ROBBED, O_STOP) == (O_HAND + C, O_HAND + 2 * C, O_HAND + 3 * C)
assert (O_DTAKE, O_LEADER, O_LED) == (O_DROB + C, O_TRICK + 4 * C, O_TRICK + 4 * C + 4)
assert (O_SUITS, O_MOWNER, O_MDEBT) == (
    O_PLAYED + 4 * C,
    O_PLAYED + 4 * C + 4,
    O_PLAYED + 4 * C + 8,
)
assert O_THEIRS == O_MINE + C
PLAY_PHASE = 3


def obs_high() -> npt.NDArray[np.float32]:
    """Upper bounds of the observation: 1 except the unbounded score scalars."""
    high = np.ones(OBS_SIZE, np.float32)
    high[OFFSET["d_lead"] : OBS_SIZE] = np.inf
    return high


def encode(v: InfoView, resti_unit: int = 60) -> npt.NDArray[np.float32]:
    """Encode one seat's view (``resti_unit``: the rules' unit, scaling D)."""
    out = np.empty(OBS_SIZE, np.float32)
    out[:N_BINARY] = bits_to_array(_deal_bits(v) | _play_bits(v), N_BINARY)
    sign = 1 if v.seat & 1 == 0 else -1  # D and R favour team A; flip for team B
    d, r, series = sign * v.D, sign * v.R, sign * v.series_resti
    out[N_BINARY:] = (
        v.n_tricks / 21.0,
        max(d, 0) / resti_unit,
        max(-d, 0) / resti_unit,
        max(r, 0) / RESTI_SCALE,
        max(-r, 0) / RESTI_SCALE,
        max(series, 0) / RESTI_SCALE,
        max(-series, 0) / RESTI_SCALE,
    )
    return out


def _deal_bits(v: InfoView) -> int:
    """Blocks phase .. offer_cards. Each group is assembled as a small int relative to its first
    block, then shifted into place once (ORs into the big int are the expensive part)."""
    me = v.seat
    head = 1 << (O_PHASE + v.phase)
    if v.to_play >= 0:
        head |= 1 << (O_TOPLAY + ((v.to_play - me) & 3))
    head |= 1 << (O_DEALER + ((v.dealer - me) & 3)) | 1 << (O_CUTTER + ((v.cutter - me) & 3))
    cards = v.hand | v.discards << C | mask_of(v.robbed) << 2 * C | 1 << (3 * C + v.stop_card)
    faceup = 0
    for seat, card in enumerate(v.faceup):
        if card >= 0:
            faceup |= 1 << (C * ((seat - me) & 3) + card)
    dealer = mask_of(v.dealer_robbed) | v.dealer_taken << C
    declared = 0
    for seat, combo in v.declared:
        declared |= combo.members << (C * ((seat - me) & 3))
    fola = v.fola_known | int(v.fola_exposed) << C
    if v.offered is not None:
        fola |= 1 << (C + 1 + v.offered.kind) | v.offered.members << (C + 7)
    return (
        head
        | cards << O_HAND
        | faceup << O_FACEUP
        | dealer << O_DROB
        | declared << O_DECL
        | fola << O_FOLA
    )


def _play_bits(v: InfoView) -> int:
    """Blocks trick .. pile_theirs, assembled the same way."""
    me, leader = v.seat, v.leader
    trick = 0
    for i, card in enumerate(v.trick):
        trick |= 1 << (C * ((leader + i - me) & 3) + card)
    if v.phase == PLAY_PHASE:
        trick |= 1 << (4 * C + ((leader - me) & 3))
    if v.led >= 0:
        trick |= 1 << (4 * C + 4 + v.led)
    played = 0
    for seat in range(4):
        played |= v.played_by[seat] << (C * ((seat - me) & 3))
    played |= (v.suits_led & 15) << 4 * C
    if v.matto_owner >= 0:
        played |= 1 << (4 * C + 4 + ((v.matto_owner - me) & 3))
    played |= int(v.matto_debt) << (4 * C + 8)
    team = me & 1
    piles = v.piles[team] | v.piles[team ^ 1] << C
    return trick << O_TRICK | played << O_PLAYED | piles << O_MINE

"""Minchiate observation encoding (version 1): ``InfoView`` -> ``float32[OBS_SIZE]``.

Seat-relative and team-aware: every per-seat block is ordered by relative seat (0 = me, 1 = my
right-hand opponent S(p+1), 2 = my partner, 3 = my left-hand opponent), piles are (my team's,
theirs), and the scores are from my team's side. The binary part is assembled as one Python int
and unpacked once; the scalar part follows it. Carries RULES.md D.4's observation list.

Binary blocks (0/1), in order:

==============  =====  ===================================================================
block           size   content
==============  =====  ===================================================================
phase           6      one-hot of ``Phase`` (DISCARD_CUTTER .. DONE)
to_play         4      relative seat on turn (none when over)
dealer          4      relative seat of the dealer
cutter          4      relative seat of the cutter
hand            97     own hand
discards        97     own discards
robbed          97     the cutter's robbed cards (public)
stop_card       97     the card that stopped the robbing (public)
faceup          388    face-up 21st card of each relative seat
dealer_robbed   97     the dealer's robbed cards (public)
dealer_taken    97     the dealer's taken cards (public)
declared        388    cards declared by each relative seat
fola_known      97     Fola cards I know (all once exposed; the dealer's after M-7.3)
fola_exposed    1      the Fola has been turned face up
offer_kind      6      the combination I am offered: type (low run .. kings)
offer_cards     97     its members
trick           388    current trick: the card of each relative seat
trick_leader    4      relative seat leading the current trick (PLAY only)
led             5      led suit of the current trick: c d s b, trumps
played_by       388    cards played so far by each relative seat
suits_led       4      plain suits led in earlier tricks (King rule)
matto_owner     4      relative seat that played the Matto
matto_debt      1      the Matto's team owes a card
pile_mine       97     cards won by my team
pile_theirs     97     cards won by the other team
==============  =====  ===================================================================

Scalars (all >= 0): ``n_tricks/21``; D and R from my team's side, each split into the
positive part and the negative part (``lead``, ``behind``: D / ``resti_unit``, R / 8); in a
series my team's banked resti likewise (``series_ahead``, ``series_behind``, / 8). Upper bounds
are in :func:`obs_high` (D, R and the series parts are unbounded above). ``resti_unit`` is the
view's ``rules.resti_unit``.

``MinchiateEncoder`` (its instance ``ENCODER``) is the game's ``Encoder``: ``encode``,
``encode_into`` and ``encode_batch`` (many views in one unpack, ``mazzo.envs.common.encoder``). The
code here is the reference; where ``_cencode.c`` is built, it writes the same rows
(``mazzo.envs.common.compiled``; this module hands it the layout).

Any change to this layout bumps ``ENCODING_VERSION`` and the env's ``_vN``.

Imports numpy; must not import torch.
"""

from __future__ import annotations

from operator import itemgetter

import numpy as np
import numpy.typing as npt

from mazzo.envs.cards.bits import mask_of
from mazzo.envs.common.compiled import layout_of, load_compiled
from mazzo.envs.common.encoder import BitsEncoder, PackedScalars
from mazzo.envs.common.layout import offsets
from mazzo.envs.minchiate.actions import NUM_ACTIONS
from mazzo.envs.minchiate.view import InfoView

__all__ = [
    "BINARY_LAYOUT",
    "ENCODER",
    "ENCODING_VERSION",
    "OBS_SIZE",
    "SCALAR_LAYOUT",
    "MinchiateEncoder",
    "encode",
    "obs_high",
]

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
TRICKS_SCALE = 21  # n_tricks / 21

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
# The grouped assembly in _bits relies on these contiguous layouts.
assert (O_DISC, O_ROBBED, O_STOP) == (O_HAND + C, O_HAND + 2 * C, O_HAND + 3 * C)
assert (O_DTAKE, O_LEADER, O_LED) == (O_DROB + C, O_TRICK + 4 * C, O_TRICK + 4 * C + 4)
assert (O_SUITS, O_MOWNER, O_MDEBT) == (
    O_PLAYED + 4 * C,
    O_PLAYED + 4 * C + 4,
    O_PLAYED + 4 * C + 8,
)
assert O_THEIRS == O_MINE + C
PLAY_PHASE = 3
# Per observing seat: where each seat's 97-card row starts inside a 4-seat block.
_SEAT_SHIFT = tuple(tuple(C * ((seat - me) & 3) for seat in range(4)) for me in range(4))
_MASKS: dict[tuple[int, ...], int] = {}  # robbed cards -> their mask (see _mask)
# Offsets inside the nested groups of _bits: from O_DECL, O_TRICK and O_PLAYED.
_D_FOLA = O_FOLA - O_DECL
_T_LEADER, _T_LED, _T_PLAYED = O_LEADER - O_TRICK, O_LED - O_TRICK, O_PLAYED - O_TRICK
_P_SUITS, _P_MOWNER, _P_MDEBT = O_SUITS - O_PLAYED, O_MOWNER - O_PLAYED, O_MDEBT - O_PLAYED
_P_MINE = O_MINE - O_PLAYED
assert O_FOLA == O_DECL + 4 * C
# The setup blocks of a view (see _setup_bits), per (seat, stop, taken, ids of its tuples).
_SETUP: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]] = {}
_SETUP_CAP = 1 << 12
# The view's fields in the order ``_bits`` unpacks them (a changed ``InfoView`` fails here).
_VIEW_FIELDS = (
    "seat", "phase", "to_play", "dealer", "cutter", "n_tricks", "hand", "robbed", "stop_card",
    "faceup", "dealer_robbed", "dealer_taken", "discards", "fola_known", "fola_exposed",
    "declared", "offered", "trick", "leader", "led", "played_by", "suits_led", "tricks", "piles",
    "matto_owner", "matto_debt", "D", "R", "events", "legal_mask", "void", "returns",
    "hand_sizes", "rules", "series_resti", "deals_done",
)  # fmt: skip
assert InfoView._fields == _VIEW_FIELDS, "update _VIEW_FIELDS and _bits with the view"
assert O_PLAYED == O_TRICK + 4 * C + 9 and O_MINE == O_PLAYED + 4 * C + 9


def obs_high() -> npt.NDArray[np.float32]:
    """Upper bounds of the observation: 1 except the unbounded score scalars."""
    high = np.ones(OBS_SIZE, np.float32)
    high[OFFSET["d_lead"] : OBS_SIZE] = np.inf
    return high


def _scalar_bytes(v: InfoView) -> bytes:
    """``_scalars(v)`` as float32 bytes, remembered per (team, D, R, series resti, n_tricks,
    resti unit)."""
    key = (v.seat & 1, v.D, v.R, v.series_resti, v.n_tricks, v.rules.resti_unit)
    return _SCALARS.get(key) or _SCALARS.store(key, v)


def _scalars(v: InfoView) -> tuple[float, ...]:
    unit = v.rules.resti_unit
    sign = 1 if v.seat & 1 == 0 else -1  # D and R favour team A; flip for team B
    d, r, series = sign * v.D, sign * v.R, sign * v.series_resti
    # (max(x, 0) / scale, max(-x, 0) / scale) for each, without the max calls.
    return (
        v.n_tricks / TRICKS_SCALE,
        d / unit if d > 0 else 0.0,
        -d / unit if d < 0 else 0.0,
        r / RESTI_SCALE if r > 0 else 0.0,
        -r / RESTI_SCALE if r < 0 else 0.0,
        series / RESTI_SCALE if series > 0 else 0.0,
        -series / RESTI_SCALE if series < 0 else 0.0,
    )


_SCALARS: PackedScalars[InfoView] = PackedScalars(_scalars, OBS_SIZE - N_BINARY, 1 << 14)


def _bits(v: InfoView) -> int:
    """The binary part as one int (bit i = entry i). The view is unpacked once into locals
    (``_VIEW_FIELDS`` pins the order). Blocks phase .. offer_cards: each group is assembled as
    a small int relative to its first block, then shifted into place once (ORs into the big
    int are the expensive part); the blocks fixed by the deal's setup come from
    ``_setup_bits``."""
    (me, phase, to_play, dealer, cutter, _, hand, robbed, stop_card, faceup, dealer_robbed,
     dealer_taken, discards, fola_known, fola_exposed, declared, offered, trick, leader, led,
     pb, suits_led, _, piles, matto_owner, matto_debt, _, _, _, _, _, _, _, _, _,
     _) = v  # fmt: skip
    head = 1 << (O_PHASE + phase)
    if to_play >= 0:
        head |= 1 << (O_TOPLAY + ((to_play - me) & 3))
    head |= 1 << (O_DEALER + ((dealer - me) & 3)) | 1 << (O_CUTTER + ((cutter - me) & 3))
    key = (me, stop_card, dealer_taken, id(robbed), id(faceup), id(dealer_robbed))
    got = _SETUP.get(key)
    if got is None or got[0] is not robbed or got[1] is not faceup or got[2] is not dealer_robbed:
        got = _setup_bits(v, key)
    decl = 0  # declared .. offer_cards, relative to O_DECL
    if declared:
        shift = _SEAT_SHIFT[me]
        for seat, combo in declared:
            decl |= combo.members << shift[seat]
    fola = fola_known | int(fola_exposed) << C
    if offered is not None:
        fola |= 1 << (C + 1 + offered.kind) | offered.members << (C + 7)
    bits = head | (hand | discards << C) << O_HAND | got[3] | (decl | fola << _D_FOLA) << O_DECL
    # Blocks trick .. pile_theirs in two nested groups (trick .. led relative to O_TRICK,
    # played_by .. pile_theirs relative to O_PLAYED), so most ORs work on small ints.
    rel = _SEAT_SHIFT[me]
    played = pb[0] << rel[0] | pb[1] << rel[1] | pb[2] << rel[2] | pb[3] << rel[3]
    played |= (suits_led & 15) << _P_SUITS | int(matto_debt) << _P_MDEBT
    if matto_owner >= 0:
        played |= 1 << (_P_MOWNER + ((matto_owner - me) & 3))
    team = me & 1
    played |= (piles[team] | piles[team ^ 1] << C) << _P_MINE
    tr = 0
    if trick:
        for i, card in enumerate(trick):
            tr |= 1 << (rel[(leader + i) & 3] + card)
    if phase == PLAY_PHASE:
        tr |= 1 << (_T_LEADER + ((leader - me) & 3))
    if led >= 0:
        tr |= 1 << (_T_LED + led)
    return bits | (tr | played << _T_PLAYED) << O_TRICK


def _setup_bits(
    v: InfoView, key: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """Blocks robbed, stop_card, faceup, dealer_robbed and dealer_taken (fixed all deal long,
    in place), remembered under ``key`` with the tuples they came from (kept alive there, so
    their ids stay theirs while remembered)."""
    shift = _SEAT_SHIFT[v.seat]
    faceup = 0
    for seat, card in enumerate(v.faceup):
        if card >= 0:
            faceup |= 1 << (shift[seat] + card)
    bits = (_mask(v.robbed) << 2 * C | 1 << (3 * C + v.stop_card)) << O_HAND
    bits |= faceup << O_FACEUP | (_mask(v.dealer_robbed) | v.dealer_taken << C) << O_DROB
    if len(_SETUP) >= _SETUP_CAP:
        _SETUP.clear()
    got = _SETUP[key] = (v.robbed, v.faceup, v.dealer_robbed, bits)
    return got


def _mask(cards: tuple[int, ...]) -> int:
    """``mask_of(cards)``, remembered: the robbed cards stay the same all deal long."""
    got = _MASKS.get(cards)
    if got is None:
        if len(_MASKS) >= 1 << 12:
            _MASKS.clear()
        got = _MASKS[cards] = mask_of(cards)
    return got


# What the compiled encoder (_cencode.c) is told: the offsets, constants and field positions.
_LAYOUT = layout_of(
    globals(), _VIEW_FIELDS, ("C", "PLAY_PHASE", "TRICKS_SCALE"), RESTI_SCALE=int(RESTI_SCALE)
)
assert _LAYOUT["RESTI_SCALE"] == RESTI_SCALE, "the compiled encoder takes an int resti scale"


class MinchiateEncoder(BitsEncoder[InfoView]):
    """Minchiate's ``Encoder`` (``mazzo.envs.protocols``): D is scaled by the resti unit of the
    view's rules (``view.rules.resti_unit``)."""

    version = ENCODING_VERSION
    obs_size = OBS_SIZE
    num_actions = NUM_ACTIONS
    n_binary = N_BINARY

    def obs_high(self) -> npt.NDArray[np.float32]:
        return obs_high()

    # The module functions themselves (no extra call per view on the hot path).
    bits = staticmethod(_bits)
    scalars = staticmethod(_scalars)
    scalar_bytes = staticmethod(_scalar_bytes)
    legal_of = itemgetter(_VIEW_FIELDS.index("legal_mask"))
    compiled = load_compiled("mazzo.envs.minchiate._cencode", _LAYOUT)


ENCODER = MinchiateEncoder()


def encode(v: InfoView) -> npt.NDArray[np.float32]:
    """Encode one seat's view (a fresh row; D scaled by ``v.rules.resti_unit``)."""
    return ENCODER.encode(v)

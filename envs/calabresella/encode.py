"""Calabresella observation encoding (version 1): ``InfoView`` -> ``float32[OBS_SIZE]``.

Seat-relative: every per-position block is ordered (me, next active, previous active), where "me"
is the position the view speaks for (the eldest's frame for the idle dealer with 4 players).
The binary part is assembled as one Python int and unpacked once; the scalar part follows it.

Binary blocks (0/1), in order:

==================  =====  =================================================================
block               size   content
==================  =====  =================================================================
phase               9      one-hot of ``Phase`` (BID .. DONE)
my_position         4      A0, A1, A2 (relative to the dealer), idle dealer
to_play             3      relative position on turn
role                3      I am soloist / D1 / D2
hand                40     own hand
partner_hand        40     the other defender's hand when visible (aperta, a due)
bids                18     last bid of each relative position: pass + 5 contracts
high_bid            5      highest contract bid so far
no_chiamo           1      this deal forbids Chiamo
contract            5      contract being played
soloist             3      relative position of the soloist
called              40     the called card (Chiamo)
giver               5      who gave it: relative position, monte, own
returned            40     the card the soloist returned (if I may know it)
known_monte         40     monte cards I have seen
discards            40     my own discards
split_d1            40     monte cards D1 took (scegliete, public)
split_d2            40     monte cards D2 took
trick               120    current trick: the card of each relative position
trick_leader        3      relative position leading the current trick
played_by           120    cards played so far by each relative position
void                12     suits each relative position has shown void in
pile_soloist        40     cards won by the soloist side
pile_defenders      40     cards won by the defenders
==================  =====  =================================================================

Scalars: ``n_tricks/12``, thirds won by soloist side and defenders ``/32``, tricks won by each
side ``/12``, and the match totals of the seats in relative seat order ``/target`` (4 slots,
unused ones 0; ``target`` is the view's ``rules.target``).

``CalabresellaEncoder`` (its instance ``ENCODER``) is the game's ``Encoder``: ``encode``,
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

from mazzo.envs.calabresella.actions import BID_BASE, NUM_ACTIONS, PASS, Phase
from mazzo.envs.calabresella.kernel import ACES, COUNTERS
from mazzo.envs.calabresella.state import GIVER_MONTE
from mazzo.envs.calabresella.view import InfoView
from mazzo.envs.common.compiled import layout_of, load_compiled
from mazzo.envs.common.encoder import BitsEncoder, PackedScalars
from mazzo.envs.common.layout import offsets

__all__ = [
    "BINARY_LAYOUT",
    "ENCODER",
    "ENCODING_VERSION",
    "OBS_SIZE",
    "SCALAR_LAYOUT",
    "CalabresellaEncoder",
    "encode",
    "obs_high",
]

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
PLAY_PHASE = int(Phase.PLAY)
TRICKS_SCALE = 12  # n_tricks and tricks_won / 12
THIRDS_SCALE = 32  # a pile's thirds / 32

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
# Offsets inside the groups of _bits: called .. split_d2 from O_CALLED, trick .. from O_TRICK.
_M_GIVER, _M_RETURNED, _M_MONTE = O_GIVER - O_CALLED, O_RETURNED - O_CALLED, O_MONTE - O_CALLED
_M_DISC, _M_SPLIT1, _M_SPLIT2 = O_DISC - O_CALLED, O_SPLIT1 - O_CALLED, O_SPLIT2 - O_CALLED
_P_LEADER, _P_PLAYED, _P_VOID = O_LEADER - O_TRICK, O_PLAYED - O_TRICK, O_VOID - O_TRICK
_P_PILES = O_PILE_S - O_TRICK
_P_PILES_D = _P_PILES + 40
# Per frame ``me``: where each position's played_by / void row starts (relative to O_TRICK), and
# per (me, leader) where the k-th card of the trick goes.
_PLAYED_SHIFT = tuple(tuple(_P_PLAYED + 40 * r for r in rel) for rel in _REL)
_VOID_SHIFT = tuple(tuple(_P_VOID + 4 * r for r in rel) for rel in _REL)
_TRICK_SHIFT = tuple(
    tuple(tuple(40 * rel[(leader + k) % 3] for k in range(3)) for leader in range(3))
    for rel in _REL
)
assert O_PILE_D == O_PILE_S + 40 and O_TRICK == O_SPLIT2 + 40 and O_CALLED == O_SOLO + 3
# Auction bits per (bids, me, no_chiamo, contract): the auction is short and repeats.
_AUCTION: dict[tuple[tuple[tuple[int, int], ...], int, bool, int], int] = {}
_AUCTION_CAP = 1 << 16
_NO_TOTALS = (0.0, 0.0, 0.0, 0.0)
# The view's fields in the order ``_bits`` unpacks them (a changed ``InfoView`` fails here).
_VIEW_FIELDS = (
    "seat", "position", "n_players", "dealer", "seat_of", "phase", "to_play", "legal_mask",
    "hand", "partner_hand", "bids", "no_chiamo", "contract", "soloist", "called", "giver",
    "returned", "known_monte", "discards", "split_d1", "split_d2", "trick", "leader",
    "played_by", "void", "piles", "tricks_won", "n_tricks", "tricks", "position_tricks",
    "totals", "hand_sizes", "received", "rules",
)  # fmt: skip
assert InfoView._fields == _VIEW_FIELDS, "update _VIEW_FIELDS and _bits with the view"


def obs_high() -> npt.NDArray[np.float32]:
    """Upper bounds of the observation (1 everywhere except the unbounded match totals)."""
    high = np.ones(OBS_SIZE, np.float32)
    high[OFFSET["totals"] : OFFSET["totals"] + 4] = np.inf
    return high


def _bits(v: InfoView) -> int:
    """The binary part as one int (bit i = entry i), in three groups (head .. soloist, called ..
    split_d2, trick .. pile_defenders), each assembled as a small int relative to its first
    block and shifted into place once (ORs into the big int are the expensive part). The view
    is unpacked once into locals (cheaper than 20 attribute reads; ``_VIEW_FIELDS`` pins the
    order)."""
    (_, pos, _, _, _, phase, to_play, _, hand, partner_hand, bids, no_chiamo, contract, soloist,
     called, giver, returned, known_monte, discards, split_d1, split_d2, trick, leader, played,
     void, piles, _, _, _, _, _, _, _, _) = v  # fmt: skip
    me = pos if pos >= 0 else 0
    rel = _REL[me]
    head = 1 << (O_PHASE + phase) | hand << O_HAND | partner_hand << O_PARTNER
    head |= 1 << (O_MYPOS + (pos if pos >= 0 else 3))
    if to_play >= 0:
        head |= 1 << (O_TOPLAY + rel[to_play])
    if bids:
        key = (bids, me, no_chiamo, contract)
        auction = _AUCTION.get(key)
        if auction is None:
            auction = _auction_bits(v, rel)
            if len(_AUCTION) >= _AUCTION_CAP:
                _AUCTION.clear()
            _AUCTION[key] = auction
        head |= auction
    if soloist >= 0:
        head |= 1 << (O_SOLO + rel[soloist])
        if pos >= 0:
            head |= 1 << (O_ROLE + (pos - soloist) % 3)
    mid = known_monte << _M_MONTE | discards << _M_DISC
    mid |= split_d1 << _M_SPLIT1 | split_d2 << _M_SPLIT2
    if called >= 0:
        giver = rel[giver] if giver >= 0 else 3 if giver == GIVER_MONTE else 4
        mid |= 1 << called | 1 << (_M_GIVER + giver)
    if returned >= 0:
        mid |= 1 << (_M_RETURNED + returned)
    # Blocks trick .. pile_defenders, relative to O_TRICK (each block shifted straight to its
    # place by the per-frame tables above).
    ps, vs = _PLAYED_SHIFT[me], _VOID_SHIFT[me]
    play = piles[0] << _P_PILES | piles[1] << _P_PILES_D
    play |= void[0] << vs[0] | void[1] << vs[1] | void[2] << vs[2]
    play |= played[0] << ps[0] | played[1] << ps[1] | played[2] << ps[2]
    if trick:
        ts = _TRICK_SHIFT[me][leader]
        for i, card in enumerate(trick):
            play |= 1 << (ts[i] + card)
    if phase == PLAY_PHASE:  # the leader of the trick in progress
        play |= 1 << (_P_LEADER + rel[leader])
    return head | mid << O_CALLED | play << O_TRICK


def _scalars(v: InfoView) -> tuple[float, ...]:
    p0, p1 = v.piles
    w0, w1 = v.tricks_won
    head = (
        v.n_tricks / TRICKS_SCALE,
        (3 * (p0 & ACES).bit_count() + (p0 & COUNTERS).bit_count()) / THIRDS_SCALE,  # thirds
        (3 * (p1 & ACES).bit_count() + (p1 & COUNTERS).bit_count()) / THIRDS_SCALE,
        w0 / TRICKS_SCALE,
        w1 / TRICKS_SCALE,
    )
    totals = v.totals
    if not any(totals):  # outside a match
        return head + _NO_TOTALS
    n, seat, target = v.n_players, v.seat, v.rules.target
    return (
        *head,
        totals[seat] / target,
        totals[(seat + 1) % n] / target,
        totals[(seat + 2) % n] / target if n > 2 else 0.0,
        totals[(seat + 3) % n] / target if n > 3 else 0.0,
    )


# Packed scalars outside a match, per (n_tricks, pile thirds, tricks won): a few thousand
# values, shared by every deal.
_SCALARS: PackedScalars[InfoView] = PackedScalars(_scalars, OBS_SIZE - N_BINARY, 1 << 14)


def _scalar_bytes(v: InfoView) -> bytes:
    """``_scalars(v)`` as float32 bytes, remembered outside a match (the totals all zero)."""
    if any(v.totals):
        return _SCALARS.pack(v)
    p0, p1 = v.piles
    w0, w1 = v.tricks_won
    t0 = 3 * (p0 & ACES).bit_count() + (p0 & COUNTERS).bit_count()
    t1 = 3 * (p1 & ACES).bit_count() + (p1 & COUNTERS).bit_count()
    key = (v.n_tricks, t0, t1, w0, w1)
    return _SCALARS.get(key) or _SCALARS.store(key, v)


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


# What the compiled encoder (_cencode.c) is told: the offsets, constants and field positions.
_LAYOUT = layout_of(
    globals(),
    _VIEW_FIELDS,
    ("PLAY_PHASE", "PASS", "BID_BASE", "GIVER_MONTE", "ACES", "COUNTERS", "TRICKS_SCALE",
     "THIRDS_SCALE"),
)  # fmt: skip


class CalabresellaEncoder(BitsEncoder[InfoView]):
    """Calabresella's ``Encoder`` (``mazzo.envs.protocols``): the totals are scaled by the match
    target of the view's rules (``view.rules.target``)."""

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
    compiled = load_compiled("mazzo.envs.calabresella._cencode", _LAYOUT)


ENCODER = CalabresellaEncoder()


def encode(v: InfoView) -> npt.NDArray[np.float32]:
    """Encode one view (a fresh row; the totals scaled by ``v.rules.target``)."""
    return ENCODER.encode(v)

"""An independent implementation of observation encoding version 1, written from
docs/encoding.md alone (not from the encoders): what a JS or C# front end does to build a policy's
inputs.

It reads the fields of a game's ``InfoView`` and the public card table (the deck's card codes),
and writes each element the way the document says, one block at a time into a float32 array, in
plain Python and numpy. It imports no encoder function; ``test_encoding_spec`` checks it bit for
bit against ``game.encoder(rules).encode(view)``.

Imports numpy; must not import torch nor any ``mazzo.envs.<game>.encode`` module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "CALABRESELLA_LAYOUT",
    "MINCHIATE_LAYOUT",
    "calabresella_mask",
    "calabresella_obs",
    "minchiate_mask",
    "minchiate_obs",
]

Row = npt.NDArray[np.float32]

# docs/encoding.md 2.5 and 3.5: (block, offset, size).
CALABRESELLA_LAYOUT: tuple[tuple[str, int, int], ...] = (
    ("phase", 0, 9), ("my_position", 9, 4), ("to_play", 13, 3), ("role", 16, 3),
    ("hand", 19, 40), ("partner_hand", 59, 40), ("bids", 99, 18), ("high_bid", 117, 5),
    ("no_chiamo", 122, 1), ("contract", 123, 5), ("soloist", 128, 3), ("called", 131, 40),
    ("giver", 171, 5), ("returned", 176, 40), ("known_monte", 216, 40), ("discards", 256, 40),
    ("split_d1", 296, 40), ("split_d2", 336, 40), ("trick", 376, 120),
    ("trick_leader", 496, 3), ("played_by", 499, 120), ("void", 619, 12),
    ("pile_soloist", 631, 40), ("pile_defenders", 671, 40), ("n_tricks", 711, 1),
    ("thirds", 712, 2), ("tricks_won", 714, 2), ("totals", 716, 4),
)  # fmt: skip
MINCHIATE_LAYOUT: tuple[tuple[str, int, int], ...] = (
    ("phase", 0, 6), ("to_play", 6, 4), ("dealer", 10, 4), ("cutter", 14, 4),
    ("hand", 18, 97), ("discards", 115, 97), ("robbed", 212, 97), ("stop_card", 309, 97),
    ("faceup", 406, 388), ("dealer_robbed", 794, 97), ("dealer_taken", 891, 97),
    ("declared", 988, 388), ("fola_known", 1376, 97), ("fola_exposed", 1473, 1),
    ("offer_kind", 1474, 6), ("offer_cards", 1480, 97), ("trick", 1577, 388),
    ("trick_leader", 1965, 4), ("led", 1969, 5), ("played_by", 1974, 388),
    ("suits_led", 2362, 4), ("matto_owner", 2366, 4), ("matto_debt", 2370, 1),
    ("pile_mine", 2371, 97), ("pile_theirs", 2468, 97), ("n_tricks", 2565, 1),
    ("d_lead", 2566, 1), ("d_behind", 2567, 1), ("r_ahead", 2568, 1), ("r_behind", 2569, 1),
    ("series_ahead", 2570, 1), ("series_behind", 2571, 1),
)  # fmt: skip
_CA = {name: offset for name, offset, _ in CALABRESELLA_LAYOUT}
_MI = {name: offset for name, offset, _ in MINCHIATE_LAYOUT}
CA_SIZE, CA_ACTIONS, CA_CARDS = 720, 62, 40
MI_SIZE, MI_ACTIONS, MI_CARDS = 2572, 99, 97
PASS, BID_BASE = 40, 41  # 2.2
GIVER_MONTE, GIVER_OWN = -1, -2  # 2.4
CA_PLAY, MI_PLAY = 7, 3  # phase indices (2.2, 3.2)
RESTI_SCALE = 8  # 3.5


def _f32(numerator: float, denominator: float) -> float:
    """One division in double precision, rounded once to float32 (section 1)."""
    return float(np.float32(numerator / denominator))


def _cards(row: Row, offset: int, cards: int | Iterable[int], n_cards: int) -> None:
    """Write a card set (a bitmask: bit c = card c, or an iterable of card indices) at
    ``offset``: element ``offset + c`` is 1 for each card c of the set (section 1)."""
    if isinstance(cards, int):
        raw = np.frombuffer(cards.to_bytes((n_cards + 7) // 8, "little"), np.uint8)
        bits = np.unpackbits(raw, bitorder="little")[:n_cards]
        row[offset : offset + n_cards] = np.maximum(row[offset : offset + n_cards], bits)
    else:
        for c in cards:
            row[offset + c] = 1.0


def _one_hot(row: Row, offset: int, x: int) -> None:
    if x >= 0:
        row[offset + x] = 1.0


def _mask(legal: int, n: int) -> npt.NDArray[np.int8]:
    """Section 2.6 / 3.6: element i = bit i of the legal-action bitmask."""
    return np.array([(legal >> i) & 1 for i in range(n)], dtype=np.int8)


# ----------------------------------------------------------------------------- Calabresella
def _thirds(pile: int, labels: tuple[str, ...]) -> int:
    """2.5: 3 per ace, 1 per 2, 3, J, N, K (read from the card codes, 2.1)."""
    value = {"A": 3, "2": 1, "3": 1, "J": 1, "N": 1, "K": 1}
    return sum(value.get(labels[c][0], 0) for c in range(CA_CARDS) if (pile >> c) & 1)


def calabresella_obs(v: Any, labels: tuple[str, ...]) -> Row:
    """docs/encoding.md section 2: the observation of a Calabresella ``InfoView``; ``labels``
    is the deck's card codes in index order."""
    row = np.zeros(CA_SIZE, np.float32)
    me: int = v.position
    me0 = me if me >= 0 else 0

    def rel(p: int) -> int:
        return (p - me0) % 3

    _one_hot(row, _CA["phase"], int(v.phase))
    row[_CA["my_position"] + (me if me >= 0 else 3)] = 1.0
    if v.to_play >= 0:
        _one_hot(row, _CA["to_play"], rel(v.to_play))
    if v.soloist >= 0 and me >= 0:
        _one_hot(row, _CA["role"], (me - v.soloist) % 3)
    _cards(row, _CA["hand"], v.hand, CA_CARDS)
    _cards(row, _CA["partner_hand"], v.partner_hand, CA_CARDS)
    if v.bids:
        _auction(row, v, rel)
    if v.soloist >= 0:
        _one_hot(row, _CA["soloist"], rel(v.soloist))
    if v.called >= 0:
        _one_hot(row, _CA["called"], v.called)
        g = v.giver
        _one_hot(row, _CA["giver"], rel(g) if g >= 0 else 3 if g == GIVER_MONTE else 4)
    _one_hot(row, _CA["returned"], v.returned)
    for name, cards in (
        ("known_monte", v.known_monte),
        ("discards", v.discards),
        ("split_d1", v.split_d1),
        ("split_d2", v.split_d2),
        ("pile_soloist", v.piles[0]),
        ("pile_defenders", v.piles[1]),
    ):
        _cards(row, _CA[name], cards, CA_CARDS)
    _calabresella_play(row, v, rel)
    _calabresella_scalars(row, v, labels)
    return row


def _auction(row: Row, v: Any, rel: Any) -> None:
    """Blocks bids, high_bid, no_chiamo, contract (written only when ``bids`` is not empty)."""
    last: dict[int, int] = {}
    high = -1
    for pos, action in v.bids:
        last[pos] = action
        if action != PASS:
            high = action - BID_BASE
    for pos, action in last.items():
        j = 0 if action == PASS else 1 + action - BID_BASE
        row[_CA["bids"] + 6 * rel(pos) + j] = 1.0
    _one_hot(row, _CA["high_bid"], high)
    if v.no_chiamo:
        row[_CA["no_chiamo"]] = 1.0
    _one_hot(row, _CA["contract"], v.contract)


def _calabresella_play(row: Row, v: Any, rel: Any) -> None:
    """Blocks trick, trick_leader, played_by, void."""
    for k, card in enumerate(v.trick):
        row[_CA["trick"] + CA_CARDS * rel((v.leader + k) % 3) + card] = 1.0
    if int(v.phase) == CA_PLAY:
        _one_hot(row, _CA["trick_leader"], rel(v.leader))
    for p in range(3):
        _cards(row, _CA["played_by"] + CA_CARDS * rel(p), v.played_by[p], CA_CARDS)
        for s in range(4):
            if (v.void[p] >> s) & 1:
                row[_CA["void"] + 4 * rel(p) + s] = 1.0


def _calabresella_scalars(row: Row, v: Any, labels: tuple[str, ...]) -> None:
    row[_CA["n_tricks"]] = _f32(v.n_tricks, 12)
    row[_CA["thirds"]] = _f32(_thirds(v.piles[0], labels), 32)
    row[_CA["thirds"] + 1] = _f32(_thirds(v.piles[1], labels), 32)
    row[_CA["tricks_won"]] = _f32(v.tricks_won[0], 12)
    row[_CA["tricks_won"] + 1] = _f32(v.tricks_won[1], 12)
    n, target = v.n_players, v.rules.target
    for k in range(n):
        row[_CA["totals"] + k] = _f32(v.totals[(v.seat + k) % n], target)


def calabresella_mask(v: Any) -> npt.NDArray[np.int8]:
    """docs/encoding.md 2.6."""
    return _mask(v.legal_mask, CA_ACTIONS)


# -------------------------------------------------------------------------------- Minchiate
def minchiate_obs(v: Any) -> Row:
    """docs/encoding.md section 3: the observation of a Minchiate ``InfoView``."""
    row = np.zeros(MI_SIZE, np.float32)
    me: int = v.seat

    def rel(s: int) -> int:
        return (s - me) % 4

    _one_hot(row, _MI["phase"], int(v.phase))
    if v.to_play >= 0:
        _one_hot(row, _MI["to_play"], rel(v.to_play))
    _one_hot(row, _MI["dealer"], rel(v.dealer))
    _one_hot(row, _MI["cutter"], rel(v.cutter))
    for name, cards in (
        ("hand", v.hand),
        ("discards", v.discards),
        ("robbed", v.robbed),
        ("dealer_robbed", v.dealer_robbed),
        ("dealer_taken", v.dealer_taken),
        ("fola_known", v.fola_known),
        ("pile_mine", v.piles[me % 2]),
        ("pile_theirs", v.piles[1 - me % 2]),
    ):
        _cards(row, _MI[name], cards, MI_CARDS)
    _one_hot(row, _MI["stop_card"], v.stop_card)
    for s, card in enumerate(v.faceup):
        if card >= 0:
            row[_MI["faceup"] + MI_CARDS * rel(s) + card] = 1.0
    for s, combo in v.declared:
        _cards(row, _MI["declared"] + MI_CARDS * rel(s), combo.members, MI_CARDS)
    row[_MI["fola_exposed"]] = float(bool(v.fola_exposed))
    if v.offered is not None:
        _one_hot(row, _MI["offer_kind"], v.offered.kind)
        _cards(row, _MI["offer_cards"], v.offered.members, MI_CARDS)
    _minchiate_play(row, v, rel)
    _minchiate_scalars(row, v)
    return row


def _minchiate_play(row: Row, v: Any, rel: Any) -> None:
    """Blocks trick .. matto_debt."""
    for k, card in enumerate(v.trick):
        row[_MI["trick"] + MI_CARDS * rel((v.leader + k) % 4) + card] = 1.0
    if int(v.phase) == MI_PLAY:
        _one_hot(row, _MI["trick_leader"], rel(v.leader))
    _one_hot(row, _MI["led"], v.led)
    for s in range(4):
        _cards(row, _MI["played_by"] + MI_CARDS * rel(s), v.played_by[s], MI_CARDS)
        row[_MI["suits_led"] + s] = float((v.suits_led >> s) & 1)
    if v.matto_owner >= 0:
        _one_hot(row, _MI["matto_owner"], rel(v.matto_owner))
    row[_MI["matto_debt"]] = float(bool(v.matto_debt))


def _minchiate_scalars(row: Row, v: Any) -> None:
    sign = 1 if v.seat % 2 == 0 else -1
    d, r, t = sign * v.D, sign * v.R, sign * v.series_resti
    unit = v.rules.resti_unit
    row[_MI["n_tricks"]] = _f32(v.n_tricks, 21)
    row[_MI["d_lead"]] = _f32(max(d, 0), unit)
    row[_MI["d_behind"]] = _f32(max(-d, 0), unit)
    row[_MI["r_ahead"]] = _f32(max(r, 0), RESTI_SCALE)
    row[_MI["r_behind"]] = _f32(max(-r, 0), RESTI_SCALE)
    row[_MI["series_ahead"]] = _f32(max(t, 0), RESTI_SCALE)
    row[_MI["series_behind"]] = _f32(max(-t, 0), RESTI_SCALE)


def minchiate_mask(v: Any) -> npt.NDArray[np.int8]:
    """docs/encoding.md 3.6."""
    return _mask(v.legal_mask, MI_ACTIONS)

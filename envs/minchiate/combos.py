"""Versicole: enumeration and scoring of the Minchiate combinations (RULES.md M-9, MA-12 to
MA-16), table-driven.

A combination is ``Combo(kind, members, points, bonus)``: ``members`` is a card bitmask, ``points``
the sum of the members' values with T29 counted as 5 (M-9.3), ``bonus`` the Matto bonus (M-9.4),
and ``score = points + bonus``. The same enumeration serves the declarations (the holder is a
player's hand) and the end-of-deal recount (the holder is a team's pile).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from typing import NamedTuple

from mazzo.envs.minchiate.tables import ALL_KINGS, BIT, LABELS, MATTO_BIT, T29, VALUE

__all__ = [
    "COMBO_NAMES",
    "COMBO_VALUE",
    "DIECINE",
    "HIGH_RUN",
    "KINGS",
    "LOW_RUN",
    "ONE_13_28",
    "ONE_40_M",
    "Combo",
    "combo_label",
    "find_combos",
]

# Combination type ids (D.4), in the canonical enumeration order of M-9.7.
LOW_RUN, HIGH_RUN, ONE_13_28, DIECINE, ONE_40_M, KINGS = range(6)
COMBO_NAMES = ("low run", "high run", "1-13-28", "diecine", "1-40-M", "kings")
MATTO_BONUS = 5


class Combo(NamedTuple):
    """One combination found in a holder (hand or pile)."""

    kind: int
    members: int
    points: int
    bonus: int

    @property
    def score(self) -> int:
        """Points plus the Matto bonus."""
        return self.points + self.bonus


def _cval(card: int) -> int:
    """Value of a card inside a combination: T29 counts 5 (M-3.2)."""
    return 5 if card == T29 else VALUE[card]


COMBO_VALUE = tuple(_cval(c) for c in range(97))  # per card id, T29 = 5


def _runs(first: int, width: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """RUNS[m]: the maximal runs of length >= 3 among trumps ``first .. first+width-1`` whose
    bits (relative to ``first``) are set in ``m``, as (members bitmask, points), ascending."""
    table = []
    for m in range(1 << width):
        runs = []
        i = 0
        while i < width:
            if not (m >> i) & 1:
                i += 1
                continue
            j = i
            while j < width and (m >> j) & 1:
                j += 1
            if j - i >= 3:
                cards = range(first + i, first + j)
                runs.append((sum(BIT[c] for c in cards), sum(_cval(c) for c in cards)))
            i = j
        table.append(tuple(runs))
    return tuple(table)


_LOW_RUNS = _runs(0, 5)  # T1..T5
_HIGH_RUNS = _runs(27, 13)  # T28..T40
_T1, _T10, _T13, _T20, _T28, _T30, _T40 = (BIT[n - 1] for n in (1, 10, 13, 20, 28, 30, 40))
_ONE_13_28 = _T1 | _T13 | _T28
_ONE_40_M = _T1 | _T40 | MATTO_BIT
_D4 = _T10 | _T20 | _T30 | _T40
_D_LOW = _T10 | _T20 | _T30
_D_HIGH = _T20 | _T30 | _T40
_POINTS = {
    mask: sum(_cval(c) for c in range(97) if (mask >> c) & 1)
    for mask in (_ONE_13_28, _ONE_40_M, _D4, _D_LOW, _D_HIGH)
}


def _diecine(holder: int, mode: str) -> list[tuple[int, int]]:
    """The diecine in ``holder`` under flag ``diecine`` (M-9.2 d, MA-12)."""
    d = holder & _D4
    if d.bit_count() < 3:
        return []
    if mode == "any_three":
        return [(d, sum(_cval(c) for c in range(0, 40) if (d >> c) & 1))]
    if mode == "merge_four" and d == _D4:
        return [(_D4, _POINTS[_D4])]
    out = []
    if d & _D_LOW == _D_LOW:
        out.append((_D_LOW, _POINTS[_D_LOW]))
    if d & _D_HIGH == _D_HIGH:
        out.append((_D_HIGH, _POINTS[_D_HIGH]))
    return out


def find_combos(
    holder: int, diecine: str = "merge_four", matto_bonus: bool = True, bonus_own: bool = False
) -> tuple[Combo, ...]:
    """Every combination in ``holder`` (a card bitmask), in M-9.7 canonical order.

    Args:
        holder: the hand (declarations) or team pile (end count).
        diecine: flag ``diecine`` (``merge_four``, ``two_triples`` or ``any_three``).
        matto_bonus: apply M-9.4 when the holder holds the Matto (declarations always; the end
            count per flag ``matto_bonus_at_end``).
        bonus_own: flag ``matto_bonus_in_own_combo`` (1-40-M gets the bonus too).
    """
    found: list[tuple[int, int, int]] = [
        (LOW_RUN, m, p) for m, p in _LOW_RUNS[holder & 0x1F]
    ]  # fmt: skip
    found += [(HIGH_RUN, m, p) for m, p in _HIGH_RUNS[(holder >> 27) & 0x1FFF]]
    if holder & _ONE_13_28 == _ONE_13_28:
        found.append((ONE_13_28, _ONE_13_28, _POINTS[_ONE_13_28]))
    if holder & _D4:
        found += [(DIECINE, m, p) for m, p in _diecine(holder, diecine)]
    if holder & _ONE_40_M == _ONE_40_M:
        found.append((ONE_40_M, _ONE_40_M, _POINTS[_ONE_40_M]))
    kings = holder & ALL_KINGS
    if kings.bit_count() >= 3:
        found.append((KINGS, kings, 5 * kings.bit_count()))
    has_matto = matto_bonus and holder & MATTO_BIT
    return tuple(
        Combo(k, m, p, MATTO_BONUS if has_matto and (bonus_own or not m & MATTO_BIT) else 0)
        for k, m, p in found
    )


def combo_label(combo: Combo) -> str:
    """Human-readable ``kind [members] = score`` (logs only)."""
    cards = " ".join(LABELS[c] for c in range(97) if (combo.members >> c) & 1)
    return f"{COMBO_NAMES[combo.kind]} [{cards}] = {combo.score}"

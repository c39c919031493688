"""The start of a Minchiate seat tracker: ``deal.private`` read and checked, and streams built
from it (the cut, the deal and the dealer's robbing run backwards) whose deal gives the seat
exactly that private setup.

``deal.private``: ``{"hand": [codes], "robbed": [codes], "stop": code, "faceup": [code | null
x 4], "dealer_robbed": [codes], "dealer_taken": [codes], "fola": [codes]}``: the seat's hand
after the deal (robbed and taken cards included), the public setup (the cutter's robbed cards in
stream order, the stop card, the face-up 21st card of each seat, the dealer's robbed cards in
Fola order and his taken cards), and for the dealer only the Fola he saw (M-7.3).

Must not import torch or training/.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

import numpy as np

from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate.deck import MINCHIATE_97
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.state import State
from mazzo.envs.minchiate.tables import COUNTERS, FULL, QUALIFYING, T29_BIT

__all__ = ["Private", "deal_streams", "private_of", "read_private"]

KEYS = ("hand", "robbed", "stop", "faceup", "dealer_robbed", "dealer_taken", "fola")


class Private(NamedTuple):
    """``deal.private`` as card ids and masks (``fola`` is -1 for a seat that is not the
    dealer)."""

    hand: int
    robbed: tuple[int, ...]
    stop: int
    faceup: tuple[int, int, int, int]
    dealer_robbed: tuple[int, ...]
    dealer_taken: int
    fola: int


def _codes(value: Any, name: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ValueError(f"deal.private.{name} must be a list of card codes, got {value!r}")
    cards = [MINCHIATE_97.parse(c) for c in value]
    if len(set(cards)) != len(cards):
        dup = sorted({c for c in value if value.count(c) > 1})
        raise ValueError(f"deal.private.{name} repeats card(s) {dup}")
    return cards


def read_private(private: Mapping[str, Any], rules: Rules, seat: int, dealer: int) -> Private:
    """Parse and check ``deal.private`` (see the module docstring).

    Raises:
        ValueError: an unknown or missing key, a bad code, a repeated card, a wrong count, a
            card in two places, or a public card of the seat missing from its hand.
    """
    wanted = set(KEYS) if seat == dealer else set(KEYS) - {"fola"}
    if set(private) != wanted:
        raise ValueError(
            f"deal.private for S{seat} needs exactly the keys {sorted(wanted)}, got "
            f"{sorted(private)}"
        )
    stop = MINCHIATE_97.parse(private["stop"]) if isinstance(private["stop"], str) else -1
    if stop < 0:
        raise ValueError(f"deal.private.stop must be a card code, got {private['stop']!r}")
    faceup = private["faceup"]
    if not isinstance(faceup, list) or len(faceup) != 4:
        raise ValueError(f"deal.private.faceup must list 4 cards or nulls, got {faceup!r}")
    up = [MINCHIATE_97.parse(c) if c is not None else -1 for c in faceup]
    robbed, d_robbed = (
        _codes(private["robbed"], "robbed"),
        _codes(private["dealer_robbed"], "dealer_robbed"),
    )
    taken = sum(1 << c for c in _codes(private["dealer_taken"], "dealer_taken"))
    fola = sum(1 << c for c in _codes(private["fola"], "fola")) if seat == dealer else -1
    hand = sum(1 << c for c in _codes(private["hand"], "hand"))
    p = Private(
        hand, tuple(robbed), stop, (up[0], up[1], up[2], up[3]), tuple(d_robbed), taken, fola
    )
    _check(p, rules, seat, dealer)
    return p


def _check(p: Private, rules: Rules, seat: int, dealer: int) -> None:
    r, a, t = len(p.robbed), len(p.dealer_robbed), p.dealer_taken.bit_count()
    if r > rules.rob_cap:
        raise ValueError(f"deal.private.robbed holds {r} cards; rob_cap is {rules.rob_cap}")
    if r + a + t > 13:
        raise ValueError(f"{r} robbed, {a} dealer-robbed and {t} taken cards: at most 13 in all")
    shown = rules.faceup_21st == "all"
    for s, c in enumerate(p.faceup):
        if (c >= 0) != (shown or s == dealer):
            raise ValueError(
                f"deal.private.faceup[{s}] must be {'a card' if shown or s == dealer else 'null'} "
                f"under faceup_21st = {rules.faceup_21st}, got "
                f"{'null' if c < 0 else MINCHIATE_97.labels[c]}"
            )
    groups = [sum(1 << c for c in p.robbed), sum(1 << c for c in p.dealer_robbed), p.dealer_taken]
    groups += [1 << c for c in p.faceup if c >= 0]
    if p.fola >= 0:
        groups.append(p.fola)
    seen = 0
    for g in groups:
        if g & seen:
            raise ValueError(f"deal.private puts {MINCHIATE_97.codes(g & seen)} in two places")
        seen |= g
    extras = _extras(p, seat, dealer)
    if p.hand.bit_count() != 21 + extras.bit_count():
        raise ValueError(
            f"deal.private.hand must hold {21 + extras.bit_count()} cards for S{seat}, got "
            f"{p.hand.bit_count()}"
        )
    own = extras | (1 << p.faceup[seat] if p.faceup[seat] >= 0 else 0)
    if own & ~p.hand:
        raise ValueError(
            f"deal.private.hand lacks S{seat}'s public card(s) {MINCHIATE_97.codes(own & ~p.hand)}"
        )
    others = seen & ~own
    if p.hand & others:
        raise ValueError(
            f"deal.private.hand holds card(s) {MINCHIATE_97.codes(p.hand & others)} shown elsewhere"
        )
    if p.fola >= 0 and p.fola.bit_count() != 13 - r - a - t:
        raise ValueError(
            f"deal.private.fola must hold {13 - r - a - t} cards, got {p.fola.bit_count()}"
        )


def _extras(p: Private, seat: int, dealer: int) -> int:
    """The cards ``seat`` holds beyond its 21 dealt ones."""
    if seat == (dealer + 3) & 3:
        return sum(1 << c for c in p.robbed)
    if seat == dealer:
        return sum(1 << c for c in p.dealer_robbed) | p.dealer_taken
    return 0


def _stop_place(p: Private, dealer: int) -> int:
    """Where the stop card is: a seat (its face-up card, or the dealer's robbed or taken card),
    or -1 for the Fola."""
    if p.stop in p.faceup:
        return p.faceup.index(p.stop)
    if p.stop in p.dealer_robbed or p.dealer_taken >> p.stop & 1:
        return dealer
    return -1


def deal_streams(
    p: Private, rules: Rules, seat: int, dealer: int, rng: np.random.Generator, tries: int,
    pins: Mapping[int, int], avoid: Mapping[int, int],
) -> Iterator[State]:  # fmt: skip
    """Deals giving ``seat`` the private setup ``p`` (up to ``tries`` of them, drawn at random),
    with card ``c`` in seat ``pins[c]``'s hand and seat ``q`` holding none of ``avoid[q]``
    beyond its known cards."""
    r = len(p.robbed)
    f = 13 - r - len(p.dealer_robbed) - p.dealer_taken.bit_count()
    public = sum(1 << c for c in p.robbed) | sum(1 << c for c in p.dealer_robbed) | p.dealer_taken
    public |= sum(1 << c for c in p.faceup if c >= 0) | 1 << p.stop
    known_fola = p.fola if p.fola >= 0 else 0
    pool0 = bit_list(FULL & ~p.hand & ~public & ~known_fola)
    for c in pins:
        if not (FULL & ~p.hand & ~public & ~known_fola) >> c & 1:
            return
    fola_ok = FULL & ~COUNTERS & ~(T29_BIT if rules.dealer_takes == "counters_and_29" else 0)
    stop_in_fola = _stop_place(p, dealer) < 0
    for _ in range(tries):
        pool = [int(c) for c in rng.permutation(pool0) if c not in pins]
        fola = known_fola
        if p.fola < 0:
            fola = 1 << p.stop if stop_in_fola else 0
            need = f - fola.bit_count()
            first = (
                [c for c in pool if fola_ok >> c & 1 and not QUALIFYING >> c & 1][:1]
                if need
                else []
            )
            rest = [c for c in pool if fola_ok >> c & 1 and c not in first][: max(need - 1, 0)]
            if len(first) + len(rest) != need:
                return
            for c in first + rest:
                fola |= 1 << c
            pool = [c for c in pool if not fola >> c & 1]
        stream = _stream(p, rules, seat, dealer, fola, pool, pins, avoid)
        if stream is not None:
            yield State.new(Deal(dealer, tuple(stream)), rules)


def _stream(
    p: Private, rules: Rules, seat: int, dealer: int, fola: int, pool: list[int],
    pins: Mapping[int, int], avoid: Mapping[int, int],
) -> list[int] | None:  # fmt: skip
    """The stream of one deal, or None when the cards do not fit."""
    r = len(p.robbed)
    dealt: dict[int, list[int]] = {}
    for s in range(4):
        if s == seat:
            dealt[s] = bit_list(p.hand & ~_extras(p, s, dealer))
        else:
            dealt[s] = [p.faceup[s]] if p.faceup[s] >= 0 else []
    for c, s in pins.items():
        if s == seat or s not in dealt:
            return None
        dealt[s].append(c)
    order = sorted((s for s in range(4) if s != seat), key=lambda s: -avoid.get(s, 0).bit_count())
    left = list(pool)
    for s in order:
        need = 21 - len(dealt[s])
        bad = avoid.get(s, 0)
        take = [c for c in left if not bad >> c & 1][:need]
        if len(take) != need:
            return None
        dealt[s] += take
        taken = set(take)
        left = [c for c in left if c not in taken]
    if left:
        return None
    rest = bit_list(fola | p.dealer_taken)
    order_rest: list[int] = []
    if rest:
        lead = [c for c in rest if not QUALIFYING >> c & 1 and c != p.stop] or [
            c for c in rest if c == p.stop and len(rest) == 1
        ]
        if not lead:
            return None
        tail = [c for c in rest if c != lead[0] and c != p.stop]
        order_rest = [lead[0], *tail] + ([p.stop] if p.stop in rest and lead[0] != p.stop else [])
    fola_order = list(p.dealer_robbed) + order_rest
    pack: list[int] = [-1] * (97 - r)
    for k in range(4):
        s = (dealer + 1 + k) & 3
        cards = [c for c in dealt[s] if c != p.faceup[s]]
        cards += [p.faceup[s]] if p.faceup[s] >= 0 else []
        pack[10 * k : 10 * k + 10] = cards[:10]
        pack[40 + 11 * k : 51 + 11 * k] = cards[10:21]
    pack[84:] = fola_order
    if len(pack) != 97 - r or pack[-1] != p.stop:
        return None
    return [*p.robbed, p.stop, *pack[:-1]]


def private_of(state: State, seat: int) -> dict[str, Any]:
    """The ``deal.private`` of ``seat`` at the start of ``state``'s deal (for a referee)."""
    s, codes, labels = state.setup, MINCHIATE_97.codes, MINCHIATE_97.labels
    out: dict[str, Any] = {
        "hand": codes(s.hands[seat]),
        "robbed": [labels[c] for c in s.robbed],
        "stop": labels[s.stop],
        "faceup": [labels[c] if c >= 0 else None for c in s.faceup],
        "dealer_robbed": [labels[c] for c in s.dealer_robbed],
        "dealer_taken": codes(s.dealer_taken),
    }
    if seat == state.dealer:
        out["fola"] = codes(s.fola)
    return out

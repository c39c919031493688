"""The automatic part of a Minchiate deal, from the stream to the discards (RULES.md M-5 to M-7):
the cutter's robbing, the stop card, the 10 + 11 deal with the face-up 21st cards, the Fola, and
the dealer's robbing and taking. A pure function of (dealer, stream, rules); no decisions. Also
the check of a ``Deal`` (``checked_setup``).

(Named ``dealing`` so that it does not shadow ``mazzo.envs.cards.deal``, which owns the ``Deal``
type.)

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.tables import BIT, COUNTERS, FULL, QUALIFYING, T29_BIT, VALUE

__all__ = ["Setup", "checked_setup", "cut_and_deal"]

_QUAL = tuple(bool((QUALIFYING >> c) & 1) for c in range(97))


class Setup(NamedTuple):
    """Everything the cut and the deal decide, before any agent decision.

    Attributes:
        cutter: seat S(d+3).
        robbed: the cutter's robbed cards, in stream order (public, M-5.3).
        stop: the first card not robbed, exposed at the cut (public, M-5.4).
        hands: per seat, the 21 dealt cards, plus the robbed cards for the cutter and the robbed
            and taken cards for the dealer.
        faceup: per seat, the face-up 21st card, or -1 (M-6.2; flag ``faceup_21st``).
        dealer_robbed: the dealer's robbed cards, in Fola order (public, M-7.1).
        dealer_taken: bitmask of the cards the dealer took (public, M-7.2).
        fola: bitmask of the Fola after the dealer's robbing and taking (the dealer knows it).
        stop_in_fola: the stop card is (publicly known to be) in that Fola.
        events: pre-play scoring events (team, points, cause, seat) in M-14.5 order; events worth
            0 points are left out.
    """

    cutter: int
    robbed: tuple[int, ...]
    stop: int
    hands: tuple[int, int, int, int]
    faceup: tuple[int, int, int, int]
    dealer_robbed: tuple[int, ...]
    dealer_taken: int
    fola: int
    stop_in_fola: bool
    events: tuple[tuple[int, int, str, int], ...]


def _rob_length(stream: Sequence[int], cap: int) -> int:
    """M-5.2: length of the longest qualifying prefix, capped."""
    r = 0
    while r < cap and _QUAL[stream[r]]:
        r += 1
    return r


def _deal_hands(
    dealer: int, pack: Sequence[int], rules: Rules
) -> tuple[list[int], list[int], list[tuple[int, int, str, int]]]:
    """M-6.1 / M-6.2: hands from the pack, the face-up 21st cards and their events."""
    hands = [0, 0, 0, 0]
    faceup = [-1, -1, -1, -1]
    events: list[tuple[int, int, str, int]] = []
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        h = 0
        for c in pack[10 * k : 10 * k + 10]:
            h |= BIT[c]
        for c in pack[40 + 11 * k : 51 + 11 * k]:
            h |= BIT[c]
        hands[seat] = h
        if rules.faceup_21st == "all" or k == 3:
            last = pack[50 + 11 * k]
            faceup[seat] = last
            if VALUE[last]:
                events.append((seat & 1, VALUE[last], "faceup", seat))
    return hands, faceup, events


def _dealer_rob_and_take(
    fola_order: Sequence[int], rules: Rules
) -> tuple[tuple[int, ...], int, int]:
    """M-7.1 / M-7.2: (robbed cards in order, taken bitmask, the Fola bitmask left)."""
    a = 0  # the dealer robs from the top while the card qualifies
    while a < len(fola_order) and _QUAL[fola_order[a]]:
        a += 1
    rest = 0
    for c in fola_order[a:]:
        rest |= BIT[c]
    takeable = COUNTERS | (T29_BIT if rules.dealer_takes == "counters_and_29" else 0)
    taken = rest & takeable
    return tuple(fola_order[:a]), taken, rest & ~taken


def cut_and_deal(dealer: int, stream: Sequence[int], rules: Rules) -> Setup:
    """Run M-5 to M-7 on a validated deal (``dealer`` 0..3, ``stream`` a permutation of 0..96)."""
    cutter = (dealer + 3) & 3
    r = _rob_length(stream, rules.rob_cap)
    robbed = tuple(stream[:r])
    stop = stream[r]
    pack = (*stream[r + 1 :], stop)  # M-5.4: the stop card goes to the bottom
    events: list[tuple[int, int, str, int]] = []
    rob_points = sum(VALUE[c] for c in robbed)
    if rob_points:
        events.append((cutter & 1, rob_points, "cutter_rob", cutter))
    hands, faceup, face_events = _deal_hands(dealer, pack, rules)
    events += face_events
    for c in robbed:
        hands[cutter] |= BIT[c]
    dealer_robbed, taken, fola = _dealer_rob_and_take(pack[84:], rules)  # M-6.3: 13 - r
    for c in dealer_robbed:
        hands[dealer] |= BIT[c]
    hands[dealer] |= taken
    points = sum(VALUE[c] for c in dealer_robbed)
    if points:
        events.append((dealer & 1, points, "dealer_rob", dealer))
    if rules.score_taken_cards:
        taken_points = sum(VALUE[c] for c in range(97) if (taken >> c) & 1)
        if taken_points:
            events.append((dealer & 1, taken_points, "dealer_take", dealer))
    return Setup(
        cutter=cutter,
        robbed=robbed,
        stop=stop,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        faceup=(faceup[0], faceup[1], faceup[2], faceup[3]),
        dealer_robbed=dealer_robbed,
        dealer_taken=taken,
        fola=fola,
        stop_in_fola=bool((fola >> stop) & 1),
        events=tuple(events),
    )


def checked_setup(deal: Deal, rules: Rules) -> Setup:
    """``cut_and_deal`` of a checked ``deal``.

    Raises:
        ValueError: the dealer is not a seat 0..3, or the stream is not a permutation of the 97
            cards.
    """
    order = deal.order
    if not 0 <= deal.dealer < 4:
        raise ValueError(f"dealer must be a seat 0..3, got {deal.dealer}")
    if len(order) != 97:
        raise ValueError(f"a Minchiate deal needs 97 cards, got {len(order)}")
    setup = cut_and_deal(deal.dealer, order, rules)
    h = setup.hands
    if h[0] | h[1] | h[2] | h[3] | setup.fola != FULL:
        raise ValueError("the stream is not a permutation of the 97 cards (Deal.from_codes)")
    return setup

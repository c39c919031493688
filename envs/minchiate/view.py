"""The per-seat information view of a Minchiate deal: exactly what one seat may know.

Owns ``InfoView`` and ``info_view`` (which reads a deal through the ``DealState`` protocol, so
this module does not import ``state``). A view holds the seat's own hand and discards, the public
record of the deal (robbed, face-up and taken cards, the stop card, declarations, tricks, piles,
scoring events, D and R) and the seat's private knowledge of the Fola (the dealer's after M-7.3,
everyone's after the exposure of M-10.1). It is built only from those parts of the ``State``, so
resampling any card the seat cannot see leaves it unchanged (the no-leak test proves it).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from typing import NamedTuple

from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.minchiate.combos import Combo
from mazzo.envs.minchiate.kernel import winner_seat
from mazzo.envs.minchiate.protocol import DealState
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.scoring import Event
from mazzo.envs.minchiate.tables import BIT

__all__ = ["InfoView", "action_is_visible", "closing_side", "fola_known", "info_view"]


class InfoView(NamedTuple):
    """Everything seat ``seat`` may know at one point of a deal; nothing more (an immutable
    named tuple: cheap to build on every step, compares by value).

    Attributes:
        seat: the viewing seat.
        phase: the current phase; ``to_play``: the seat on turn (-1 when over).
        dealer, cutter: the dealer S(d) and the cutter S(d+3).
        n_tricks: number of completed tricks (0..21).
        hand: the seat's own cards.
        robbed: the cutter's robbed cards in stream order (public, M-5.3).
        stop_card: the card that stopped the robbing (public, M-5.4).
        faceup: per seat, the face-up 21st card or -1 (public, M-6.2).
        dealer_robbed, dealer_taken: the dealer's robbed cards (in order) and taken cards (public).
        discards: the seat's own discards.
        fola_known: the Fola cards this seat knows to be in the Fola.
        fola_exposed: the Fola has been turned face up (M-10.1).
        declared: (seat, combination) for every declaration made so far (public).
        offered: the combination this seat is being offered, when it is declaring.
        trick, leader, led: the current trick's cards (from ``leader``) and led suit (-1 none,
            0..3 a suit, 4 trumps).
        played_by: per seat, the cards it has played (current trick included).
        suits_led: bitmask of the plain suits led in completed tricks (King rule).
        tricks: (leader, cards, winner) per completed trick.
        piles: per team, the cards won (public, since tricks are public).
        matto_owner, matto_debt: who played the Matto (-1) and whether his team owes a card.
        D, R: the point difference after conversions and the net resti (M-14.1).
        events: the scoring events so far.
        legal_mask: the legal actions when this seat is on turn, else 0.
        void: the deal was voided; returns: the final returns (zeros before the end).
        hand_sizes: the number of cards in each seat's hand (public: everyone can count them).
        rules: the deal's rule flags (common knowledge).
        series_resti: in a series, team A's net resti of the finished deals (else 0; set by
            ``Series.info_view``).
        deals_done: in a series, the number of finished deals (else 0; likewise).
    """

    seat: int
    phase: Phase
    to_play: int
    dealer: int
    cutter: int
    n_tricks: int
    hand: int
    robbed: tuple[int, ...]
    stop_card: int
    faceup: tuple[int, int, int, int]
    dealer_robbed: tuple[int, ...]
    dealer_taken: int
    discards: int
    fola_known: int
    fola_exposed: bool
    declared: tuple[tuple[int, Combo], ...]
    offered: Combo | None
    trick: tuple[int, ...]
    leader: int
    led: int
    played_by: tuple[int, int, int, int]
    suits_led: int
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    piles: tuple[int, int]
    matto_owner: int
    matto_debt: bool
    D: int
    R: int
    events: tuple[Event, ...]
    legal_mask: int
    void: bool
    returns: tuple[int, int, int, int]
    hand_sizes: tuple[int, int, int, int]
    rules: Rules
    series_resti: int = 0
    deals_done: int = 0


def fola_known(state: DealState, seat: int) -> int:
    """The Fola cards ``seat`` knows: all once exposed; before that its own discards, the stop
    card when it lies in the Fola (public), and for the dealer the Fola he saw (M-7.3)."""
    if state.fola_exposed:
        return state.fola
    setup = state.setup
    known = state.discards[seat]
    if setup.stop_in_fola:
        known |= BIT[setup.stop]
    if seat == state.dealer:
        known |= setup.fola
    return known


_PLAY, _DECLARE, _DONE = Phase.PLAY, Phase.DECLARE, Phase.DONE  # bound once (hot path)
_NO_RETURNS = (0, 0, 0, 0)
_new = tuple.__new__  # InfoView(...) without the named tuple's Python-level __new__


def info_view(state: DealState, seat: int) -> InfoView:
    """The ``InfoView`` of ``seat`` (0..3) in ``state``; ``series_resti`` and ``deals_done`` are
    0 (a series sets its standing with ``view._replace``)."""
    if not 0 <= seat < 4:
        raise ValueError(f"seat must be 0..3, got {seat!r}")
    setup, phase, to_play = state.setup, state.phase, state.to_play
    pb, h, piles = state.played_by, state.hands, state.piles
    if seat != to_play:
        legal, offered = 0, None
    elif phase is _PLAY:  # the play phase keeps its legal mask (queries.legal_mask)
        legal, offered = state.play_legal, None
    else:
        legal = state.legal_mask()
        offered = state.offers[state.offer_i] if phase is _DECLARE else None
    if phase is not _DONE or state.void:
        returns = _NO_RETURNS  # queries.returns
    else:
        r = state.R
        returns = (r, -r, r, -r)
    return _new(
        InfoView,
        (
            seat,
            phase,
            to_play,
            state.dealer,
            state.cutter,
            len(state.tricks),
            h[seat],
            setup.robbed,
            setup.stop,
            setup.faceup,
            setup.dealer_robbed,
            setup.dealer_taken,
            state.discards[seat],
            fola_known(state, seat),
            state.fola_exposed,
            tuple(state.declared),
            offered,
            tuple(state.trick),
            state.leader,
            state.led,
            tuple(pb),  # tuple(list): one C call (played_by holds 4 ints, piles 2)
            state.suits_led,
            tuple(state.tricks),
            tuple(piles),
            state.matto_owner,
            state.matto_debt,
            state.D,
            state.R,
            tuple(state.events),
            legal,
            state.void,
            returns,
            (h[0].bit_count(), h[1].bit_count(), h[2].bit_count(), h[3].bit_count()),
            state.rules,
            0,
            0,
        ),
    )  # positional, in field order (measurably cheaper than keywords on every env step)


def action_is_visible(state: DealState, action: int, seat: int) -> bool:
    """Whether ``seat`` sees which card ``action`` moves when the player on turn in ``state``
    takes it: a discard is private to the discarder until the Fola is exposed (M-8.4, M-10.1;
    never exposed under ``fola_exposure = never``); plays, declarations, skips and the Matto
    payment (M-13.1) are public."""
    if state.phase in (Phase.DISCARD_CUTTER, Phase.DISCARD_DEALER):
        return seat == state.to_play
    return True


def closing_side(view: InfoView, action: int) -> int:
    """Where the current trick goes when ``view``'s seat plays card ``action`` as its fourth
    card: +1 to the viewer's partnership, -1 to the other one, 0 when ``action`` is no card
    play closing a trick (not the play phase, or not the trick's fourth card). The cards on the
    trick and the led suit are public, so the answer is the view's (M-11.4; the Matto never
    wins)."""
    trick = view.trick
    if view.phase != Phase.PLAY or len(trick) != 3 or not 0 <= action < len(BIT) or view.led < 0:
        return 0
    taker = winner_seat((*trick, action), view.leader, view.led)
    return 1 if (taker - view.seat) % 2 == 0 else -1

"""What one Calabresella player may know: the ``InfoView`` built from a ``State`` for one seat.

Agents and encoders see only this, never the ``State``, so hidden cards cannot leak. Public
knowledge (bids, contract, called card and its giver, cards played by whom, voids shown, trick
piles, the open monte in scegliete, the split) is copied for everyone; private knowledge (the
own hand, the monte cards the seat has held, its own discards, the returned card for the two
players of the exchange, the partner's hand under ``aperta`` or *a due*) only for the seat
entitled to it.

The view is built from any ``protocol.DealState`` (the fields and queries of a deal it reads,
which ``state.State`` satisfies; re-exported here), so this module does not import the engine:
the imports go one way, ``state`` -> ``view``.

Must not import numpy, torch, gymnasium or pettingzoo, nor ``state``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from mazzo.envs.calabresella.actions import Contract, Phase
from mazzo.envs.calabresella.kernel import SUIT, legal_plays, trick_winner
from mazzo.envs.calabresella.protocol import DealState
from mazzo.envs.calabresella.rules import Rules

__all__ = ["DealState", "InfoView", "action_is_visible", "closing_side", "info_view"]


class InfoView(NamedTuple):
    """Everything seat ``seat`` may know, nothing more. Positions are A0..A2 (see ``state``).

    An immutable named tuple (cheap to build on every step; compares by value).

    Attributes:
        seat: the observing player seat.
        position: the active position this view speaks for (with 2 players, the defender's
            controller speaks for the position on turn, else A1); -1 for the idle dealer.
        n_players: 2, 3 or 4.
        dealer: dealer seat.
        seat_of: player seat of each position.
        phase: current phase.
        to_play: position on turn (-1 when the deal is over).
        legal_mask: legal actions if this seat is on turn, else 0.
        hand: the hand of ``position``.
        partner_hand: the other defender's hand when visible (aperta after trick 1; a due),
            else 0.
        bids: (position, action id) in bidding order.
        no_chiamo: this deal forbids Chiamo.
        contract: contract index, -1 before the auction ends or when void.
        soloist: soloist position or -1.
        called: called card or -1.
        giver: position that gave the called card, ``GIVER_MONTE`` (-1) if it lay in the monte,
            ``GIVER_OWN`` (-2), or ``GIVER_NONE`` (-3) before the call.
        returned: the card returned by the soloist, if this seat may know it, else -1.
        known_monte: the original monte cards this seat has seen.
        discards: this seat's own discards (set-aside cards it knows).
        split_d1: monte cards D1 took in scegliete (public), 0 otherwise.
        split_d2: monte cards D2 took in scegliete (public), 0 otherwise.
        trick: cards of the current trick in play order.
        leader: position leading the current trick.
        played_by: cards played so far by each position.
        void: suits each position has shown void in (bit s = suit s).
        piles: cards won in tricks by the soloist side and by the defenders.
        tricks_won: tricks won by the soloist side and by the defenders.
        n_tricks: completed tricks.
        tricks: the completed tricks as (leader seat, cards in play order, winner seat), the
            form Minchiate's views use. A due (2 players) the dealer's seat stands for both A1
            and A2, so who played which card needs ``position_tricks``.
        position_tricks: the same tricks by position: (leader position, cards, winner
            position); the k-th card was played by position (leader + k) % 3.
        totals: match game-point totals per seat (zeros outside a match: ``Match.info_view``
            puts its totals in).
        hand_sizes: the number of cards in each position's hand (public: anyone can count).
        received: the monte cards each position received, where this seat knows them (its own
            positions; both defenders after an open scegliete split), else 0.
        rules: the rule flags in force (public).
    """

    seat: int
    position: int
    n_players: int
    dealer: int
    seat_of: tuple[int, int, int]
    phase: Phase
    to_play: int
    legal_mask: int
    hand: int
    partner_hand: int
    bids: tuple[tuple[int, int], ...]
    no_chiamo: bool
    contract: int
    soloist: int
    called: int
    giver: int
    returned: int
    known_monte: int
    discards: int
    split_d1: int
    split_d2: int
    trick: tuple[int, ...]
    leader: int
    played_by: tuple[int, int, int]
    void: tuple[int, int, int]
    piles: tuple[int, int]
    tricks_won: tuple[int, int]
    n_tricks: int
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    position_tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    totals: tuple[float, ...]
    hand_sizes: tuple[int, int, int]
    received: tuple[int, int, int]
    rules: Rules


_POSITIONS: dict[tuple[tuple[int, int, int], int], tuple[int, ...]] = {}
_ZERO_TOTALS = {n: (0.0,) * n for n in (2, 3, 4)}
# Bound once: an enum attribute costs a lookup per use, and this runs on every env step.
_DONE, _RETURN = Phase.DONE, int(Phase.RETURN)
_CHIAMO, _SOLISSIMO = int(Contract.CHIAMO), int(Contract.SOLISSIMO)
_SCEGLIETE = int(Contract.SCEGLIETE)
_PLAY = Phase.PLAY
# Contracts under which a seat may have seen monte cards beyond those it received (C-5).
_MONTE_SHOWN = frozenset((_SCEGLIETE, _CHIAMO, _SOLISSIMO))
_new = tuple.__new__  # InfoView(...) without the named tuple's Python-level __new__


def _positions_of(s: DealState, seat: int) -> tuple[int, ...]:
    key = (s.seat_of, seat)
    mine = _POSITIONS.get(key)
    if mine is None:
        mine = _POSITIONS[key] = tuple(p for p in range(3) if s.seat_of[p] == seat)
    return mine


def info_view(s: DealState, seat: int) -> InfoView:
    """The view of player ``seat`` of state ``s`` (zero match totals)."""
    mine = _POSITIONS.get((s.seat_of, seat)) or _positions_of(s, seat)
    phase, rules, hands, soloist = s.phase, s.rules, s.hands, s.soloist
    done = phase is _DONE
    if len(mine) == 1:
        pos = mine[0]
        discards = s.discarded[pos]
    elif not mine:
        pos, discards = -1, 0
    else:  # a due: the defender's controller speaks for the position on turn
        pos = s.pos if s.pos in mine and not done else mine[0]
        discards = _union(s.discarded, mine)
    returned = s.returned
    if returned >= 0 and not (rules.chiamo_return_public or soloist in mine or s.giver in mine):
        returned = -1
    split = s.split >= 0
    played, void, piles, won, r = s.played_by, s.void, s.piles, s.tricks_won, s.received
    d1, d2 = (soloist + 1) % 3, (soloist + 2) % 3
    trick = tuple(s.trick)
    if done or s.to_play != seat:
        legal = 0
    elif phase is _PLAY:  # queries.legal_mask's play branch, without its phase dispatch
        legal = legal_plays(hands[s.pos], SUIT[trick[0]] if trick else -1)
    else:
        legal = s.legal_mask()
    contract = s.contract
    if contract < 0:
        known_monte = 0
    elif contract in _MONTE_SHOWN:
        known_monte = _known_monte(s, mine)
    else:  # received cards only ever come from the monte
        known_monte = r[mine[0]] if len(mine) == 1 else _union(r, mine)
    return _new(
        InfoView,
        (
            seat,
            pos,
            rules.players,
            s.deal.dealer,
            s.seat_of,
            phase,
            -1 if done else s.pos,
            legal,
            hands[pos] if pos >= 0 else 0,
            _partner_hand(s, pos, mine, d1, d2) if soloist >= 0 and pos >= 0 else 0,
            tuple(s.bids),
            s.no_chiamo,
            contract,
            soloist,
            s.called,
            s.giver,
            returned,
            known_monte,
            discards,
            r[d1] if split else 0,
            r[d2] if split else 0,
            trick,
            s.leader,
            tuple(played),  # tuple(list): one C call (the lists hold 3, 3, 2, 2 ints)
            tuple(void),
            tuple(piles),
            tuple(won),
            len(s.tricks),
            tuple(s.tricks),
            tuple(s.position_tricks),
            _ZERO_TOTALS[rules.players],
            (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count()),
            tuple(r) if split else _received(r, mine),
            rules,
        ),
    )  # positional, in field order


def _received(r: Sequence[int], mine: tuple[int, ...]) -> tuple[int, int, int]:
    if len(mine) == 1:
        p = mine[0]
        return (r[0], 0, 0) if p == 0 else (0, r[1], 0) if p == 1 else (0, 0, r[2])
    return (
        r[0] if 0 in mine else 0,
        r[1] if 1 in mine else 0,
        r[2] if 2 in mine else 0,
    )


def _union(masks: Sequence[int], positions: tuple[int, ...]) -> int:
    out = 0
    for p in positions:
        out |= masks[p]
    return out


def _partner_hand(s: DealState, pos: int, mine: tuple[int, ...], d1: int, d2: int) -> int:
    if pos == s.soloist:
        return 0
    other = d2 if pos == d1 else d1
    if other in mine or (s.rules.aperta and s.tricks):
        return s.hands[other]
    return 0


def _known_monte(s: DealState, mine: tuple[int, ...]) -> int:
    """Monte cards this seat has seen (C-5 procedures and the exposure flags)."""
    c, rules = s.contract, s.rules
    if c == _SCEGLIETE:
        return s.monte_mask()
    if c == _CHIAMO and rules.chiamo_monte_exposed and s.phase > _RETURN:
        return s.monte_mask()
    if c == _SOLISSIMO and rules.solissimo_view_monte and s.soloist in mine:
        return s.monte_mask()
    r = s.received  # received cards only ever come from the monte
    return r[mine[0]] if len(mine) == 1 else _union(r, mine)


def action_is_visible(s: DealState, action: int, seat: int) -> bool:
    """Whether player ``seat`` sees which card ``action`` moves, when the player on turn in ``s``
    takes it: discards are private to the discarder, the returned card to the soloist and the
    giver (public with ``chiamo_return_public``); everything else is public."""
    mine = _positions_of(s, seat)
    if s.phase in (Phase.SOLO_DISCARD, Phase.DIV_DISCARD, Phase.SCE_DISCARD):
        return s.pos in mine
    if s.phase is Phase.RETURN:
        return s.rules.chiamo_return_public or s.soloist in mine or s.giver in mine
    return True


def closing_side(view: InfoView, action: int) -> int:
    """Where the current trick goes when ``view``'s position plays card ``action`` as its last
    card: +1 to the viewer's side, -1 to the other side, 0 when ``action`` is no card play
    closing a trick (not the play phase, or not the trick's third card). The sides are the
    soloist and the defenders; the cards on the trick are public, so the answer is the view's."""
    trick = view.trick
    if view.phase != _PLAY or len(trick) != 2 or not 0 <= action < len(SUIT):
        return 0
    taker = (view.leader + trick_winner((*trick, action))) % 3
    mine = view.position == view.soloist
    return 1 if (taker == view.soloist) == mine else -1

"""The Calabresella rules engine: one deal, from the dealt cards to the settlement.

Owns ``State``: its fields, its construction and all of its mutation: dealing (C-3.1, by
``dealing``), the auction (C-4, decided by ``auction``), the contract procedures and monte
exchanges (C-5, decided by ``exchanges``), trick play (C-6, decided by ``kernel``), and settlement
(C-7 to C-9, by ``kernel`` via ``scoring``). The helper modules are pure functions returning
values; only this module writes a ``State``. The read-only modules (``queries``, ``view``) read
a deal through ``protocol.DealState`` and never import this module; ``State`` binds the
functions of ``queries`` as its methods. Pure, integer and bitmask-based, deterministic given a
``Deal`` and the actions; no clock, no RNG, no I/O.

Seats and positions: the deal names player seats ``S0 ..`` (2, 3 or 4 players). The three active
hands are *positions* A0, A1, A2 = the dealer's right and onwards (C-1.3); ``seat_of[pos]`` maps a
position to the player seat that decides for it. With 4 players the dealer is idle; with 2
players (a due, CA-19) A0 is the non-dealer (the soloist) and the dealer controls A1 and A2.

The action layout is documented in ``mazzo.envs.calabresella.actions``.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn, Self

from mazzo.envs.calabresella import auction, exchanges, kernel, queries, view
from mazzo.envs.calabresella.actions import BID_BASE, PASS, SPLIT_BASE, Contract, Phase
from mazzo.envs.calabresella.dealing import check_deal, dealt_hands, monte_cards, seat_positions
from mazzo.envs.calabresella.exchanges import GIVER_MONTE, GIVER_NONE, GIVER_OWN
from mazzo.envs.calabresella.explain import as_action_id, illegal_action
from mazzo.envs.calabresella.kernel import BIT, SUIT, TRICKS, close_trick, legal_plays
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.scoring import Settlement, settle
from mazzo.envs.calabresella.view import InfoView
from mazzo.envs.cards.deal import Deal

__all__ = ["GIVER_MONTE", "GIVER_NONE", "GIVER_OWN", "State"]

_PLAY = Phase.PLAY  # bound once: an enum attribute costs a lookup per use

_DEFAULT_RULES = Rules()  # frozen: one shared instance (building one checks every field)
_SCALARS = (
    "rules", "deal", "seat_of", "phase", "pos", "to_play", "monte", "set_aside", "passed",
    "high_bid", "high_pos", "no_chiamo", "contract", "soloist", "called", "giver", "returned",
    "split", "left", "leader", "settlement",
)  # fmt: skip
_LISTS = (
    "hands", "bids", "received", "discarded", "trick", "tricks", "position_tricks", "tricks_won",
    "piles", "played_by", "void", "history",
)  # fmt: skip


class State:
    """One Calabresella deal. Create with :meth:`new`; drive with :meth:`apply`.

    The fields are documented on ``protocol.DealState`` (read-only for callers). The read-only
    queries are functions of that protocol in ``queries``, bound here as methods.
    """

    __slots__ = _SCALARS + _LISTS

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, deal: Deal, rules: Rules | None = None, *, no_chiamo: bool = False) -> State:
        """Deal the cards of ``deal`` (C-3.1) and open the auction.

        Args:
            deal: dealer seat and the 40-card dealing order (validated by ``Deal``).
            rules: flags; defaults to the canonical rules.
            no_chiamo: this deal forbids Chiamo (the redeal after an all-pass under
                ``all_pass = next_deal_no_chiamo``).

        Raises:
            ValueError: the dealer is not a seat of ``rules.players`` players, or the deal does
                not hold 40 cards.
        """
        rules = rules or _DEFAULT_RULES
        check_deal(deal, rules.players)
        s = cls.__new__(cls)
        s._init_fields(deal, rules, no_chiamo)
        return s

    def _init_fields(self, deal: Deal, rules: Rules, no_chiamo: bool) -> None:
        """Every field with its type and its value as the auction opens."""
        self.rules: Rules = rules
        self.deal: Deal = deal
        self.seat_of: tuple[int, int, int] = seat_positions(rules.players, deal.dealer)
        self.phase: Phase = Phase.BID
        self.pos: int = 0
        self.to_play: int = self.seat_of[0]
        self.hands: list[int] = dealt_hands(deal.order)
        self.monte: tuple[int, int, int, int] = monte_cards(deal.order)
        self.set_aside: int = 0
        self.bids: list[tuple[int, int]] = []
        self.passed: int = 0
        self.high_bid: int = -1
        self.high_pos: int = -1
        self.no_chiamo: bool = no_chiamo
        self.contract: int = -1
        self.soloist: int = -1
        self.called: int = -1
        self.giver: int = GIVER_NONE
        self.returned: int = -1
        self.received: list[int] = [0, 0, 0]
        self.discarded: list[int] = [0, 0, 0]
        self.split: int = -1
        self.left: int = 0
        self.trick: list[int] = []
        self.leader: int = 0
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.position_tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.tricks_won: list[int] = [0, 0]
        self.piles: list[int] = [0, 0]
        self.played_by: list[int] = [0, 0, 0]
        self.void: list[int] = [0, 0, 0]
        self.history: list[tuple[int, int]] = []
        self.settlement: Settlement | None = None

    @classmethod
    def restore(cls, fields: Mapping[str, Any]) -> State:
        """A state from the values of all its fields (every name of ``State.__slots__``), as
        determinization (``mazzo.envs.calabresella.worlds``) builds them; the caller guarantees that
        they are consistent. Raises ValueError naming a missing or unknown field."""
        if fields.keys() != _SLOTS:
            missing, unknown = set(cls.__slots__) - set(fields), set(fields) - set(cls.__slots__)
            raise ValueError(f"State.restore: missing {sorted(missing)}, unknown {sorted(unknown)}")
        s = cls.__new__(cls)
        for name, value in fields.items():
            setattr(s, name, value)
        return s

    def clone(self) -> Self:
        """An independent copy (lists copied shallowly; ints and tuples are shared)."""
        c = self.__class__.__new__(self.__class__)
        for name in _SCALARS:
            setattr(c, name, getattr(self, name))
        c.hands, c.bids, c.received, c.discarded = (
            self.hands[:], self.bids[:], self.received[:], self.discarded[:],
        )  # fmt: skip
        c.trick, c.tricks, c.tricks_won, c.piles = (
            self.trick[:], self.tricks[:], self.tricks_won[:], self.piles[:],
        )  # fmt: skip
        c.played_by, c.void, c.history = self.played_by[:], self.void[:], self.history[:]
        c.position_tricks = self.position_tricks[:]
        return c

    # ------------------------------------------------------------------ queries
    # Functions of a ``protocol.DealState`` in ``queries``, bound as methods: ``s.legal_mask()``
    # calls ``queries.legal_mask(s)`` with no call in between.
    is_terminal = queries.is_terminal
    is_void = queries.is_void
    side_of = queries.side_of
    legal_mask = queries.legal_mask
    legal_actions = queries.legal_actions
    monte_mask = queries.monte_mask
    action_label = queries.action_label
    parse_action = queries.parse_action
    returns = queries.returns
    raw_increments = queries.raw_increments
    contract_name = queries.contract_name
    result = queries.result

    def info_view(self, seat: int) -> InfoView:
        """What player ``seat`` may know (see ``mazzo.envs.calabresella.view``); its ``totals`` are
        zeros (a match supplies its own)."""
        return view.info_view(self, seat)

    @property
    def n_players(self) -> int:
        """Number of player seats (2, 3 or 4)."""
        return self.rules.players

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self.deal.dealer

    @property
    def d1(self) -> int:
        """Position of the first defender after the soloist."""
        return (self.soloist + 1) % 3

    @property
    def d2(self) -> int:
        """Position of the second defender."""
        return (self.soloist + 2) % 3

    # ------------------------------------------------------------------ transitions
    def apply(self, action: int) -> None:
        """Apply one decision of the player on turn.

        Raises:
            IllegalAction: the action is not legal now (its label and the legal labels are in
                the message); the state is unchanged. Integer-like ids (``numpy.int64``) are
                accepted; anything else is rejected.
        """
        if type(action) is not int:
            as_id = as_action_id(action)
            return self._reject(action) if as_id is None else self.apply(as_id)
        phase = self.phase
        if phase is _PLAY:
            trick = self.trick
            if 0 <= action < 40 and (
                legal_plays(self.hands[self.pos], SUIT[trick[0]] if trick else -1) >> action & 1
            ):
                self.history.append((self.pos, action))
                self._apply_play(action)
                return
            self._reject(action)
        if not 0 <= action < 62 or not (self.legal_mask() >> action) & 1:
            self._reject(action)
        self.history.append((self.pos, action))
        match phase:
            case Phase.BID:
                self._apply_bid(action)
            case Phase.CALL:
                self._apply_call(action)
            case Phase.RETURN:
                self._apply_return(action)
            case Phase.SPLIT:
                self._apply_split(action - SPLIT_BASE)
            case _:
                self._apply_discard(action)

    def _reject(self, action: object) -> NoReturn:
        trick = self.trick
        raise illegal_action(
            self.phase, self.to_play, action, self.hands[self.pos],
            SUIT[trick[0]] if trick else -1, self.legal_mask(),
        )  # fmt: skip

    def _set_pos(self, pos: int) -> None:
        self.pos = pos
        self.to_play = self.seat_of[pos]

    # auction (C-4)
    def _apply_bid(self, action: int) -> None:
        pos = self.pos
        self.bids.append((pos, action))
        if action == PASS:
            self.passed |= 1 << pos
        else:
            self.high_bid, self.high_pos = action - BID_BASE, pos
        nxt = auction.next_bidder(self.rules, pos, len(self.bids), self.passed, self.high_bid)
        if nxt >= 0:
            return self._set_pos(nxt)
        if self.high_bid < 0:
            return self._all_passed()
        self._start_contract()

    def _all_passed(self) -> None:
        forced = auction.forced_soloist(self.rules)
        if forced >= 0:
            self.high_bid, self.high_pos = Contract.CHIAMO, forced
            return self._start_contract()
        self.phase, self.to_play = Phase.DONE, -1

    # contract procedures and the monte (C-5)
    def _start_contract(self) -> None:
        self.contract, self.soloist = self.high_bid, self.high_pos
        match self.contract:
            case Contract.CHIAMO:
                self.phase = Phase.CALL
                self._set_pos(self.soloist)
            case Contract.SOLO:
                self._take_monte()
            case Contract.SOLISSIMO:
                self.set_aside = self.monte_mask()
                self._start_play()
            case Contract.DIVIDETE:
                self._give_monte(*exchanges.dividete_pairs(self.monte), Phase.DIV_DISCARD)
            case Contract.SCEGLIETE:
                self.phase = Phase.SPLIT
                self._set_pos(self.d1)

    def _take_monte(self) -> None:
        """C-5.1 d / C-5.2: the soloist takes the monte and must discard 4."""
        sol = self.soloist
        monte = self.monte_mask()
        self.hands[sol] |= monte
        self.received[sol] |= monte
        self.phase, self.left = Phase.SOLO_DISCARD, 4
        self._set_pos(sol)

    def _give_monte(self, to_d1: int, to_d2: int, phase: Phase) -> None:
        """Dividete / Scegliete: the defenders take their monte cards; the first defender with
        cards to discard starts."""
        d1, d2 = self.d1, self.d2
        self.hands[d1] |= to_d1
        self.hands[d2] |= to_d2
        self.received[d1], self.received[d2] = to_d1, to_d2
        self.phase, self.left = phase, (to_d1 or to_d2).bit_count()
        self._set_pos(d1 if to_d1 else d2)

    def _apply_call(self, card: int) -> None:
        self.called = card
        giver = self.giver = exchanges.call_giver(self.hands, card, self.soloist)
        if giver >= 0:
            self.hands[giver] ^= BIT[card]
            self.hands[self.soloist] |= BIT[card]
            self.phase = Phase.RETURN
            return
        self._take_monte()

    def _apply_return(self, card: int) -> None:
        self.returned = card
        self.hands[self.soloist] ^= BIT[card]
        self.hands[self.giver] |= BIT[card]
        self._take_monte()

    def _apply_split(self, m: int) -> None:
        self.split = m
        self._give_monte(*exchanges.split_cards(self.monte, m), Phase.SCE_DISCARD)

    def _apply_discard(self, card: int) -> None:
        pos = self.pos
        self.hands[pos] ^= BIT[card]
        self.discarded[pos] |= BIT[card]
        self.set_aside |= BIT[card]
        self.left -= 1
        if self.left:
            return
        if self.phase is not Phase.SOLO_DISCARD and pos == self.d1:
            self.left = self.received[self.d2].bit_count()
            if self.left:
                return self._set_pos(self.d2)
        self._start_play()

    # trick play (C-6) and settlement (C-7 to C-9)
    def _start_play(self) -> None:
        first = exchanges.first_leader(self.rules, self.soloist, self.seat_of, self.deal.dealer)
        self.phase = Phase.PLAY
        self.leader = first
        self._set_pos(first)

    def _apply_play(self, card: int) -> None:
        pos = self.pos
        self.hands[pos] ^= BIT[card]
        self.played_by[pos] |= BIT[card]
        trick = self.trick
        trick.append(card)
        if len(trick) > 1 and SUIT[card] != SUIT[trick[0]]:
            self.void[pos] |= 1 << SUIT[trick[0]]
        if len(trick) < 3:
            pos = pos + 1 if pos < 2 else 0
            self.pos, self.to_play = pos, self.seat_of[pos]
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        trick, last = self.trick, len(self.tricks) == TRICKS - 1
        winner, side, gain = close_trick(trick, self.leader, self.soloist, last, self.set_aside)
        self.piles[side] |= gain
        self.tricks_won[side] += 1
        cards, leader, seat_of = tuple(trick), self.leader, self.seat_of
        self.tricks.append((seat_of[leader], cards, seat_of[winner]))
        self.position_tricks.append((leader, cards, winner))
        self.trick = []
        if last:
            self._settle(side)
        else:
            self.leader = winner
            self._set_pos(winner)

    def _settle(self, last_side: int) -> None:
        thirds, tricks = kernel.pile_thirds(self.piles[0]), self.tricks_won[0]
        self.settlement = settle(self.rules, self.contract, self.soloist, thirds, tricks, last_side)
        self.phase, self.to_play = Phase.DONE, -1


_SLOTS = frozenset(State.__slots__)

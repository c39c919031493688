"""The Calabresella rules engine: one deal, from the dealt cards to the settlement.

Owns ``State``: the auction (C-4), the contract procedures and monte exchanges (C-5), trick play
(C-6), and counting and settlement (C-7 to C-9, via ``scoring``). Pure, integer and bitmask-based,
deterministic given a ``Deal`` and the actions; no clock, no RNG, no I/O.

Seats and positions: the deal names player seats ``S0 ..`` (2, 3 or 4 players). The three active
hands are *positions* A0, A1, A2 = the dealer's right and onwards (C-1.3); ``seat_of[pos]`` maps a
position to the player seat that decides for it. With 4 players the dealer is idle; with 2
players (a due, CA-19) A0 is the non-dealer (the soloist) and the dealer controls A1 and A2.

The action layout is documented in ``envs.calabresella.actions``.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

import operator
from typing import Any, NoReturn, Self

from envs.calabresella.actions import (
    BID_BASE,
    CONTRACTS,
    PASS,
    SPLIT_BASE,
    Contract,
    Phase,
    action_label,
    parse_label,
)
from envs.calabresella.config import Rules
from envs.calabresella.kernel import (
    BIT,
    FULL40,
    SUIT,
    TRICKS,
    close_trick,
    legal_play_list,
    legal_plays,
    pile_thirds,
)
from envs.calabresella.scoring import Settlement, settle
from envs.calabresella.view import InfoView, info_view
from envs.cards.bits import bit_list
from envs.cards.deal import Deal
from envs.cards.deck import ITALIAN_40
from envs.cards.errors import IllegalAction

__all__ = ["GIVER_MONTE", "GIVER_NONE", "GIVER_OWN", "State"]

ALL_SPLITS = sum(1 << (SPLIT_BASE + m) for m in range(16))
SPLITS_2_2 = sum(1 << (SPLIT_BASE + m) for m in range(16) if m.bit_count() == 2)

_ZEROS = {n: (0,) * n for n in (2, 3, 4)}
GIVER_NONE = -3  # no call yet (or not Chiamo)
GIVER_OWN = -2  # the called card was the soloist's own (only with allow_call_own_card)
GIVER_MONTE = -1  # the called card lay in the monte (C-5.1 c)


class State:
    """One Calabresella deal. Create with :meth:`new`; drive with :meth:`apply`."""

    __slots__ = (
        "bids",
        "called",
        "contract",
        "deal",
        "discarded",
        "giver",
        "hands",
        "high_bid",
        "high_pos",
        "history",
        "leader",
        "left",
        "monte",
        "no_chiamo",
        "passed",
        "phase",
        "piles",
        "played_by",
        "pos",
        "received",
        "returned",
        "rules",
        "seat_of",
        "set_aside",
        "settlement",
        "soloist",
        "split",
        "to_play",
        "trick",
        "tricks",
        "tricks_won",
        "void",
    )

    rules: Rules
    deal: Deal
    seat_of: tuple[int, int, int]
    phase: Phase
    pos: int
    to_play: int
    hands: list[int]
    monte: tuple[int, int, int, int]
    set_aside: int
    bids: list[tuple[int, int]]
    passed: int
    high_bid: int
    high_pos: int
    no_chiamo: bool
    contract: int
    soloist: int
    called: int
    giver: int
    returned: int
    received: list[int]
    discarded: list[int]
    split: int
    left: int
    trick: list[int]
    leader: int
    tricks: list[tuple[int, tuple[int, ...], int]]
    tricks_won: list[int]
    piles: list[int]
    played_by: list[int]
    void: list[int]
    history: list[tuple[int, int]]
    settlement: Settlement | None

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
        rules = rules or Rules()
        n = rules.players
        if not 0 <= deal.dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1} for {n} players, got {deal.dealer}")
        if len(deal.order) != 40:
            raise ValueError(f"a Calabresella deal needs 40 cards, got {len(deal.order)}")
        s = cls.__new__(cls)
        d = deal.dealer
        if n == 2:
            s.seat_of = ((d + 1) % 2, d, d)
        else:
            s.seat_of = ((d + 1) % n, (d + 2) % n, (d + 3) % n)
        order = deal.order
        hands = [0, 0, 0]
        for j in range(3):
            for k in range(3):
                base = 12 * j + 4 * k
                hands[k] |= BIT[order[base]] | BIT[order[base + 1]]
                hands[k] |= BIT[order[base + 2]] | BIT[order[base + 3]]
        s.rules, s.deal, s.hands = rules, deal, hands
        s.monte = (order[36], order[37], order[38], order[39])
        s.no_chiamo = no_chiamo
        s.set_aside = s.passed = 0
        s.bids, s.history, s.trick, s.tricks = [], [], [], []
        s.high_bid = s.high_pos = s.contract = s.soloist = -1
        s.called = s.returned = s.split = -1
        s.giver = GIVER_NONE
        s.received, s.discarded = [0, 0, 0], [0, 0, 0]
        s.left = s.leader = 0
        s.tricks_won, s.piles = [0, 0], [0, 0]
        s.played_by, s.void = [0, 0, 0], [0, 0, 0]
        s.settlement = None
        s.phase = Phase.BID
        s._set_pos(0)
        return s

    def clone(self) -> Self:
        """An independent copy (lists copied shallowly; ints and tuples are shared)."""
        c = self.__class__.__new__(self.__class__)
        for name in (
            "rules", "deal", "seat_of", "phase", "pos", "to_play", "monte", "set_aside", "passed",
            "high_bid", "high_pos", "no_chiamo", "contract", "soloist", "called", "giver",
            "returned", "split", "left", "leader", "settlement",
        ):  # fmt: skip
            setattr(c, name, getattr(self, name))
        c.hands, c.bids, c.received, c.discarded = (
            self.hands[:], self.bids[:], self.received[:], self.discarded[:],
        )  # fmt: skip
        c.trick, c.tricks, c.tricks_won, c.piles = (
            self.trick[:], self.tricks[:], self.tricks_won[:], self.piles[:],
        )  # fmt: skip
        c.played_by, c.void, c.history = self.played_by[:], self.void[:], self.history[:]
        return c

    # ------------------------------------------------------------------ queries
    @property
    def n_players(self) -> int:
        """Number of player seats (2, 3 or 4)."""
        return self.rules.players

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self.deal.dealer

    def is_terminal(self) -> bool:
        """True once the deal is settled or void (all passed)."""
        return self.phase is Phase.DONE

    def is_void(self) -> bool:
        """True for a deal that ended with every player passing (C-4.4)."""
        return self.phase is Phase.DONE and self.contract < 0

    def side_of(self, pos: int) -> int:
        """0 for the soloist's position, 1 for a defender's."""
        return 0 if pos == self.soloist else 1

    @property
    def d1(self) -> int:
        """Position of the first defender after the soloist."""
        return (self.soloist + 1) % 3

    @property
    def d2(self) -> int:
        """Position of the second defender."""
        return (self.soloist + 2) % 3

    def legal_mask(self) -> int:
        """Bitmask over the 62 action ids of the legal actions (0 when the deal is over)."""
        phase = self.phase
        if phase is Phase.PLAY:
            return legal_plays(self.hands[self.pos], SUIT[self.trick[0]] if self.trick else -1)
        if phase is Phase.BID:
            return self._bid_mask()
        if phase is Phase.CALL:
            own = 0 if self.rules.allow_call_own_card else self.hands[self.soloist]
            return FULL40 & ~own
        if phase is Phase.SPLIT:
            return SPLITS_2_2 if self.rules.scegliete_splits == "only_2_2" else ALL_SPLITS
        if phase is Phase.DONE:
            return 0
        return self.hands[self.pos]  # RETURN and the three discard phases

    def legal_actions(self) -> list[int]:
        """The legal action ids in increasing order."""
        if self.phase is Phase.PLAY:
            trick = self.trick
            return legal_play_list(self.hands[self.pos], SUIT[trick[0]] if trick else -1)
        return bit_list(self.legal_mask())

    def _bid_mask(self) -> int:
        rules = self.rules
        allowed = rules.allowed_bits
        if self.no_chiamo:
            allowed &= ~1
        higher = allowed & ~((1 << (self.high_bid + 1)) - 1)
        if rules.players == 2:  # a due: the soloist names any allowed contract, no pass
            return allowed << BID_BASE
        return (1 << PASS) | (higher << BID_BASE)

    def action_label(self, action: int) -> str:
        """Label of ``action`` in the current phase (D.3 vocabulary)."""
        return action_label(action, self.phase)

    def parse_action(self, label: str) -> int:
        """Label -> action id; a card verb must match the current phase. Raises ValueError."""
        return parse_label(label, self.phase)

    def returns(self) -> tuple[int, ...]:
        """Per player seat: the settlement of C-9.5 (``reward_mode``), zero-sum under pairwise.

        Zero before the end and for a void deal. With 2 players the defender's two positions
        are summed; with 4 players the idle dealer gets 0.
        """
        st = self.settlement
        if st is None:
            return _ZEROS[self.rules.players]
        out = [0] * self.rules.players
        if st is not None:
            per_pos = st.pairwise if self.rules.reward_mode == "pairwise" else st.raw
            for pos in range(3):
                out[self.seat_of[pos]] += per_pos[pos]
        return tuple(out)

    def raw_increments(self) -> tuple[int, ...]:
        """Per player seat: the game-point total increments of C-9.1 (never negative)."""
        out = [0] * self.rules.players
        if self.settlement is not None:
            for pos in range(3):
                out[self.seat_of[pos]] += self.settlement.raw[pos]
        return tuple(out)

    # ------------------------------------------------------------------ transitions
    def apply(self, action: int) -> None:
        """Apply one decision of the player on turn.

        Raises:
            IllegalAction: the action is not legal now (its label and the legal labels are in
                the message); the state is unchanged. Integer-like ids (``numpy.int64``) are
                accepted; anything else is rejected.
        """
        if type(action) is not int:
            return self.apply(self._as_int(action))
        phase = self.phase
        if phase is Phase.PLAY:
            trick = self.trick
            if 0 <= action < 40 and (
                legal_plays(self.hands[self.pos], SUIT[trick[0]] if trick else -1) >> action & 1
            ):
                self.history.append((self.pos, action))
                self._apply_play(action)
                return
            self._reject(action)
        if type(action) is not int or not 0 <= action < 62 or not (self.legal_mask() >> action) & 1:
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

    def _as_int(self, action: object) -> int:
        if not isinstance(action, bool):
            try:
                return operator.index(action)  # type: ignore[arg-type]
            except TypeError:
                pass
        self._reject(action)

    def _reject(self, action: object) -> NoReturn:
        legal = [self.action_label(a) for a in bit_list(self.legal_mask())]
        if self.phase is Phase.DONE:
            raise IllegalAction(-1, str(action), "the deal is over", legal)
        if type(action) is not int or not 0 <= action < 62:
            raise IllegalAction(-1, repr(action), "not an action id 0..61", legal)
        label = self.action_label(action)
        raise IllegalAction(action, label, self._why_illegal(action), legal)

    def _why_illegal(self, action: int) -> str:
        phase, who = self.phase, f"S{self.to_play}"
        if phase is Phase.PLAY:
            if action >= 40:
                return f"{who} must play a card"
            if not (self.hands[self.pos] >> action) & 1:
                return f"{who} does not hold {ITALIAN_40.labels[action]}"
            return f"{who} must follow suit ({ITALIAN_40.suit_names[SUIT[self.trick[0]]]} led)"
        if phase is Phase.BID:
            return f"{who} must pass or bid an allowed contract above the highest bid"
        if phase is Phase.CALL:
            return f"{who} (the soloist) must call a card he does not hold"
        if phase is Phase.SPLIT:
            return f"{who} must choose an allowed split of the monte (scegliete_splits)"
        if action >= 40:
            return f"{who} must choose a card ({phase.name})"
        return f"{who} does not hold {ITALIAN_40.labels[action]}"

    def _set_pos(self, pos: int) -> None:
        self.pos = pos
        self.to_play = self.seat_of[pos]

    def _apply_bid(self, action: int) -> None:
        pos = self.pos
        self.bids.append((pos, action))
        if action == PASS:
            self.passed |= 1 << pos
        else:
            self.high_bid, self.high_pos = action - BID_BASE, pos
        if self.rules.players == 2:
            return self._start_contract()
        if self.rules.auction == "single_round":
            if len(self.bids) < 3:
                return self._set_pos(pos + 1)
        else:  # until_two_passes: speak in turn, skipping passers, until one bidder is left
            n_passed = self.passed.bit_count()
            if n_passed < 2 or (n_passed == 2 and self.high_bid < 0):
                nxt = (pos + 1) % 3
                while (self.passed >> nxt) & 1:
                    nxt = (nxt + 1) % 3
                return self._set_pos(nxt)
        if self.high_bid < 0:
            return self._all_passed()
        self._start_contract()

    def _all_passed(self) -> None:
        if self.rules.all_pass == "forced_chiamo_eldest":
            self.high_bid, self.high_pos = Contract.CHIAMO, 0
            return self._start_contract()
        self.phase = Phase.DONE
        self.to_play = -1

    def _start_contract(self) -> None:
        self.contract, self.soloist = self.high_bid, self.high_pos
        sol = self.soloist
        match self.contract:
            case Contract.CHIAMO:
                self.phase = Phase.CALL
                self._set_pos(sol)
            case Contract.SOLO:
                self._take_monte()
            case Contract.SOLISSIMO:
                self.set_aside = self.monte_mask()
                self._start_play()
            case Contract.DIVIDETE:
                m = self.monte
                pairs = ((self.d1, BIT[m[0]] | BIT[m[1]]), (self.d2, BIT[m[2]] | BIT[m[3]]))
                for pos, pair in pairs:
                    self.hands[pos] |= pair
                    self.received[pos] = pair
                self.phase, self.left = Phase.DIV_DISCARD, 2
                self._set_pos(self.d1)
            case Contract.SCEGLIETE:
                self.phase = Phase.SPLIT
                self._set_pos(self.d1)

    def monte_mask(self) -> int:
        """Bitmask of the four cards dealt to the monte."""
        m = self.monte
        return BIT[m[0]] | BIT[m[1]] | BIT[m[2]] | BIT[m[3]]

    def _take_monte(self) -> None:
        """C-5.1 d / C-5.2: the soloist takes the monte and must discard 4."""
        sol = self.soloist
        monte = self.monte_mask()
        self.hands[sol] |= monte
        self.received[sol] |= monte
        self.phase, self.left = Phase.SOLO_DISCARD, 4
        self._set_pos(sol)

    def _apply_call(self, card: int) -> None:
        self.called = card
        sol = self.soloist
        for pos in (self.d1, self.d2):
            if (self.hands[pos] >> card) & 1:
                self.giver = pos
                self.hands[pos] ^= BIT[card]
                self.hands[sol] |= BIT[card]
                self.phase = Phase.RETURN
                return
        self.giver = GIVER_OWN if (self.hands[sol] >> card) & 1 else GIVER_MONTE
        self._take_monte()

    def _apply_return(self, card: int) -> None:
        self.returned = card
        self.hands[self.soloist] ^= BIT[card]
        self.hands[self.giver] |= BIT[card]
        self._take_monte()

    def _apply_split(self, m: int) -> None:
        self.split = m
        cards = sorted(self.monte)
        to_d1 = sum(BIT[cards[i]] for i in range(4) if (m >> i) & 1)
        to_d2 = self.monte_mask() ^ to_d1
        d1, d2 = self.d1, self.d2
        self.hands[d1] |= to_d1
        self.hands[d2] |= to_d2
        self.received[d1], self.received[d2] = to_d1, to_d2
        self.phase = Phase.SCE_DISCARD
        if to_d1:
            self.left = to_d1.bit_count()
            self._set_pos(d1)
        else:
            self.left = 4
            self._set_pos(d2)

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

    def _start_play(self) -> None:
        lead = self.rules.first_lead
        if lead == "soloist":
            first = self.soloist
        elif lead == "dealer_left":
            n = self.rules.players
            first = 2 if n == 2 else self.seat_of.index((self.deal.dealer - 1) % n)
        else:
            first = 0
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
        self.tricks.append((self.leader, tuple(trick), winner))
        self.trick = []
        if last:
            self._settle(side)
        else:
            self.leader = winner
            self._set_pos(winner)

    def _settle(self, last_side: int) -> None:
        self.settlement = settle(
            self.rules,
            self.contract,
            self.soloist,
            pile_thirds(self.piles[0]),
            self.tricks_won[0],
            last_side,
        )
        self.phase = Phase.DONE
        self.to_play = -1

    # ------------------------------------------------------------------ views and results
    def info_view(self, seat: int, totals: tuple[float, ...] | None = None) -> InfoView:
        """What player ``seat`` may know (see ``envs.calabresella.view``)."""
        return info_view(self, seat, totals)

    def contract_name(self) -> str:
        """Name of the contract being played ('' before the auction ends or when void)."""
        return CONTRACTS[self.contract] if self.contract >= 0 else ""

    def result(self) -> dict[str, Any]:
        """The full result of a finished deal, JSON-ready (RULES.md C-7 to C-9).

        Keys: ``void``, ``dealer``, ``contract``, ``soloist``, ``defenders`` (seats),
        ``called`` and ``called_from`` (Chiamo), ``thirds``/``points``/``tricks`` per side,
        ``last_trick`` (side), ``success``, ``multiplier``, ``bonus`` (cappotto/stramazzo),
        ``value`` (V), ``unit`` (what one defender's share is worth), ``raw`` (C-9.1 total
        increments per seat), ``pairwise`` (C-9.5 per seat) and ``returns`` (per reward_mode).

        Raises:
            ValueError: the deal is not over.
        """
        if not self.is_terminal():
            raise ValueError("the deal is not over: no result yet")
        st = self.settlement
        out: dict[str, Any] = {"void": st is None, "dealer": self.deal.dealer}
        if st is None:
            return out | {"contract": None, "returns": list(self.returns())}
        seats = self.seat_of
        pairwise = [0] * self.rules.players
        for pos in range(3):
            pairwise[seats[pos]] += st.pairwise[pos]
        sides = ("soloist", "defenders")
        called_from = {GIVER_MONTE: "monte", GIVER_OWN: "own", GIVER_NONE: None}
        return out | {
            "contract": CONTRACTS[st.contract],
            "soloist": seats[self.soloist],
            "defenders": [seats[self.d1], seats[self.d2]],
            "called": ITALIAN_40.labels[self.called] if self.called >= 0 else None,
            "called_from": called_from.get(self.giver, f"S{seats[self.giver]}"),
            "thirds": dict(zip(sides, st.thirds, strict=True)),
            "points": dict(zip(sides, st.points, strict=True)),
            "tricks": dict(zip(sides, st.tricks, strict=True)),
            "last_trick": sides[st.last_trick_side],
            "success": st.success,
            "multiplier": st.multiplier,
            "bonus": st.bonus or None,
            "value": st.value,
            "unit": st.unit,
            "raw": list(self.raw_increments()),
            "pairwise": pairwise,
            "returns": list(self.returns()),
        }

"""The Minchiate rules engine: one deal, from the stream to the net resti.

Owns ``State``: its fields, its construction and every change to it: ``apply``, the phases in
turn (the discards, the declarations, the play with the Matto and the King rule, the settlement)
and the scoring events with the resti ratchet (M-8 to M-14). The rules themselves are pure
functions of other modules, whose results the State applies: the check of a deal, the cut,
robbing and deal (``dealing``), the pre-play rules (``pregame``), the card play and the end count
(``kernel``), the settlement and the result record (``settle``). The read-only modules (the
queries in ``queries``, the per-seat ``view``, the explanation of an illegal action in
``explain``) read a deal through ``protocol.DealState`` and never import this one; ``State``
binds the queries as its methods. Pure, integer and bitmask-based, deterministic given a
``Deal`` and the actions; no clock, no RNG, no I/O.

Seats S0..S3 play counter-clockwise; team A = S0 + S2, team B = S1 + S3 (team of a seat =
``seat & 1``). The dealer is ``deal.dealer``; the deal's ``order`` is the 97-card stream of M-5.2.
The action layout is documented in ``mazzo.envs.minchiate.actions``.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from typing import Any, NoReturn, Self

from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate import kernel, pregame, queries, settle, view
from mazzo.envs.minchiate.actions import DECLARE, NUM_ACTIONS, Phase
from mazzo.envs.minchiate.combos import Combo
from mazzo.envs.minchiate.dealing import Setup, checked_setup
from mazzo.envs.minchiate.explain import illegal_action
from mazzo.envs.minchiate.kernel import ASK, MATTO_DEBT, MATTO_LOST, close_trick, play_mask, ratchet
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.scoring import EndCount, Event
from mazzo.envs.minchiate.tables import BIT, MATTO, MATTO_BIT, SUIT, TRUMP
from mazzo.envs.minchiate.view import InfoView

__all__ = ["State"]

_SCALARS = (
    "rules", "deal", "dealer", "cutter", "setup", "phase", "to_play", "fola", "to_discard",
    "decl_k", "offers", "offer_i", "decl_sum", "fola_exposed", "leader", "led", "top_trump",
    "suits_led", "matto_owner", "matto_debt", "matto_paid", "matto_lost", "D", "R", "void",
    "last_winner", "end_counts", "r_play", "end_resti", "d_final", "king_rule", "overtrump",
    "trick1_declare", "play_legal",
)  # fmt: skip
_LISTS = (
    "hands", "discards", "declared", "decl_end", "trick", "played_by", "piles", "tricks",
    "events", "history",
)  # fmt: skip


class State:
    """One Minchiate deal. Create with :meth:`new`; drive with :meth:`apply`.

    The fields are documented on ``protocol.DealState`` (read-only for callers). The read-only
    queries are functions of that protocol in ``queries`` and ``settle``, bound here as methods.
    """

    __slots__ = _SCALARS + _LISTS

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, deal: Deal, rules: Rules | None = None) -> State:
        """Cut, rob and deal ``deal`` (M-5 to M-7) and stop at the first decision.

        Args:
            deal: dealer seat and the 97-card stream (build it with ``Deal.from_codes`` /
                ``Deal.from_order`` to have it validated).
            rules: flags; defaults to the canonical rules.

        Raises:
            ValueError: the dealer is not a seat 0..3, or the stream is not a permutation of the
                97 cards.
        """
        rules = rules or Rules()
        setup = checked_setup(deal, rules)
        s = cls.__new__(cls)
        s._init_fields(deal, rules, setup)
        for team, points, cause, seat in setup.events:
            s._score_event(team, points, cause, seat, 0)
        s._next_discards(0)
        return s

    @classmethod
    def restore(cls, **fields: Any) -> State:
        """A state from the value of every field (the determinization of
        ``mazzo.envs.minchiate.worlds`` builds its worlds so); ``play_legal`` is derived, not given.

        Raises:
            ValueError: a field is missing or unknown (the message names them).
        """
        wanted = set(cls.__slots__) - {"play_legal"}
        if fields.keys() != wanted:
            missing, unknown = sorted(wanted - fields.keys()), sorted(fields.keys() - wanted)
            raise ValueError(f"State.restore: missing fields {missing}, unknown fields {unknown}")
        s = cls.__new__(cls)
        for name, value in fields.items():
            setattr(s, name, value)
        s.play_legal = queries.plays(s, s.to_play) if s.phase is Phase.PLAY else 0
        return s

    def _init_fields(self, deal: Deal, rules: Rules, setup: Setup) -> None:
        """Every field with its type and its value before the first decision."""
        self.rules: Rules = rules
        self.deal: Deal = deal
        self.setup: Setup = setup
        self.dealer: int = deal.dealer
        self.cutter: int = setup.cutter
        self.phase: Phase = Phase.DONE
        self.to_play: int = -1
        self.hands: list[int] = list(setup.hands)
        self.fola: int = setup.fola
        self.discards: list[int] = [0, 0, 0, 0]
        self.to_discard: int = 0
        self.decl_k: int = 0
        self.offers: tuple[Combo, ...] = ()
        self.offer_i: int = 0
        self.decl_sum: int = 0
        self.declared: list[tuple[int, Combo]] = []
        self.decl_end: list[int] = [0, 0]
        self.fola_exposed: bool = False
        self.void: bool = False
        self.leader: int = (deal.dealer + 1) & 3
        self.led: int = -1
        self.top_trump: int = -1
        self.suits_led: int = 0
        self.trick: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.events: list[Event] = []
        self.history: list[tuple[int, int]] = []
        self.played_by: list[int] = [0, 0, 0, 0]
        self.piles: list[int] = [0, 0]
        self.matto_owner: int = -1
        self.matto_paid: int = -1
        self.last_winner: int = -1
        self.matto_debt: bool = False
        self.matto_lost: bool = False
        self.D: int = 0
        self.R: int = 0
        self.r_play: int = 0
        self.end_resti: int = 0
        self.d_final: int = 0
        self.end_counts: tuple[EndCount, EndCount] | None = None
        self.king_rule: bool = rules.king_rule
        self.overtrump: bool = rules.must_overtrump
        self.trick1_declare: bool = rules.declare_timing == "with_first_card"
        self.play_legal: int = 0

    def clone(self) -> Self:
        """An independent copy (lists copied shallowly; ints, tuples and combos are shared)."""
        c = self.__class__.__new__(self.__class__)
        for name in _SCALARS:
            setattr(c, name, getattr(self, name))
        c.hands, c.discards, c.declared = self.hands[:], self.discards[:], self.declared[:]
        c.decl_end, c.trick, c.played_by = self.decl_end[:], self.trick[:], self.played_by[:]
        c.piles, c.tricks, c.events = self.piles[:], self.tricks[:], self.events[:]
        c.history = self.history[:]
        return c

    # ------------------------------------------------------------------ queries
    # Functions of a ``protocol.DealState`` in ``queries`` and ``settle``, bound as methods:
    # ``s.legal_mask()`` calls ``queries.legal_mask(s)`` with no call in between.
    is_terminal = queries.is_terminal
    is_void = queries.is_void
    returns = queries.returns
    offered = queries.offered
    legal_mask = queries.legal_mask
    legal_actions = queries.legal_actions
    action_label = queries.action_label
    parse_action = queries.parse_action
    outcome = settle.deal_result
    result = settle.result_dict

    def info_view(self, seat: int) -> InfoView:
        """What ``seat`` may know, nothing more (see ``mazzo.envs.minchiate.view``)."""
        return view.info_view(self, seat)

    # ------------------------------------------------------------------ transitions
    def apply(self, action: int) -> None:
        """Apply one decision of the player on turn.

        Raises:
            IllegalAction: the action is not legal now (its label, the rule violated and the
                legal labels are in the message); the state is unchanged.
        """
        if self.phase is Phase.PLAY:
            if type(action) is int and 0 <= action < 97 and (self.play_legal >> action) & 1:
                self.history.append((self.to_play, action))
                self._apply_play(action)
                return
            self._reject(action)
        if (
            type(action) is not int
            or not 0 <= action < NUM_ACTIONS
            or not (self.legal_mask() >> action) & 1
        ):
            self._reject(action)
        self.history.append((self.to_play, action))
        if self.phase is Phase.DECLARE:
            self._declare(action)
        elif self.phase is Phase.MATTO_PAY:
            self._settle(action)
        else:
            self._discard(action)

    def _reject(self, action: object) -> NoReturn:
        raise illegal_action(self, action)

    def _score_event(self, team: int, points: int, cause: str, seat: int, trick: int) -> None:
        """One scoring event (M-14.2): D moves by ``points`` for ``team``, then the ratchet."""
        d = self.D + points if team == 0 else self.D - points
        d, r = ratchet(d, self.R, self.rules.resti_unit)
        self.D, self.R = d, r
        self.events.append(Event(team, points, cause, seat, trick, d, r))

    # ------------------------------------------------------------------ discards (M-8)
    def _next_discards(self, done: int) -> None:
        """Open the first discard turn after the ``done`` first ones (``pregame.discard_turns``)
        with cards to discard, else the declarations. Voids the deal when too few legal
        discards are held (M-8.5)."""
        for phase, seat, n in pregame.discard_turns(self.setup, self.dealer)[done:]:
            if n == 0:
                continue
            if pregame.discards_impossible(self.hands[seat], n, self.rules):
                self.void = True  # the same dealer redeals (a series layer's business)
                self.phase, self.to_play = Phase.DONE, -1
            else:
                self.phase, self.to_play, self.to_discard = phase, seat, n
            return
        self._start_declarations()

    def _discard(self, card: int) -> None:
        """One discard, face down into the Fola (M-8.4); opens the next phase when done."""
        seat, bit = self.to_play, BIT[card]
        self.hands[seat] ^= bit
        self.discards[seat] |= bit
        self.fola |= bit
        self.to_discard -= 1
        if not self.to_discard:
            self._next_discards(1 if self.phase is Phase.DISCARD_CUTTER else 2)

    # ------------------------------------------------------------------ declarations (M-9)
    def _start_declarations(self) -> None:
        """Declarations in order S(d+1) .. S(d) (M-9.1), or straight to play under MA-11 (each
        player declares right after his card of trick 1)."""
        if self.trick1_declare:
            return self._start_play()
        self._next_declarer(0)

    def _next_declarer(self, k: int) -> None:
        """Offer declarer number ``k`` on (in order) his combinations; after the last declarer,
        expose the Fola (M-10.1) and play."""
        while k < 4:
            seat = (self.dealer + 1 + k) & 3
            if self._offer(seat, self.hands[seat]):
                self.decl_k = k
                return
            k += 1
        self.fola_exposed = pregame.fola_exposed_after_declarations(self.rules)
        self._start_play()

    def _offer(self, seat: int, holder: int) -> bool:
        """Find ``seat``'s combinations in ``holder``; True if a DECLARE decision is pending
        (under ``auto_all`` they are all declared at once)."""
        combos = pregame.offers(holder, self.rules)
        if not combos:
            return False
        if self.rules.declarations == "auto_all":
            self.declared += [(seat, c) for c in combos]
            self._score_declared(seat, sum(c.score for c in combos))
            return False
        self.offers, self.offer_i, self.decl_sum = combos, 0, 0
        self.phase, self.to_play = Phase.DECLARE, seat
        return True

    def _declare(self, action: int) -> None:
        """DECLARE or SKIP the combination on offer; after the player's last offer, score his
        total and move on."""
        seat, combo = self.to_play, self.offers[self.offer_i]
        if action == DECLARE:
            self.declared.append((seat, combo))
            self.decl_sum += combo.score
        self.offer_i += 1
        if self.offer_i < len(self.offers):
            return
        self.offers, self.offer_i = (), 0
        self._score_declared(seat, self.decl_sum)
        if self.trick1_declare:
            self.phase = Phase.PLAY
            return self._resume_trick1()
        self._next_declarer(self.decl_k + 1)

    def _score_declared(self, seat: int, points: int) -> None:
        """M-9.6: one event per player (or kept for the end count, MA-16)."""
        if not points:
            return
        if self.rules.declaration_score_timing == "end":
            self.decl_end[seat & 1] += points
        else:
            self._score_event(seat & 1, points, "declare", seat, 0)

    # ------------------------------------------------------------------ play (M-11, M-12)
    def _start_play(self) -> None:
        """Open the play: S(d+1) leads trick 1 (M-11.1)."""
        self.phase = Phase.PLAY
        self.leader = self.to_play = seat = (self.dealer + 1) & 3
        self.play_legal = self.hands[seat]

    def _apply_play(self, card: int) -> None:
        seat = self.to_play
        self.hands[seat] ^= BIT[card]
        self.played_by[seat] |= BIT[card]
        trick = self.trick
        trick.append(card)
        if card < 40:
            if self.led < 0:
                self.led = TRUMP
            if card > self.top_trump:
                self.top_trump = card
        elif card == MATTO:
            self.matto_owner = seat
        elif self.led < 0:
            self.led = SUIT[card]
        if self.trick1_declare and not self.tricks:
            if not self._offer(seat, self.hands[seat] | BIT[card]):
                self._resume_trick1()
            return
        if len(trick) < 4:
            self.to_play = seat = (seat + 1) & 3
            self.play_legal = play_mask(
                self.hands[seat], self.led, self.top_trump, self.suits_led, self.king_rule,
                self.overtrump,
            )  # fmt: skip
            return
        self._finish_trick()

    def _resume_trick1(self) -> None:
        """Go on with trick 1 after a player's declarations under ``with_first_card`` (the Fola
        is exposed after the fourth)."""
        n = len(self.trick)
        if n < 4:
            self.to_play = seat = (self.leader + n) & 3
            self.play_legal = queries.plays(self, seat)
            return
        self.fola_exposed = pregame.fola_exposed_after_declarations(self.rules)
        self._finish_trick()

    def _finish_trick(self) -> None:
        """M-11.4, M-11.5, M-12.1 (``kernel.close_trick``): winner, piles, the Matto and the
        capture event."""
        n = len(self.tricks) + 1
        trick, leader, owner = self.trick, self.leader, self.matto_owner
        winner, won, points, matto = close_trick(trick, leader, self.led, owner, n, self.rules)
        team = winner & 1
        self.piles[team] |= won
        if points:
            self._score_event(team, points, "capture", winner, n)
        if matto:  # the Matto stays with its team (M-11.5), lost at the end under MA-22
            self.piles[owner & 1] |= MATTO_BIT
            self.matto_debt = matto == MATTO_DEBT
            self.matto_lost = matto == MATTO_LOST
        if self.led < TRUMP:
            self.suits_led |= 1 << self.led
        self.tricks.append((leader, tuple(trick), winner))
        self.trick = []
        self.led = self.top_trump = -1
        self.leader = self.to_play = winner
        self.play_legal = self.hands[winner]
        if n == 21:
            self.last_winner = winner
            self._end_of_play()

    # ------------------------------------------------------------------ settlement (M-13)
    def _end_of_play(self) -> None:
        """M-13.1: the Matto's team hands over what it owes (``kernel.matto_handover``), or its
        owner chooses the card (the MATTO_PAY phase); then the settlement."""
        owner, agent_pays = self.matto_owner, self.rules.matto_payment == "agent"
        card = kernel.matto_handover(
            self.piles[owner & 1], self.matto_debt, self.matto_lost, agent_pays
        )
        if card == ASK:
            self.phase, self.to_play = Phase.MATTO_PAY, owner
            return
        self._settle(card)

    def _settle(self, card: int) -> None:
        """Apply ``settle.settlement`` after the hand-over of ``card`` (-1 for nothing)."""
        st = settle.settlement(self, card)
        self.piles = list(st.piles)
        self.matto_paid, self.matto_lost = st.paid, st.lost
        self.events += st.events
        self.end_counts, self.r_play, self.end_resti = st.end_counts, st.r_play, st.end_resti
        self.d_final = self.D = st.d_final
        self.R = st.resti
        self.phase, self.to_play, self.play_legal = Phase.DONE, -1, 0

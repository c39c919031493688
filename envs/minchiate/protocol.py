"""What the read-only modules of the Minchiate engine see of a deal: the ``DealState`` protocol.

``view`` (the per-seat ``InfoView``), ``explain`` (why an action is illegal), ``queries``
(legality, labels, returns) and ``settle``'s result records read a deal through this protocol,
never through ``state.State`` itself, so the imports run one way: ``state`` imports them, they
import this. ``state.State`` satisfies it (mypy checks it where ``State`` passes itself or binds
the queries as its methods). Every member is read-only here; the fields are documented once,
here.

Must not import numpy, torch, gymnasium or pettingzoo, nor ``mazzo.envs.minchiate.state``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.minchiate.combos import Combo
from mazzo.envs.minchiate.dealing import Setup
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.scoring import EndCount, Event

__all__ = ["DealState"]


class DealState(Protocol):
    """The fields and queries of a deal that ``view``, ``explain``, ``queries`` and ``settle``
    read. Seats S0..S3; team A = S0 + S2, team B = S1 + S3 (team of a seat = ``seat & 1``)."""

    @property
    def rules(self) -> Rules:
        """The rule flags in force."""

    @property
    def deal(self) -> Deal:
        """Dealer seat and the 97-card stream."""

    @property
    def setup(self) -> Setup:
        """What the cut and the deal decided (M-5 to M-7)."""

    @property
    def dealer(self) -> int:
        """The dealer's seat S(d)."""

    @property
    def cutter(self) -> int:
        """The cutter's seat S(d+3)."""

    @property
    def phase(self) -> Phase:
        """The current phase."""

    @property
    def to_play(self) -> int:
        """The seat on turn, -1 once the deal is over."""

    @property
    def hands(self) -> Sequence[int]:
        """Per seat, the cards held."""

    @property
    def fola(self) -> int:
        """The Fola as it stands (the discards go in face down)."""

    @property
    def discards(self) -> Sequence[int]:
        """Per seat, the cards discarded."""

    @property
    def to_discard(self) -> int:
        """The cards still to discard in a discard phase."""

    @property
    def fola_exposed(self) -> bool:
        """The Fola has been turned face up (M-10.1)."""

    @property
    def decl_k(self) -> int:
        """The number of the declarer in turn (0..3, from S(d+1))."""

    @property
    def offers(self) -> tuple[Combo, ...]:
        """The combinations on offer to the declarer in turn."""

    @property
    def offer_i(self) -> int:
        """The index of the combination on offer."""

    @property
    def decl_sum(self) -> int:
        """The points the declarer in turn has declared so far."""

    @property
    def declared(self) -> Sequence[tuple[int, Combo]]:
        """(seat, combination) of every declaration, in order."""

    @property
    def decl_end(self) -> Sequence[int]:
        """Per team, declared points kept for the end count (MA-16)."""

    @property
    def trick(self) -> Sequence[int]:
        """The cards of the current trick, from ``leader``."""

    @property
    def leader(self) -> int:
        """The seat leading the current trick."""

    @property
    def led(self) -> int:
        """The suit led: 0..3, 4 for trumps, -1 until a card other than the Matto."""

    @property
    def top_trump(self) -> int:
        """The highest trump in the current trick, -1 for none."""

    @property
    def suits_led(self) -> int:
        """Bitmask of the plain suits led in completed tricks (the King rule)."""

    @property
    def play_legal(self) -> int:
        """The legal plays of the seat on turn in the PLAY phase, kept by every transition (so
        queries write nothing); 0 otherwise."""

    @property
    def played_by(self) -> Sequence[int]:
        """Per seat, the cards played (the current trick included)."""

    @property
    def piles(self) -> Sequence[int]:
        """Per team, the cards won."""

    @property
    def tricks(self) -> Sequence[tuple[int, tuple[int, ...], int]]:
        """(leader, cards, winner) per completed trick."""

    @property
    def last_winner(self) -> int:
        """The winner of trick 21, -1 before."""

    @property
    def matto_owner(self) -> int:
        """The seat that played the Matto, -1 before."""

    @property
    def matto_debt(self) -> bool:
        """The Matto's team owes a card for it (M-11.5)."""

    @property
    def matto_paid(self) -> int:
        """The card paid for the Matto at the end, -1 for none."""

    @property
    def matto_lost(self) -> bool:
        """The Matto itself went to the other team (MA-22)."""

    @property
    def D(self) -> int:
        """Points(A) - points(B) since the start of the deal, after the conversions (M-14.1)."""

    @property
    def R(self) -> int:
        """The net resti, positive in team A's favour (M-14.1)."""

    @property
    def events(self) -> Sequence[Event]:
        """The scoring events so far, each with D and R after it."""

    @property
    def end_counts(self) -> tuple[EndCount, EndCount] | None:
        """The teams' end counts, once the deal is over."""

    @property
    def r_play(self) -> int:
        """R before the final event."""

    @property
    def d_final(self) -> int:
        """D after the final event."""

    @property
    def end_resti(self) -> int:
        """The resti of the end rounding."""

    @property
    def void(self) -> bool:
        """The deal was voided (M-8.5)."""

    @property
    def king_rule(self) -> bool:
        """The King rule is in force (the flag, kept for the play)."""

    @property
    def overtrump(self) -> bool:
        """Trumps must overtrump (the flag ``must_overtrump``, kept for the play)."""

    @property
    def trick1_declare(self) -> bool:
        """Declarations come with the first card (``declare_timing``)."""

    @property
    def history(self) -> Sequence[tuple[int, int]]:
        """(seat, action id) of every decision so far."""

    def offered(self) -> Combo | None: ...
    def legal_mask(self) -> int: ...
    def returns(self) -> tuple[int, int, int, int]: ...

"""What the read-only modules of the Calabresella engine see of a deal: the ``DealState`` protocol.

``view`` (the per-seat ``InfoView``) and ``queries`` (legality, labels, returns, the result) read
a deal through this protocol, never through ``state.State`` itself, so the imports run one way:
``state`` imports them, they import this. ``state.State`` satisfies it (mypy checks it where
``State`` binds the queries as its methods). Every member is read-only here; the fields are
documented once, here.

Must not import numpy, torch, gymnasium or pettingzoo, nor ``mazzo.envs.calabresella.state``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from mazzo.envs.calabresella.actions import Phase
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.scoring import Settlement
from mazzo.envs.cards.deal import Deal

__all__ = ["DealState"]


class DealState(Protocol):
    """The fields and queries of a deal that ``view`` and ``queries`` read. Positions are
    A0..A2 (see ``state``); a side is 0 for the soloist, 1 for the defenders."""

    @property
    def rules(self) -> Rules:
        """The rule flags in force."""

    @property
    def deal(self) -> Deal:
        """Dealer seat and dealing order."""

    @property
    def seat_of(self) -> tuple[int, int, int]:
        """The player seat deciding for each position."""

    @property
    def phase(self) -> Phase:
        """The current phase."""

    @property
    def pos(self) -> int:
        """The position on turn (0 once the deal is over)."""

    @property
    def to_play(self) -> int:
        """The seat on turn, -1 once the deal is over."""

    @property
    def hands(self) -> Sequence[int]:
        """Per position, the cards held."""

    @property
    def monte(self) -> tuple[int, int, int, int]:
        """The four cards dealt to the monte, in dealing order."""

    @property
    def set_aside(self) -> int:
        """The cards out of play: the discards, or the monte in Solissimo."""

    @property
    def bids(self) -> Sequence[tuple[int, int]]:
        """(position, action id) in bidding order."""

    @property
    def high_bid(self) -> int:
        """The highest contract bid so far, -1 for none."""

    @property
    def high_pos(self) -> int:
        """The position that made the highest bid, -1 for none."""

    @property
    def passed(self) -> int:
        """Bitmask of the positions that passed."""

    @property
    def no_chiamo(self) -> bool:
        """This deal forbids Chiamo (a redeal under ``all_pass = next_deal_no_chiamo``)."""

    @property
    def contract(self) -> int:
        """The contract index, -1 before the auction ends or when void."""

    @property
    def soloist(self) -> int:
        """The soloist's position, -1 before the auction ends."""

    @property
    def called(self) -> int:
        """The called card of Chiamo, -1 before the call."""

    @property
    def giver(self) -> int:
        """Who gave the called card: a position or ``exchanges.GIVER_*``."""

    @property
    def returned(self) -> int:
        """The card the soloist returned to the giver, -1 before."""

    @property
    def received(self) -> Sequence[int]:
        """Per position, the monte cards received."""

    @property
    def discarded(self) -> Sequence[int]:
        """Per position, the cards discarded (set aside)."""

    @property
    def split(self) -> int:
        """The Scegliete split chosen (bit i: the i-th monte card goes to D1), -1 before."""

    @property
    def left(self) -> int:
        """The cards still to discard in a discard phase."""

    @property
    def trick(self) -> Sequence[int]:
        """The cards of the current trick in play order."""

    @property
    def leader(self) -> int:
        """The position leading the current trick."""

    @property
    def tricks(self) -> Sequence[tuple[int, tuple[int, ...], int]]:
        """The completed tricks as (leader seat, cards, winner seat)."""

    @property
    def position_tricks(self) -> Sequence[tuple[int, tuple[int, ...], int]]:
        """The completed tricks as (leader position, cards, winner position)."""

    @property
    def tricks_won(self) -> Sequence[int]:
        """Tricks won per side."""

    @property
    def piles(self) -> Sequence[int]:
        """Cards won per side."""

    @property
    def played_by(self) -> Sequence[int]:
        """Per position, the cards played so far."""

    @property
    def void(self) -> Sequence[int]:
        """Per position, the suits shown void (bit s = suit s)."""

    @property
    def history(self) -> Sequence[tuple[int, int]]:
        """(position, action id) of every decision so far."""

    @property
    def settlement(self) -> Settlement | None:
        """The settlement once the last trick is played (None before and for a void deal)."""

    @property
    def d1(self) -> int:
        """The position of the first defender after the soloist."""

    @property
    def d2(self) -> int:
        """The position of the second defender."""

    def legal_mask(self) -> int: ...
    def monte_mask(self) -> int: ...

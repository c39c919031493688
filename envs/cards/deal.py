"""The explicit deal: the one door through which randomness enters an engine.

A deal of either game is a dealer seat plus a complete order of the deck (RULES.md D.3: the
Minchiate ``stream`` in exposure order, the Calabresella ``deck`` in dealing order). Engines are
pure functions of (deal, rules, actions). This module owns the type, its validation and its
conversion to and from card codes; shuffling with a generator is the caller's business.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mazzo.envs.cards.deck import Deck

__all__ = ["Deal"]


@dataclass(frozen=True, slots=True)
class Deal:
    """A dealer seat and a permutation of the deck's card ids.

    Build one with :meth:`from_codes` (validated) or :meth:`from_order` (validated); the engines
    trust a ``Deal`` they are given.
    """

    dealer: int
    order: tuple[int, ...]

    @classmethod
    def from_order(
        cls, deck: Deck, dealer: int, order: Sequence[int], n_seats: int, title: str = ""
    ) -> Deal:
        """Validate a card-id order and a dealer seat; ``title`` (the game's name) words the
        messages (``a Calabresella deal needs 40 cards``).

        Raises:
            ValueError: wrong card count, a repeated or unknown id, or a dealer outside
                ``0 .. n_seats-1``; the message names the problem.
        """
        _check_dealer(dealer, n_seats)
        order = tuple(order)
        if len(order) != deck.size:
            raise ValueError(f"{_a_deal(deck, title)} needs {deck.size} cards, got {len(order)}")
        seen = 0
        for card in order:
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < deck.size:
                raise ValueError(f"unknown card id {card!r} for the {deck.name} deck")
            if (seen >> card) & 1:
                raise ValueError(f"card {deck.labels[card]} appears twice in the deal")
            seen |= 1 << card
        return cls(dealer, order)

    @classmethod
    def from_codes(
        cls, deck: Deck, dealer: int, codes: Sequence[str], n_seats: int, title: str = ""
    ) -> Deal:
        """Validate card codes (RULES.md notation) and a dealer seat (``title`` as above).

        Raises:
            ValueError: as :meth:`from_order`, or an unknown card code.
        """
        if isinstance(codes, str) or not isinstance(codes, Sequence):
            raise ValueError(f"the deal's cards must be a list of card codes, got {codes!r}")
        _check_dealer(dealer, n_seats)
        if len(codes) != deck.size:
            raise ValueError(f"{_a_deal(deck, title)} needs {deck.size} cards, got {len(codes)}")
        seen: dict[int, int] = {}
        for pos, code in enumerate(codes):
            card = deck.parse(code)
            if card in seen:
                raise ValueError(
                    f"card {deck.labels[card]} appears twice in the deal "
                    f"(positions {seen[card]} and {pos})"
                )
            seen[card] = pos
        return cls(dealer, tuple(deck.parse(c) for c in codes))

    def codes(self, deck: Deck) -> list[str]:
        """The order as card codes."""
        return [deck.labels[c] for c in self.order]


def _a_deal(deck: Deck, title: str) -> str:
    """``a Calabresella deal`` / ``an ... deal``; without a title, ``a deal of the <deck> deck``."""
    if not title:
        return f"a deal of the {deck.name} deck"
    return f"{'an' if title[:1].lower() in 'aeiou' else 'a'} {title} deal"


def _check_dealer(dealer: object, n_seats: int) -> None:
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n_seats:
        raise ValueError(f"dealer must be a seat 0..{n_seats - 1}, got {dealer!r}")

"""Deck tables: per-card facts as tuples indexed by card id, built once at import.

Owns the generic ``Deck`` (card codes, suits, trick strength within a suit, card values and
per-suit bitmasks, plus parsing and formatting of card codes). The games' decks are their own:
the 40-card Italian deck in ``mazzo.envs.calabresella.deck``, the 97-card Minchiate deck in
``mazzo.envs.minchiate.deck``.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "EXCUSE",
    "Deck",
    "counter_values",
    "suit_masks",
]

EXCUSE = "M"  # the card code of an excuse (the Minchiate Matto), which its owner's side keeps


@dataclass(frozen=True, slots=True)
class Deck:
    """Per-card facts as tuples indexed by card id ``0 .. size-1``.

    Attributes:
        name: short deck name (``italian40`` or ``minchiate97``).
        labels: the canonical card code of each id (RULES.md notation).
        suit: suit index of each card; the meaning of the numbers is per deck (see the builders).
        strength: trick strength within the card's suit; a higher number beats a lower one.
        value: card value in the deck's own unit (``value_unit``).
        value_unit: ``"third"`` (Calabresella counts in thirds) or ``"point"`` (Minchiate).
        suit_mask: bitmask of the cards of each suit index.
        suit_names: one-letter or word name of each suit index (display only).
        aliases: extra accepted input spellings, mapped to canonical codes.
    """

    name: str
    labels: tuple[str, ...]
    suit: tuple[int, ...]
    strength: tuple[int, ...]
    value: tuple[int, ...]
    value_unit: str
    suit_mask: tuple[int, ...]
    suit_names: tuple[str, ...]
    pattern: str
    aliases: tuple[tuple[str, str], ...] = ()
    _index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        index = {code: i for i, code in enumerate(self.labels)}
        for alias, canonical in self.aliases:
            index[alias] = index[canonical]
        object.__setattr__(self, "_index", index)

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return len(self.labels)

    @property
    def full_mask(self) -> int:
        """Bitmask with every card of the deck."""
        return (1 << len(self.labels)) - 1

    def parse(self, code: str) -> int:
        """Card code -> card id.

        Raises:
            ValueError: the code is not a card of this deck (the message names it and the grammar).
        """
        card = self._index.get(code) if isinstance(code, str) else None
        if card is None:
            raise ValueError(
                f"unknown card code {code!r} for the {self.name} deck (expected {self.pattern})"
            )
        return card

    def format(self, card: int) -> str:
        """Card id -> canonical card code."""
        return self.labels[card]

    def parse_many(self, codes: Iterable[str] | str) -> list[int]:
        """Card codes (a sequence, or one whitespace-separated string) -> card ids, in order."""
        if isinstance(codes, str):
            codes = codes.split()
        return [self.parse(c) for c in codes]

    def mask_of(self, codes: Iterable[str] | str) -> int:
        """Card codes -> bitmask. Raises ValueError on an unknown or repeated code."""
        mask = 0
        for card in self.parse_many(codes):
            if (mask >> card) & 1:
                raise ValueError(f"card {self.labels[card]} is given twice")
            mask |= 1 << card
        return mask

    def codes(self, mask: int) -> list[str]:
        """Bitmask -> card codes in canonical index order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.labels[low.bit_length() - 1])
            mask ^= low
        return out

    def format_mask(self, mask: int) -> str:
        """Bitmask -> space-separated card codes in canonical index order."""
        return " ".join(self.codes(mask))


def suit_masks(suit: Sequence[int], n_suits: int) -> tuple[int, ...]:
    """The bitmask of the cards of each suit index ``0 .. n_suits-1``, given each card's suit."""
    return tuple(sum(1 << c for c, s in enumerate(suit) if s == k) for k in range(n_suits))


def counter_values(deck: Deck) -> tuple[int, ...]:
    """Each card's worth as a counter its side can lose in a trick: its ``value``, and 0 for
    the excuse (never captured: it goes back to its owner's side)."""
    pairs = zip(deck.labels, deck.value, strict=True)
    return tuple(0 if label == EXCUSE else v for label, v in pairs)

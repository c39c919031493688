"""Calabresella dealing (RULES.md C-1.3, C-3.1): the check of a ``Deal``, which player seat
decides for each active position, and the three hands and the monte a dealing order gives. Pure
functions returning values.

Must not import numpy, torch, gymnasium or pettingzoo, nor ``state`` (the State imports this).
"""

from __future__ import annotations

from mazzo.envs.calabresella.kernel import BIT
from mazzo.envs.cards.deal import Deal

__all__ = ["check_deal", "dealt_hands", "monte_cards", "seat_positions"]


def check_deal(deal: Deal, players: int) -> None:
    """Raise ValueError unless ``deal`` has a dealer seat of ``players`` players and 40 cards."""
    if not 0 <= deal.dealer < players:
        n = players
        raise ValueError(f"dealer must be a seat 0..{n - 1} for {n} players, got {deal.dealer}")
    if len(deal.order) != 40:
        raise ValueError(f"a Calabresella deal needs 40 cards, got {len(deal.order)}")


def seat_positions(players: int, dealer: int) -> tuple[int, int, int]:
    """``seat_of``: the seat deciding for A0, A1, A2 (the dealer's right and onwards). With 4
    players the dealer is idle; a due (2 players) A0 is the non-dealer, who controls nothing
    else, and the dealer controls A1 and A2."""
    d, n = dealer, players
    if n == 2:
        return (d + 1) % 2, d, d
    return (d + 1) % n, (d + 2) % n, (d + 3) % n


def dealt_hands(order: tuple[int, ...]) -> list[int]:
    """The hands of A0, A1, A2: three rounds of four cards (``order[12 j + 4 k ..]`` to A``k``)."""
    hands = [0, 0, 0]
    for j in range(3):
        for k in range(3):
            base = 12 * j + 4 * k
            hands[k] |= BIT[order[base]] | BIT[order[base + 1]]
            hands[k] |= BIT[order[base + 2]] | BIT[order[base + 3]]
    return hands


def monte_cards(order: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The four monte cards, the last four of the order."""
    return order[36], order[37], order[38], order[39]

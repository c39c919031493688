"""The Calabresella rules kernel: every card-play and scoring rule as a pure integer function.

Owns the rules that both the engine (``State``) and the search agents
(``mazzo.agents.calabresella``) apply, written once: the legal plays (follow suit, C-6.2), the trick
winner (C-6.3), trick closing (who wins, which side's pile gains what, the set-aside going with the
last trick, C-6.5), the thirds of a pile, and the settlement of a finished deal (C-7 to C-9: points,
the last-trick point, success, cappotto and stramazzo, contract values, the raw and pairwise
payments). No ``State`` here: hands, tricks and piles are ints and tuples, positions are A0..A2,
sides are 0 = soloist and 1 = defenders.

The per-card tables come from ``mazzo.envs.calabresella.deck`` and are re-exported for the callers.

Must not import numpy, torch, gymnasium or pettingzoo, nor any other Calabresella module but
``deck`` and ``rules`` (and of the card core only ``mazzo.envs.cards.bits``).
"""

from __future__ import annotations

from collections.abc import Sequence

from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.cards.bits import bit_list

__all__ = [
    "ACES",
    "BIT",
    "COUNTERS",
    "DEFENDERS",
    "FULL40",
    "MAX_POINTS",
    "SOLOIST",
    "STRENGTH",
    "SUIT",
    "SUIT_CARDS",
    "SUIT_MASK",
    "THIRDS",
    "TOTAL_THIRDS",
    "TRICKS",
    "close_trick",
    "deal_points",
    "legal_play_list",
    "legal_plays",
    "multiplier",
    "payments",
    "pile_thirds",
    "soloist_pairwise",
    "success",
    "trick_winner",
    "unit",
]

SUIT = ITALIAN_40.suit
STRENGTH = ITALIAN_40.strength
SUIT_MASK = ITALIAN_40.suit_mask
THIRDS = ITALIAN_40.value  # card value in thirds of a point (ace 3; 3, 2, K, N, J 1)
BIT = tuple(1 << c for c in range(40))
FULL40 = (1 << 40) - 1
TOTAL_THIRDS = 32
MAX_POINTS = TOTAL_THIRDS // 3 + 1  # 11: the card points and the last trick (C-7.2)
TRICKS = 12
SOLOIST, DEFENDERS = 0, 1
ACES = sum(1 << c for c in range(40) if THIRDS[c] == 3)
COUNTERS = sum(1 << c for c in range(40) if THIRDS[c] == 1)
assert 3 * ACES.bit_count() + COUNTERS.bit_count() == TOTAL_THIRDS == sum(THIRDS)
# SUIT_CARDS[s][m]: the card ids of suit s whose rank bits (10-bit) are set in m, in order.
SUIT_CARDS = tuple(
    tuple(tuple(10 * s + r for r in range(10) if (m >> r) & 1) for m in range(1024))
    for s in range(4)
)


# ---------------------------------------------------------------------------------- trick play
def legal_plays(hand: int, led_suit: int) -> int:
    """The cards of ``hand`` that may be played (C-6.2): the led suit if held, else any card.
    ``led_suit`` is -1 when leading."""
    if led_suit < 0:
        return hand
    return (hand & SUIT_MASK[led_suit]) or hand


def legal_play_list(hand: int, led_suit: int) -> list[int]:
    """``legal_plays`` as a list of card ids in increasing order (table-driven)."""
    if led_suit >= 0:
        follow = (hand >> (10 * led_suit)) & 1023
        if follow:
            return list(SUIT_CARDS[led_suit][follow])
    return bit_list(hand)


def trick_winner(cards: Sequence[int]) -> int:
    """Index, in play order, of the card winning a (possibly unfinished) trick: the strongest
    card of the led suit (C-6.3; no trumps)."""
    led = SUIT[cards[0]]
    best = 0
    for i in range(1, len(cards)):
        c = cards[i]
        if SUIT[c] == led and STRENGTH[c] > STRENGTH[cards[best]]:
            best = i
    return best


def close_trick(
    cards: Sequence[int], leader: int, soloist: int, last: bool, set_aside: int
) -> tuple[int, int, int]:
    """Close a finished trick of three cards led by position ``leader``.

    Returns ``(winner position, winning side, pile gain)``: the gain is the trick's cards, plus
    the set-aside cards when this is the last trick (C-6.5).
    """
    a, b, c = cards
    w = 1 if SUIT[b] == SUIT[a] and STRENGTH[b] > STRENGTH[a] else 0
    if SUIT[c] == SUIT[a] and STRENGTH[c] > STRENGTH[cards[w]]:
        w = 2
    winner = (leader + w) % 3  # w = trick_winner(cards), unrolled for three cards
    gain = BIT[a] | BIT[b] | BIT[c]
    if last:
        gain |= set_aside
    return winner, SOLOIST if winner == soloist else DEFENDERS, gain


def pile_thirds(pile: int) -> int:
    """Card thirds in a pile bitmask (ace 3, each 3/2/K/N/J 1)."""
    return 3 * (pile & ACES).bit_count() + (pile & COUNTERS).bit_count()


# ---------------------------------------------------------------------------------- settlement
def deal_points(sol_thirds: int, last_side: int) -> tuple[int, int]:
    """(soloist, defenders) points: each side's thirds truncated to whole points, plus one point
    for the side that won the last trick (C-7.1; they always sum to 11, C-7.2). ``sol_thirds``
    counts the soloist side's whole pile, set-aside cards included."""
    return (
        sol_thirds // 3 + (last_side == SOLOIST),
        (TOTAL_THIRDS - sol_thirds) // 3 + (last_side == DEFENDERS),
    )


def success(sol_thirds: int, last_side: int) -> bool:
    """Whether the soloist made his contract: at least 6 of the 11 points (C-8.1)."""
    return sol_thirds // 3 + (last_side == SOLOIST) >= 6


def multiplier(rules: Rules, sol_thirds: int, sol_tricks: int) -> tuple[int, str]:
    """(m, name): cappotto when a side took all 12 tricks (C-8.2); stramazzo when a side holds
    all the card points while the other side won a trick (C-8.3, CA-12); else (1, '')."""
    if sol_tricks in (0, TRICKS):
        return rules.cappotto_mult, "cappotto"
    if rules.stramazzo:
        limit = 2 if rules.stramazzo_def == "truncated" else 0  # the other side's thirds at most
        if min(sol_thirds, TOTAL_THIRDS - sol_thirds) <= limit:
            return rules.stramazzo_mult, "stramazzo"
    return 1, ""


def unit(rules: Rules, contract: int, sol_thirds: int, sol_tricks: int, last_side: int) -> int:
    """What one defender's share of the deal is worth (C-9.1): the contract value times the
    multiplier, times the point difference under ``payout_mode = difference``."""
    value = rules.contract_values[contract] * multiplier(rules, sol_thirds, sol_tricks)[0]
    if rules.payout_mode == "difference":
        p_sol, p_def = deal_points(sol_thirds, last_side)
        value *= abs(p_sol - p_def)
    return value


def payments(
    rules: Rules, contract: int, soloist: int, sol_thirds: int, sol_tricks: int, last_side: int
) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(raw, pairwise) payments per position A0..A2 of a finished deal (C-9.1, C-9.5).

    Raw: the game-point increments (the winning side's members each gain ``unit``). Pairwise:
    the soloist settles with each defender, so he gets +-2 units and each defender -+1.
    """
    u = unit(rules, contract, sol_thirds, sol_tricks, last_side)
    made = success(sol_thirds, last_side)
    raw = [0 if made else u] * 3
    pair = [-u if made else u] * 3
    raw[soloist] = u if made else 0
    pair[soloist] = 2 * u if made else -2 * u
    return (raw[0], raw[1], raw[2]), (pair[0], pair[1], pair[2])


def soloist_pairwise(
    rules: Rules, contract: int, sol_thirds: int, sol_tricks: int, last_side: int
) -> int:
    """The soloist's pairwise payment (the value the search maximises): +-2 units."""
    u = unit(rules, contract, sol_thirds, sol_tricks, last_side)
    return 2 * u if success(sol_thirds, last_side) else -2 * u

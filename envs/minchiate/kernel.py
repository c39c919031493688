"""The Minchiate rules kernel: every rule of the card play and of the settlement as one pure
function over integers and bitmasks, with no ``State``.

Owns the legal plays (M-11.3), the trick winner and the closing of a trick (M-11.4, M-11.5,
M-12.1: the winner, the cards won, the capture points, what happens to the Matto), the resti
ratchet and the end rounding (M-14.2, M-14.3), the Matto's hand-over at the end (M-13.1, MA-22,
MA-23), the end count of a pile (M-13.2) and the settlement of a finished play (M-13.3). The
engine (``mazzo.envs.minchiate.state``, ``settle``) and the search agents' playouts and endgame
solver (``mazzo.agents.minchiate.rollout``) call these same functions, so they cannot disagree
(HE-14).

The combinations of a pile are looked up in a cache keyed by the pile's combination cards
(``pile_combos``): the solver's leaves repeat them, and the engine reads the same cache.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only), nor any other module of
the engine than its tables, flags and combinations.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from mazzo.envs.cards.tricks import trick_winner
from mazzo.envs.minchiate.combos import Combo, find_combos
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.tables import (
    BIT,
    CAPTURE_VALUE,
    COMBO_CARDS,
    DISCARDABLE,
    KING,
    MATTO,
    MATTO_BIT,
    SUIT_MASK,
    TRUMP,
    TRUMPS,
    VALUE,
    WIN_KEY,
    card_points,
)

__all__ = [
    "ASK",
    "MATTO_DEBT",
    "MATTO_KEPT",
    "MATTO_LOST",
    "NO_MATTO",
    "auto_payment",
    "close_trick",
    "combo_points",
    "death_points",
    "end_combos",
    "end_rounding",
    "end_total",
    "last_trick_points",
    "matto_handover",
    "play_mask",
    "ratchet",
    "settle",
    "surplus_points",
    "winner_seat",
]

# What closing a trick does with the Matto (``close_trick``).
NO_MATTO, MATTO_KEPT, MATTO_DEBT, MATTO_LOST = range(4)
# ``matto_handover``: the Matto's owner chooses the card (``matto_payment = agent``).
ASK = -2


# ------------------------------------------------------------------------------ card play
def play_mask(
    hand: int, led: int, top_trump: int, suits_led: int, king_rule: bool, overtrump: bool
) -> int:
    """M-11.3: the legal plays from ``hand`` (a card bitmask).

    Args:
        hand: the player's cards.
        led: the led suit (``TRUMP`` for trumps); -1 when leading or when only the Matto has
            been played.
        top_trump: the highest trump in the trick (its card id), -1 if none.
        suits_led: bit ``s`` set when plain suit ``s`` was led in an earlier trick.
        king_rule: the King rule (M-11.3 c) is in force.
        overtrump: ``must_overtrump``: a player who plays a trump must beat the highest one if
            he can.
    """
    if led < 0:
        return hand
    if led != TRUMP:
        if king_rule and top_trump >= 0 and hand & KING[led] and not (suits_led >> led) & 1:
            return KING[led]
        follow = hand & SUIT_MASK[led]
        if follow:
            return follow | (hand & MATTO_BIT)
    trumps = hand & TRUMPS
    if not trumps:
        return hand
    if overtrump and top_trump >= 0:
        higher = trumps >> (top_trump + 1) << (top_trump + 1)
        if higher:
            trumps = higher
    return trumps | (hand & MATTO_BIT)


def winner_seat(trick: Sequence[int], leader: int, led: int) -> int:
    """M-11.4: the seat that wins the four cards ``trick`` (in play order from ``leader``) when
    the led suit is ``led`` (the Matto never wins)."""
    return (leader + trick_winner(trick, WIN_KEY[led])) & 3


def close_trick(
    trick: Sequence[int], leader: int, led: int, matto_owner: int, n: int, rules: Rules
) -> tuple[int, int, int, int]:
    """M-11.4, M-11.5, M-12.1: close the complete trick number ``n`` (1..21).

    Returns:
        (winner seat, the cards the winner's team takes (the Matto never: it stays with its
        owner's team), the capture points the winner's team scores (0 without
        ``capture_bonus``), and what happens to the Matto: ``NO_MATTO`` (not in the trick),
        ``MATTO_KEPT``, ``MATTO_DEBT`` (the other team won it: a card is owed) or ``MATTO_LOST``
        (``matto_last_trick_lost`` and this is trick 21: the Matto goes at the settlement)).
    """
    winner = winner_seat(trick, leader, led)
    team = winner & 1
    cards = BIT[trick[0]] | BIT[trick[1]] | BIT[trick[2]] | BIT[trick[3]]
    points = 0
    if rules.capture_bonus:
        i = (team ^ leader ^ 1) & 1  # trick positions of the other team: i, i + 2
        points = CAPTURE_VALUE[trick[i]] + CAPTURE_VALUE[trick[i + 2]]
    matto = NO_MATTO
    if cards & MATTO_BIT:
        if n == 21 and rules.matto_last_trick_lost:
            matto = MATTO_LOST
        elif matto_owner & 1 != team:
            matto = MATTO_DEBT
        else:
            matto = MATTO_KEPT
    return winner, cards & ~MATTO_BIT, points, matto


# ------------------------------------------------------------------------------ resti
def ratchet(d: int, r: int, unit: int) -> tuple[int, int]:
    """M-14.2: convert every full ``unit`` of lead into one resto."""
    if d >= unit:
        q = d // unit
        return d - q * unit, r + q
    if d <= -unit:
        q = -d // unit
        return d + q * unit, r - q
    return d, r


def end_rounding(d: int, unit: int) -> int:
    """M-14.3: sign(d) x ceil(|d| / unit)."""
    if d > 0:
        return (d + unit - 1) // unit
    if d < 0:
        return -((unit - 1 - d) // unit)
    return 0


# ------------------------------------------------------------------------------ the Matto
def auto_payment(pile: int) -> int:
    """M-13.1 default (MA-23): the card a team pays for the Matto from ``pile`` (which holds a
    card other than the Matto): the lowest-index 0-value non-T29 card, else the lowest-valued
    card, ties to the lowest index."""
    zero = pile & DISCARDABLE
    if zero:
        return (zero & -zero).bit_length() - 1
    candidates = pile & ~MATTO_BIT
    return min((c for c in range(97) if (candidates >> c) & 1), key=lambda c: (VALUE[c], c))


def matto_handover(pile: int, debt: bool, lost: bool, agent_pays: bool) -> int:
    """M-13.1, MA-22: what the Matto's team (holding ``pile``) hands to the other team after
    trick 21: ``MATTO`` (the Matto itself: it was lost on the last trick, or the team owes a
    card and won none), the card it pays (``auto_payment``), ``ASK`` when the owner chooses
    (``agent_pays``), or -1 for nothing."""
    if lost:
        return MATTO
    if not debt:
        return -1
    if not pile & ~MATTO_BIT:
        return MATTO
    return ASK if agent_pays else auto_payment(pile)


def death_points(card: int, rules: Rules) -> int:
    """MA-22: the points the receiving team scores at once when ``card`` handed over is the
    Matto and ``matto_death_bonus`` is on (else 0)."""
    return VALUE[MATTO] if card == MATTO and rules.matto_death_bonus else 0


# ------------------------------------------------------------------------------ end count
@lru_cache(maxsize=1 << 16)
def _combos(cards: int, diecine: str, matto_bonus: bool, bonus_own: bool) -> tuple[Combo, ...]:
    return find_combos(cards, diecine, matto_bonus, bonus_own)


@lru_cache(maxsize=1 << 16)
def _combo_points(cards: int, diecine: str, matto_bonus: bool, bonus_own: bool) -> int:
    return sum(c.score for c in _combos(cards, diecine, matto_bonus, bonus_own))


def end_combos(pile: int, rules: Rules) -> tuple[Combo, ...]:
    """M-13.2, MA-16: the combinations of a team's pile that score at the end (none without
    ``end_recount_combos``), looked up by the pile's combination cards."""
    if not rules.end_recount_combos:
        return ()
    return _combos(
        pile & COMBO_CARDS, rules.diecine, rules.matto_bonus_at_end, rules.matto_bonus_in_own_combo
    )


def combo_points(pile: int, rules: Rules) -> int:
    """The points of ``end_combos(pile, rules)``."""
    if not rules.end_recount_combos:
        return 0
    return _combo_points(
        pile & COMBO_CARDS, rules.diecine, rules.matto_bonus_at_end, rules.matto_bonus_in_own_combo
    )


def surplus_points(cards: int, rules: Rules) -> int:
    """M-13.2: one point per pile card beyond ``surplus_base`` (``cards`` is the count)."""
    return max(0, cards - rules.surplus_base)


def last_trick_points(won_last: bool, rules: Rules) -> int:
    """M-13.2: the bonus for winning trick 21."""
    return rules.last_trick_bonus if won_last else 0


def end_total(pile: int, won_last: bool, declared: int, rules: Rules) -> int:
    """T_X of M-13.2 for a team with ``pile`` (after the Matto settlement): card points,
    combinations, surplus, the last trick and ``declared`` (the team's declarations kept for the
    end under ``declaration_score_timing = end``, else 0)."""
    return (
        card_points(pile)
        + combo_points(pile, rules)
        + surplus_points(pile.bit_count(), rules)
        + last_trick_points(won_last, rules)
        + declared
    )


def settle(
    piles: tuple[int, int],
    matto_owner: int,
    card: int,
    last_winner: int,
    decl_end: Sequence[int],
    d: int,
    r: int,
    rules: Rules,
) -> tuple[int, int, int, int, int, int]:
    """M-13: the settlement of a finished play.

    Args:
        piles: the teams' piles after trick 21 (the Matto with its owner's team).
        matto_owner: the seat that played the Matto.
        card: what the Matto's team hands over (``matto_handover``, or the owner's choice), -1
            for nothing.
        last_winner: the seat that won trick 21.
        decl_end: per team, the declarations kept for the end count.
        d, r: D and R after trick 21.
        rules: the flags.

    Returns:
        (pile A, pile B, D and R after the Matto's death bonus (MA-22), D after the final net
        event ``T_A - T_B`` (M-13.3), the final R after the end rounding (M-14.3)).
    """
    pa, pb = piles
    if card >= 0:
        if matto_owner & 1 == 0:
            pa, pb = pa ^ BIT[card], pb | BIT[card]
        else:
            pa, pb = pa | BIT[card], pb ^ BIT[card]
        points = death_points(card, rules)
        if points:
            d, r = ratchet(d + points if matto_owner & 1 else d - points, r, rules.resti_unit)
    last = last_winner & 1
    net = end_total(pa, last == 0, decl_end[0], rules) - end_total(
        pb, last == 1, decl_end[1], rules
    )
    return pa, pb, d, r, d + net, r + end_rounding(d + net, rules.resti_unit)

"""Fast playouts of determinized Minchiate worlds, and the exact endgame solver.

``rollout_action(state)`` is a greedy policy with perfect information (it reads every hand of
the world it is given), built on the heuristic's rules: discard and declare like the heuristic;
lead a king of a suit nobody can trump yet, keep the master trump for the last trick, else lead
low from length; follow by feeding a partner nobody can beat, winning with the cheapest card
nobody after me can beat, or ducking with the cheapest card (the Matto instead of a counter
that would be lost). ``solve(state, team)`` plays the last tricks exactly: alpha-beta over the
two partnerships on the final result, with the rules kernel's trick closing and settlement
(``mazzo.envs.minchiate.kernel``: the engine's own functions).

The value of a finished deal for team A is ``R + point_weight * d_final / resti_unit``: the net
resti (what the game pays) plus a small share of the final point difference, which breaks ties
between results worth the same resti. Team B's value is its negation.

``blind=True`` (the playouts of ``pimc:discards=blind``) takes the other hands away from the
leads: a king is led at its suit's first lead (nobody has shown a void in it yet), a plain card
from the suit with the most cards left in the other hands together, as a player at the table
who sees only his hand and the cards out of play must choose. Perfect-information leads avoid
the suits an opponent is void in, so they never let a discarder trump the suit he emptied.

Both serve the determinized search (``pimc``). Must not import torch or training/.
"""

from __future__ import annotations

from mazzo.agents.minchiate.heuristic import HIGH_MASTERS, cheapest, discard_keep, pay_choice, power
from mazzo.agents.minchiate.knowledge import (
    ABOVE_TRUMP,
    BIT,
    CAPTURE_VALUE,
    KING,
    KING_CARD,
    MATTO,
    MATTO_BIT,
    PLAIN,
    STRENGTH,
    SUIT,
    SUIT_MASK,
    TRUMP,
    TRUMPS,
    VALUE,
    WIN_KEY,
)
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.tricks import trick_winner
from mazzo.envs.minchiate.actions import DECLARE, Phase
from mazzo.envs.minchiate.kernel import (
    MATTO_DEBT,
    MATTO_LOST,
    close_trick,
    matto_handover,
    play_mask,
    ratchet,
    settle,
)
from mazzo.envs.minchiate.state import State
from mazzo.envs.minchiate.tables import SUIT_BASE

__all__ = ["deal_value", "playout", "rollout_action", "solve"]


def _suit_top(suit: int) -> tuple[int, ...]:
    """The table of one suit, each mask from the mask without its lowest bit."""
    keys = [100 + STRENGTH[SUIT_BASE[suit] + i] for i in range(14)]
    top = [0] * (1 << 14)
    for m in range(1, 1 << 14):
        low = m & -m
        top[m] = max(top[m ^ low], keys[low.bit_length() - 1])
    return tuple(top)


# SUIT_TOP[s][m]: the highest trick key (100 + strength) among the cards of plain suit s whose
# 14 rank bits are set in m (0 for none).
SUIT_TOP = tuple(_suit_top(s) for s in range(4))


def deal_value(state: State, team: int, point_weight: float) -> float:
    """The value of a finished deal for ``team`` (see the module docstring)."""
    v = state.R + point_weight * state.d_final / state.rules.resti_unit
    return v if team == 0 else -v


def max_key(cards: int, led: int) -> int:
    """The highest trick key among ``cards`` in a trick led in ``led`` (0..3, 4 trumps)."""
    trumps = cards & TRUMPS
    if trumps:
        return 200 + trumps.bit_length()
    if led < TRUMP:
        return SUIT_TOP[led][(cards >> SUIT_BASE[led]) & 0x3FFF]
    return 0


def rollout_action(s: State, blind: bool = False) -> int:
    """The greedy perfect-information choice of the player on turn in ``s`` (its leads
    ``blind`` where asked: see the module docstring)."""
    phase = s.phase
    if phase is Phase.PLAY:
        return _play(s, blind)
    if phase is Phase.DECLARE:
        return DECLARE
    if phase is Phase.MATTO_PAY:
        return pay_choice(s.info_view(s.to_play))
    hand = s.hands[s.to_play]
    return min(bit_list(s.legal_mask()), key=lambda c: discard_keep(c, hand))


def _beaten(s: State, seat: int, key: int, top: int) -> bool:
    """Whether an opponent of ``seat`` still to play after him can beat trick key ``key``
    (the trick's highest trump being ``top`` after his card)."""
    n = len(s.trick) + 1
    team = seat & 1
    for k in range(1, 5 - n):
        q = (seat + k) & 3
        if q & 1 == team:
            continue
        m = play_mask(s.hands[q], s.led, top, s.suits_led, s.king_rule, s.overtrump)
        if max_key(m, s.led) > key:
            return True
    return False


def _play(s: State, blind: bool) -> int:
    seat = s.to_play
    hand = s.hands[seat]
    legal = s.legal_mask()
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if s.led < 0:
        return _lead(s, seat, hand, legal, blind)
    keys = WIN_KEY[s.led]
    trick = s.trick
    best_i = trick_winner(trick, keys)
    best_key = keys[trick[best_i]]
    team = seat & 1
    top = s.top_trump
    if (s.leader + best_i) & 1 == team and not _beaten(s, seat, best_key, top):
        feeds = legal & ~MATTO_BIT & ~HIGH_MASTERS
        feeds = sum(BIT[c] for c in bit_list(feeds) if VALUE[c])
        if feeds:  # feed the counter most at risk
            return max(bit_list(feeds), key=lambda c: (c > 40, VALUE[c], -c))
        return _duck(s, legal, False)
    value = sum(CAPTURE_VALUE[c] for c in trick)
    spend = value >= 5 or len(s.tricks) >= 17
    for c in sorted(bit_list(legal), key=power):
        if keys[c] <= best_key or c == MATTO or (BIT[c] & HIGH_MASTERS and not spend):
            continue
        if not _beaten(s, seat, keys[c], c if c < 40 and c > top else top):
            return c  # the cheapest sure winner
    return _duck(s, legal, True)


def _duck(s: State, legal: int, losing: bool) -> int:
    plain = legal & ~MATTO_BIT
    cheap = sum(BIT[c] for c in bit_list(plain) if not VALUE[c])
    if legal & MATTO_BIT and ((not cheap and losing) or s.hands[s.to_play].bit_count() == 2):
        return MATTO
    return cheapest(cheap or plain or legal)


def _lead(s: State, seat: int, hand: int, legal: int, blind: bool) -> int:
    hands = s.hands
    others = 0
    for q in range(4):
        if q != seat:
            others |= hands[q]
    if hand.bit_count() == 2:
        if hand & MATTO_BIT:
            return MATTO
        trumps = hand & TRUMPS
        if trumps:
            top = trumps.bit_length() - 1
            if not others & ABOVE_TRUMP[top] and hand & ~BIT[top]:
                return (hand & ~BIT[top]).bit_length() - 1  # keep the master for trick 21
    opp = others if blind else hands[(seat + 1) & 3] | hands[(seat + 3) & 3]
    for suit in range(4):
        if hand & KING[suit] and not s.suits_led >> suit & 1:
            trumpers = [
                q
                for q in ((seat + 1) & 3, (seat + 3) & 3)
                if not blind and not hands[q] & SUIT_MASK[suit] and hands[q] & TRUMPS
            ]
            if not trumpers:
                return KING_CARD[suit]  # a king nobody can trump yet
    plain = hand & PLAIN & ~(KING[0] | KING[1] | KING[2] | KING[3])
    if plain:
        best_suit, best_n = -1, -1
        for suit in range(4):
            if plain & SUIT_MASK[suit]:
                n = (opp & SUIT_MASK[suit]).bit_count() + (0 if hand & KING[suit] else 20)
                if n > best_n:
                    best_suit, best_n = suit, n
        cards = plain & SUIT_MASK[best_suit]
        return min(bit_list(cards), key=lambda c: STRENGTH[c])
    return cheapest(hand & ~MATTO_BIT or legal)


def playout(
    s: State, exact_tricks: int, team: int, point_weight: float, blind: bool = False
) -> float:
    """Play ``s`` to the end in place (greedy, its leads ``blind`` where asked, then the last
    ``exact_tricks`` tricks exactly) and return its value for ``team``."""
    while not s.is_terminal():
        if s.phase is Phase.PLAY and 21 - len(s.tricks) <= exact_tricks:
            return solve(s, team, point_weight)
        s.apply(rollout_action(s, blind))
    return deal_value(s, team, point_weight)


# ---------------------------------------------------------------------------------- endgame
def solve(s: State, team: int, point_weight: float = 0.0) -> float:
    """The value for ``team`` of ``s`` (in PLAY) when both partnerships play the remaining
    tricks perfectly (alpha-beta; perfect information). The Matto debt is settled with the
    automatic payment, which is also the best one whenever the pile holds a zero-value card
    outside every combination."""
    v = _Search(s, point_weight).run()
    return v if team == 0 else -v


class _Search:
    """Alpha-beta over the remaining tricks on bitmasks; team A maximises."""

    def __init__(self, s: State, point_weight: float) -> None:
        self.s = s
        self.rules = s.rules
        self.unit = s.rules.resti_unit
        self.w = point_weight / self.unit
        self.hands = list(s.hands)
        self.king_rule, self.overtrump = s.king_rule, s.overtrump
        self.decl = s.decl_end

    def run(self) -> float:
        s = self.s
        return self._node(
            list(s.trick), s.leader, s.led, s.top_trump, s.suits_led, s.piles[0], s.piles[1],
            s.D, s.R, s.matto_owner, s.matto_debt, len(s.tricks), -1e18, 1e18,
        )  # fmt: skip

    def _node(
        self, trick: list[int], leader: int, led: int, top: int, suits: int, pa: int, pb: int,
        d: int, r: int, mo: int, debt: bool, done: int, alpha: float, beta: float,
    ) -> float:  # fmt: skip
        seat = (leader + len(trick)) & 3
        hands = self.hands
        moves = play_mask(hands[seat], led, top, suits, self.king_rule, self.overtrump)
        order = bit_list(moves)
        if len(order) > 1:
            order.sort(key=lambda c: -(c if c < 41 else 41 + STRENGTH[c]))
        maximise = seat & 1 == 0
        best = -1e18 if maximise else 1e18
        for c in order:
            hands[seat] ^= BIT[c]
            trick.append(c)
            if c < 40:
                nled = TRUMP if led < 0 else led
                ntop = c if c > top else top
            else:
                nled = led if led >= 0 or c == MATTO else SUIT[c]
                ntop = top
            nmo = seat if c == MATTO else mo
            if len(trick) == 4:
                v = self._close(trick, leader, nled, suits, pa, pb, d, r, nmo, debt, done,
                                alpha, beta)  # fmt: skip
            else:
                v = self._node(trick, leader, nled, ntop, suits, pa, pb, d, r, nmo, debt, done,
                               alpha, beta)  # fmt: skip
            trick.pop()
            hands[seat] ^= BIT[c]
            if maximise:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return best

    def _close(
        self, trick: list[int], leader: int, led: int, suits: int, pa: int, pb: int, d: int,
        r: int, mo: int, debt: bool, done: int, alpha: float, beta: float,
    ) -> float:  # fmt: skip
        n = done + 1
        winner, won, points, matto = close_trick(trick, leader, led, mo, n, self.rules)
        team = winner & 1
        if team == 0:
            pa |= won
        else:
            pb |= won
        if points:
            d, r = ratchet(d + points if team == 0 else d - points, r, self.unit)
        lost = False
        if matto:  # the Matto stays with its team
            if mo & 1 == 0:
                pa |= MATTO_BIT
            else:
                pb |= MATTO_BIT
            lost = matto == MATTO_LOST
            debt = debt or matto == MATTO_DEBT
        if led < TRUMP:
            suits |= 1 << led
        if n == 21:
            return self._leaf(pa, pb, d, r, mo, debt, lost, winner)
        return self._node([], winner, -1, -1, suits, pa, pb, d, r, mo, debt, n, alpha, beta)

    def _leaf(
        self, pa: int, pb: int, d: int, r: int, mo: int, debt: bool, lost: bool, last: int
    ) -> float:
        """M-13 (``kernel.settle``, the engine's settlement) with the automatic payment, as
        team A's value."""
        card = matto_handover(pb if mo & 1 else pa, debt, lost, False) if mo >= 0 else -1
        _, _, _, _, d, r = settle((pa, pb), mo, card, last, self.decl, d, r, self.rules)
        return r + self.w * d

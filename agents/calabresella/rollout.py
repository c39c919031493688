"""Fast playouts of determinized Calabresella worlds, and the exact endgame solver.

``rollout_action(state)`` is a greedy policy with perfect information (it reads every hand of
the world it is given): the heuristic's auction and exchange rules, and card play that cashes
cards nobody can beat, wins a trick only when the win is certain, feeds counters to a partner
whose card is certain to hold, and otherwise gives up the cheapest card. ``solve(state)`` plays
the last tricks exactly: alpha-beta over the two sides, the soloist maximising his settlement.

Every rule comes from the engine kernel (``mazzo.envs.calabresella.kernel``): legal plays, the trick
winner, the settlement. The solver's inner trick close (``_Search._close``) is the one inlined
form, for speed; ``tests/calabresella/test_kernel.py`` proves it equal to ``kernel.close_trick``
on random positions. Leaf values are the kernel's ``soloist_pairwise``, tabulated once per
(rules, contract, set-aside thirds, card-point weight).

The *card-point tie-break* (``points_bonus``, PIMC's ``points``): a deal's settlement pays the
contract's value whether the soloist's side took 18 thirds or 30, so a search valuing the
settlement alone is indifferent between giving a counter away and keeping it wherever the
outcome does not hang on it, and plays sure gifts a card player never would. With a weight
``points`` > 0 every playout's value gains ``points * (t / 32 - 1/2)`` per pairwise unit, ``t``
the soloist side's thirds at the end (set-aside included): the soloist's value moves by up to
``points`` game points (none of the card points to all), each defender's by half that, as the
pairwise payments split, so the values stay zero-sum and a gift costs its giver.

Both serve the determinized search (``pimc``). Must not import torch or training/.
"""

from __future__ import annotations

from functools import lru_cache

from mazzo.agents.calabresella.heuristic import (
    best_call,
    cheapest_to_lose,
    choose_bid,
    choose_split,
)
from mazzo.agents.calabresella.knowledge import ABOVE, STRENGTH, SUIT, SUIT_MASK, THIRDS, lowest
from mazzo.envs.calabresella.actions import Phase
from mazzo.envs.calabresella.kernel import (
    DEFENDERS,
    SOLOIST,
    TOTAL_THIRDS,
    TRICKS,
    legal_play_list,
    legal_plays,
    pile_thirds,
    soloist_pairwise,
    trick_winner,
)
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.state import State
from mazzo.envs.cards.bits import bit_list

__all__ = ["final_value", "playout", "points_bonus", "rollout_action", "seat_bonus", "solve"]

_PLAY = Phase.PLAY  # bound once: an enum attribute costs a lookup per use
_WEAKNESS = tuple(-s for s in STRENGTH).__getitem__  # sort key: the strongest card first


def rollout_action(s: State) -> int:
    """The greedy perfect-information choice of the player on turn in ``s``."""
    phase = s.phase
    hand = s.hands[s.pos]
    if phase is _PLAY:
        return _play(s, hand)
    if phase is Phase.BID:
        return choose_bid(hand, s.legal_mask())
    if phase is Phase.CALL:
        return best_call(hand)[0]
    if phase is Phase.SPLIT:
        return choose_split(hand, s.monte_mask())
    return cheapest_to_lose(hand, 0)


def _play(s: State, hand: int) -> int:
    pos, trick = s.pos, s.trick
    others = [(pos + k) % 3 for k in range(1, 3 - len(trick))]  # players after me
    if not trick:
        rivals = s.hands[(pos + 1) % 3] | s.hands[(pos + 2) % 3]
        for c in sorted(bit_list(hand), key=lambda c: -THIRDS[c]):
            if ABOVE[c] & rivals == 0 and (rivals & SUIT_MASK[SUIT[c]]):
                return c  # a sure winner that draws cards
        suit = max(range(4), key=lambda t: (hand & SUIT_MASK[t]).bit_count())
        return lowest(hand & SUIT_MASK[suit], prefer_cheap=False)
    led = SUIT[trick[0]]
    best = trick_winner(trick)
    win_card = trick[best]
    win_pos = (s.leader + best) % 3
    my_side = pos == s.soloist
    later = 0
    for p in others:
        later |= s.hands[p] & SUIT_MASK[led] if (p == s.soloist) != my_side else 0
    follow = hand & SUIT_MASK[led]
    partner = (win_pos == s.soloist) == my_side
    if partner and ABOVE[win_card] & later == 0:
        pool = legal_plays(hand, led)
        return max(bit_list(pool), key=lambda c: (THIRDS[c], -STRENGTH[c]))  # feed
    if follow:
        sure = follow & ABOVE[win_card]
        sure = sum(1 << c for c in bit_list(sure) if ABOVE[c] & later == 0)
        if sure:
            return min(bit_list(sure), key=lambda c: STRENGTH[c])
        return lowest(follow)
    return lowest(hand)


def playout(s: State) -> None:
    """Play ``s`` to the end with ``rollout_action`` (in place)."""
    while not s.is_terminal():
        s.apply(rollout_action(s))


# ---------------------------------------------------------------------------------- endgame
def solve(s: State, points: float = 0.0) -> tuple[float, ...]:
    """Exact returns per seat of ``s`` (in PLAY) with every side playing perfectly: the soloist
    maximises his pairwise settlement (with the card-point tie-break of weight ``points``), the
    defenders minimise it."""
    aside = pile_thirds(s.set_aside)
    search = _Search(s.soloist, leaf_table(s.rules, s.contract, aside, points))
    value = search.run(
        list(s.hands), list(s.trick), s.leader, s.pos, pile_thirds(s.piles[0]), s.tricks_won[0],
        len(s.tricks),
    )  # fmt: skip
    unit = value / 2  # value = the soloist's pairwise settlement = +2 or -2 units
    out = [0.0] * s.rules.players
    for p in range(3):
        out[s.seat_of[p]] += (2 if p == s.soloist else -1) * unit
    return tuple(out)


def leaf_index(thirds: int, tricks: int, last_side: int) -> int:
    """Index in a ``leaf_table`` of (soloist thirds without the set-aside, soloist tricks,
    last-trick side)."""
    return (thirds * (TRICKS + 1) + tricks) * 2 + last_side


def points_bonus(points: float, sol_thirds: int) -> float:
    """The card-point tie-break per pairwise unit (see the module docstring) of a finished deal
    whose soloist side holds ``sol_thirds``: the soloist's value gains twice this, each
    defender loses it once."""
    return points * (sol_thirds / TOTAL_THIRDS - 0.5)


def seat_bonus(
    points: float, sol_thirds: int, soloist: int, seat_of: tuple[int, ...], seat: int
) -> float:
    """``seat``'s share of the tie-break: the sum over the positions it holds (none for the
    idle dealer of four players, both defenders' for the one defender of two)."""
    if not points:
        return 0.0
    d = points_bonus(points, sol_thirds)
    return sum(2 * d if p == soloist else -d for p in range(3) if seat_of[p] == seat)


def final_value(s: State, seat: int, points: float = 0.0) -> float:
    """``seat``'s value of the finished deal ``s``: its return plus its share of the tie-break
    (none for a void deal)."""
    value = float(s.returns()[seat])
    st = s.settlement
    if points and st is not None:
        value += seat_bonus(points, st.thirds[0], st.soloist, s.seat_of, seat)
    return value


@lru_cache(maxsize=512)
def leaf_table(rules: Rules, contract: int, aside: int, points: float = 0.0) -> tuple[float, ...]:
    """The solver's leaf values, ``table[leaf_index(thirds, tricks, last_side)]``: the kernel's
    ``soloist_pairwise`` (times the aperta payout factor) for every soloist pile of ``thirds``
    before the set-aside cards (``aside`` thirds, which go to the last trick's side, C-6.5),
    plus twice the tie-break of weight ``points`` (``points_bonus``)."""
    factor = rules.aperta_payout_factor if rules.aperta else 1
    out = []
    for thirds in range(TOTAL_THIRDS - aside + 1):
        for tricks in range(TRICKS + 1):
            for last in (SOLOIST, DEFENDERS):
                final = thirds + (aside if last == SOLOIST else 0)
                value = float(soloist_pairwise(rules, contract, final, tricks, last) * factor)
                if points:
                    value += 2 * points_bonus(points, final)
                out.append(value)
    return tuple(out)


class _Search:
    """Alpha-beta over the remaining tricks; hands and the trick are mutated and restored."""

    def __init__(self, soloist: int, leaves: tuple[float, ...]) -> None:
        self.soloist = soloist
        self.leaves = leaves

    def run(
        self, hands: list[int], trick: list[int], leader: int, pos: int, thirds: int,
        tricks: int, done: int,
    ) -> float:  # fmt: skip
        return self._node(hands, trick, leader, pos, thirds, tricks, done, -1e9, 1e9)

    def _node(
        self, hands: list[int], trick: list[int], leader: int, pos: int, thirds: int,
        tricks: int, done: int, alpha: float, beta: float,
    ) -> float:  # fmt: skip
        moves = legal_play_list(hands[pos], SUIT[trick[0]] if trick else -1)
        if len(moves) > 1:  # strong cards first: better cut-offs
            moves.sort(key=_WEAKNESS)
        maximise = pos == self.soloist
        best = -1e9 if maximise else 1e9
        for c in moves:
            hands[pos] ^= 1 << c
            trick.append(c)
            if len(trick) == 3:
                v = self._close(hands, trick, leader, thirds, tricks, done, alpha, beta)
            else:
                nxt = pos + 1 if pos < 2 else 0
                v = self._node(hands, trick, leader, nxt, thirds, tricks, done, alpha, beta)
            trick.pop()
            hands[pos] ^= 1 << c
            if maximise:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def _close(
        self, hands: list[int], trick: list[int], leader: int, thirds: int, tricks: int,
        done: int, alpha: float, beta: float,
    ) -> float:  # fmt: skip
        # kernel.close_trick, inlined (test_kernel proves them equal): the trick winner, and
        # the soloist's thirds and tricks after the trick (the set-aside is in the leaf table).
        a, b, c = trick
        w = 0
        if SUIT[b] == SUIT[a] and STRENGTH[b] > STRENGTH[a]:
            w = 1
        if SUIT[c] == SUIT[a] and STRENGTH[c] > STRENGTH[trick[w]]:
            w = 2
        winner = (leader + w) % 3
        if winner == self.soloist:
            thirds += THIRDS[a] + THIRDS[b] + THIRDS[c]
            tricks += 1
        if done + 1 == TRICKS:
            side = SOLOIST if winner == self.soloist else DEFENDERS
            return self.leaves[(thirds * (TRICKS + 1) + tricks) * 2 + side]
        saved = trick[:]
        trick.clear()
        v = self._node(hands, trick, winner, winner, thirds, tricks, done + 1, alpha, beta)
        trick.extend(saved)
        return v

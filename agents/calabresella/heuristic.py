"""The Calabresella heuristic baseline, version 1: small named rules a card player recognises.

Bidding from a hand evaluation (sure tricks from the top sequences, long suits) with a threshold
per contract; calling the missing card that adds the most tricks; giving back and discarding the
least useful cards (never a master, few thirds, from short suits); splitting the open monte 2-2
by usefulness; and card play: cash masters, lead from length, defenders lead into the soloist's
voids, win cheaply when last to play, duck otherwise, feed counters to a partner who is winning,
discard cheap cards, keep a master for the last trick.

Versions stay loadable (``heuristic@1``) so tables stay comparable; ``heuristic`` is the latest.
Must not import torch or training/.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mazzo.agents.calabresella.knowledge import (
    ABOVE,
    BY_STRENGTH,
    STRENGTH,
    SUIT,
    SUIT_MASK,
    THIRDS,
    highest,
    lowest,
    masters,
    trick_winner,
)
from mazzo.envs.calabresella.actions import BID_BASE, PASS, SPLIT_BASE, Contract, Phase
from mazzo.envs.calabresella.view import InfoView
from mazzo.envs.cards.bits import bit_list

__all__ = [
    "BID_THRESHOLDS",
    "HeuristicV1",
    "best_call",
    "cheapest_to_lose",
    "choose_bid",
    "choose_split",
    "estimated_tricks",
]

# Estimated tricks needed to bid each contract (see estimated_tricks); tuned on self-play.
BID_THRESHOLDS = {
    Contract.CHIAMO: 7.5,
    Contract.SOLO: 6.5,
    Contract.SOLISSIMO: 8.0,
    Contract.DIVIDETE: 9.0,
    Contract.SCEGLIETE: 10.0,
}
MONTE_BONUS = {Contract.CHIAMO: 1.0, Contract.SOLO: 1.0}  # the monte improves the hand


def estimated_tricks(hand: int) -> float:
    """Sure tricks, plus half a trick per card beyond four (and beyond the sure ones) in a suit
    headed by the 3 or the 2."""
    est = 0.0
    for s in range(4):
        n = (hand & SUIT_MASK[s]).bit_count()
        top = BY_STRENGTH[s]
        sure = 0
        while sure < 10 and hand >> top[sure] & 1:
            sure += 1
        est += sure
        if n > max(4, sure) and (hand >> top[0] & 1 or hand >> top[1] & 1):
            est += 0.5 * (n - max(4, sure))
    return est


def best_call(hand: int) -> tuple[int, float]:
    """The missing card (the highest missing card of some suit) that adds the most."""
    best, best_est = -1, -1.0
    for s in range(4):
        for c in BY_STRENGTH[s]:
            if not hand >> c & 1:
                est = estimated_tricks(hand | 1 << c) + THIRDS[c] / 10
                if est > best_est:
                    best, best_est = c, est
                break
    return best, best_est


def choose_bid(hand: int, legal_mask: int) -> int:
    """The highest legal contract whose threshold ``hand`` reaches, else pass (or, when passing
    is not allowed, the lowest legal contract)."""
    est = estimated_tricks(hand)
    call_est = best_call(hand)[1]
    for c in sorted(Contract, reverse=True):
        if not legal_mask >> (BID_BASE + c) & 1:
            continue
        value = (call_est if c == Contract.CHIAMO else est) + MONTE_BONUS.get(c, 0.0)
        if value >= BID_THRESHOLDS[c]:
            return BID_BASE + c
    if legal_mask >> PASS & 1:
        return PASS
    return BID_BASE + min(c for c in Contract if legal_mask >> (BID_BASE + c) & 1)


def choose_split(hand: int, monte: int) -> int:
    """The 2-2 split giving D1 the two monte cards most useful to ``hand``."""
    cards = sorted(bit_list(monte))
    gain = sorted(range(4), key=lambda i: -keep_score(cards[i], hand | 1 << cards[i], 0))
    return SPLIT_BASE + (1 << gain[0]) + (1 << gain[1])


def keep_score(card: int, hand: int, gone: int) -> float:
    """How much a card is worth keeping: masters most, then thirds, long suits, strength."""
    is_master = ABOVE[card] & ~(hand | gone) == 0
    length = (hand & SUIT_MASK[SUIT[card]]).bit_count()
    return 100 * is_master + 10 * THIRDS[card] + 2 * length + STRENGTH[card] / 10


_KEEP_THIRDS = tuple(10 * THIRDS[c] for c in range(len(THIRDS)))
_KEEP_STRENGTH = tuple(STRENGTH[c] / 10 for c in range(len(STRENGTH)))


def cheapest_to_lose(hand: int, gone: int) -> int:
    """The card of ``hand`` with the lowest keep score (the first such card by id): the
    scores of ``keep_score``, summed in its order, one suit length at a time."""
    known = hand | gone
    best, best_score = -1, float("inf")
    for s in range(4):
        cards = hand & SUIT_MASK[s]
        length = 2 * cards.bit_count()
        while cards:
            low = cards & -cards
            c = low.bit_length() - 1
            cards ^= low
            score = (100 * (ABOVE[c] & ~known == 0) + _KEEP_THIRDS[c] + length) + _KEEP_STRENGTH[c]
            if score < best_score:
                best, best_score = c, score
    return best


@dataclass
class HeuristicV1:
    """Version 1 of the Calabresella heuristic (see the module docstring)."""

    name: str = "heuristic@1"

    def act(self, view: InfoView, rng: np.random.Generator) -> int:
        """A legal action for the seat on turn (deterministic; ``rng`` is unused)."""
        action = self.decide(view)
        if not view.legal_mask >> action & 1:  # a safety net; the tests assert it never fires
            action = bit_list(view.legal_mask)[0]
        return action

    def decide(self, view: InfoView) -> int:
        """The rules' choice for the seat on turn."""
        phase = view.phase
        if phase is Phase.PLAY:
            action = self.play(view)
        elif phase is Phase.BID:
            action = self.bid(view)
        elif phase is Phase.CALL:
            action = best_call(view.hand)[0]
        elif phase is Phase.SPLIT:
            action = self.split(view)
        else:  # RETURN and the three discard phases
            action = cheapest_to_lose(view.hand, _gone(view))
        return action

    # ------------------------------------------------------------------ auction and exchanges
    def bid(self, view: InfoView) -> int:
        """The highest legal contract whose threshold the hand reaches, else pass."""
        return choose_bid(view.hand, view.legal_mask)

    def split(self, view: InfoView) -> int:
        """D1 takes the two open monte cards most useful to his hand (a 2-2 split)."""
        return choose_split(view.hand, view.known_monte)

    # ------------------------------------------------------------------ card play
    def play(self, view: InfoView) -> int:
        """Lead or follow (see the module docstring)."""
        hand, trick = view.hand, view.trick
        gone = _gone(view)
        if not trick:
            return self.lead(view, gone)
        led = SUIT[trick[0]]
        win_i = trick_winner(trick)
        win_card = trick[win_i]
        win_pos = (view.leader + win_i) % 3
        mine = view.position == view.soloist
        partner_winning = (win_pos == view.soloist) == mine and win_pos != view.position
        last = len(trick) == 2
        secure = last or ABOVE[win_card] & ~(gone | hand) == 0
        follow = hand & SUIT_MASK[led]
        if not follow:
            return self._discard(hand, gone, feed=partner_winning and secure)
        if partner_winning:
            return self._feed(follow, gone | hand) if secure else lowest(follow)
        beats = follow & ABOVE[win_card]
        if not beats:
            return lowest(follow)
        if last:
            return min(bit_list(beats), key=lambda c: STRENGTH[c])
        own_masters = masters(beats, gone | hand & ~beats)
        if own_masters:
            return min(bit_list(own_masters), key=lambda c: STRENGTH[c])
        return lowest(follow)

    def lead(self, view: InfoView, gone: int) -> int:
        """Choose a lead: keep a master for the last trick, defenders attack the soloist's voids,
        cash masters, else lead low from the longest suit."""
        hand = view.hand
        top = masters(hand, gone)
        if hand.bit_count() == 2 and top and hand & ~top:
            return lowest(hand & ~top)  # keep the master for trick 12 and the set-aside cards
        if view.position != view.soloist:
            sol_void = view.void[view.soloist]
            attack = sum(SUIT_MASK[s] for s in range(4) if sol_void >> s & 1) & hand
            if attack:
                return max(bit_list(attack), key=lambda c: (THIRDS[c], STRENGTH[c]))
        if top:
            suit = max(range(4), key=lambda s: ((top & SUIT_MASK[s]).bit_count(), _length(hand, s)))
            return highest(top & SUIT_MASK[suit])
        suit = max(range(4), key=lambda s: _length(hand, s))
        return lowest(hand & SUIT_MASK[suit], prefer_cheap=False)

    @staticmethod
    def _feed(cards: int, safe: int) -> int:
        """Give a winning partner the card with the most thirds that is not a master."""
        non_master = cards & ~masters(cards, safe & ~cards)
        pool = non_master or cards
        return max(bit_list(pool), key=lambda c: (THIRDS[c], -STRENGTH[c]))

    @staticmethod
    def _discard(hand: int, gone: int, feed: bool) -> int:
        if feed:
            return HeuristicV1._feed(hand, gone | hand)
        return cheapest_to_lose(hand, gone)


def _length(hand: int, suit: int) -> int:
    return (hand & SUIT_MASK[suit]).bit_count()


def _gone(view: InfoView) -> int:
    """Cards out of play from this seat's point of view: played, in the trick, own discards."""
    gone = view.played_by[0] | view.played_by[1] | view.played_by[2] | view.discards
    for c in view.trick:
        gone |= 1 << c
    return gone | view.partner_hand

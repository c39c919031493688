"""The Minchiate heuristic baseline, version 1: small named rules a card player recognises.

Before play:

- **discard_short_suits**: discard the plain cards of the shortest suits first (to trump them
  sooner), keeping the small cards of a suit whose king is held (a bare king must be played as
  soon as its suit is led), and trumps to the last, the lowest first.
- **declare_always**: declare every combination (the points come at once; the cards shown
  would mostly show anyway).

Card play (the seat's ``InfoView`` only; what other seats may hold comes from the play:
``knowledge.play_exclusions``):

- **feed_partner**: partner winning and safe (an opponent still to play beats him with a
  rough chance of at most ``safe_feed``): give him the counter most at risk in my hand (kings,
  then the trumps with the most stronger trumps still out; never one of the five 10-point
  masters, which are safe anyway).
- **last_to_play_wins_cheaply**: the fourth player takes the trick with his cheapest winning
  card when the trick holds a counter or that card is a zero-value one.
- **win_cheaply**: otherwise win the trick with the cheapest card that beats it so far, even if
  a later player may still beat it (measured: much better than waiting for a safe win); one of
  the five top trumps only for a trick holding ``spend_value`` points or in the last five
  tricks.
- **duck_cheaply**: otherwise give the cheapest card: zero-value plain cards, then low
  zero-value trumps (T29, a combination card, last of those); a counter only when nothing else
  is legal.
- **matto_saves_counter**: when every other legal card is a counter and the trick is not
  safely ours, play the Matto instead (it returns to my team; a card of little value is owed).
- **matto_before_the_end**: play the Matto with two cards left (it could not win trick 21).
- **fight_for_the_last_trick**: leading with two cards left and one master trump, lead the
  other card and keep the master for trick 21 (10 points).
- **cash_kings**: lead the king of a suit never led yet (it wins unless someone can trump it
  already; later the King rule would force it out under a trump), the suit with most cards out.
- **lead_low_from_length**: otherwise lead the lowest plain card of the suit with the most
  cards still unseen (the others must follow rather than trump), avoiding suits whose king I
  hold; with no plain cards, the lowest zero-value trump (a master trump if only counters
  are left).
- **king_rule**: the King rule forces a single card; nothing to decide.
- **pay_least**: for the Matto payment (``matto_payment = agent``), the card of my team's pile
  that leaves the best result (exact: the piles are public).

The thresholds and the choice between rules were set by duplicate self-play (``docs/agents.md``
lists the measurements).

Versions stay loadable (``heuristic@1``) so tables stay comparable; ``heuristic`` is the latest.
Must not import torch or training/.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mazzo.agents.minchiate.knowledge import (
    ABOVE_TRUMP,
    ALL_KINGS,
    BIT,
    COUNTERS,
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
    gone_cards,
    play_exclusions,
    trick_state,
)
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.minchiate.actions import DECLARE, Phase
from mazzo.envs.minchiate.kernel import end_rounding, end_total
from mazzo.envs.minchiate.tables import T29
from mazzo.envs.minchiate.view import InfoView

__all__ = ["HeuristicV1", "Table", "cheapest", "discard_keep", "pay_choice", "power"]

HIGH_MASTERS = sum(BIT[t] for t in range(35, 40))  # T36..T40: worth 10 each


def discard_keep(card: int, hand: int) -> float:
    """How much ``card`` is worth keeping when discarding (lowest goes first): trumps most (the
    higher the more), then plain cards of suits whose king is held, then the longer suits."""
    if card < 40:
        return 1000 + card
    if card == MATTO:
        return 2000
    suit = SUIT[card]
    length = (hand & SUIT_MASK[suit]).bit_count()
    guard = 100 if hand & KING[suit] else 0
    return guard + 10 * length + STRENGTH[card] / 100


def pay_choice(view: InfoView) -> int:
    """The card of my team's pile whose payment leaves my team the best result (resti, then
    points): the piles are public and nothing else can change once the Matto is paid."""
    rules, team = view.rules, view.seat & 1
    last = view.tricks[-1][2] & 1 if view.tricks else -1
    mine, theirs = view.piles[team], view.piles[team ^ 1]
    decl = [0, 0]  # declarations scored at the end (``declaration_score_timing = end``)
    if rules.declaration_score_timing == "end":
        for seat, combo in view.declared:
            decl[seat & 1] += combo.score
    best, best_key = -1, (-(10**9), -(10**9))
    for card in bit_list(view.legal_mask):
        t_mine = end_total(mine & ~BIT[card], last == team, decl[team], rules)
        t_theirs = end_total(theirs | BIT[card], last != team, decl[team ^ 1], rules)
        net = t_mine - t_theirs if team == 0 else t_theirs - t_mine  # T_A - T_B
        d = view.D + net
        r = view.R + end_rounding(d, rules.resti_unit)
        key = (r if team == 0 else -r, d if team == 0 else -d)
        if key > best_key:
            best, best_key = card, key
    return best


@dataclass
class Table:
    """One decision's reading of the table from a view: what is still out, who may hold what,
    and the trick so far."""

    view: InfoView
    me: int = 0
    hand: int = 0
    unseen: int = 0
    possible: list[int] = field(default_factory=list)
    led: int = -1
    win_i: int = -1
    top: int = -1
    later: list[int] = field(default_factory=list)

    @classmethod
    def read(cls, view: InfoView) -> Table:
        t = cls(view)
        t.me, t.hand = view.seat, view.hand
        t.unseen = ((1 << 97) - 1) & ~(gone_cards(view) | view.hand)
        absent = play_exclusions(view)
        t.possible = [t.unseen & ~absent[q] if q != t.me else 0 for q in range(4)]
        t.led, t.win_i, t.top = trick_state(view.trick)
        t.later = [(t.me + k) & 3 for k in range(1, 4 - len(view.trick))]
        return t

    def winner_seat(self) -> int:
        return (self.view.leader + self.win_i) & 3 if self.win_i >= 0 else -1

    def share(self, seat: int) -> float:
        """The chance that a given unseen card lies in ``seat``'s hand, roughly."""
        return min(1.0, self.view.hand_sizes[seat] / (self.unseen.bit_count() or 1))

    def holds_any(self, seat: int, cards: int) -> float:
        """Rough chance that ``seat`` holds at least one of ``cards``."""
        n = (self.possible[seat] & cards).bit_count()
        return 1.0 - (1.0 - self.share(seat)) ** n if n else 0.0

    def beat_chance(self, key: int, team: int) -> float:
        """Rough chance that an opponent of ``team`` still to play beats a card of trick key
        ``key`` (``WIN_KEY``: trumps 201..240, the led suit 100..113)."""
        led = self.led
        keep = 1.0
        for q in self.later:
            if q & 1 == team:
                continue
            void = 1.0 - self.holds_any(q, SUIT_MASK[led]) if led != TRUMP else 1.0
            if key > 200:  # a trump is winning: a higher trump beats it, if he may trump
                p = void * self.holds_any(q, ABOVE_TRUMP[key - 201])
            else:  # a plain card: a higher card of the suit, or any trump when void
                higher = sum(BIT[c] for c in bit_list(SUIT_MASK[led]) if WIN_KEY[led][c] > key)
                p = self.holds_any(q, higher) + void * self.holds_any(q, TRUMPS)
            keep *= 1.0 - min(1.0, p)
        return 1.0 - keep


@dataclass
class HeuristicV1:
    """Version 1 of the Minchiate heuristic (see the module docstring).

    Attributes:
        safe_feed: the largest chance that partner's card is beaten at which he is fed.
        spend_value: the counters a trick must hold before a master of the top five is spent
            on it (before the last five tricks).
    """

    safe_feed: float = 0.25
    spend_value: int = 5
    name: str = "heuristic@1"

    def act(self, view: InfoView, rng: np.random.Generator) -> int:
        """A legal action for the seat on turn (deterministic; ``rng`` is unused)."""
        action = self.decide(view)
        if not view.legal_mask >> action & 1:  # a safety net; the tests assert it never fires
            action = bit_list(view.legal_mask)[0]
        return action

    def decide(self, view: InfoView) -> int:
        """The rules' choice for the seat on turn."""
        legal = view.legal_mask
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1  # forced (the King rule, a single card, ...)
        phase = view.phase
        if phase is Phase.PLAY:
            return self.play(view)
        if phase is Phase.DECLARE:
            return DECLARE  # declare_always
        if phase is Phase.MATTO_PAY:
            return pay_choice(view)
        return min(bit_list(legal), key=lambda c: discard_keep(c, view.hand))  # discard

    # ------------------------------------------------------------------ card play
    def play(self, view: InfoView) -> int:
        t = Table.read(view)
        if not view.trick or t.led < 0:
            return self.lead(t) if not view.trick else self.follow_matto_lead(t)
        return self.follow(t)

    def follow(self, t: Table) -> int:
        view, legal = t.view, t.view.legal_mask
        team = t.me & 1
        keys = WIN_KEY[t.led]
        win_seat = t.winner_seat()
        win_key = keys[view.trick[t.win_i]]
        cards = bit_list(legal)
        last = not t.later
        trick_value = sum(VALUE[c] for c in view.trick if c != MATTO)
        if win_seat & 1 == team and t.beat_chance(win_key, team) <= self.safe_feed:
            return self.feed(t, cards)  # feed_partner
        winners = [c for c in cards if keys[c] > win_key]
        if last:
            if winners and (trick_value > 0 or _cheap(min(winners, key=power))):
                return min(winners, key=power)  # last_to_play_wins_cheaply
        else:
            spend = trick_value >= self.spend_value or view.n_tricks >= 17
            usable = [c for c in winners if spend or not BIT[c] & HIGH_MASTERS]
            if usable:
                return min(usable, key=power)  # win_cheaply
        return self.duck(t, cards, True)

    def follow_matto_lead(self, t: Table) -> int:
        """The Matto was led: I fix the led suit, so I lead."""
        return self.lead(t)

    def feed(self, t: Table, cards: list[int]) -> int:
        """Give a safe partner the counter most at risk (not a master of the top five)."""
        feeds = [c for c in cards if VALUE[c] and c != MATTO and not BIT[c] & HIGH_MASTERS]
        if feeds:
            return max(feeds, key=lambda c: (_risk(c, t), VALUE[c], -c))
        return self.duck(t, cards, False)

    def duck(self, t: Table, cards: list[int], losing: bool) -> int:
        """The cheapest card; the Matto instead of a counter that would be lost."""
        plain = [c for c in cards if c != MATTO]
        cheap = [c for c in plain if not VALUE[c]]
        if MATTO in cards:
            if not cheap and losing:
                return MATTO  # matto_saves_counter
            if t.view.hand_sizes[t.me] == 2:
                return MATTO  # matto_before_the_end
        pool = cheap or plain or cards
        return min(pool, key=lambda c: (VALUE[c], power(c)))  # duck_cheaply

    def lead(self, t: Table) -> int:
        view, hand = t.view, t.hand
        legal = view.legal_mask
        others_trumps = t.unseen & TRUMPS
        masters = [c for c in bit_list(hand & TRUMPS) if not others_trumps & ABOVE_TRUMP[c]]
        if hand.bit_count() == 2:
            if MATTO_BIT & hand:
                return MATTO  # matto_before_the_end
            if len(masters) == 1:
                return bit_list(hand & ~BIT[masters[0]])[0]  # fight_for_the_last_trick
        if MATTO_BIT & hand and hand.bit_count() == 1:
            return MATTO
        kings = [s for s in range(4) if hand & KING[s] and not view.suits_led >> s & 1]
        if kings:  # cash_kings
            return KING_CARD[max(kings, key=lambda s: (t.unseen & SUIT_MASK[s]).bit_count())]
        plain = hand & PLAIN & ~ALL_KINGS
        if plain:
            best_suit = max(
                (s for s in range(4) if plain & SUIT_MASK[s]),
                key=lambda s: (not hand & KING[s], (t.unseen & SUIT_MASK[s]).bit_count()),
            )
            return min(bit_list(plain & SUIT_MASK[best_suit]), key=lambda c: STRENGTH[c])
        zero_trumps = hand & TRUMPS & ~COUNTERS & ~BIT[T29]
        if masters and not zero_trumps:
            return max(masters)
        pool = zero_trumps or hand & ~MATTO_BIT or hand
        return min(bit_list(pool & legal) or bit_list(legal), key=lambda c: (VALUE[c], power(c)))


def power(card: int) -> int:
    """How much a card is worth as a winner (spent when it wins a cheap trick)."""
    if card < 40:
        return 100 + card + (50 if VALUE[card] else 0) + (30 if card == T29 else 0)
    if card == MATTO:
        return 500
    return STRENGTH[card] + (30 if VALUE[card] else 0)


def cheapest(cards: int) -> int:
    """The card of ``cards`` (a non-empty mask) cheapest to give away: the lowest value, then
    the lowest ``power``, ties to the lowest id."""
    best, best_key = -1, 1 << 30
    m = cards
    while m:
        low = m & -m
        c = low.bit_length() - 1
        k = VALUE[c] * 1000 + power(c)
        if k < best_key:
            best, best_key = c, k
        m ^= low
    return best


def _cheap(card: int) -> bool:
    return not VALUE[card] and card != T29


def _risk(card: int, t: Table) -> float:
    """How exposed a counter is if kept: kings and low trumps most, high trumps by how many
    stronger trumps are still out."""
    if card >= 41:
        return 2.0
    return (t.unseen & ABOVE_TRUMP[card]).bit_count() / 10

"""The blunders a card player notices, each defined once: sure gifts (the first one, which
``benchmarks/study_gifts.py`` counts and the gift repair ``mazzo.training.rl.repair`` removes),
a partner's trick overtaken, a master lost and an excuse wasted.

A deal is played to the end by a chooser; every card played is checked once its trick is over.
A *lost counter* is a card worth something (the deck's ``value``) played into a trick the other
side won; it was *avoidable* when a legal card worth nothing was held; a *sure gift* is an
avoidable lost counter played last to the trick (the trick's fate known, the trick not won by
it). A *partner overtaken* is a card played last that took the trick from a partner when a legal
card worth as much would have left it with him (the trick was the side's anyway: a strong card
or a trump spent for nothing; a counter laid on the partner's trick is no blunder). A *master
lost* is a card with no stronger card of its suit left in another hand (the cards on the trick
are in none: it is master once they fall; read from the full state, so a card the holder could
not know to be master counts too), played after the card that took the trick for the other
side, while a legal card that was no master was held (in Calabresella, which has no trumps: a
master thrown off-suit, or laid under a stronger card of its suit on the trick). An
*excuse wasted* is the excuse played last to a trick its own side took, with another legal card
held: it excused nothing. The sides are read from the returns (the
seats with the same sign), so a deal whose returns are all 0 has none to read
(``DealPlays.sided`` is False). The excuse card ``M`` (never captured: it goes back to its
owner's side) is no counter here.

Nothing here names a game: the deck (suits, strengths, values), the action labels
(``play <card>``), the hands (``state.hands``, card masks), the closed tricks (``state.tricks``,
the winner third), ``clone`` and the returns are every game's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mazzo.envs.cards.deck import EXCUSE, counter_values
from mazzo.envs.registry import AnyGame

__all__ = ["BLUNDERS", "EXCUSE", "CardPlay", "DealPlays", "card_values", "play_deal"]


@dataclass(frozen=True)
class CardPlay:
    """One card played, judged once its trick was over.

    Attributes:
        step: the decision's index in the deal (every decision counted, every phase).
        seat: who played it.
        card: its label (``3s``, ``T29``).
        value: what it is worth (0 for the excuse).
        blanks: the other legal actions worth nothing, as action ids.
        last: played last to its trick.
        winner: the seat that took the trick.
        beaten: the card that took the trick was already on it when this one was played.
        master: no stronger card of its suit was in another hand.
        lesser: the other legal actions whose card was no master, as action ids.
        options: how many legal actions there were.
        others_win: played last: for each other legal card, its action id, the seat that would
            have taken the trick with it and the card's value, in action order (empty when not
            last).
    """

    step: int
    seat: int
    card: str
    value: int
    blanks: tuple[int, ...]
    last: bool
    winner: int
    beaten: bool = False
    master: bool = False
    lesser: tuple[int, ...] = ()
    options: int = 1
    others_win: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True)
class DealPlays:
    """The card plays of one finished deal with its returns."""

    plays: tuple[CardPlay, ...]
    returns: tuple[float, ...]

    @property
    def sided(self) -> bool:
        """Whether the returns tell the sides apart (not all 0)."""
        return any(self.returns)

    def same_side(self, a: int, b: int) -> bool:
        return (self.returns[a] > 0) == (self.returns[b] > 0)

    def lost(self, p: CardPlay) -> bool:
        """A counter played into a trick the other side took."""
        return p.value > 0 and self.sided and not self.same_side(p.seat, p.winner)

    def sure_gift(self, p: CardPlay) -> bool:
        """A lost counter played last to its trick with a blank card in hand."""
        return self.lost(p) and bool(p.blanks) and p.last

    def sure_gifts(self) -> list[CardPlay]:
        return [p for p in self.plays if self.sure_gift(p)]

    def partner_overtaken(self, p: CardPlay) -> bool:
        """Played last, took the trick from a partner that another legal card worth as much
        left it to."""
        if not (self.sided and p.last and p.winner == p.seat):
            return False
        return bool(self.keeping(p))

    def keeping(self, p: CardPlay) -> tuple[int, ...]:
        """Played last: the other legal actions that leave the trick with a partner and are
        worth as much as ``p``'s card."""
        return tuple(
            a
            for a, w, v in p.others_win
            if w != p.seat and self.sided and self.same_side(w, p.seat) and v >= p.value
        )

    def master_lost(self, p: CardPlay) -> bool:
        """A master played onto the other side's card that took the trick, a lesser card held."""
        return (
            self.sided
            and p.master
            and p.beaten
            and bool(p.lesser)
            and not self.same_side(p.seat, p.winner)
        )

    def excuse_wasted(self, p: CardPlay) -> bool:
        """The excuse played last to a trick its own side took, another legal card held."""
        return (
            p.card == EXCUSE
            and self.sided
            and p.last
            and p.options > 1
            and self.same_side(p.seat, p.winner)
        )

    def blunders(self) -> dict[str, list[CardPlay]]:
        """Every blunder of the deal by kind (``BLUNDERS``' names), in play order."""
        judge = {
            "sure gift": self.sure_gift,
            "partner overtaken": self.partner_overtaken,
            "master lost": self.master_lost,
            "excuse wasted": self.excuse_wasted,
        }
        return {kind: [p for p in self.plays if judge[kind](p)] for kind in BLUNDERS}

    def remedies(self, kind: str, p: CardPlay) -> tuple[int, ...]:
        """The legal actions that would not have made ``p`` a blunder of ``kind``: the blank
        cards (sure gift), the cards that leave the trick with the partner worth as much
        (partner overtaken), the cards that are no master (master lost), any other card
        (excuse wasted)."""
        if kind == "sure gift":
            return p.blanks
        if kind == "partner overtaken":
            return self.keeping(p)
        if kind == "master lost":
            return p.lesser
        if kind == "excuse wasted":
            return tuple(a for a, _, _ in p.others_win)
        raise ValueError(f"unknown blunder {kind!r} (expected one of {', '.join(BLUNDERS)})")


BLUNDERS = ("sure gift", "partner overtaken", "master lost", "excuse wasted")
"""The kinds of blunder ``DealPlays.blunders`` reports, in the order a table shows them."""


def card_values(game: AnyGame) -> dict[str, int]:
    """Every card label's value (the excuse's 0)."""
    deck = game.info.deck
    return dict(zip(deck.labels, counter_values(deck), strict=True))


def play_deal(
    game: AnyGame, state: Any, choose: Callable[[Any], int], values: dict[str, int] | None = None
) -> DealPlays:
    """Play ``state`` (a fresh deal) to the end, ``choose(state)`` taking every decision, and
    judge every card played."""
    value = card_values(game) if values is None else values
    deck = game.info.deck
    plays: list[CardPlay] = []
    pending: list[tuple[int, int, str, tuple[int, ...], dict[str, Any]]] = []
    step = 0
    while not state.is_terminal():
        seat = state.to_play
        action = choose(state)
        verb, _, card = state.action_label(action).partition(" ")
        done = len(state.tricks)
        if verb == "play" and card in value:
            legal = [(a, state.action_label(a).partition(" ")[2]) for a in state.legal_actions()]
            blanks = tuple(a for a, c in legal if a != action and value.get(c, 1) == 0)
            out = 0
            for hand in state.hands:
                out |= hand
            own = next((h for h in state.hands if h >> deck.parse(card) & 1), 0)
            lesser = tuple(a for a, c in legal if a != action and not _master(deck, c, out & ~own))
            probe = state.clone()
            probe.apply(action)
            last = len(probe.tricks) > done
            others_win: tuple[tuple[int, int, int], ...] = ()
            if last:
                others_win = tuple(
                    (a, _winner_with(state, a), value.get(c, 0)) for a, c in legal if a != action
                )
            facts = {
                "master": _master(deck, card, out & ~own),
                "lesser": lesser,
                "options": len(legal),
                "others_win": others_win,
            }
            pending.append((step, seat, card, blanks, facts))
        state.apply(action)
        step += 1
        if len(state.tricks) > done:  # the trick is over: who won it
            winner = state.tricks[-1][2]
            size = len(pending)
            took = next((i for i, entry in enumerate(pending) if entry[1] == winner), size)
            plays += [
                CardPlay(s, who, c, value[c], b, i == size - 1, winner, beaten=took < i, **facts)
                for i, (s, who, c, b, facts) in enumerate(pending)
            ]
            pending = []
    return DealPlays(tuple(plays), tuple(float(r) for r in state.returns()))


def _master(deck: Any, label: str, others: int) -> bool:
    """Whether no card of ``label``'s suit stronger than it lies in ``others`` (a card mask);
    the excuse is never a master."""
    if label == EXCUSE:
        return False
    card = deck.parse(label)
    stronger = deck.suit_mask[deck.suit[card]] & others
    while stronger:
        low = stronger & -stronger
        if deck.strength[low.bit_length() - 1] > deck.strength[card]:
            return False
        stronger ^= low
    return True


def _winner_with(state: Any, action: int) -> int:
    """The seat that takes the trick when ``action`` (the trick's last card) is played."""
    probe = state.clone()
    probe.apply(action)
    return int(probe.tricks[-1][2])

"""Sure gifts, the blunder a card player notices first: the one definition that
``benchmarks/study_gifts.py`` counts and the gift repair (``mazzo.training.rl.repair``) removes.

A deal is played to the end by a chooser; every card played is checked once its trick is over.
A *lost counter* is a card worth something (the deck's ``value``) played into a trick the other
side won; it was *avoidable* when a legal card worth nothing was held; a *sure gift* is an
avoidable lost counter played last to the trick (the trick's fate known, the trick not won by
it). The sides are read from the returns (the seats with the same sign), so a deal whose
returns are all 0 has none to read (``DealPlays.sided`` is False). The excuse card ``M``
(never captured: it goes back to its owner's side) is no counter here.

Nothing here names a game: the deck, the action labels (``play <card>``), the closed tricks
(``state.tricks``, the winner third) and the returns are every game's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mazzo.envs.registry import AnyGame

__all__ = ["EXCUSE", "CardPlay", "DealPlays", "card_values", "play_deal"]

EXCUSE = "M"  # the card code of an excuse, which its owner's side keeps


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
    """

    step: int
    seat: int
    card: str
    value: int
    blanks: tuple[int, ...]
    last: bool
    winner: int


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


def card_values(game: AnyGame) -> dict[str, int]:
    """Every card label's value (the excuse's 0)."""
    deck = game.info.deck
    return {label: 0 if label == EXCUSE else deck.value[i] for i, label in enumerate(deck.labels)}


def play_deal(
    game: AnyGame, state: Any, choose: Callable[[Any], int], values: dict[str, int] | None = None
) -> DealPlays:
    """Play ``state`` (a fresh deal) to the end, ``choose(state)`` taking every decision, and
    judge every card played."""
    value = card_values(game) if values is None else values
    plays: list[CardPlay] = []
    pending: list[tuple[int, int, str, tuple[int, ...]]] = []
    step = 0
    while not state.is_terminal():
        seat = state.to_play
        action = choose(state)
        verb, _, card = state.action_label(action).partition(" ")
        done = len(state.tricks)
        if verb == "play" and card in value:
            blanks = []
            for a in state.legal_actions():
                other = state.action_label(a).partition(" ")[2]
                if a != action and value.get(other, 1) == 0:
                    blanks.append(a)
            pending.append((step, seat, card, tuple(blanks)))
        state.apply(action)
        step += 1
        if len(state.tricks) > done:  # the trick is over: who won it
            winner = state.tricks[-1][2]
            size = len(pending)
            plays += [
                CardPlay(s, who, c, value[c], b, i == size - 1, winner)
                for i, (s, who, c, b) in enumerate(pending)
            ]
            pending = []
    return DealPlays(tuple(plays), tuple(float(r) for r in state.returns()))

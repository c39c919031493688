"""Test helpers for the Minchiate engine: building streams from packets (the inverse of the
M-5.4 / M-6.1 index form, written from the rules text), scripted play, random playouts and
hand-made play positions."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate import Phase, Rules, State, make_deal
from mazzo.envs.minchiate.deck import MINCHIATE_97
from mazzo.envs.minchiate.state import _LISTS, _SCALARS

DECK = MINCHIATE_97


def codes(text: str) -> list[str]:
    """Whitespace-separated card codes -> list."""
    return text.split()


def mask(text: str) -> int:
    """Whitespace-separated card codes -> bitmask."""
    return DECK.mask_of(text)


def labels(m: int) -> list[str]:
    """Bitmask -> codes in index order."""
    return DECK.codes(m)


def build_stream(
    dealer: int,
    robbed: str,
    stop: str,
    hands: dict[int, tuple[str, str]],
    fola: str,
) -> list[str]:
    """A 97-card stream from the intended outcome of the cut and deal.

    Args:
        dealer: d.
        robbed: the cutter's robbed cards S[0..r-1].
        stop: S[r], which goes to the bottom of the pack (M-5.4).
        hands: per seat, (10 first-round cards, 11 second-round cards; the last is the face-up
            21st card). M-6.1: seat S(d+1+k) gets P[10k..10k+9] and P[40+11k..40+11k+10].
        fola: P[84..96-r] in order (empty when r = 13); the last card of the pack must be the
            stop card.
    """
    order = [(dealer + 1 + k) % 4 for k in range(4)]
    pack: list[str] = []
    for seat in order:
        first = codes(hands[seat][0])
        assert len(first) == 10, (seat, first)
        pack += first
    for seat in order:
        second = codes(hands[seat][1])
        assert len(second) == 11, (seat, second)
        pack += second
    pack += codes(fola)
    assert pack[-1] == stop, "the stop card is the bottom card of the pack"
    stream = [*codes(robbed), stop, *pack[:-1]]
    assert len(stream) == 97, len(stream)
    return stream


def play_script(state: State, script: Iterable[tuple[int, str]]) -> None:
    """Apply (seat, label) steps, checking that the named seat is on turn."""
    for seat, label in script:
        assert state.to_play == seat, (seat, label, state.to_play, state.phase)
        state.apply(state.parse_action(label))


def random_deal(rng: random.Random) -> Deal:
    """A uniformly shuffled stream with a random dealer."""
    order = list(range(97))
    rng.shuffle(order)
    return Deal(rng.randrange(4), tuple(order))


def random_playout(state: State, rng: random.Random) -> State:
    """Play random legal actions to the end."""
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


FRESH = " ".join(DECK.labels)  # the canonical order: a valid stream


def play_position(
    hands: dict[int, str],
    leader: int,
    suits_led: Sequence[str] = (),
    rules: Rules | None = None,
    **fields: Any,
) -> State:
    """A PLAY-phase position with the given hands (only the seats that matter), ``leader`` on
    lead and the given plain suits already led earlier in the deal (``fields`` replace any
    other field). Test surgery: the fields of a real deal, with the play fields replaced, go
    through ``State.restore``."""
    base = State.new(make_deal(0, FRESH), rules or Rules(declarations="auto_all"))
    values = {n: getattr(base, n) for n in _SCALARS + _LISTS if n != "play_legal"}
    values.update(
        phase=Phase.PLAY,
        hands=[mask(hands.get(i, "")) for i in range(4)],
        leader=leader,
        to_play=leader,
        trick=[],
        led=-1,
        top_trump=-1,
        suits_led=sum(1 << "cdsb".index(x) for x in suits_led),
        tricks=[],
        events=[],
        D=0,
        R=0,
    )
    values.update(fields)
    return State.restore(**values)

"""The no-leak harness: resample every card a seat cannot know and check that its view and its
encoding do not change.

A world is a deal (the card order) and the actions taken. For the observing seat, the game's
knowledge oracle (``tests/contract/oracles/<game>.py``) says which cards it knows the place of,
built from the public record only: the steps of the deal (who acted, the action's label, and
``game.action_is_visible`` for that seat) and the rules of the game (the seat's own dealt
cards, what the rules expose); never from the view under test. Every other card is hidden.

Resampling proposes random transpositions of two hidden cards in the deal order, across suits
and across hands and hidden piles alike; the actions the seat did not see are mapped through
the same transposition. A proposal is kept only if the new world replays (every action legal,
the same seat acting at every step: hand sizes, voids, the King rule, forced plays follow),
leaves the same seat on turn for the same kind of decision, and gives the same ``public``
facts of the oracle (what the rules announce, such as declared combinations). The seat's view
in the kept world must equal the real one, and so must its encoding.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.errors import IllegalAction
from mazzo.envs.registry import Game

__all__ = ["Outcome", "Step", "World", "check_no_leak", "oracle_for", "resample", "steps_of"]


class Step(NamedTuple):
    """One action of the public record, as one seat saw it."""

    actor: int
    action: int
    label: str
    visible: bool


@dataclass
class World:
    """A deal and its actions (``state`` is the replayed result)."""

    deal: Deal
    actions: list[int]
    state: Any


class Outcome(NamedTuple):
    """What one resampling did: transpositions kept, of them across suits and across holders."""

    moves: int
    cross_suit: int
    cross_holder: int


def oracle_for(game: Game) -> Any:
    """The knowledge oracle module of ``game`` (``tests.contract.oracles.<name>``)."""
    return importlib.import_module(f"tests.contract.oracles.{game.name}")


def steps_of(game: Game, rules: Any, deal: Deal, actions: Sequence[int], seat: int) -> list[Step]:
    """The public record of ``actions`` from ``deal`` as ``seat`` saw it."""
    state = game.new_state(deal, rules)
    out = []
    for a in actions:
        out.append(
            Step(state.to_play, a, state.action_label(a), game.action_is_visible(state, a, seat))
        )
        state.apply(a)
    return out


def replay(game: Game, rules: Any, deal: Deal, actions: Sequence[int], actors: list[int]) -> Any:
    """The state after ``actions``, or None if one is illegal or the turn order differs."""
    state = game.new_state(deal, rules)
    for actor, a in zip(actors, actions, strict=True):
        if state.is_terminal() or state.to_play != actor:
            return None
        try:
            state.apply(a)
        except IllegalAction:
            return None
    return state


def pending(state: Any) -> tuple[int, str]:
    """Who is on turn and the verb of the decision (its phase, public): ``(-1, "")`` at the end."""
    if state.is_terminal():
        return -1, ""
    return state.to_play, state.action_label(state.legal_actions()[0]).split()[0]


def resample(
    game: Game, world: World, seat: int, rng: random.Random, proposals: int
) -> tuple[World, Outcome]:
    """A world ``seat`` cannot tell from ``world``, by up to ``proposals`` transpositions."""
    oracle, rules = oracle_for(game), world.state.rules
    steps = steps_of(game, rules, world.deal, world.actions, seat)
    known = oracle.known_cards(rules, world.deal, steps, world.state, seat)
    owners = oracle.holders(rules, world.deal)
    order = list(world.deal.order)
    free = [i for i, c in enumerate(order) if not (known >> c) & 1]
    public, turn = oracle.public(world.state), pending(world.state)
    actors = [s.actor for s in steps]
    hidden = [not s.visible for s in steps]
    actions, state = list(world.actions), world.state
    suit = game.info.deck.suit
    moves = cross_suit = cross_holder = 0
    for _ in range(proposals if len(free) > 1 else 0):
        i, j = rng.sample(free, 2)
        x, y = order[i], order[j]
        if not (
            oracle.may_hold(rules, world.deal, i, y) and oracle.may_hold(rules, world.deal, j, x)
        ):
            continue
        swap = {x: y, y: x}
        new_order = order[:]
        new_order[i], new_order[j] = y, x
        new_actions = [
            oracle.map_action(a, swap) if h else a for a, h in zip(actions, hidden, strict=True)
        ]
        deal = Deal(world.deal.dealer, tuple(new_order))
        got = replay(game, rules, deal, new_actions, actors)
        if got is None or pending(got) != turn or oracle.public(got) != public:
            continue
        order, actions, state = new_order, new_actions, got
        moves += 1
        cross_suit += suit[x] != suit[y]
        cross_holder += owners[i] != owners[j]
    deal = Deal(world.deal.dealer, tuple(order))
    return World(deal, actions, state), Outcome(moves, cross_suit, cross_holder)


ViewFn = Callable[[Game, Any, int], Any]


def plain_view(game: Game, state: Any, seat: int) -> Any:
    """What the no-leak test compares: the view and its encoding."""
    view = state.info_view(seat)
    row = game.encoder(state.rules).encode(view)
    return view, row.tobytes()


def check_no_leak(
    game: Game,
    world: World,
    rng: random.Random,
    proposals: int,
    view_fn: ViewFn = plain_view,
) -> tuple[Outcome, list[int]]:
    """Resample for every seat; returns the summed outcome and the seats whose view changed."""
    total = Outcome(0, 0, 0)
    leaked = []
    for seat in range(game.seats(world.state.rules)):
        other, outcome = resample(game, world, seat, rng, proposals)
        total = Outcome(*(a + b for a, b in zip(total, outcome, strict=True)))
        if view_fn(game, other.state, seat) != view_fn(game, world.state, seat):
            leaked.append(seat)
    return total, leaked


def random_world(game: Game, rules: Any, rng: random.Random) -> World:
    """A random deal stopped at a random decision before its end."""
    deal = game.deal_random(np.random.default_rng(rng.getrandbits(32)), rules)
    full = game.new_state(deal, rules)
    actions = []
    while not full.is_terminal():
        a = rng.choice(full.legal_actions())
        actions.append(a)
        full.apply(a)
    actions = actions[: rng.randrange(len(actions))] if actions else []
    state = game.new_state(deal, rules)
    for a in actions:
        state.apply(a)
    return World(deal, actions, state)

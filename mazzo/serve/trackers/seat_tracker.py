"""Seat trackers, the game-independent part: one seat's exact ``InfoView`` rebuilt from only what
that seat is told (its private cards at the start, every action of the deal with the args it may
see, and the cards the game shows it during the deal), for a bot that plays one seat of a deal
refereed elsewhere (the seat sessions of ``mazzo serve``).

A tracker keeps a *consistent world*: a complete ``State`` whose view for the seat equals the
true view. Every event is applied to the world; when the world cannot take it (another seat plays
a card the world put elsewhere) or a reveal contradicts it, the world *before the last event* is
redrawn from that seat's view with the event's and the reveals' constraints (the game's world
sampler, per-card constraints exactly and joint ones by rejection), and the event applied again.
When no such world exists the input is ``ImpossibleInput`` and the tracker is unchanged. The
samplers' worlds all have the seat's view (the no-leak property), so the view never depends on
which consistent world is held.

A game supplies a subclass (``mazzo.serve.trackers.<game>``): how its private setup builds a
first world, its reveals (their JSON shapes, when they are due, how a world is checked against
them), and the constrained draws of a world. ``mazzo.serve.trackers.registry`` finds a game's
tracker by name.

Must not import torch or training/.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

import numpy as np

from mazzo.agents.sampling import NoConsistentWorld
from mazzo.envs.registry import AnyGame

__all__ = [
    "FeasibleSampler",
    "ImpossibleInput",
    "SeatTracker",
    "Step",
    "constrained_slots",
    "seat_token",
]


class ImpossibleInput(ValueError):
    """An event, reveal or private setup that no deal consistent with what the seat knows allows
    (a card the seat cannot hold, a move out of turn, a reveal that contradicts); the tracker is
    unchanged."""


class Step(NamedTuple):
    """One event as the tracker applies it: the acting seat, the verb, and the action id (None
    for an action whose card the seat may not see: any legal action with that verb)."""

    seat: int
    verb: str
    action: int | None


def constrained_slots(
    allowed: int, card: int, slots: Sequence[int], only: dict[int, set[int]],
    absent: dict[int, int],
) -> int:  # fmt: skip
    """``allowed`` (a bit per slot index of ``slots``: where a game's sampler lets ``card`` go)
    narrowed by a tracker's per-card constraints: ``only[card]`` the slots it may be in,
    ``absent[slot]`` the cards a slot cannot hold."""
    places = only.get(card)
    for i, slot in enumerate(slots):
        if (places is not None and slot not in places) or absent.get(slot, 0) >> card & 1:
            allowed &= ~(1 << i)
    return allowed


class FeasibleSampler:
    """Draws *some* assignment of cards to slots meeting the capacities and the per-card slot
    constraints (a randomized matching with augmenting paths), not a uniform one: a tracker
    needs one consistent world, not the posterior, and this is built in no time where the
    uniform ``mazzo.agents.sampling.SlotSampler`` counts every world first. The same arguments.

    Raises:
        NoConsistentWorld: the cards do not add up to the capacities.
    """

    def __init__(self, capacities: Sequence[int], groups: Sequence[tuple[Sequence[int], int]]):
        self.capacities = tuple(capacities)
        self._cards = [(int(c), allowed) for cards, allowed in groups for c in cards]
        if len(self._cards) != sum(self.capacities):
            raise NoConsistentWorld(
                f"{len(self._cards)} unknown cards but the slots hold {sum(self.capacities)}"
            )
        n = len(self.capacities)
        self._slots = {c: [j for j in range(n) if allowed >> j & 1] for c, allowed in self._cards}

    def sample(self, rng: np.random.Generator) -> list[int]:
        """A bitmask of cards per slot. Raises NoConsistentWorld when there is none."""
        held: list[list[int]] = [[] for _ in self.capacities]
        order = [self._cards[i][0] for i in rng.permutation(len(self._cards))]
        for card in order:
            if not self._place(card, held, set(), rng):
                raise NoConsistentWorld(f"card {card} fits in no slot")
        return [sum(1 << c for c in cards) for cards in held]

    def _place(
        self, card: int, held: list[list[int]], seen: set[int], rng: np.random.Generator
    ) -> bool:
        slots = [self._slots[card][i] for i in rng.permutation(len(self._slots[card]))]
        for j in slots:
            if j not in seen and len(held[j]) < self.capacities[j]:
                held[j].append(card)
                return True
        for j in slots:
            if j in seen:
                continue
            seen.add(j)
            for k, other in enumerate(held[j]):
                if self._place(other, held, seen, rng):
                    held[j][k] = card
                    return True
        return False


def new_constraints() -> tuple[
    dict[int, set[int]], dict[int, int], Callable[[int, set[int]], None]
]:
    """Empty per-card constraints for one draw of a tracker's world: ``only[card]`` the slots a
    card may be in, ``absent[slot]`` the cards a slot cannot hold, and ``pin(card, places)``,
    which narrows ``only[card]`` to ``places``."""
    only: dict[int, set[int]] = {}
    absent: dict[int, int] = {}

    def pin(card: int, places: set[int]) -> None:
        only[card] = only.get(card, places) & places

    return only, absent, pin


class ConstrainedWorlds:
    """A game's ``WorldSampler`` with a tracker's per-card constraints, as a mixin placed before
    it (``class _Sampler(ConstrainedWorlds, WorldSampler)``): ``_only[card]`` the slots a card
    may be in, ``_absent[slot]`` the cards a slot cannot hold (``constrained_slots``), drawn
    by ``FeasibleSampler`` (any consistent world, not a uniform one)."""

    slot_sampler = FeasibleSampler
    slots: list[int]
    _only: dict[int, set[int]]
    _absent: dict[int, int]

    def _allowed(self, card: int) -> int:
        allowed: int = super()._allowed(card)  # type: ignore[misc]
        return constrained_slots(allowed, card, self.slots, self._only, self._absent)


def seat_token(seat: int) -> str:
    """``S<n>``, as the D.3 triples write a seat."""
    return f"S{seat}"


class SeatTracker(ABC):
    """The consistent world of one seat (see the module docstring).

    Args:
        rules: the game's ``Rules`` in force.
        seat: the seat whose view is tracked.
        dealer: the dealer's seat.
        private: what the seat sees at the start of the deal (per game, a JSON object).
        seed: seeds the draws of worlds (the view does not depend on them).

    Raises:
        ValueError: a malformed ``private`` (``ImpossibleInput`` when it is well formed but no
            deal gives it).
    """

    max_draws = 500  # worlds drawn before an input is declared impossible (20 at most needed
    # in the studies of tests/serve/test_seat_trackers.py)
    registered: ClassVar[AnyGame]  # the game's registration: its vocabulary and visibility
    reveal_fields: ClassVar[Mapping[str, tuple[type, ...]]] = {}  # reveal key -> its JSON types

    def __init__(self, rules: Any, seat: int, dealer: int, private: Mapping[str, Any],
                 seed: int = 0) -> None:  # fmt: skip
        n = self.n_seats(rules)
        for name, value in (("seat", seat), ("dealer", dealer)):
            if type(value) is not int or not 0 <= value < n:
                raise ValueError(f"{name} must be a seat 0..{n - 1}, got {value!r}")
        if not isinstance(private, Mapping):
            raise ValueError(f"deal.private must be a JSON object, got {private!r}")
        self.rules, self.seat, self.dealer = rules, seat, dealer
        self.rng = np.random.default_rng(seed)
        self.read_private(private)
        self._base: Any = None  # the world before the last event (None: the deal itself)
        self._last: Step | None = None
        self._revealed: dict[str, Any] = {}
        self.log: list[Step] = []  # the events so far
        world = self._first_world({})
        if world is None:
            raise ImpossibleInput(f"no deal gives S{seat} the private setup {dict(private)}")
        self._world: Any = world
        self._pending = self.needed(None, None, world, {})

    # ------------------------------------------------------------------ the game's part
    @staticmethod
    @abstractmethod
    def n_seats(rules: Any) -> int:
        """The number of seats under ``rules``."""

    @abstractmethod
    def read_private(self, private: Mapping[str, Any]) -> None:
        """Parse and check ``deal.private``, keeping what ``initial_worlds`` needs."""

    @abstractmethod
    def initial_worlds(self, revealed: Mapping[str, Any]) -> Iterator[Any]:
        """Candidate worlds at the start of the deal (states just after the deal), consistent
        with the private setup and with ``revealed`` as far as per-card constraints go."""

    @abstractmethod
    def constrained_worlds(
        self, base: Any, step: Step, revealed: Mapping[str, Any]
    ) -> Iterator[Any]:
        """Candidate worlds in place of ``base`` (drawn from the seat's view of it) in which
        ``step`` may be legal and the ``revealed`` cards are where the reveals put them."""

    def visible(self, world: Any) -> bool:
        """Whether the seat sees the card of the action now due in ``world``."""
        return self.registered.action_is_visible(world, 0, self.seat)

    def to_label(self, verb: str, arg: str | int) -> str:
        """The action label of a D.3 triple's verb and arg (ValueError for a bad pair)."""
        return self.registered.vocabulary.to_label(verb, arg)

    def to_triple(self, label: str) -> tuple[str, str | int]:
        """An action label -> the (verb, arg) of its D.3 triple."""
        return self.registered.vocabulary.to_triple(label)

    def verb_of(self, world: Any, action: int) -> str:
        """The D.3 verb of ``action`` in ``world``."""
        return self.to_triple(world.action_label(action))[0]

    @abstractmethod
    def read_reveal(self, fields: Mapping[str, Any]) -> dict[str, Any]:
        """A reveal message's fields (without ``type``/``game``/``id``) -> internal values by key;
        ValueError naming a malformed field."""

    @abstractmethod
    def needed(
        self, base: Any, step: Step | None, after: Any, revealed: Mapping[str, Any]
    ) -> frozenset[str]:
        """The reveal keys due after ``step`` (None: the deal) took ``base`` to ``after``; must
        depend only on what the seat knows (public facts, its own cards, ``revealed``)."""

    @abstractmethod
    def mismatch(self, base: Any, after: Any, step: Step | None, revealed: Mapping[str, Any]
                 ) -> str | None:  # fmt: skip
        """Why world ``after`` (reached from ``base`` by ``step``; both None at the deal)
        contradicts ``revealed`` (None when it agrees)."""

    @abstractmethod
    def patch(self, world: Any, step: Step, revealed: Mapping[str, Any]) -> None:
        """Adjust bookkeeping the seat's view does not show before ``step`` is applied to
        ``world`` (nothing, for a game whose views show all of it)."""

    # ------------------------------------------------------------------ queries
    def view(self) -> Any:
        """The seat's ``InfoView`` now (exact once the pending reveals have come)."""
        return self._world.info_view(self.seat)

    @property
    def pending(self) -> frozenset[str]:
        """The reveal keys the referee owes before the next event."""
        return self._pending

    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return bool(self._world.is_terminal())

    def to_play(self) -> int:
        """The seat on turn (-1 when the deal is over)."""
        return int(self._world.to_play)

    def label(self, action: int) -> str:
        """The label of ``action`` in the deal's current phase."""
        return str(self._world.action_label(action))

    def legal_actions(self) -> list[int]:
        """The seat's legal action ids when it is on turn, else ``[]``."""
        self._require_no_pending("legal actions")
        w = self._world
        if w.is_terminal() or w.to_play != self.seat:
            return []
        return list(w.legal_actions())

    def legal_labels(self) -> list[str]:
        """The labels of the seat's legal actions when it is on turn, else ``[]``."""
        return [self.label(a) for a in self.legal_actions()]

    # ------------------------------------------------------------------ input
    def event(self, seat: int, verb: str, arg: str | int | None) -> None:
        """One action of the deal, the seat's own included: ``arg`` is None exactly when the seat
        may not see it; an integer arg (a split mask, as D.3 writes it) is read as its digits.
        Raises ``ImpossibleInput`` (the tracker unchanged) for an action out of turn, after the
        end, illegal, or impossible in every world consistent with the view."""
        triple = f"[{seat_token(seat) if type(seat) is int else seat!r}, {verb!r}, {arg!r}]"
        text = str(arg) if isinstance(arg, int) else arg  # the protocol refuses a bool
        self._require_no_pending(f"event {triple}")
        w = self._world
        if w.is_terminal():
            raise ImpossibleInput(f"event {triple}: the deal is over")
        if seat != w.to_play:
            who = seat_token(seat) if type(seat) is int else repr(seat)
            raise ImpossibleInput(f"event {triple}: S{w.to_play} is on turn, not {who}")
        step = self._step(w, seat, verb, text, triple)
        after = self._advance(w, step, {}) or self._search(w, step, {})
        if after is None:
            raise ImpossibleInput(
                f"event {triple} is impossible: no deal consistent with what S{self.seat} "
                "knows allows it"
            )
        self.log.append(step)
        self._base, self._last, self._revealed, self._world = w, step, {}, after
        self._pending = self.needed(w, step, after, {})

    def reveal(self, fields: Mapping[str, Any]) -> None:
        """Cards or facts the game shows the seat now (per game, see ``docs/protocol.md``); one
        message may carry several. Raises ``ImpossibleInput`` (the tracker unchanged) for a
        reveal that is not due now or that contradicts what the seat knows; ValueError for a
        malformed one."""
        if not isinstance(fields, Mapping) or not fields:
            raise ValueError(f"a reveal needs at least one field, got {fields!r}")
        parsed = self.read_reveal(fields)
        world, revealed, pending = self._world, dict(self._revealed), self._pending
        while parsed:
            due = {k: v for k, v in parsed.items() if k in pending}
            if not due:
                shown = sorted(pending) or "none"
                raise ImpossibleInput(
                    f"reveal {dict(fields)}: S{self.seat} is shown no {', '.join(sorted(parsed))} "
                    f"now; reveals due: {shown}"
                )
            for k in due:
                del parsed[k]
            revealed.update(due)
            world = self._refit(world, revealed)
            if world is None:
                raise ImpossibleInput(
                    f"reveal {dict(fields)} contradicts what S{self.seat} knows of the deal"
                )
            pending = self.needed(self._base, self._last, world, revealed) - revealed.keys()
        self._world, self._revealed, self._pending = world, revealed, pending

    def _refit(self, world: Any, revealed: Mapping[str, Any]) -> Any:
        """A world after the last event that agrees with ``revealed`` (None: there is none)."""
        if self.mismatch(self._base, world, self._last, revealed) is None:
            return world
        if self._last is None:
            return self._first_world(revealed)
        base, step = self._base, self._last
        return self._advance(base, step, revealed) or self._search(base, step, revealed)

    # ------------------------------------------------------------------ the search
    def _require_no_pending(self, what: str) -> None:
        if self._pending:
            raise ImpossibleInput(
                f"{what}: the reveal of {', '.join(sorted(self._pending))} is due first"
            )

    def _step(self, w: Any, seat: int, verb: str, arg: str | None, triple: str) -> Step:
        if not isinstance(verb, str):
            raise ValueError(f"event {triple}: the verb must be a string")
        legal = w.legal_actions()
        if not self.visible(w):
            if arg is not None:
                raise ImpossibleInput(
                    f"event {triple}: S{self.seat} may not see this {verb}; send its arg as null"
                )
            if not any(self.verb_of(w, a) == verb for a in legal):
                raise ImpossibleInput(f"event {triple}: no {verb!r} is due now")
            return Step(seat, verb, None)
        if not isinstance(arg, str):
            raise ImpossibleInput(
                f"event {triple}: S{self.seat} sees this action; its arg is needed"
            )
        try:
            action = int(w.parse_action(self.to_label(verb, arg)))
        except ValueError as e:
            raise ImpossibleInput(f"event {triple}: {e}") from None
        if seat == self.seat and action not in legal:
            labels = [w.action_label(a) for a in legal]
            raise ImpossibleInput(f"event {triple}: not legal for S{seat} now; legal: {labels}")
        return Step(seat, verb, action)

    def _advance(self, world: Any, step: Step, revealed: Mapping[str, Any]) -> Any:
        """``world`` after ``step`` when it agrees with ``revealed`` (else None); a hidden
        action tries each legal action of its verb, in random order."""
        base = world.clone()
        self.patch(base, step, revealed)
        if step.action is not None:
            choices = [step.action] if (base.legal_mask() >> step.action) & 1 else []
        else:
            choices = [a for a in base.legal_actions() if self.verb_of(base, a) == step.verb]
            self.rng.shuffle(choices)
        for action in choices:
            after = base.clone()
            after.apply(action)
            if self.mismatch(world, after, step, revealed) is None:
                return after
        return None

    def _search(self, base: Any, step: Step, revealed: Mapping[str, Any]) -> Any:
        for world in self.constrained_worlds(base, step, revealed):
            after = self._advance(world, step, revealed)
            if after is not None:
                return after
        return None

    def _first_world(self, revealed: Mapping[str, Any]) -> Any:
        for world in self.initial_worlds(revealed):
            if self.mismatch(None, world, None, revealed) is None:
                return world
        return None

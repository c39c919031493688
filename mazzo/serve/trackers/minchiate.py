"""The Minchiate seat tracker: one seat's exact ``InfoView`` from its private setup
(``minchiate_deal``), the actions of the deal and the reveals
(``mazzo.serve.trackers.seat_tracker`` has the method; ``docs/protocol.md``, "Seat sessions",
the JSON shapes).

Reveals (each due exactly when listed; one message may carry several):

- ``declaring`` and ``declared``, at every point where the declarations may start, go on or
  end: after the deal when no one discards, after the last discard, after every ``declare``
  event, and under ``declare_timing = with_first_card`` after another seat's card of trick 1.
  ``declaring``: the seat now deciding on a combination (``S<n>``), or null; ``declared``: the
  combinations declared since the previous event, in order (``[{"seat", "combo", "cards",
  "bonus"}]``, the VIEW's shape; ``points`` may be given too), usually ``[]``.
- ``void`` (true or false), under ``impossible_discard = redeal``: after the deal and after the
  cutter's last discard when the next discarder is another seat: whether he lacks the legal
  discards due, which voids the deal (M-8.5).
- ``fola``: the Fola's cards when it is turned face up (M-10.1).

Must not import torch or training/.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from mazzo.agents.minchiate.knowledge import play_exclusions
from mazzo.agents.minchiate.sampler import ORIG, WorldSampler
from mazzo.agents.sampling import NoConsistentWorld
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.minchiate.actions import DECLARE, Phase
from mazzo.envs.minchiate.combos import COMBO_NAMES, COMBO_VALUE, LOW_RUN, ONE_40_M, Combo
from mazzo.envs.minchiate.deck import MINCHIATE_97
from mazzo.envs.minchiate.game import GAME
from mazzo.envs.minchiate.record import VOCABULARY
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.state import State
from mazzo.envs.minchiate.tables import DISCARDABLE, FULL, MATTO_BIT
from mazzo.envs.minchiate.view import InfoView
from mazzo.envs.minchiate.worlds import determinize, extra_cards
from mazzo.envs.registry import AnyGame
from mazzo.serve.trackers.minchiate_deal import deal_streams, private_of, read_private
from mazzo.serve.trackers.registry import TrackerEntry
from mazzo.serve.trackers.seat_tracker import (
    ConstrainedWorlds,
    SeatTracker,
    Step,
    new_constraints,
)

__all__ = ["TRACKER", "MinchiateTracker", "due_reveals", "private_of", "reveal_of"]

_PLACEHOLDER = Combo(LOW_RUN, 0, 0, 0)  # an offer another seat skipped (never seen)
_DISCARDING = (Phase.DISCARD_CUTTER, Phase.DISCARD_DEALER)


class _Sampler(ConstrainedWorlds, WorldSampler):
    """The world sampler with extra per-card constraints: ``only[card]`` the slots it may be
    in, ``absent[slot]`` the cards a slot cannot hold; any consistent world, not a uniform one
    (``FeasibleSampler``) (slot ids as in ``WorldSampler``)."""

    def __init__(self, view: InfoView, only: dict[int, set[int]], absent: dict[int, int]):
        self._only, self._absent = only, absent
        super().__init__(view)
        for card, places in only.items():
            where = [s for s, m in self.known.items() if m >> card & 1]
            if self.played >> card & 1 or (where and where[0] not in places):
                raise NoConsistentWorld(f"card {card} cannot be in {sorted(places)}")
        for slot, mask in absent.items():
            if self.known.get(slot, 0) & mask:
                raise NoConsistentWorld(f"slot {slot} holds a card it cannot hold")


class MinchiateTracker(SeatTracker):
    """The consistent world of one Minchiate seat (see the module docstring)."""

    rules: Rules
    registered: ClassVar[AnyGame] = GAME
    reveal_fields: ClassVar[Mapping[str, tuple[type, ...]]] = {
        "declaring": (str, int, type(None)), "declared": (list,), "void": (bool,),
        "fola": (list,),
    }  # fmt: skip

    @staticmethod
    def n_seats(rules: Any) -> int:
        if not isinstance(rules, Rules):
            raise TypeError(f"minchiate needs minchiate Rules, got {type(rules).__name__}")
        return 4

    def read_private(self, private: Mapping[str, Any]) -> None:
        self.private = read_private(private, self.rules, self.seat, self.dealer)

    def initial_worlds(self, revealed: Mapping[str, Any]) -> Iterator[State]:
        pins: dict[int, int] = {}
        for q, combo in revealed.get("declared", ()):
            if q != self.seat:
                for c in bit_list(_combo_cards(combo)):
                    pins[c] = q
        avoid: dict[int, int] = {}
        if revealed.get("void"):
            cutter = (self.dealer + 3) & 3
            q = cutter if self.private.robbed else self.dealer
            avoid[q] = DISCARDABLE
        private = self.private
        if "fola" in revealed and private.fola < 0:  # exposed at once: no discards, no decisions
            private = private._replace(fola=revealed["fola"])
        yield from deal_streams(private, self.rules, self.seat, self.dealer, self.rng,
                                self.max_draws, pins, avoid)  # fmt: skip

    # ------------------------------------------------------------------ reveals
    def read_reveal(self, fields: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in fields.items():
            if key == "declaring":
                out[key] = None if value is None else _seat(value, "reveal.declaring")
            elif key == "declared":
                if not isinstance(value, list):
                    raise ValueError(f"reveal.declared must be a list, got {value!r}")
                out[key] = tuple(
                    _read_combo(x, f"reveal.declared[{i}]") for i, x in enumerate(value)
                )
            elif key == "void":
                if type(value) is not bool:
                    raise ValueError(f"reveal.void must be true or false, got {value!r}")
                out[key] = value
            elif key == "fola":
                if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
                    raise ValueError(f"reveal.fola must be a list of card codes, got {value!r}")
                out[key] = MINCHIATE_97.mask_of(value)
            else:
                raise ValueError(
                    f"unknown reveal field {key!r}; minchiate reveals declaring, declared, void, "
                    "fola"
                )
        return out

    def needed(self, base: Any, step: Step | None, after: Any, revealed: Mapping[str, Any]
               ) -> frozenset[str]:  # fmt: skip
        keys = set(due_reveals(self.rules, self.seat, base, step, after))
        if "void" in keys and "void" not in revealed:  # the rest waits on whether it is void
            keys &= {"void"}
        elif "declaring" in keys and "declaring" not in revealed:
            keys.discard("fola")  # exposed only once the declarations are known to be over
        return frozenset(keys)

    def mismatch(self, base: Any, after: Any, step: Step | None, revealed: Mapping[str, Any]
                 ) -> str | None:  # fmt: skip
        if "void" in revealed and after.void != revealed["void"]:
            return "void"
        if "declaring" in revealed:
            q = revealed["declaring"]
            now = after.to_play if after.phase is Phase.DECLARE else None
            if now != q:
                return "declaring"
        if "declared" in revealed:
            new = revealed["declared"]
            got = tuple(after.declared[len(after.declared) - len(new) :]) if new else ()
            n_before = len(base.declared) if base is not None else 0
            if got != new or len(after.declared) != n_before + len(new):
                return "declared"
            for q, combo in new:
                if _combo_cards(combo) & ~(after.hands[q] | after.played_by[q]):
                    return "declared"
        if "fola" in revealed and (after.fola != revealed["fola"] or not after.fola_exposed):
            return "fola"
        return None

    def patch(self, world: Any, step: Step, revealed: Mapping[str, Any]) -> None:
        """The offers of another seat deciding on its combinations: its decisions so far (the
        declared ones as declared, the skipped ones as placeholders), the one now decided, and
        one more when ``declaring`` says it goes on; none of that is in the seat's view."""
        q = world.to_play
        if world.phase is not Phase.DECLARE or q == self.seat or step.seat != q:
            return
        mine = iter([c for s, c in world.declared if s == q])
        decided = [a == DECLARE for a in self._decisions(q, step)]
        offers = [next(mine, _PLACEHOLDER) if d else _PLACEHOLDER for d in decided]
        n = len(offers)
        new = revealed.get("declared", ())
        if step.action == DECLARE and new:
            offers.append(new[0][1])
        else:
            offers.append(
                world.offers[world.offer_i] if world.offer_i < len(world.offers) else _PLACEHOLDER
            )
        if "declaring" in revealed:
            offers += [_PLACEHOLDER] if revealed["declaring"] == q else []
        else:
            offers += list(world.offers[world.offer_i + 1 :])
        world.offers, world.offer_i = tuple(offers), n
        world.decl_sum = sum(c.score for c, d in zip(offers, decided, strict=False) if d)

    def _decisions(self, q: int, step: Step) -> list[int | None]:
        """Seat ``q``'s declaration decisions before ``step``."""
        log = self.log[:-1] if self.log and self.log[-1] is step else self.log
        return [s.action for s in log if s.seat == q and s.verb == "declare"]

    def constrained_worlds(self, base: Any, step: Step, revealed: Mapping[str, Any]
                           ) -> Iterator[State]:  # fmt: skip
        view = base.info_view(self.seat)
        only, absent, pin = new_constraints()

        a, p = step.action, step.seat
        if a is not None and base.phase is Phase.PLAY and p != self.seat:
            pin(a, {p})
            trick = view._replace(trick=(*view.trick, a), leader=view.leader if view.trick else p)
            absent[p] = play_exclusions(trick)[p] & ~(1 << a)
        for q, combo in revealed.get("declared", ()):
            for c in bit_list(_combo_cards(combo) & ~base.played_by[q]):
                pin(c, {q})
        if "fola" in revealed:
            fola = revealed["fola"]
            slots = {4 + base.cutter, 4 + base.dealer, ORIG}
            if a is None and base.phase in _DISCARDING:
                slots.add(p)  # the hidden discard being made: one of them
            for c in bit_list(fola):
                pin(c, {p} if c == a and base.phase in _DISCARDING else slots)
            for s in (4 + base.cutter, 4 + base.dealer, ORIG):
                absent[s] = absent.get(s, 0) | (FULL & ~fola)
        if revealed.get("void") and base.phase is Phase.DISCARD_CUTTER:
            absent[base.dealer] = absent.get(base.dealer, 0) | DISCARDABLE
        try:
            sampler = _Sampler(view, only, absent)
        except NoConsistentWorld:
            return
        for _ in range(self.max_draws):
            try:
                assignment = sampler.sample_assignment(self.rng)
            except NoConsistentWorld:
                return
            try:
                world = determinize(view, assignment)
            except ValueError:
                continue
            world.matto_lost, world.matto_paid = base.matto_lost, base.matto_paid
            yield world


def due_reveals(rules: Rules, seat: int, before: Any, step: Step | None, after: Any
                ) -> frozenset[str]:  # fmt: skip
    """The reveal keys due to ``seat`` after ``step`` (None: the deal) took ``before`` to
    ``after`` (real states or worlds: only what that seat knows is read)."""
    keys: set[str] = set()
    redeal = rules.discard_rule == "zero_not_29" and rules.impossible_discard == "redeal"
    normal = rules.declare_timing != "with_first_card"
    cutter, dealer = (after.dealer + 3) & 3, after.dealer
    if step is None:
        first = cutter if after.setup.robbed else dealer
        if redeal and first != seat and extra_cards(after.info_view(seat), first):
            keys.add("void")
        if normal and not after.setup.robbed and not extra_cards(after.info_view(seat), dealer):
            keys |= {"declaring", "declared"}
        if after.fola_exposed:
            keys.add("fola")
        return frozenset(keys)
    ended = before.phase in _DISCARDING and after.phase not in _DISCARDING
    cutter_done = before.phase is Phase.DISCARD_CUTTER and after.phase is not Phase.DISCARD_CUTTER
    if cutter_done and redeal and dealer != seat and extra_cards(after.info_view(seat), dealer):
        keys.add("void")
    if normal and ended and not after.void:
        keys |= {"declaring", "declared"}
    if step.verb == "declare":
        keys |= {"declaring", "declared"}
    if not normal and before.phase is Phase.PLAY and not before.tricks and step.seat != seat:
        keys |= {"declaring", "declared"}
    if after.fola_exposed and not before.fola_exposed:
        keys.add("fola")
    return frozenset(keys)


def reveal_of(before: State | None, action: int | None, after: State, seat: int) -> dict[str, Any]:
    """The reveal a referee owes ``seat`` after ``action`` took ``before`` to ``after`` (None and
    None: after the deal); empty when none is due."""
    step = None
    if before is not None and action is not None:
        verb = VOCABULARY.to_triple(before.action_label(action))[0]
        step = Step(before.to_play, verb, action)
    out: dict[str, Any] = {}
    n_before = len(before.declared) if before is not None else 0
    for key in due_reveals(after.rules, seat, before, step, after):
        if key == "declaring":
            out[key] = f"S{after.to_play}" if after.phase is Phase.DECLARE else None
        elif key == "declared":
            out[key] = [combo_json(q, c) for q, c in after.declared[n_before:]]
        elif key == "void":
            out[key] = after.void
        else:
            out[key] = MINCHIATE_97.codes(after.fola)
    return out


def combo_json(seat: int, combo: Combo) -> dict[str, Any]:
    """A declared combination as a reveal (and the VIEW) writes it."""
    return {
        "seat": seat,
        "combo": COMBO_NAMES[combo.kind],
        "cards": MINCHIATE_97.codes(combo.members),
        "points": combo.points,
        "bonus": combo.bonus,
    }


def _combo_cards(combo: Combo) -> int:
    """The cards a declared combination shows the declarer holds (the Matto with a bonus)."""
    extra = MATTO_BIT if combo.bonus or combo.kind == ONE_40_M else 0
    return combo.members | extra


def _seat(value: Any, name: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 4:
        return value
    if isinstance(value, str) and value in ("S0", "S1", "S2", "S3"):
        return int(value[1])
    raise ValueError(f"{name} must be a seat S0..S3 (or 0..3), got {value!r}")


def _read_combo(value: Any, name: str) -> tuple[int, Combo]:
    if not isinstance(value, Mapping) or not {"seat", "combo", "cards"} <= set(value):
        raise ValueError(
            f"{name} must be an object with seat, combo, cards (and bonus), got {value!r}"
        )
    unknown = set(value) - {"seat", "combo", "cards", "bonus", "points"}
    if unknown:
        raise ValueError(f"{name}: unknown field(s) {sorted(unknown)}")
    if value["combo"] not in COMBO_NAMES:
        raise ValueError(f"{name}.combo must be one of {list(COMBO_NAMES)}, got {value['combo']!r}")
    cards = value["cards"]
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise ValueError(f"{name}.cards must be a list of card codes, got {cards!r}")
    members = MINCHIATE_97.mask_of(cards)
    bonus = value.get("bonus", 0)
    if type(bonus) is not int or bonus < 0:
        raise ValueError(f"{name}.bonus must be a non-negative integer, got {bonus!r}")
    points = sum(COMBO_VALUE[c] for c in bit_list(members))
    if "points" in value and value["points"] != points:
        raise ValueError(f"{name}.points is {value['points']!r}, but its cards are worth {points}")
    return _seat(value["seat"], f"{name}.seat"), Combo(
        COMBO_NAMES.index(value["combo"]), members, points, bonus
    )


TRACKER = TrackerEntry(MinchiateTracker, private_of, reveal_of)

"""The Minchiate world sampler: complete worlds consistent with one seat's view, returned as
determinized ``State`` objects (``mazzo.envs.minchiate.worlds``).

A world places every card the viewer cannot locate in a *slot*: another seat's hand, another
discarder's discards, or the dealer's part of the Fola (``orig_fola``: the Fola as the dealer
left it at M-7, which he alone has seen). What the view pins down:

- the viewer's hand and discards, every card played, the Fola cards it knows (all of them once
  exposed; the stop card; for the dealer his own part of the Fola before the exposure);
- the hand size of every seat (public), hence how many cards each discarder has discarded;
- public cards: the face-up 21st cards, the cutter's robbed cards and the dealer's robbed and
  taken cards stay with their owner, or were discarded by him if they are legal discards;
  declared combinations stay with the declarer until played;
- what the play showed (``knowledge.play_exclusions``: voids, the King rule, overtrumps);
- the dealer's Fola holds no counter and (``dealer_takes = counters_and_29``) not T29, and the
  stop card lies in it unless it was the dealer's face-up, robbed or taken card;
- discards are legal discards (``discard_rule``);
- declarations: a declared combination is one of the combinations of the declarer's 21 cards
  (so a declared run shows its neighbours missing, a declared bonus shows the Matto), and with
  ``declarations = auto_all`` a seat's declared list is all its combinations.

Per-card constraints (a card allowed in some slots only) are sampled exactly and uniformly by
``mazzo.agents.sampling.SlotSampler``. The few joint constraints are applied by rejection, which
keeps the distribution uniform over the worlds that satisfy them: combinations made of two or more
hidden cards (``auto_all``; the declarer on turn still holding an offer), enough legal discards
in a discarder's hand while he is discarding (M-8.5), the order of the ``impossible_discard =
relax`` classes, and the order of the Fola (below).

The distribution is *uniform over the consistent worlds*, except for one factor that the cut
and deal themselves impose and that the sampler applies exactly (by rejection): the dealer's
robbing stopped at the first non-qualifying Fola card, so a world whose ``orig_fola`` holds
``k`` non-qualifying cards besides the stop card comes from ``k`` times as many shuffled streams
as one with a single such card. Worlds are weighted by that count, which makes them exactly the
posterior of a uniform shuffle given the public cards. The players' choices (which cards they
chose to discard, which combinations they skipped) are not modelled: every legal choice is
taken as equally likely.

Must not import torch or training/.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mazzo.agents.minchiate.knowledge import (
    BIT,
    COMBO_CARDS,
    COUNTERS,
    DISCARDABLE,
    MATTO_BIT,
    NON_QUALIFYING,
    T29_BIT,
    play_exclusions,
)
from mazzo.agents.sampling import NoConsistentWorld, SlotSampler, below
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.minchiate.combos import ONE_40_M, Combo, find_combos
from mazzo.envs.minchiate.state import State
from mazzo.envs.minchiate.tables import FULL, RELAX_CLASSES
from mazzo.envs.minchiate.view import InfoView
from mazzo.envs.minchiate.worlds import Assignment, declaring_holding, determinize, extra_cards
from mazzo.envs.minchiate.worlds import stop_in_fola as _stop_in_fola

__all__ = ["ORIG", "WorldSampler"]

ORIG = 8  # slot id of the dealer's Fola; hands are 0..3, discards 4..7 (4 + seat)
MAX_TRIES = 20_000
_CLASS = tuple(next(i for i, m in enumerate(RELAX_CLASSES) if (m >> c) & 1) for c in range(97))


class WorldSampler:
    """Sampler of the worlds consistent with ``view`` (see the module docstring).

    Attributes:
        slots: the slot id of each sampler slot: a seat (its hand), 4 + seat (its discards) or
            ``ORIG``.
        known: the cards whose slot the viewer knows, per slot id (the viewer's own hand and
            discards included).
        allowed: for each hidden card, the bitmask over ``slots`` it may occupy.
        capacities: how many hidden cards each of ``slots`` takes.
    """

    # Builds the assignment sampler from (capacities, groups); uniform by default (the seat
    # trackers swap in one that only needs *a* consistent world, much faster to build).
    slot_sampler: Callable[[Sequence[int], Sequence[tuple[Sequence[int], int]]], Any] = SlotSampler

    def __init__(self, view: InfoView) -> None:
        if view.phase is Phase.DONE:
            raise ValueError("a finished deal has no world to sample")
        self.view = view
        v, me = view, view.seat
        self.exposed = v.fola_exposed
        pb = v.played_by
        self.played = pb[0] | pb[1] | pb[2] | pb[3]
        self.n_disc = [
            21 + extra_cards(v, q) - pb[q].bit_count() - v.hand_sizes[q] for q in range(4)
        ]
        self.known: dict[int, int] = {me: v.hand, 4 + me: v.discards}
        self.slots: list[int] = [q for q in range(4) if q != me]
        caps = [v.hand_sizes[q] for q in self.slots]
        for q in (v.cutter, v.dealer):
            if q != me and self.n_disc[q] > 0:
                self.slots.append(4 + q)
                caps.append(self.n_disc[q])
        f = 13 - len(v.robbed) - len(v.dealer_robbed) - v.dealer_taken.bit_count()
        self.stop_in_orig = _stop_in_fola(v)
        if me == v.dealer and not self.exposed:
            self.known[ORIG] = v.fola_known & ~v.discards
        elif f > 0:
            self.slots.append(ORIG)
            caps.append(f)
        self.public = self._public_owners()
        self.min_class = [min((_CLASS[c] for c in bit_list(pb[q])), default=4) for q in range(4)]
        self.absent = play_exclusions(v)
        self._pin_known()
        self.decl_absent = self._declaration_exclusions()
        placed = 0
        for m in self.known.values():
            placed |= m
        hidden = FULL & ~(self.played | placed)
        caps = [
            c - self.known.get(slot, 0).bit_count()
            for slot, c in zip(self.slots, caps, strict=True)
        ]
        self.allowed = {c: self._allowed(c) for c in bit_list(hidden)}
        groups = [([c], a) for c, a in self.allowed.items()]
        self.capacities = caps
        self._sampler = self.slot_sampler(caps, groups)
        self.tries = 0
        self.accepted = 0

    # ------------------------------------------------------------------ public API
    def count(self) -> int:
        """The number of worlds meeting the per-card constraints (the joint ones are checked
        when sampling)."""
        return int(self._sampler.count())

    def sample_assignment(self, rng: np.random.Generator) -> Assignment:
        """One world drawn from the distribution of the module docstring.

        Raises:
            NoConsistentWorld: no world passed the joint constraints in ``MAX_TRIES`` draws.
        """
        for _ in range(MAX_TRIES):
            self.tries += 1
            world = self._draw(rng)
            if self._acceptable(world, rng):
                self.accepted += 1
                return world
        raise NoConsistentWorld(f"no consistent world in {MAX_TRIES} draws")

    def sample(self, rng: np.random.Generator) -> State:
        """One drawn world as a determinized state at the view's decision point."""
        return determinize(self.view, self.sample_assignment(rng))

    def assignment_key(self, world: Assignment) -> tuple[int, ...]:
        """The hidden part of a world: the cards of each sampler slot beyond the known ones
        (for tests that enumerate worlds)."""
        return tuple(
            self._slot_cards(world, slot) & ~self.known.get(slot, 0) for slot in self.slots
        )

    def weight(self, world: Assignment) -> int:
        """The relative probability of a world that meets every constraint (1 unless the
        dealer's Fola is hidden; see the module docstring); 0 for an inconsistent one."""
        if not self._joint_ok(world):
            return 0
        if ORIG not in self.slots:
            return 1
        return self._fola_orders(world.orig_fola)

    # ------------------------------------------------------------------ drawing
    def _draw(self, rng: np.random.Generator) -> Assignment:
        drawn = self._sampler.sample(rng)
        by_slot = dict(self.known)
        for slot, cards in zip(self.slots, drawn, strict=True):
            by_slot[slot] = by_slot.get(slot, 0) | cards
        hands = tuple(by_slot.get(q, 0) for q in range(4))
        discards = tuple(by_slot.get(4 + q, 0) for q in range(4))
        return Assignment(
            (hands[0], hands[1], hands[2], hands[3]),
            (discards[0], discards[1], discards[2], discards[3]),
            by_slot.get(ORIG, 0),
        )

    @staticmethod
    def _slot_cards(world: Assignment, slot: int) -> int:
        if slot < 4:
            return world.hands[slot]
        if slot < 8:
            return world.discards[slot - 4]
        return world.orig_fola

    def _acceptable(self, world: Assignment, rng: np.random.Generator) -> bool:
        if not self._joint_ok(world):
            return False
        if ORIG not in self.slots:
            return True
        top = (world.orig_fola & ~BIT[self.view.stop_card]).bit_count() or 1
        return below(int(rng.bit_generator.random_raw()), top) < self._fola_orders(world.orig_fola)

    def _fola_orders(self, orig: int) -> int:
        """How many cards could have stopped the dealer's robbing (M-7.1): the non-qualifying
        cards of his Fola other than the stop card, which lies at its bottom; the stop card
        itself only when it is all that is left and nothing was taken. Each such card gives
        the same number of shuffled streams."""
        v = self.view
        if not orig:
            return 1
        rest = orig & ~BIT[v.stop_card]
        if not rest:
            return int(not v.dealer_taken and bool(NON_QUALIFYING >> v.stop_card & 1))
        return (rest & NON_QUALIFYING).bit_count()

    # ------------------------------------------------------------------ constraints
    def _public_owners(self) -> dict[int, int]:
        """Public cards not yet played -> the seat they were given to (M-5.3, M-6.2, M-7)."""
        v = self.view
        owners = {c: seat for seat, c in enumerate(v.faceup) if c >= 0}
        owners.update(dict.fromkeys(v.robbed, v.cutter))
        owners.update(dict.fromkeys(v.dealer_robbed, v.dealer))
        owners.update(dict.fromkeys(bit_list(v.dealer_taken), v.dealer))
        return {c: q for c, q in owners.items() if not (self.played >> c) & 1}

    def _may_discard(self, seat: int, card: int) -> bool:
        """Whether ``card`` may be among ``seat``'s discards (per card; the ``relax`` class
        order is checked on whole worlds)."""
        rules = self.view.rules
        if 4 + seat not in self.slots:
            return False
        if rules.discard_rule == "any":
            return True
        if rules.impossible_discard == "relax":  # no lower class than the seat is known to keep
            return _CLASS[card] <= self.min_class[seat]
        return bool((DISCARDABLE >> card) & 1)

    def _may_be_orig(self, card: int) -> bool:
        if ORIG not in self.slots or card in self.public or (COUNTERS >> card) & 1:
            return False
        return not (self.view.rules.dealer_takes == "counters_and_29" and T29_BIT >> card & 1)

    def _pin(self, slot: int, card: int) -> None:
        self.known[slot] = self.known.get(slot, 0) | BIT[card]

    def _pin_known(self) -> None:
        """Cards whose slot follows from the view: public cards that cannot have been discarded
        (or, once the Fola is exposed, that are or are not in it), declared cards, the Matto
        shown by a declaration bonus, and the stop card in the dealer's Fola."""
        v, me = self.view, self.view.seat
        mine = self.known[me] | self.known[4 + me]
        for c, q in self.public.items():
            if q == me:
                continue
            in_fola = bool((v.fola_known >> c) & 1)
            if self.exposed or not self._may_discard(q, c):
                self._pin(4 + q if in_fola else q, c)
        for q, combo in v.declared:
            if q == me:
                continue
            members = combo.members
            if combo.bonus or combo.kind == ONE_40_M:
                members |= MATTO_BIT
            for c in bit_list(members & ~self.played & ~mine):
                self._pin(q, c)
        stop = v.stop_card
        if self.stop_in_orig and ORIG in self.slots and not (self.played >> stop) & 1:
            self._pin(ORIG, stop)

    def _allowed(self, card: int) -> int:
        """Bitmask over the sampler slots where hidden ``card`` may be."""
        v = self.view
        owner = self.public.get(card, -1)
        in_fola = bool((v.fola_known >> card) & 1)
        allowed = 0
        for i, slot in enumerate(self.slots):
            if slot < 4:
                ok = (
                    not in_fola
                    and owner in (-1, slot)
                    and not (self.absent[slot] >> card) & 1
                    and not (self.decl_absent[slot] >> card) & 1
                )
            elif slot < 8:
                seat = slot - 4
                ok = (in_fola or not self.exposed) and owner in (-1, seat)
                ok = ok and self._may_discard(seat, card)
            else:
                ok = (in_fola or not self.exposed) and self._may_be_orig(card)
            if ok:
                allowed |= 1 << i
        return allowed

    def _declared_by(self) -> dict[int, list[Combo]]:
        """Seats other than the viewer that have declared (or are declaring): their declared
        combinations in order."""
        v = self.view
        out: dict[int, list[Combo]] = {
            q: [] for q in range(4) if q != v.seat and self._has_declared(q)
        }
        for q, combo in v.declared:
            if q in out:
                out[q].append(combo)
        return out

    def _has_declared(self, seat: int) -> bool:
        """Whether ``seat`` has reached its declaration (M-9.1 / ``declare_timing``)."""
        v = self.view
        if v.phase is Phase.DECLARE and v.to_play == seat:
            return True
        if v.rules.declare_timing == "with_first_card":
            return v.played_by[seat] != 0
        if v.phase is Phase.DECLARE:
            return (seat - v.dealer - 1) & 3 < (v.to_play - v.dealer - 1) & 3
        return v.phase > Phase.DECLARE

    def _declaration_exclusions(self) -> list[int]:
        """Per seat, the combination cards it cannot hold: one that would change a declared
        combination (a run's neighbour, a fourth king, the Matto without a bonus) or, under
        ``auto_all``, would make a combination it did not declare."""
        v, rules = self.view, self.view.rules
        out = [0, 0, 0, 0]
        self.declaring = self._declared_by()
        auto = rules.declarations == "auto_all"
        for q, combos in self.declaring.items():
            base = declaring_holding(self.known.get(q, 0), v.played_by[q])
            candidates = COMBO_CARDS & ~base & ~self.played
            for c in bit_list(candidates):
                found = find_combos(
                    base | BIT[c], rules.diecine, True, rules.matto_bonus_in_own_combo
                )
                if any(x not in found for x in combos) or (auto and len(found) > len(combos)):
                    out[q] |= BIT[c]
        return out

    def _joint_ok(self, world: Assignment) -> bool:
        """The constraints that involve several hidden cards at once."""
        v, rules = self.view, self.view.rules
        for q, combos in self.declaring.items():
            holding = declaring_holding(world.hands[q], v.played_by[q])
            found = find_combos(holding, rules.diecine, True, rules.matto_bonus_in_own_combo)
            if not _declared_fit(combos, found, rules.declarations == "auto_all", q == v.to_play
                                 and v.phase is Phase.DECLARE):  # fmt: skip
                return False
        if v.phase < Phase.DECLARE and v.to_play != v.seat:  # a discarder is discarding
            pending = v.hand_sizes[v.to_play] - 21
            redeal = rules.discard_rule == "zero_not_29" and rules.impossible_discard == "redeal"
            if redeal and (world.hands[v.to_play] & DISCARDABLE).bit_count() < pending:
                return False
        if rules.impossible_discard == "relax" and rules.discard_rule == "zero_not_29":
            for q in (v.cutter, v.dealer):
                d = world.discards[q]
                if d and q != v.seat:
                    top = max(_CLASS[c] for c in bit_list(d))
                    rest = world.hands[q] | v.played_by[q]
                    if rest and min(_CLASS[c] for c in bit_list(rest)) < top:
                        return False
        return True


def _declared_fit(
    declared: list[Combo], found: tuple[Combo, ...], auto: bool, in_progress: bool
) -> bool:
    """Declared combinations against those of the holding: all of them with ``auto_all``;
    otherwise a subsequence, and a declarer on turn still has one on offer after the last."""
    if auto:
        return tuple(declared) == found
    i = 0
    for combo in declared:
        while i < len(found) and found[i] != combo:
            i += 1
        if i == len(found):
            return False
        i += 1
    return not in_progress or i < len(found)

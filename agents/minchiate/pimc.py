"""Determinized search (Perfect Information Monte Carlo) for Minchiate.

For each decision: sample worlds consistent with the seat's view (``WorldSampler``: the other
hands, the other discarders' discards and the dealer's Fola, given voids, the King rule, public
cards, declarations and the Fola's order), evaluate every candidate action in every world, and
pick the action with the best mean value for the seat's partnership. An action is evaluated by
playing the world out: greedily with perfect information (``rollout.rollout_action``), the last
``exact_tricks`` tricks exactly (``rollout.solve``: alpha-beta over the two partnerships). The
value is the deal's net resti for the partnership plus ``point_weight`` times its final point
difference in resti (a tie-break). All candidates share the same worlds (common random
numbers), so their comparison is sharper than their values.

Candidates: the legal cards, less those equivalent to a lower one (zero-value cards outside
every combination, of one suit, with nothing between them that another hand could hold: they
lead to the same results).

By default only card play is searched; the other decisions are the heuristic's, each for a
measured or structural reason. Discards: searched with perfect-information playouts they did
no better than the heuristic's rule (-0.025 resti per deal, 95% CI [-0.071, +0.020], over
1,000 duplicate deals of heuristic play with either discards), and the Fola is dead, so the
simple rule stays. ``discards="search"`` (``pimc:discards=search``) searches them anyway, the
same way as a card: every legal discard (less those equivalent to a weaker one) in the same
uniformly drawn worlds, each world played out by the rollout policy (the later discards and
the declarations its own, the heuristic's rules) and the core: the values a learner can be
taught from (``ipimc``'s ``own_phases=discard_cutter+discard_dealer``, expert iteration's
labels), where the heuristic's rule gives none. ``discards="blind"`` searches them the same way
with blind leads in the playouts (``rollout``: a leader chooses his suit from his hand and the
cards out of play, not from the other hands): with perfect-information leads nobody ever leads
a suit the discarder has emptied, so the search cannot see what a void is worth at the table.
Declarations: hiding a combination can only help against players who do not see the cards;
in a perfect-information playout everyone sees them, so declaring would always look right
(which is also the heuristic's choice: skipping everything cost 0.21 resti per deal). The
Matto payment: the piles are public, so the heuristic's choice is exact. A forced action is
returned at once.

The playouts and the solver run in the compiled search core (``mazzo.agents.minchiate.csearch``: one
call per world for every candidate play, the same values) where it is built, else in Python
(``rollout.py``, the reference; also under ``MAZZO_PURE_PYTHON=1``).

Budget: ``samples`` worlds per decision, stopped early after ``ms`` milliseconds (at least one
world).

Must not import torch or training/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from mazzo.agents.belief import BeliefWorlds
from mazzo.agents.minchiate import csearch
from mazzo.agents.minchiate.heuristic import HeuristicV1, discard_keep
from mazzo.agents.minchiate.knowledge import (
    COMBO_CARDS,
    STRENGTH,
    SUIT,
    SUIT_MASK,
    VALUE,
    gone_cards,
)
from mazzo.agents.minchiate.rollout import playout, rollout_action
from mazzo.agents.minchiate.sampler import WorldSampler
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.minchiate.state import State
from mazzo.envs.minchiate.view import InfoView
from mazzo.envs.minchiate.worlds import Assignment, determinize

__all__ = ["DISCARDS", "PIMC", "distinct_cards"]

_HEURISTIC = HeuristicV1()
DISCARDS = ("rule", "search", "blind")
"""The ``discards`` options: the heuristic's rule, searched like a card, or searched with
playouts whose leads do not see the other hands (``rollout``'s ``blind``)."""
_DISCARD_PHASES = (Phase.DISCARD_CUTTER, Phase.DISCARD_DEALER)


def distinct_cards(cards: int, hand: int, gone: int) -> list[int]:
    """``cards`` less those equivalent to a weaker one of the list: both worth 0 and outside
    every combination, of the same suit, and every card of that suit ranked between them in
    ``hand`` or ``gone``. Equivalent cards lead to the same results, whoever holds the rest."""
    out: list[int] = []
    by_suit: dict[int, list[int]] = {}
    for c in bit_list(cards):
        if VALUE[c] or (COMBO_CARDS >> c) & 1 or SUIT[c] > 4:
            out.append(c)
        else:
            by_suit.setdefault(SUIT[c], []).append(c)
    known = hand | gone
    for suit, group in by_suit.items():
        group.sort(key=lambda c: STRENGTH[c])
        out.append(group[0])
        for lo, hi in pairwise(group):
            between = sum(
                1 << d
                for d in bit_list(SUIT_MASK[suit])
                if STRENGTH[lo] < STRENGTH[d] < STRENGTH[hi]
            )
            if between & ~known:
                out.append(hi)
    return sorted(out)


@dataclass
class PIMC:
    """Determinized search agent (see the module docstring).

    Attributes:
        samples: worlds per decision.
        ms: time budget per decision in milliseconds (0: no limit).
        exact_tricks: solve the last this-many tricks exactly (0..3).
        point_weight: weight of the final point difference (in resti) in a world's value.
        beliefs: draw the worlds of card play with a belief model (``mazzo.agents.belief``: a
            uniform pool resampled by the model's weights) instead of uniformly: the
            learned-inference search ``ipimc``.
        discards: ``rule`` (the heuristic's discards, unsearched), ``search`` (searched like
            a card, in uniformly drawn worlds) or ``blind`` (searched so, the playouts' leads
            blind; see the module docstring).
        discard_candidates: the searched discards are the first this-many (after
            ``distinct_cards``) in the heuristic's keep order (``discard_keep``: plain cards of
            the shortest suits first, trumps last); 0: every legal discard.
    """

    samples: int = 64
    ms: float = 800.0
    exact_tricks: int = 2
    point_weight: float = 0.1
    beliefs: BeliefWorlds | None = None
    discards: str = "rule"
    discard_candidates: int = 0
    name: str = "pimc"

    def __post_init__(self) -> None:
        if (
            self.samples < 1
            or self.ms < 0
            or not 0 <= self.exact_tricks <= 3
            or self.point_weight < 0
            or self.discards not in DISCARDS
            or self.discard_candidates < 0
        ):
            raise ValueError(
                "pimc needs samples >= 1, ms >= 0, 0 <= exact_tricks <= 3, point_weight >= 0, "
                f"discards in {DISCARDS} and discard_candidates >= 0, got {self}"
            )
        self.name = f"pimc:samples={self.samples},ms={self.ms:g},exact={self.exact_tricks}"
        if self.discards != "rule":
            self.name += f",discards={self.discards}"
            if self.discard_candidates:
                self.name += f",candidates={self.discard_candidates}"
        if self.beliefs is not None:
            b = self.beliefs
            self.name = (
                "i"
                + self.name
                + f",pool={b.pool},alpha={b.alpha:g},ess={b.ess:g},against={b.against}"
            )

    def act(self, view: InfoView, rng: np.random.Generator) -> int:
        """The candidate with the best mean value over the sampled worlds."""
        return self.search(view, rng)[0]

    def search(self, view: InfoView, rng: np.random.Generator) -> tuple[int, dict[int, float]]:
        """``act``'s decision (drawing from ``rng`` exactly as ``act`` does) with the values it
        was taken on: the mean value of every searched candidate; empty when nothing was
        searched (a forced play, or a decision outside card play: the heuristic's, except
        the discards under ``discards="search"`` or ``"blind"``). The action is the first
        candidate of the highest value."""
        searched = view.phase is Phase.PLAY or (
            self.discards != "rule" and view.phase in _DISCARD_PHASES
        )
        if not searched:
            return _HEURISTIC.act(view, rng), {}
        candidates = self.candidates(view)
        if len(candidates) == 1:
            return candidates[0], {}
        values = self.evaluate(view, candidates, rng)
        chosen = candidates[int(np.argmax(values))]
        return chosen, {c: float(v) for c, v in zip(candidates, values, strict=True)}

    def sample_world(self, view: InfoView, rng: np.random.Generator) -> State:
        """One world drawn uniformly among those consistent with ``view`` (the worlds of the
        ``playouts`` option, ``mazzo.agents.playouts``)."""
        return determinize(view, WorldSampler(view).sample_assignment(rng))

    def playout_action(self, state: State) -> int:
        """The perfect-information playout policy's action in ``state`` (``rollout_action``):
        the rival card play of the ``playouts`` option's ``playout_rivals=search``."""
        return rollout_action(state)

    def candidates(self, view: InfoView) -> list[int]:
        """The plays worth searching (a discard's: at most ``discard_candidates`` of them, the
        first in the heuristic's keep order, sorted)."""
        out = distinct_cards(view.legal_mask, view.hand, gone_cards(view))
        if self.discard_candidates and view.phase in _DISCARD_PHASES:
            first = sorted(out, key=lambda c: discard_keep(c, view.hand))
            out = sorted(first[: self.discard_candidates])
        return out

    def evaluate(
        self, view: InfoView, candidates: list[int], rng: np.random.Generator
    ) -> np.ndarray:
        """Mean value of each candidate for the viewer's partnership over the sampled worlds."""
        start = time.perf_counter()
        deadline = start + self.ms / 1000 if self.ms else float("inf")
        sampler = WorldSampler(view)
        totals = np.zeros(len(candidates))
        team = view.seat & 1
        compiled = csearch.CORE is not None
        direct = compiled and csearch.view_ready(view)  # no state needed: the hands suffice
        base = csearch.view_world(view, (0, 0, 0, 0)) if direct else None
        play = csearch.playout if compiled else playout
        blind = self.discards == "blind" and view.phase in _DISCARD_PHASES
        n = 0.0
        worlds = (
            self._assignments(view, sampler, rng)
            if view.phase is Phase.PLAY
            else ((sampler.sample_assignment(rng), 1.0) for _ in range(self.samples))
        )  # the belief model knows card play only: a discard's worlds are uniform
        for assignment, count in worlds:
            if base is not None:  # every candidate in one call, the same values
                world = (assignment.hands, *base[1:])
                values = np.asarray(
                    csearch.world_values(
                        world, view.rules, team, candidates, self.exact_tricks, self.point_weight
                    )
                )
            else:
                state = determinize(view, assignment)
                values = np.zeros(len(candidates))
                for i, action in enumerate(candidates):
                    w = state.clone()
                    w.apply(action)
                    values[i] = play(w, self.exact_tricks, team, self.point_weight, blind)
            totals += count * values
            n += count
            if time.perf_counter() > deadline:
                break
        return totals / n

    def _assignments(
        self, view: InfoView, sampler: WorldSampler, rng: np.random.Generator
    ) -> Iterator[tuple[Assignment, float]]:
        """The worlds to evaluate, each with its weight (how many of the ``samples`` draws it
        stands for): uniform draws one at a time, or the belief model's resampled pool."""
        if self.beliefs is None:
            for _ in range(self.samples):
                yield sampler.sample_assignment(rng), 1.0
            return
        yield from self.beliefs.draw(view, sampler, self.samples, rng)

"""Determinized search (Perfect Information Monte Carlo) for Calabresella.

For each decision: sample worlds consistent with the seat's view (``WorldSampler``: uniform over
the hands, monte and set-aside cards the seat cannot see, given voids, the called and returned
cards and the open monte), evaluate every candidate action in every world, and pick the action
with the best average return for the seat. An action is evaluated by playing the world out: the
last ``exact_tricks`` tricks are solved exactly (``rollout.solve``), everything before with the
greedy perfect-information policy (``rollout.rollout_action``). Bids are the exception: they
are evaluated by playing the world out with the heuristic on each seat's own view, because
perfect-information playouts make every contract look easier than it is (strategy fusion).
All candidates share the same worlds (common random numbers), so their comparison is sharper
than their values.

The playouts and the solver run in the compiled search core (``mazzo.agents.calabresella.csearch``:
one call per world for every candidate play, the same values) where it is built, else in
Python (``rollout.py``, the reference; also under ``MAZZO_PURE_PYTHON=1``); so does the card
play of the bids' heuristic playouts (the auction and the exchanges stay in Python).

Budget: ``samples`` worlds per decision, stopped early after ``ms`` milliseconds (at least one
world). For discards and returns, the candidates are the ``max_candidates`` cards the heuristic
would give up most readily; a forced action is returned at once.

Must not import torch or training/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from mazzo.agents.belief import BeliefWorlds
from mazzo.agents.calabresella import csearch
from mazzo.agents.calabresella.heuristic import HeuristicV1, keep_score
from mazzo.agents.calabresella.knowledge import BY_STRENGTH
from mazzo.agents.calabresella.rollout import final_value, rollout_action, solve
from mazzo.agents.calabresella.sampler import WorldSampler
from mazzo.envs.calabresella.actions import Phase
from mazzo.envs.calabresella.kernel import TRICKS
from mazzo.envs.calabresella.state import State
from mazzo.envs.calabresella.view import InfoView
from mazzo.envs.calabresella.worlds import determinize
from mazzo.envs.cards.bits import bit_list

__all__ = ["PIMC"]

_HEURISTIC = HeuristicV1()
CARD_CHOICE_PHASES = (Phase.RETURN, Phase.SOLO_DISCARD, Phase.DIV_DISCARD, Phase.SCE_DISCARD)
_PLAY = Phase.PLAY  # bound once: an enum attribute costs a lookup per use


@dataclass
class PIMC:
    """Determinized search agent (see the module docstring).

    Attributes:
        samples: worlds per decision.
        ms: time budget per decision in milliseconds (0: no limit).
        exact_tricks: solve the last this-many tricks exactly.
        max_candidates: candidates considered for discards and returns.
        beliefs: draw the worlds of card play with a belief model (``mazzo.agents.belief``: a
            uniform pool resampled by the model's weights) instead of uniformly: the
            learned-inference search ``ipimc``.
        points: weight of the card-point tie-break in the playouts' values of card play and
            the exchanges (``rollout``'s module docstring): 0 values the settlement alone
            (indifferent to a counter given away where the outcome does not hang on it); > 0
            makes a gift cost its giver. Never in the bids' playouts: a contract is worth its
            settlement, and a soloist's share of the points is no reason to bid.
    """

    samples: int = 24
    ms: float = 800.0
    exact_tricks: int = 3
    max_candidates: int = 6
    beliefs: BeliefWorlds | None = None
    points: float = 0.0
    name: str = "pimc"

    def __post_init__(self) -> None:
        if (
            self.samples < 1 or self.ms < 0 or not 0 <= self.exact_tricks <= 4
            or not self.points >= 0
        ):  # fmt: skip
            raise ValueError(
                "pimc needs samples >= 1, ms >= 0, 0 <= exact_tricks <= 4 and points >= 0, "
                f"got {self}"
            )
        self.name = f"pimc:samples={self.samples},ms={self.ms:g},exact={self.exact_tricks}"
        if self.points:
            self.name += f",points={self.points:g}"
        if self.beliefs is not None:
            b = self.beliefs
            self.name = (
                "i"
                + self.name
                + f",pool={b.pool},alpha={b.alpha:g},ess={b.ess:g},against={b.against}"
            )

    def act(self, view: InfoView, rng: np.random.Generator) -> int:
        """The candidate with the best mean return over the sampled worlds."""
        return self.search(view, rng)[0]

    def search(self, view: InfoView, rng: np.random.Generator) -> tuple[int, dict[int, float]]:
        """``act``'s decision (drawing from ``rng`` exactly as ``act`` does) with the values it
        was taken on: the mean return of every searched candidate (empty when the action is
        forced). The action is the first candidate of the highest value."""
        candidates = self.candidates(view)
        if len(candidates) == 1:
            return candidates[0], {}
        values = self.evaluate(view, candidates, rng)
        chosen = candidates[int(np.argmax(values))]
        return chosen, {c: float(v) for c, v in zip(candidates, values, strict=True)}

    def sample_world(self, view: InfoView, rng: np.random.Generator) -> State:
        """One world drawn uniformly among those consistent with ``view`` (the worlds of the
        ``playouts`` option, ``mazzo.agents.playouts``)."""
        return WorldSampler(view).sample(rng)

    def playout_action(self, state: State) -> int:
        """The perfect-information playout policy's action in ``state`` (``rollout_action``):
        the rival card play of the ``playouts`` option's ``playout_rivals=search``."""
        return rollout_action(state)

    def candidates(self, view: InfoView) -> list[int]:
        """The actions worth searching."""
        legal = bit_list(view.legal_mask)
        if view.phase is Phase.CALL:  # the two best missing cards of each suit
            legal = [
                c
                for s in range(4)
                for c in [d for d in BY_STRENGTH[s] if not view.hand >> d & 1][:2]
            ]
            return sorted(legal)
        if view.phase in CARD_CHOICE_PHASES and len(legal) > self.max_candidates:
            gone = view.played_by[0] | view.played_by[1] | view.played_by[2] | view.discards
            legal.sort(key=lambda c: keep_score(c, view.hand, gone))
            legal = sorted(legal[: self.max_candidates])
        return legal

    def evaluate(
        self, view: InfoView, candidates: list[int], rng: np.random.Generator
    ) -> np.ndarray:
        """Mean return of each candidate for the viewer over the sampled worlds."""
        sampler = WorldSampler(view)
        totals = np.zeros(len(candidates))
        deadline = time.perf_counter() + self.ms / 1000 if self.ms else float("inf")
        seat = view.seat
        value = self._honest_value if view.phase is Phase.BID else self._value
        compiled = csearch.CORE is not None and view.phase is _PLAY
        n = 0.0
        for world, count in self._worlds(view, sampler, rng):
            if compiled:  # every candidate in one call, the same values as ``_value``
                values = np.asarray(
                    csearch.values(world, seat, candidates, self.exact_tricks, self.points)
                )
            else:
                values = np.zeros(len(candidates))
                for i, action in enumerate(candidates):
                    w = world.clone()
                    w.apply(action)
                    values[i] = value(w, seat)
            totals += count * values
            n += count
            if time.perf_counter() > deadline:
                break
        return totals / n

    def _worlds(
        self, view: InfoView, sampler: WorldSampler, rng: np.random.Generator
    ) -> Iterator[tuple[State, float]]:
        """The worlds to evaluate, each with its weight (how many of the ``samples`` draws it
        stands for):
        uniform draws one at a time, or (card play) the belief model's resampled pool."""
        if self.beliefs is None or view.phase is not _PLAY:
            for _ in range(self.samples):
                yield sampler.sample(rng), 1.0
            return
        for (hands, rest), count in self.beliefs.draw(view, sampler, self.samples, rng):
            yield determinize(view, hands, rest), count

    def _honest_value(self, w: State, seat: int) -> float:
        """Play world ``w`` out with the heuristic on each seat's own view. Used for bids:
        perfect-information playouts make every contract look easier than it is."""
        heuristic = _HEURISTIC
        while not w.is_terminal():
            if w.phase is _PLAY and csearch.CORE is not None:
                return csearch.honest_value(w, seat)  # the card play, by the compiled core
            w.apply(heuristic.decide(w.info_view(w.to_play)))
        return float(w.returns()[seat])

    def _value(self, w: State, seat: int) -> float:
        """Play world ``w`` out: greedy until the last ``exact_tricks`` tricks, then exactly."""
        while not w.is_terminal():
            if w.phase is _PLAY:
                if csearch.CORE is not None:
                    return csearch.values(w, seat, None, self.exact_tricks, self.points)[0]
                if TRICKS - len(w.tricks) <= self.exact_tricks:
                    return solve(w, self.points)[seat]
            w.apply(rollout_action(w))
        return final_value(w, seat, self.points)

"""The vector runner: N engines of one registered game stepped together, with batched
observations, masks, done flags and returns, and automatic resets from a seeded deal stream.

It is the layer the trainers, the arena and a bot server share; it keeps no PettingZoo
bookkeeping (no agent names, no cumulative rewards). Each engine is one deal
(``game.new_state``); the seat that acts in it is its ``to_play``. Everything goes through the
registry (``mazzo.envs.registry``): seats from ``game.seats``, deals from ``game.deal_random`` (via
``mazzo.envs.deals.DealStream``), views from ``state.info_view``, encoding from
``game.encoder(rules)``; nothing here names a game.

``reset()`` and ``step(actions)`` return the same ``VectorBatch`` object each time, whose arrays
are read-only views of buffers the runner overwrites on the next call (copy what you keep):

* ``seat (N,)``: the seat acting in each engine now;
* ``obs (N, obs_size) float32`` and ``mask (N, num_actions) int8``: that seat's observation
  and legal actions;
* ``done (N,) bool``: the engine's deal ended in this step (then ``obs``/``mask``/``seat``
  already belong to the next deal, dealt from the stream);
* ``returns (N, seats) int64``: the ended deal's returns per seat (the engine's integer
  ``returns()``; zeros in engines that did not end).

An illegal action raises the engine's ``IllegalAction`` (its message prefixed by
``engine i:``, the index also in its ``engine`` attribute) before any engine moves, so every
engine is left unchanged.

Imports numpy; must not import torch or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.errors import IllegalAction
from mazzo.envs.deals import DealStream
from mazzo.envs.protocols import AnyState, AnyView
from mazzo.envs.registry import AnyGame, get_game

__all__ = ["VectorBatch", "VectorRunner"]


@dataclass(frozen=True, slots=True)
class VectorBatch:
    """The runner's batch after ``reset()`` or ``step()`` (read-only views, see the module)."""

    seat: npt.NDArray[np.int64]
    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.int8]
    done: npt.NDArray[np.bool_]
    returns: npt.NDArray[np.int64]


def _read_only(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    view = a.view()
    view.flags.writeable = False
    return view


class VectorRunner:
    """``n`` engines of ``game`` (a ``Game`` or its registry name) under ``rules`` (its
    ``Rules``, a flags mapping, or None for the defaults), dealt from ``deals`` (any iterable
    of ``Deal``, e.g. a fixed deal set; by default ``DealStream(game, rules, seed)``, whose
    ``position()`` / ``restore()`` make a run resumable).

    Raises:
        ValueError: ``n`` is not an integer >= 1, an unknown game, bad flags or seed.
        TypeError: ``rules`` are another game's.
    """

    def __init__(
        self,
        game: AnyGame | str,
        n: int,
        rules: Any = None,
        seed: int | np.random.SeedSequence = 0,
        deals: Iterable[Deal] | None = None,
    ) -> None:
        self.game = get_game(game) if isinstance(game, str) else game
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
            raise ValueError(f"n (the number of engines) must be an integer >= 1, got {n!r}")
        if rules is None or isinstance(rules, Mapping):
            rules = self.game.rules(rules)
        self.game.check_rules(rules)
        self.rules = rules
        self.n = n = int(n)
        self.deals: Iterator[Deal] = (
            DealStream(self.game, rules, seed) if deals is None else iter(deals)
        )
        self.encoder = self.game.encoder(rules)
        self.seats = self.game.seats(rules)
        self.num_actions = self.encoder.num_actions
        self._obs = np.zeros((n, self.encoder.obs_size), np.float32)
        self._mask = np.zeros((n, self.num_actions), np.int8)
        self._seat = np.zeros(n, np.int64)
        self._done = np.zeros(n, np.bool_)
        self._returns = np.zeros((n, self.seats), np.int64)
        self._rows = np.arange(n)
        self._states: list[AnyState] = []
        self._views: list[AnyView] = []
        self._seats: list[int] = [0] * n
        self._any_done = False
        self.batch = VectorBatch(
            seat=_read_only(self._seat),
            obs=_read_only(self._obs),
            mask=_read_only(self._mask),
            done=_read_only(self._done),
            returns=_read_only(self._returns),
        )

    # ------------------------------------------------------------------ stepping
    def reset(self) -> VectorBatch:
        """Deal a fresh deal to every engine (from the stream, in engine order)."""
        return self._start([self._new_state() for _ in range(self.n)])

    def load(self, states: list[AnyState]) -> VectorBatch:
        """Make ``states`` (one per engine, none finished; for example replayed from the D.3
        records of a checkpoint) the deals in flight, drawing nothing from the deal stream.

        Raises:
            ValueError: not one state per engine, or a finished state.
        """
        if len(states) != self.n or any(s.is_terminal() for s in states):
            raise ValueError(f"load needs {self.n} unfinished states, got {len(states)}")
        return self._start(list(states))

    def _start(self, states: list[AnyState]) -> VectorBatch:
        self._states = states
        self._seats = [s.to_play for s in self._states]
        self._views = [s.info_view(seat) for s, seat in zip(states, self._seats, strict=True)]
        self._done.fill(False)
        self._returns.fill(0)
        self._any_done = False
        return self._publish()

    def step(self, actions: npt.ArrayLike) -> VectorBatch:
        """Apply ``actions[i]`` in engine i (by its acting seat); ended deals are redealt.

        Raises:
            ValueError: ``actions`` is not an integer array of shape ``(n,)``, or before reset.
            IllegalAction: an action is illegal in its engine (nothing is applied anywhere).
        """
        acts = self._check_actions(actions)
        if self._any_done:
            self._done.fill(False)
            self._returns.fill(0)
            self._any_done = False
        states, seats, views = self._states, self._seats, self._views
        for i, action in enumerate(acts.tolist()):  # one pass: apply, redeal, view
            state = states[i]
            state.apply(action)
            seat = state.to_play  # -1: the deal is over (GameState)
            if seat < 0:
                self._returns[i] = state.returns()
                self._done[i] = True
                self._any_done = True
                state = states[i] = self._new_state()
                seat = state.to_play
            seats[i] = seat
            views[i] = state.info_view(seat)
        return self._publish()

    def _new_state(self) -> AnyState:
        try:
            deal = next(self.deals)
        except StopIteration:
            raise ValueError("the runner's deals ran out (pass an endless deal source)") from None
        state: AnyState = self.game.new_state(deal, self.rules)
        return state

    def _publish(self) -> VectorBatch:
        self._seat[:] = self._seats
        self.encoder.encode_batch(self._views, self._obs, self._mask)
        return self.batch

    def _check_actions(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        if not self._states:
            raise ValueError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.n,) or acts.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be an integer array of shape ({self.n},), "
                f"got {acts.dtype} of shape {acts.shape}"
            )
        if acts.min() < 0 or acts.max() >= self.num_actions:
            self._raise_illegal(
                int(np.flatnonzero((acts < 0) | (acts >= self.num_actions))[0]), acts
            )
        legal = self._mask[self._rows, acts]
        if not legal.all():
            self._raise_illegal(int(np.flatnonzero(legal == 0)[0]), acts)
        return acts.astype(np.int64, copy=False)

    def _raise_illegal(self, i: int, acts: npt.NDArray[Any]) -> None:
        probe = self._states[i].clone()  # the engine words the reason; the state stays as it is
        try:
            probe.apply(int(acts[i]))
        except IllegalAction as e:
            e.args = (f"engine {i}: {e}",)
            e.engine = i  # type: ignore[attr-defined]
            raise
        raise AssertionError(f"engine {i}: action {int(acts[i])} is off the mask but legal")

    # ------------------------------------------------------------------ read-only access
    @property
    def states(self) -> tuple[AnyState, ...]:
        """The engines' states (read-only use: heuristic opponents, a critic seeing all)."""
        return tuple(self._states)

    def views(self) -> tuple[AnyView, ...]:
        """The acting seat's view in each engine."""
        return tuple(self._views)

    def legal_counts(self) -> npt.NDArray[np.int64]:
        """The number of legal actions in each engine, ``(n,)``."""
        counts: npt.NDArray[np.int64] = self._mask.sum(axis=1, dtype=np.int64)
        return counts

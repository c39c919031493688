"""The AEC base of a game env whose episode is a deal or a layer of deals (a Calabresella match,
a Minchiate series): the hooks of ``mazzo.envs.common.aec.CardGameAEC`` that read through the layer
(the current deal, the finished deals, the rich infos, the episode's name) and the layer's
summary accessor, written once for both games.

It also builds the game of a ``reset``: the deal from ``options["deal"]`` (a D.3 record, whose
actions are replayed and whose ``expect`` and ``result`` are checked) or a random one, started
by the subclass's ``_start`` as one deal or as the layer; and it writes ``deal_record()``.

A game env subclasses ``LayeredCardGameAEC[State, Layer]``, sets the class attributes
``_registered`` (its ``mazzo.envs.registry.Game``), ``_layer_type`` (the layer's class),
``_layer_key`` (its name, the rich infos' key: ``match``, ``series``) and ``_layer_option``
(the env option that turns it on, for messages), sets ``self.rules``, and implements
``_layered()`` (whether this env plays the layer) and ``_start`` besides its own hooks.

Must not name a game; imports numpy only through ``mazzo.envs.common.aec``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from mazzo.envs.cards import record as core
from mazzo.envs.cards.deal import Deal
from mazzo.envs.common.aec import CardGameAEC, Game, warn_unknown_options
from mazzo.envs.common.infos import EndedDeal
from mazzo.envs.registry import AnyGame

__all__ = ["DealGame", "LayerGame", "LayeredCardGameAEC"]


class DealGame(Game, EndedDeal, Protocol):
    """What the layered base needs from one deal: the engine protocol, whether it was void and
    its full result."""


S = TypeVar("S", bound=DealGame)
S_co = TypeVar("S_co", bound=DealGame, covariant=True)


class LayerGame(Game, Protocol[S_co]):
    """What the layered base needs from a layer of deals: the current deal, the finished ones,
    and the layer's summary (``result()``, whose ``last_deal`` is the latest deal's result)."""

    @property
    def state(self) -> S_co: ...
    @property
    def finished(self) -> Sequence[S_co]: ...
    def result(self) -> dict[str, Any]: ...


L = TypeVar("L", bound=LayerGame[Any])


class LayeredCardGameAEC(CardGameAEC[S | L], Generic[S, L]):
    """A ``CardGameAEC`` whose game is one deal ``S`` or a layer ``L`` chaining deals."""

    _registered: ClassVar[AnyGame]
    _layer_type: type[L]
    _layer_key: ClassVar[str]
    _layer_option: ClassVar[str]
    rules: Any

    def _layered(self) -> bool:
        """Whether this env plays the layer (else one deal per episode)."""
        raise NotImplementedError(
            f"{type(self).__name__} must supply the layered-env hook _layered() "
            "(each game env does: whether its options ask for the layer)"
        )

    def _start(self, deal: Deal, options: Mapping[str, Any]) -> S | L:
        """The game of ``deal``: one deal, or the layer starting with it; ``options`` are the
        record's start options (``DealRecord.options``; empty for a random deal)."""
        raise NotImplementedError(
            f"{type(self).__name__} must supply the layered-env hook _start() "
            "(each game env does: its State, or its layer, for a deal)"
        )

    # ------------------------------------------------------------------ hooks
    def _random_deal(self, dealer: int) -> Deal:
        return self._registered.deal_random(self.rng, self.rules, dealer)

    def _new_game(self, options: dict[str, Any]) -> S | L:
        warn_unknown_options(options, ("deal",))
        record = options.get("deal")
        vocab = self._registered.vocabulary
        if record is None:
            deal = self._random_deal(int(self.rng.integers(len(self.possible_agents))))
            return self._start(deal, {})
        parsed = self._registered.read_record(record, self.rules)
        game = self._start(parsed.deal, parsed.options)
        core.apply_actions(vocab, game, parsed.actions)
        core.check_replay(vocab, parsed, game)  # the record's expect and result, its own deal
        return game

    def _state(self) -> S:
        """The current deal."""
        game = self.game
        if isinstance(game, self._layer_type):
            state: S = game.state
            return state
        return game  # type: ignore[return-value]  # not the layer: a deal

    def _finished_deals(self) -> Sequence[S]:
        game = self.game
        if isinstance(game, self._layer_type):
            finished: Sequence[S] = game.finished
            return finished
        return (game,) if game.is_terminal() else ()  # type: ignore[return-value]

    def _episode_name(self) -> str:
        return self._layer_key if self._layered() else "deal"

    def _final_infos(self) -> list[dict[str, Any]]:
        if self._layered():
            summary = self.game.result()
            return [
                {"result": summary["last_deal"], self._layer_key: summary}
                for _ in self.possible_agents
            ]
        result = self.game.result()
        return [{"result": result} for _ in self.possible_agents]

    def _interim_infos(self) -> list[dict[str, Any]]:
        summary = self.game.result()
        return [
            {"deal_result": summary["last_deal"], self._layer_key: summary}
            for _ in self.possible_agents
        ]

    # ------------------------------------------------------------------ extras
    def _layer_summary(self) -> dict[str, Any]:
        """The layer so far (the rich infos' ``match`` / ``series`` entry).

        Raises:
            ValueError: an env without the layer, or before ``reset``.
        """
        key = self._layer_key
        if not self._layered():
            raise ValueError(f"{key}_summary() needs the env option {self._layer_option}")
        if self.game is None:
            raise ValueError(f"no {key} before reset(): call reset() first")
        return self.game.result()

    def deal_record(self) -> dict[str, Any]:
        """The current deal as a D.3 record, actions so far included (and the result if over)."""
        return self._registered.write_record(self._state())

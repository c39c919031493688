"""The games mazzo knows: one typed description per game, registered by the game itself, that
every layer above ``envs/`` iterates (the agents, the vector runner, the arena, the trainers,
the CLI, the benchmarks and the architecture tests) instead of naming games.

A game package ``envs/<game>/`` registers itself from its module ``envs/<game>/game.py``, which
builds a ``Game`` (static facts in a frozen ``GameInfo``, operations as methods) and calls
``register``. ``games()`` imports every such module once, so a new game is one folder plus its
registration; nothing here names a game (a test checks that no module outside a game's own
packages does).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs.cards.deal import Deal
from envs.cards.deck import Deck
from envs.cards.record import DealRecord, RecordVocabulary
from envs.protocols import Encoder, GameState, InfoView, RulesLike

__all__ = [
    "Game",
    "GameInfo",
    "all_games",
    "game_for_format",
    "game_names",
    "get_game",
    "register",
]


@dataclass(frozen=True)
class GameInfo:
    """What a game is, independent of its rule variant.

    Attributes:
        name: the registry name (``mazzo eval --game NAME``).
        title: the name people read.
        deck: the deck (card ids, codes).
        rules_type: the frozen ``Rules`` dataclass (``from_flags``, ``to_flags``; validates
            itself in ``__post_init__``).
        record_format: the D.3 ``format`` string of its records.
        num_actions: size of the flat ``Discrete`` action space.
        obs_size: length of the observation vector.
        obs_slices: each named block of the observation: name -> (start, stop).
        encoding_version: the observation encoding's version (docs/encoding.md); the env's own
            version is its name's ``_v0`` suffix, a separate number.
        env_module: import path of the PettingZoo module (``env``, ``raw_env``).
        gym_id: the Gymnasium id of the single-agent face.
        peers: ids of the comparable peer benchmarks (``../shared/bench/peers.py``): the bare
            engine's peer and the encoded one's.
        score_unit: what a return counts (``game points``, ``resti``).
        flag_help: rule flag -> (its meaning in one line, its RULES.md sections), for
            ``mazzo rules`` (``envs/<game>/flag_help.py``).
    """

    name: str
    title: str
    deck: Deck
    rules_type: type[Any]
    record_format: str
    num_actions: int
    obs_size: int
    obs_slices: Mapping[str, tuple[int, int]]
    encoding_version: int
    env_module: str
    gym_id: str
    peers: Mapping[str, str] = field(default_factory=dict)
    score_unit: str = "points"
    flag_help: Mapping[str, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Game:
    """A registered game: its ``GameInfo`` and its operations.

    Each game supplies functions; the generic ones (random deals, rules from flags, the env
    constructor) are written once here. Every function checks that the rules it is given are
    this game's (a Minchiate ``Rules`` passed to Calabresella is a ``TypeError`` naming both).

    Attributes:
        info: the static description.
        seats: rules -> number of player seats.
        teams: rules -> the seat groups that share one return (partnerships; else one group per
            seat). The arena seats one agent per group.
        idle_seats: (rules, dealer) -> seats that make no decision in that deal (the idle dealer
            of 4-player Calabresella).
        payoff_bound: rules -> the largest possible |return| of one seat in one deal.
        new_state: (deal, rules, **options) -> a fresh engine state.
        read_record: (record, rules or None) -> the parsed ``DealRecord`` (actions not applied).
        write_record: state -> a D.3 record (actions and result included).
        replay: (record, rules or None) -> the state after the record's actions.
        encoder: rules -> the ``Encoder`` of this game for those rules.
        render_state: state -> the whole table as text (all hands).
        render_view: view -> one seat's table as text.
        action_is_visible: (state, action, seat) -> whether that seat sees the card moved.
        view_json: view -> the view as a JSON-ready dict of the game's own fields (card masks as
            lists of card codes; ``to_play`` a seat), for the bot protocol (``mazzo serve``).
        vocabulary: the game's D.3 record vocabulary (verbs, label <-> ``[verb, arg]``).
    """

    info: GameInfo
    seats: Callable[[Any], int]
    teams: Callable[[Any], tuple[tuple[int, ...], ...]]
    idle_seats: Callable[[Any, int], tuple[int, ...]]
    payoff_bound: Callable[[Any], int]
    new_state: Callable[..., GameState]
    read_record: Callable[[Any, Any], DealRecord]
    write_record: Callable[[Any], dict[str, Any]]
    replay: Callable[[Any, Any], GameState]
    encoder: Callable[[Any], Encoder]
    render_state: Callable[[Any], str]
    render_view: Callable[[Any], str]
    action_is_visible: Callable[[Any, int, int], bool]
    view_json: Callable[[Any], dict[str, Any]]
    vocabulary: RecordVocabulary

    @property
    def name(self) -> str:
        return self.info.name

    def rules(self, flags: Mapping[str, Any] | None = None) -> RulesLike:
        """This game's ``Rules`` from ``flags`` (defaults when None). Raises ValueError."""
        rules: RulesLike = self.info.rules_type.from_flags(dict(flags or {}))
        return rules

    def reward_scale(self, rules: RulesLike) -> float:
        """The default reward scale: ``1 / payoff_bound(rules)``, so that every reward of a deal
        lies in [-1, 1]."""
        return 1.0 / self.payoff_bound(rules)

    def check_rules(self, rules: object) -> None:
        """Raise TypeError unless ``rules`` is this game's ``Rules``."""
        if not isinstance(rules, self.info.rules_type):
            raise TypeError(
                f"{self.name} needs {self.info.rules_type.__module__}.Rules, "
                f"got {type(rules).__module__}.{type(rules).__name__}"
            )

    def deal_random(
        self, rng: np.random.Generator, rules: RulesLike, dealer: int | None = None
    ) -> Deal:
        """A uniformly shuffled deal from ``rng`` (the dealer drawn from ``rng`` if not given)."""
        self.check_rules(rules)
        n = self.seats(rules)
        if dealer is None:
            dealer = int(rng.integers(n))
        elif not (type(dealer) is int and 0 <= dealer < n):
            raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        return Deal(dealer, tuple(rng.permutation(self.info.deck.size).tolist()))  # Python ints

    def read_deal(self, record: Any, rules: RulesLike | None = None) -> tuple[RulesLike, Deal]:
        """The rules and the deal of a D.3 record, to be dealt afresh (its actions ignored).

        Raises:
            ValueError: a bad record, or one whose deal cannot start from the deal alone (it
                needs start options, such as a Calabresella no-Chiamo redeal: such a record can
                only be replayed with its actions).
        """
        parsed = self.read_record(record, rules)
        if parsed.options:
            raise ValueError(
                f"this {self.info.record_format} record starts with {dict(parsed.options)}: it "
                "can only be replayed with its actions (mazzo replay, or the env's reset), "
                "not dealt afresh"
            )
        return parsed.rules, parsed.deal

    def env(self, **kwargs: Any) -> Any:
        """The wrapped PettingZoo AEC env of this game (``env_module.env(**kwargs)``)."""
        return importlib.import_module(self.info.env_module).env(**kwargs)

    def raw_env(self, **kwargs: Any) -> Any:
        """The unwrapped PettingZoo AEC env (``env_module.raw_env(**kwargs)``)."""
        return importlib.import_module(self.info.env_module).raw_env(**kwargs)

    def view(self, state: GameState, seat: int) -> InfoView:
        """``state.info_view(seat)``, typed."""
        view: InfoView = state.info_view(seat)
        return view


_GAMES: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    """Add ``game`` to the registry (called by ``envs/<game>/game.py``). Returns it.

    Raises:
        ValueError: another game of that name is registered.
    """
    old = _GAMES.get(game.name)
    if old is not None and old is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def _load() -> None:
    """Import ``envs.<pkg>.game`` for every game package under ``envs/`` (once)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import envs

    for module in sorted(m.name for m in pkgutil.iter_modules(envs.__path__) if m.ispkg):
        spec = importlib.util.find_spec(f"envs.{module}.game")
        if spec is not None:
            importlib.import_module(f"envs.{module}.game")


def all_games() -> tuple[Game, ...]:
    """Every registered game, in name order."""
    _load()
    return tuple(_GAMES[n] for n in sorted(_GAMES))


def game_names() -> tuple[str, ...]:
    """The registered games' names, sorted."""
    return tuple(g.name for g in all_games())


def game_for_format(fmt: object) -> Game:
    """The game whose D.3 records carry ``format`` ``fmt``.

    Raises:
        ValueError: no game writes that format (the message lists the known ones).
    """
    for game in all_games():
        if game.info.record_format == fmt:
            return game
    known = ", ".join(g.info.record_format for g in all_games())
    raise ValueError(f"cannot tell the game from format {fmt!r} (known: {known})")


def get_game(name: str) -> Game:
    """The game called ``name``.

    Raises:
        ValueError: no such game (the message lists the known ones).
    """
    _load()
    game = _GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise ValueError(f"unknown game {name!r}; known: {', '.join(game_names())}")
    return game

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeAlias, TypeVar

import numpy as np

from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.deck import Deck
from mazzo.envs.cards.flags import parse_assignments
from mazzo.envs.cards.record import DealRecord, RecordVocabulary
from mazzo.envs.protocols import Encoder, GameState, InfoView, RulesLike

__all__ = [
    "AnyGame",
    "Game",
    "GameInfo",
    "GameOps",
    "all_games",
    "game_for_format",
    "game_names",
    "get_game",
    "register",
]

R = TypeVar("R", bound=RulesLike)
S = TypeVar("S", bound=GameState[Any, Any])
V = TypeVar("V", bound=InfoView[Any])
R_contra = TypeVar("R_contra", bound=RulesLike, contravariant=True)
S_co = TypeVar("S_co", bound=GameState[Any, Any], covariant=True)

Record: TypeAlias = Mapping[str, Any] | str
"""A D.3 record as it comes in: the parsed JSON object, or its text."""


class NewState(Protocol[R_contra, S_co]):
    """``(deal, rules) -> State``: a fresh engine state (the game's ``State.new``; it may take
    keyword-only start options of its own, such as a no-Chiamo redeal)."""

    def __call__(self, deal: Deal, rules: R_contra, /) -> S_co: ...


@dataclass(frozen=True)
class GameInfo(Generic[R]):
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
        score_unit: what the game's scores count (``game points``, ``resti``).
        flag_help: rule flag -> (its meaning in one line, its RULES.md sections), for
            ``mazzo rules`` (``envs/<game>/flag_help.py``).
        notation: the card and seat notation in words for people (RULES.md D.1/D.2): what
            terminal play's ``help`` shows.
    """

    name: str
    title: str
    deck: Deck
    rules_type: type[R]
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
    notation: str = ""


@dataclass(frozen=True)
class GameOps(Generic[R, S, V]):
    """What a game supplies to the registry (``envs/<game>/game.py``), typed by its own
    ``Rules`` ``R``, ``State`` ``S`` and view ``V``, so mypy checks each function against the
    seam. The functions take the game's own rules unchecked: ``Game`` checks them first.

    Attributes:
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
        closing_side: (view, action) -> +1 when the card ``action``, played by the view's seat
            as the last card of the current trick, gives the trick to the seat's own side, -1
            when to the other side, 0 when it closes no trick (read from the public trick).
        view_json: view -> the view as a JSON-ready dict of the game's own fields (card masks as
            lists of card codes; ``to_play`` a seat), for the bot protocol (``mazzo serve``).
        vocabulary: the game's D.3 record vocabulary (verbs, label <-> ``[verb, arg]``).
    """

    seats: Callable[[R], int]
    teams: Callable[[R], tuple[tuple[int, ...], ...]]
    idle_seats: Callable[[R, int], tuple[int, ...]]
    payoff_bound: Callable[[R], int]
    new_state: NewState[R, S]
    read_record: Callable[[Record, R | None], DealRecord]
    write_record: Callable[[S], dict[str, Any]]
    replay: Callable[[Record, R | None], S]
    encoder: Callable[[R], Encoder[V]]
    render_state: Callable[[S], str]
    render_view: Callable[[V], str]
    action_is_visible: Callable[[S, int, int], bool]
    closing_side: Callable[[V, int], int]
    view_json: Callable[[V], dict[str, Any]]
    vocabulary: RecordVocabulary


class Game(Generic[R, S, V]):
    """A registered game: its ``GameInfo`` and its operations, typed by the game's own
    ``Rules`` ``R``, ``State`` ``S`` and view ``V``.

    Every operation that takes rules checks first that they are this game's (a Minchiate
    ``Rules`` passed to Calabresella is a ``TypeError`` naming both): the check is written once,
    here. The generic operations (rules from flags, random deals, the env constructor) are
    written once here too. A ``Game`` pickles by its name (a worker process finds the same
    registered game).
    """

    __slots__ = ("_ops", "info")

    def __init__(self, info: GameInfo[R], ops: GameOps[R, S, V]) -> None:
        self.info = info
        self._ops = ops

    def __repr__(self) -> str:
        return f"Game({self.name!r})"

    def __reduce__(self) -> tuple[Callable[[str], AnyGame], tuple[str]]:
        return get_game, (self.name,)

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def vocabulary(self) -> RecordVocabulary:
        """The game's D.3 record vocabulary."""
        return self._ops.vocabulary

    # -- rules ------------------------------------------------------------------------------

    def rules(self, flags: Mapping[str, Any] | None = None) -> R:
        """This game's ``Rules`` from ``flags`` (defaults when None). Raises ValueError."""
        return self.info.rules_type.from_flags(dict(flags or {}))

    def parse_flags(self, items: Sequence[str], option: str = "--flag") -> R:
        """This game's ``Rules`` from flags as typed (``["players=4", "aperta=true"]``: JSON
        values, else the text): the one parser of rule flags at every edge (the command line,
        config files' ``--set``). Raises ValueError naming the item, the flag or the value."""
        return self.rules(parse_assignments(items, option))

    def check_rules(self, rules: object) -> R:
        """``rules``, if they are this game's ``Rules``; else a TypeError naming both."""
        if not isinstance(rules, self.info.rules_type):
            raise TypeError(
                f"{self.name} needs {self.info.rules_type.__module__}.Rules, "
                f"got {type(rules).__module__}.{type(rules).__name__}"
            )
        return rules

    def reward_scale(self, rules: R) -> float:
        """The default reward scale: ``1 / payoff_bound(rules)``, so that every reward of a deal
        lies in [-1, 1]."""
        return 1.0 / self.payoff_bound(rules)

    def seats(self, rules: R) -> int:
        """The number of player seats under ``rules``."""
        return self._ops.seats(self.check_rules(rules))

    def teams(self, rules: R) -> tuple[tuple[int, ...], ...]:
        """The seat groups that share one return (one group per seat without partnerships)."""
        return self._ops.teams(self.check_rules(rules))

    def idle_seats(self, rules: R, dealer: int) -> tuple[int, ...]:
        """The seats that make no decision in a deal of ``dealer``."""
        return self._ops.idle_seats(self.check_rules(rules), dealer)

    def payoff_bound(self, rules: R) -> int:
        """The largest possible |return| of one seat in one deal."""
        return self._ops.payoff_bound(self.check_rules(rules))

    def encoder(self, rules: R) -> Encoder[V]:
        """The observation encoder for ``rules``."""
        return self._ops.encoder(self.check_rules(rules))

    # -- deals, states and records ------------------------------------------------------------

    def new_state(self, deal: Deal, rules: R, **options: Any) -> S:
        """A fresh engine state of ``deal`` under ``rules`` (``options``: the game's start
        options, such as a no-Chiamo redeal)."""
        start: Callable[..., S] = self._ops.new_state  # the options are the game's own
        return start(deal, self.check_rules(rules), **options)

    def read_record(self, record: Record, rules: R | None = None) -> DealRecord:
        """The parsed D.3 record (actions not applied); its own rules when ``rules`` is None."""
        return self._ops.read_record(record, None if rules is None else self.check_rules(rules))

    def replay(self, record: Record, rules: R | None = None) -> S:
        """The state after the record's actions; its own rules when ``rules`` is None."""
        return self._ops.replay(record, None if rules is None else self.check_rules(rules))

    def write_record(self, state: S) -> dict[str, Any]:
        """The D.3 record of ``state`` (actions and result included), JSON-ready."""
        return self._ops.write_record(state)

    def deal_random(self, rng: np.random.Generator, rules: R, dealer: int | None = None) -> Deal:
        """A uniformly shuffled deal from ``rng`` (the dealer drawn from ``rng`` if not given)."""
        n = self.seats(rules)
        if dealer is None:
            dealer = int(rng.integers(n))
        elif not (type(dealer) is int and 0 <= dealer < n):
            raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        return Deal(dealer, tuple(rng.permutation(self.info.deck.size).tolist()))  # Python ints

    def phase_names(self, rules: R) -> dict[int, str]:
        """Phase index -> lower-case name (``bid``, ``play``, ...): the members of the ``Phase``
        enum of a fresh deal's view, every phase the game has, whichever the deal reaches."""
        state = self.new_state(self.deal_random(np.random.default_rng(0), rules), rules)
        phase = state.info_view(state.to_play).phase
        return {int(p): p.name.lower() for p in type(phase)}

    def read_deal(self, record: Record, rules: R | None = None) -> tuple[R, Deal]:
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
        return self.check_rules(parsed.rules), parsed.deal

    # -- seats' views and text ------------------------------------------------------------------

    def view(self, state: S, seat: int) -> V:
        """``state.info_view(seat)``, typed."""
        view: V = state.info_view(seat)
        return view

    def action_is_visible(self, state: S, action: int, seat: int) -> bool:
        """Whether ``seat`` sees the card ``action`` moves in ``state``."""
        return self._ops.action_is_visible(state, action, seat)

    def closing_side(self, view: V, action: int) -> int:
        """Where the current trick goes when the view's seat plays card ``action`` last to it:
        +1 to its own side, -1 to the other side, 0 when ``action`` closes no trick."""
        return self._ops.closing_side(view, action)

    def view_json(self, view: V) -> dict[str, Any]:
        """The view as a JSON-ready dict of the game's own fields (the bot protocol)."""
        return self._ops.view_json(view)

    def render_state(self, state: S) -> str:
        """The whole table as text (all hands)."""
        return self._ops.render_state(state)

    def render_view(self, view: V) -> str:
        """One seat's table as text."""
        return self._ops.render_view(view)

    # -- environments ---------------------------------------------------------------------------

    def env(self, **kwargs: Any) -> Any:
        """The wrapped PettingZoo AEC env of this game (``env_module.env(**kwargs)``)."""
        return importlib.import_module(self.info.env_module).env(**kwargs)

    def raw_env(self, **kwargs: Any) -> Any:
        """The unwrapped PettingZoo AEC env (``env_module.raw_env(**kwargs)``)."""
        return importlib.import_module(self.info.env_module).raw_env(**kwargs)


AnyGame: TypeAlias = Game[Any, Any, Any]
"""A game whose own types the caller does not know (the layers above ``envs/`` that iterate the
registry); its operations still check at run time that the rules they get are its own."""


_GAMES: dict[str, AnyGame] = {}
_loaded = False


def register(game: Game[R, S, V]) -> Game[R, S, V]:
    """Add ``game`` to the registry (called by ``envs/<game>/game.py``). Returns it.

    Raises:
        ValueError: another game of that name is registered.
    """
    old = _GAMES.get(game.name)
    if old is not None and old is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    _register_gym_id(game)
    _load()  # every game's id is there as soon as one game is: gym.make finds any of them
    return game


SINGLE_AGENT_ENV = "mazzo.training.single_agent:SingleAgentEnv"
"""The entry point of every game's Gymnasium id: a name, imported by ``gym.make`` only (the
single-agent face builds its opponents from agent specs, a layer above this one)."""


def _register_gym_id(game: AnyGame) -> None:
    """Register ``game.info.gym_id`` with Gymnasium, so that ``gym.make("mazzo/...")`` works
    once mazzo's environments are imported, whatever else is."""
    import gymnasium as gym

    if game.info.gym_id not in gym.registry:
        gym.register(id=game.info.gym_id, entry_point=SINGLE_AGENT_ENV, kwargs={"game": game.name})


def _load() -> None:
    """Import ``mazzo.envs.<pkg>.game`` for every game package under ``envs/`` (once)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import mazzo.envs

    for module in sorted(m.name for m in pkgutil.iter_modules(mazzo.envs.__path__) if m.ispkg):
        spec = importlib.util.find_spec(f"mazzo.envs.{module}.game")
        if spec is not None:
            importlib.import_module(f"mazzo.envs.{module}.game")


def all_games() -> tuple[AnyGame, ...]:
    """Every registered game, in name order."""
    _load()
    return tuple(_GAMES[n] for n in sorted(_GAMES))


def game_names() -> tuple[str, ...]:
    """The registered games' names, sorted."""
    return tuple(g.name for g in all_games())


def game_for_format(fmt: object) -> AnyGame:
    """The game whose D.3 records carry ``format`` ``fmt``.

    Raises:
        ValueError: no game writes that format (the message lists the known ones).
    """
    for game in all_games():
        if game.info.record_format == fmt:
            return game
    known = ", ".join(g.info.record_format for g in all_games())
    raise ValueError(f"cannot tell the game from format {fmt!r} (known: {known})")


def get_game(name: str) -> AnyGame:
    """The game called ``name``.

    Raises:
        ValueError: no such game (the message lists the known ones).
    """
    _load()
    game = _GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise ValueError(f"unknown game {name!r}; known: {', '.join(game_names())}")
    return game

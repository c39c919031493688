"""Table sessions of the bot protocol: the server referees one deal of any registered game.

The client names a bot or ``"client"`` for every seat. Bots act on their seat's ``InfoView``;
the client's seats get a ``turn`` (legal labels and the seat's VIEW) and answer with ``move``.
Every action is pushed as an ``event`` in the D.3 triple vocabulary, its card hidden
(``"arg": null``) where none of the client's seats may see it; the deal ends with ``end`` (the
returns, ``State.result()`` and the D.3 record). Everything goes through ``mazzo.envs.registry``, so
nothing here names a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mazzo.envs.cards.errors import IllegalAction
from mazzo.envs.cards.flags import resolved_flags
from mazzo.envs.protocols import AnyState, RulesLike
from mazzo.envs.registry import AnyGame
from mazzo.serve.bots import Bot, Bots
from mazzo.serve.protocol import ProtocolError
from mazzo.serve.sessions import check_bots_fit, open_game, register_mode
from mazzo.serve.views import legal_labels, view_json

__all__ = ["CLIENT", "TableSession", "open_table"]

CLIENT = "client"
_TABLE_FIELDS = frozenset(
    {"type", "id", "protocol", "mode", "game", "flags", "seats", "seed", "deal"}
)


@dataclass
class TableSession:
    """One refereed deal.

    Attributes:
        id: the game id.
        game: the registered game.
        rules: its rules in force.
        seats: per seat, ``"client"`` or a bot name.
        bots: per seat, the bot (None for a client seat).
        state: the engine state.
        rngs: per seat, the generator its bot draws from.
        step: the number of actions taken.
        finished: the deal has ended.
    """

    id: str
    game: AnyGame
    rules: RulesLike
    seats: list[str]
    bots: list[Bot | None]
    state: AnyState
    rngs: list[np.random.Generator]
    step: int = 0
    finished: bool = False
    mode: str = "table"
    clients: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        self.clients = tuple(s for s, b in enumerate(self.bots) if b is None)

    # ------------------------------------------------------------------ messages
    def handle(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """``move``, ``view`` or ``legal``. Raises ProtocolError; the deal is then unchanged."""
        kind = message["type"]
        if kind == "move":
            return self.move(message["action"], message.get("seat"))
        if kind == "view":
            return [self.view(message.get("seat"))]
        if kind == "legal":
            seat = self.state.to_play
            legal = self._labels() if seat in self.clients else []
            return [{"type": "legal", "game": self.id, "seat": seat, "legal": legal}]
        raise ProtocolError(
            "unknown_type",
            f"a table session takes move, view, legal and close, not {kind!r}",
            self.id,
        )

    def move(self, label: str, seat: int | None = None) -> list[dict[str, Any]]:
        """The client seat on turn (``seat``, when given, must be it) plays ``label``; then the
        bots play on."""
        state = self.state
        if self.finished:
            raise ProtocolError("over", f"game {self.id} has ended; no more moves", self.id)
        if seat is not None and seat != state.to_play:
            raise ProtocolError(
                "not_your_turn",
                f"move for S{seat} in game {self.id}, but S{state.to_play} is to play",
                self.id,
            )
        if state.to_play not in self.clients:
            raise ProtocolError(
                "not_your_turn",
                f"S{state.to_play} ({self.seats[state.to_play]}) is to play in game {self.id}, "
                f"not a client seat (the client holds {_seat_list(self.clients)})",
                self.id,
            )
        legal = self._labels()
        try:
            action = state.parse_action(label)
        except ValueError as e:
            raise ProtocolError(
                "illegal", f"move {label!r} in game {self.id}: {e}; legal: {', '.join(legal)}",
                self.id, legal=legal,
            ) from None  # fmt: skip
        if action not in state.legal_actions():
            why = _why_illegal(state, action)
            raise ProtocolError(
                "illegal",
                f"move {label!r} in game {self.id}: not legal now ({why}); legal: "
                f"{', '.join(legal)}",
                self.id, legal=legal, why=why,
            )  # fmt: skip
        return [self._apply(action), *self.advance()]

    def view(self, seat: int | None) -> dict[str, Any]:
        """The VIEW of a client seat (default: the one on turn, else the first)."""
        if seat is None:
            seat = self.state.to_play if self.state.to_play in self.clients else self.clients[0]
        if seat not in self.clients:
            raise ProtocolError(
                "bad_field",
                f"view: seat {seat!r} is not a client seat of game {self.id}; "
                f"client seats: {_seat_list(self.clients)}",
                self.id,
            )
        return {"type": "view", "game": self.id, "seat": seat, "view": self._view(seat)}

    # ------------------------------------------------------------------ the deal
    def advance(self) -> list[dict[str, Any]]:
        """Let the bots play until a client seat is on turn (a ``turn``) or the end (``end``)."""
        out = []
        state = self.state
        while not state.is_terminal():
            seat = state.to_play
            bot = self.bots[seat]
            if bot is None:
                out.append(self._turn(seat))
                return out
            action = bot.act(state.info_view(seat), self.rngs[seat])
            out.append(self._apply(action))
        self.finished = True
        out.append(
            {
                "type": "end",
                "game": self.id,
                "returns": list(state.returns()),
                "result": state.result(),
                "record": self.game.write_record(state),
            }
        )
        return out

    def _apply(self, action: int) -> dict[str, Any]:
        state, game = self.state, self.game
        seat = state.to_play
        verb, arg = game.vocabulary.to_triple(state.action_label(action))
        watchers = self.clients or tuple(range(len(self.seats)))
        see = any if self.clients else all
        shown = see(game.action_is_visible(state, action, s) for s in watchers)
        state.apply(action)
        self.step += 1
        return {
            "type": "event", "game": self.id, "step": self.step - 1, "seat": seat,
            "verb": verb, "arg": arg if shown else None,
        }  # fmt: skip

    def _turn(self, seat: int) -> dict[str, Any]:
        view = self._view(seat)
        return {"type": "turn", "game": self.id, "seat": seat, "legal": view["legal"], "view": view}

    def _view(self, seat: int) -> dict[str, Any]:
        return view_json(self.game, self.state.info_view(seat), self.state.action_label)

    def _labels(self) -> list[str]:
        return legal_labels(self.state.info_view(self.state.to_play), self.state.action_label)


def _why_illegal(state: AnyState, action: int) -> str:
    """The rule ``action`` (not legal now) breaks, in the engine's words: its ``apply`` refuses
    it with an ``IllegalAction`` that names the rule (tried on a copy of the deal)."""
    try:
        state.clone().apply(action)
    except IllegalAction as e:
        return e.reason
    return "not among the legal moves"


def _seat_list(seats: tuple[int, ...]) -> str:
    return ", ".join(f"S{s}" for s in seats) or "no seat"


# ---------------------------------------------------------------------------------- opening
def open_table(
    gid: str, message: dict[str, Any], bots: Bots
) -> tuple[TableSession, list[dict[str, Any]]]:
    """Open a table session from a checked ``open`` message; returns it with ``opened`` and
    the pushes up to the first client turn (or the end).

    Raises:
        ProtocolError: ``bad_field`` (a field a table does not take, bad ``seats`` or ``deal``),
            ``unknown_game``, ``bad_flags``, ``unknown_bot``, ``foreign_rules``.
    """
    game, rules = open_game(message, "table", _TABLE_FIELDS)
    seats = _seats(message, game, rules, bots)
    state, rules = _deal(message, game, rules)
    check_bots_fit(bots, game, [s for s in seats if s != CLIENT], rules)
    seed = message.get("seed")
    rngs = [np.random.default_rng(None if seed is None else [seed, s]) for s in range(len(seats))]
    session = TableSession(
        gid, game, rules, seats,
        [None if s == CLIENT else bots.get(game.name, s, rules) for s in seats], state, rngs,
    )  # fmt: skip
    opened = {
        "type": "opened",
        "game": gid,
        "mode": "table",
        "name": game.name,
        "flags": resolved_flags(rules),
        "seats": seats,
        "dealer": state.deal.dealer,
    }
    return session, [opened, *session.advance()]


def _seats(message: dict[str, Any], game: AnyGame, rules: RulesLike, bots: Bots) -> list[str]:
    n = game.seats(rules)
    seats = message.get("seats")
    names = bots.names(game.name)
    if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, str) for s in seats):
        raise ProtocolError(
            "bad_field",
            f"open: 'seats' must list {n} seats for {game.name} with these flags, each "
            f"{CLIENT!r} or a bot name ({', '.join(names)}); got {seats!r}",
        )
    for s in seats:
        if s != CLIENT and s not in names:
            raise ProtocolError(
                "unknown_bot",
                f"open: unknown {game.name} bot {s!r}; bots: {', '.join(names)} "
                f"(or {CLIENT!r} for a seat the client plays)",
            )
    return list(seats)


def _deal(message: dict[str, Any], game: AnyGame, rules: RulesLike) -> tuple[AnyState, RulesLike]:
    record, seed = message.get("deal"), message.get("seed")
    if seed is not None and seed < 0:
        raise ProtocolError("bad_field", f"open: 'seed' must be an integer >= 0, got {seed!r}")
    if record is not None:
        try:
            rules, deal = game.read_deal(record, rules if "flags" in message else None)
        except (ValueError, TypeError) as e:
            raise ProtocolError("bad_field", f"open: bad 'deal' record: {e}") from None
    else:
        deal = game.deal_random(np.random.default_rng(seed), rules)
    return game.new_state(deal, rules), rules


register_mode("table", open_table)

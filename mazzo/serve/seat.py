"""Seat sessions of the bot protocol: the client referees a deal, the server is the bot of one
seat.

The client opens (``game``, ``flags``, ``seat``, ``bot``), sends ``deal`` (the dealer and what
the seat sees at the start), then every action of the deal as an ``event`` in the D.3 triple
vocabulary (the bot's own included; ``"arg": null`` where the seat may not see it) and the
``reveal`` messages the game owes the seat; ``go`` asks the bot for its move, ``legal`` and
``view`` answer from the seat's view. The seat's exact ``InfoView`` is rebuilt by the game's
seat tracker (``mazzo.serve.trackers``: a consistent world, redrawn where an event or a
reveal needs it), so the bot acts on exactly what the seat knows. An input inconsistent with it is
``impossible`` and changes nothing. Nothing here names a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mazzo.envs.cards.flags import resolved_flags
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, all_games
from mazzo.serve.bots import Bot, Bots
from mazzo.serve.protocol import Field, ProtocolError, register_message
from mazzo.serve.sessions import check_bots_fit, open_game, register_mode
from mazzo.serve.trackers.registry import tracker_for
from mazzo.serve.trackers.seat_tracker import ImpossibleInput, SeatTracker
from mazzo.serve.views import view_json

__all__ = ["SeatSession", "open_seat"]

_SEAT_FIELDS = frozenset({"type", "id", "protocol", "mode", "game", "flags", "seat", "bot", "seed"})
_REQ_STR = Field((str,), True)
_ENVELOPE = frozenset({"type", "id", "protocol", "game"})


def _reveal_fields() -> dict[str, Field]:
    """Every game's reveal keys (a reveal message carries its game's keys at its top level)."""
    out: dict[str, Field] = {}
    for game in all_games():
        try:
            fields = tracker_for(game).tracker.reveal_fields
        except ValueError:
            continue
        for key, types in fields.items():
            old = out[key].types if key in out else ()
            out[key] = Field(tuple(dict.fromkeys((*old, *types))))
    return out


register_message("deal", {"game": _REQ_STR, "dealer": Field((int,), True),
                          "private": Field((dict,), True)})  # fmt: skip
register_message("event", {"game": _REQ_STR, "seat": Field((int,), True), "verb": _REQ_STR,
                           "arg": Field((str, int, type(None)), True)})  # fmt: skip
register_message("reveal", {"game": _REQ_STR, **_reveal_fields()})
register_message("go", {"game": _REQ_STR, "probs": Field((bool,))})


@dataclass
class SeatSession:
    """One seat played by a bot in a deal the client referees.

    Attributes:
        id: the game id.
        game: the registered game.
        rules: its rules in force.
        seat: the bot's seat.
        bot: the bot.
        rng: the generator the bot (and the tracker's draws) use.
        tracker: the seat's tracker (None before ``deal``).
        steps: the events received.
        finished: the deal has ended.
    """

    id: str
    game: AnyGame
    rules: RulesLike
    seat: int
    bot: Bot
    rng: np.random.Generator
    tracker: SeatTracker | None = None
    steps: int = 0
    finished: bool = False
    mode: str = "seat"

    def handle(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """``deal``, ``event``, ``reveal``, ``go``, ``legal`` or ``view``. Raises ProtocolError;
        the session is then unchanged."""
        kind = message["type"]
        handlers = {
            "deal": self.deal, "event": self.event, "reveal": self.reveal, "go": self.go,
            "legal": self.legal, "view": self.view,
        }  # fmt: skip
        handler = handlers.get(kind)
        if handler is None:
            raise ProtocolError(
                "unknown_type",
                f"a seat session takes {', '.join(handlers)} and close, not {kind!r}",
                self.id,
            )
        return [handler(message)]

    # ------------------------------------------------------------------ input
    def deal(self, message: dict[str, Any]) -> dict[str, Any]:
        """Start the deal: the dealer and the seat's ``private`` setup."""
        if self.tracker is not None:
            raise ProtocolError("bad_field", f"game {self.id} has its deal already", self.id)
        entry = tracker_for(self.game)
        seed = int(self.rng.integers(1 << 62))
        dealer, private = message["dealer"], message["private"]
        self.tracker = self._guard(
            "deal", lambda: entry.tracker(self.rules, self.seat, dealer, private, seed)
        )
        return self._tracked()

    def event(self, message: dict[str, Any]) -> dict[str, Any]:
        """One action of the deal."""
        tracker = self._dealt("event")
        seat, verb, arg = message["seat"], message["verb"], message["arg"]
        self._guard("event", lambda: tracker.event(seat, verb, arg))
        self.steps += 1
        self.finished = tracker.is_over() and not tracker.pending
        return self._tracked()

    def reveal(self, message: dict[str, Any]) -> dict[str, Any]:
        """Cards or facts the game shows the seat (the game's reveal keys)."""
        tracker = self._dealt("reveal")
        fields = {k: v for k, v in message.items() if k not in _ENVELOPE}
        self._guard("reveal", lambda: tracker.reveal(fields))
        self.finished = tracker.is_over() and not tracker.pending
        return self._tracked()

    def go(self, message: dict[str, Any]) -> dict[str, Any]:
        """The bot's move (and, when asked and the bot has them, its probabilities over the
        legal actions); the client then sends it back as an ``event``."""
        tracker = self._ready("go")
        if tracker.to_play() != self.seat:
            raise ProtocolError(
                "not_your_turn", f"go: S{tracker.to_play()} is to play, not the bot's S{self.seat}",
                self.id,
            )  # fmt: skip
        view = tracker.view()
        action = self.bot.act(view, self.rng)
        out: dict[str, Any] = {
            "type": "move", "game": self.id, "seat": self.seat,
            "action": tracker.label(action),
        }  # fmt: skip
        if message.get("probs"):
            probs = self._probs(view, tracker)
            if probs is not None:
                out["probs"] = probs
        return out

    def legal(self, message: dict[str, Any]) -> dict[str, Any]:
        """The seat on turn and, when it is the bot's seat, its legal labels."""
        tracker = self._ready("legal")
        return {"type": "legal", "game": self.id, "seat": tracker.to_play(),
                "legal": tracker.legal_labels()}  # fmt: skip

    def view(self, message: dict[str, Any]) -> dict[str, Any]:
        """The bot seat's VIEW (``seat``, when given, must be it)."""
        tracker = self._ready("view")
        seat = message.get("seat", self.seat)
        if seat != self.seat:
            raise ProtocolError(
                "bad_field", f"view: game {self.id} tracks S{self.seat} only, not {seat!r}", self.id
            )
        return {"type": "view", "game": self.id, "seat": self.seat,
                "view": view_json(self.game, tracker.view(), tracker.label)}  # fmt: skip

    # ------------------------------------------------------------------ helpers
    def _tracked(self) -> dict[str, Any]:
        """The answer to ``deal``, ``event`` and ``reveal``: the step, who is on turn and the
        reveal keys the seat is owed before the next event. While a reveal is due ``to_play`` is
        null and ``over`` false: who is on turn and whether the deal has ended may hang on it (a
        Minchiate ``declaring`` names the seat that decides next, ``void`` ends the deal), and
        the seat does not know them until the reveal is in."""
        t = self.tracker
        assert t is not None
        due = sorted(t.pending)
        return {"type": "tracked", "game": self.id, "step": self.steps,
                "to_play": None if due else t.to_play(), "due": due,
                "over": not due and t.is_over()}  # fmt: skip

    def _dealt(self, what: str) -> SeatTracker:
        if self.tracker is None:
            raise ProtocolError(
                "bad_field", f"{what}: game {self.id} has no deal yet; send deal", self.id
            )
        return self.tracker

    def _ready(self, what: str) -> SeatTracker:
        tracker = self._dealt(what)
        if tracker.pending:
            raise ProtocolError(
                "impossible",
                f"{what}: game {self.id} awaits the reveal of {', '.join(sorted(tracker.pending))}",
                self.id,
            )
        if what == "go" and tracker.is_over():
            raise ProtocolError(
                "over", f"game {self.id}'s deal has ended; no move to make", self.id
            )
        return tracker

    def _guard(self, what: str, run: Any) -> Any:
        try:
            return run()
        except ImpossibleInput as e:
            raise ProtocolError("impossible", f"{what}: {e}", self.id) from None
        except (ValueError, TypeError) as e:
            raise ProtocolError("bad_field", f"{what}: {e}", self.id) from None

    def _probs(self, view: Any, tracker: SeatTracker) -> dict[str, float] | None:
        """The bot's probabilities over the legal actions, for an agent that has them
        (``action_probs(view)``: the trained networks); None otherwise."""
        probs_of = getattr(self.bot.agent, "action_probs", None)
        if probs_of is None:
            return None
        with self.bot.lock:
            probs = probs_of(view)
        legal = tracker.legal_actions()
        return {tracker.label(a): round(float(probs[a]), 6) for a in legal}


# ---------------------------------------------------------------------------------- opening
def open_seat(
    gid: str, message: dict[str, Any], bots: Bots
) -> tuple[SeatSession, list[dict[str, Any]]]:
    """Open a seat session from a checked ``open`` message; returns it with ``opened``.

    Raises:
        ProtocolError: ``bad_field`` (a field a seat session does not take, a missing or bad
            ``seat``, ``bot`` or ``seed``), ``unknown_game``, ``bad_flags``, ``unknown_bot``,
            ``foreign_rules``.
    """
    game, rules = open_game(message, "seat", _SEAT_FIELDS)
    try:
        tracker_for(game)
    except ValueError as e:
        raise ProtocolError("bad_field", f"open: {e}") from None
    n = game.seats(rules)
    seat, name, seed = message.get("seat"), message.get("bot"), message.get("seed")
    if type(seat) is not int or not 0 <= seat < n:
        raise ProtocolError("bad_field", f"open: 'seat' must be a seat 0..{n - 1}, got {seat!r}")
    names = bots.names(game.name)
    if not isinstance(name, str):
        raise ProtocolError(
            "bad_field", f"open: a seat session needs 'bot', one of {', '.join(names)}"
        )
    if name not in names:
        raise ProtocolError(
            "unknown_bot", f"open: unknown {game.name} bot {name!r}; bots: {', '.join(names)}"
        )
    if seed is not None and seed < 0:
        raise ProtocolError("bad_field", f"open: 'seed' must be an integer >= 0, got {seed!r}")
    check_bots_fit(bots, game, [name], rules)
    session = SeatSession(
        gid, game, rules, seat, bots.get(game.name, name, rules), np.random.default_rng(seed)
    )
    opened = {
        "type": "opened", "game": gid, "mode": "seat", "name": game.name,
        "flags": resolved_flags(rules), "seat": seat, "bot": name,
    }  # fmt: skip
    return session, [opened]


register_mode("seat", open_seat)

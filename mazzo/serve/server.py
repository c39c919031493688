"""The bot protocol server, transport-agnostic: connections, their sessions, the limits and the
log. A transport (``stdio``, ``web``) calls ``connect``, then ``handle(connection, line)`` for
every message (it answers with the list of messages to send back, in order), and
``disconnect`` when the client goes; it closes the connection when ``connection.closing`` is set
after a reply (too big a message, or the idle timeout).

``handle`` may run in worker threads, one message of a connection at a time: the counts the
connections share are kept under a lock, so a bot thinking for one connection never stalls
another. An error never touches another game: client errors leave the session as it was, an
internal error (a bug, logged with its traceback) closes only the session it happened in.
"""

from __future__ import annotations

import importlib.metadata
import itertools
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import mazzo.serve.seat
import mazzo.serve.table  # noqa: F401  (registers the table mode)
from mazzo.envs.cards.flags import resolved_flags
from mazzo.envs.registry import all_games
from mazzo.serve.bots import Bots
from mazzo.serve.protocol import (
    CLOSING_CODES,
    PROTOCOL,
    Limits,
    ProtocolError,
    error,
    parse_line,
)
from mazzo.serve.sessions import MODES, Session

__all__ = ["Connection", "Server", "server_version"]

log = logging.getLogger("mazzo.serve")


def server_version() -> str:
    """``mazzo <version>`` of the installed package."""
    try:
        return f"mazzo {importlib.metadata.version('mazzo')}"
    except importlib.metadata.PackageNotFoundError:
        return "mazzo (not installed)"


@dataclass
class Connection:
    """One client connection.

    Attributes:
        id: its number in the server's log.
        peer: who it is (an address, ``stdio``).
        sessions: open games by id.
        ended: games that ended (by id, the latest ``max_games``): they still answer ``view``,
            ``legal`` and ``close`` (and ``over`` to a move) but count against no limit.
        last_seen: ``time.monotonic()`` of its last message.
        closing: the reason to close it after the current reply (None: keep it open).
    """

    id: int
    peer: str
    sessions: dict[str, Session] = field(default_factory=dict)
    ended: OrderedDict[str, Session] = field(default_factory=OrderedDict)
    last_seen: float = field(default_factory=time.monotonic)
    closing: str | None = None
    closed: bool = False


class Server:
    """Sessions per connection under the server's limits, with the bots it was started with."""

    def __init__(self, bots: Bots, limits: Limits | None = None) -> None:
        self.bots = bots
        self.limits = limits or Limits()
        self.version = server_version()
        self._lock = threading.Lock()
        self._connections: dict[int, Connection] = {}
        self._open_games = 0
        self._conn_ids = itertools.count(1)
        self._game_ids = itertools.count(1)

    # ------------------------------------------------------------------ connections
    @property
    def open_games(self) -> int:
        """Open (unfinished) games in the whole server."""
        return self._open_games

    @property
    def connections(self) -> int:
        return len(self._connections)

    def connect(self, peer: str = "") -> Connection:
        """A new connection.

        Raises:
            ProtocolError: ``too_many_connections`` (the transport sends it and closes).
        """
        with self._lock:
            if len(self._connections) >= self.limits.max_connections:
                log.warning("refused %s: %d connections open", peer, len(self._connections))
                raise ProtocolError(
                    "too_many_connections",
                    f"the server holds its limit of {self.limits.max_connections} connections; "
                    "try again later",
                )
            conn = Connection(next(self._conn_ids), peer)
            self._connections[conn.id] = conn
        log.info("connection %d opened (%s)", conn.id, peer)
        return conn

    def disconnect(self, conn: Connection, reason: str = "closed") -> None:
        """Drop ``conn`` and its sessions (the client went, or the transport closed it)."""
        with self._lock:
            if conn.closed:
                return
            conn.closed = True
            self._connections.pop(conn.id, None)
            self._open_games -= len(conn.sessions)
        log.info(
            "connection %d closed (%s); %d open game(s) dropped",
            conn.id,
            reason,
            len(conn.sessions),
        )
        conn.sessions.clear()
        conn.ended.clear()

    def idle_error(self, conn: Connection) -> dict[str, Any]:
        """The ``timeout`` error a transport sends before closing a silent connection."""
        log.info("connection %d idle for %gs", conn.id, self.limits.idle_timeout)
        conn.closing = "idle timeout"
        return error(
            "timeout",
            f"no message for {self.limits.idle_timeout:g} s (the idle timeout); closing",
        )

    # ------------------------------------------------------------------ messages
    def handle(self, conn: Connection, line: str | bytes) -> list[dict[str, Any]]:
        """Answer one client message (a line or a text frame, without the newline)."""
        conn.last_seen = time.monotonic()
        ident: str | int | None = None
        try:
            message = parse_line(line, self.limits)
            ident = message.get("id")
            out = self._dispatch(conn, message)
        except Exception as e:
            if not isinstance(e, ProtocolError):
                log.exception("connection %d: internal error", conn.id)
                e = ProtocolError("internal", "internal error (logged)")
            ident = ident if ident is not None else e.ident
            ref = e.game_ref
            if e.game is None and ref is not None and (ref in conn.sessions or ref in conn.ended):
                e.game = ref  # a malformed message about one of the connection's games
            out = [e.to_json()]
            log.info("connection %d: %s: %s", conn.id, e.code, e.message)
            if e.code in CLOSING_CODES:
                conn.closing = e.code
        if ident is not None:
            for m in out:
                m["id"] = ident
        return out

    def _dispatch(self, conn: Connection, message: dict[str, Any]) -> list[dict[str, Any]]:
        kind = message["type"]
        if kind == "hello":
            return [self.hello()]
        if kind == "bots":
            return [{"type": "bots", "bots": self.bots.describe()}]
        if kind == "open":
            return self._open(conn, message)
        return self._to_session(conn, message)

    def hello(self) -> dict[str, Any]:
        """The ``hello`` reply: the protocol, the games, the bots, the limits."""
        games = {}
        for game in all_games():
            rules = game.rules()
            games[game.name] = {
                "title": game.info.title,
                "seats": game.seats(rules),
                "flags": resolved_flags(rules),
                "num_actions": game.info.num_actions,
                "encoding_version": game.info.encoding_version,
                "record_format": game.info.record_format,
            }
        return {
            "type": "hello",
            "protocol": PROTOCOL,
            "server": self.version,
            "games": games,
            "bots": {g.name: self.bots.names(g.name) for g in all_games()},
            "limits": self.limits.to_json(),
        }

    def _open(self, conn: Connection, message: dict[str, Any]) -> list[dict[str, Any]]:
        mode = message["mode"]
        opener = MODES.get(mode)
        if opener is None:
            raise ProtocolError(
                "bad_field", f"open: unknown mode {mode!r}; modes: {', '.join(sorted(MODES))}"
            )
        limits = self.limits
        with self._lock:
            if len(conn.sessions) >= limits.max_games:
                raise ProtocolError(
                    "too_many_games",
                    f"this connection has its limit of {limits.max_games} open games; close one",
                )
            if self._open_games >= limits.max_server_games:
                raise ProtocolError(
                    "too_many_games",
                    f"the server holds its limit of {limits.max_server_games} open games; "
                    "try again later",
                )
            self._open_games += 1  # reserved while the session opens
        gid = f"g{next(self._game_ids)}"
        try:
            session, out = opener(gid, message, self.bots)
        except Exception as e:
            with self._lock:
                self._open_games -= 1
            if isinstance(e, ProtocolError):
                raise
            log.exception("connection %d: internal error opening %s", conn.id, gid)
            return [error("internal", f"internal error opening game {gid} (logged)", gid)]
        with self._lock:
            if conn.closed:  # the client left while the game opened: nobody to play it
                self._open_games -= 1
                return out
            conn.sessions[gid] = session
        log.info("connection %d: opened %s (%s %s)", conn.id, gid, mode, message["game"])
        self._settle(conn, session)
        return out

    def _to_session(self, conn: Connection, message: dict[str, Any]) -> list[dict[str, Any]]:
        gid = message.get("game")
        session = conn.sessions.get(gid) if isinstance(gid, str) else None
        if session is None and isinstance(gid, str):
            session = conn.ended.get(gid)
        if session is None:
            open_ids = ", ".join(conn.sessions) or "none"
            raise ProtocolError(
                "unknown_session",
                f"no game {gid!r} on this connection; open games: {open_ids}",
                gid if isinstance(gid, str) else None,
            )
        if message["type"] == "close":
            self._close(conn, session)
            return [{"type": "closed", "game": session.id}]
        try:
            out = session.handle(message)
        except ProtocolError as e:
            e.game = e.game or session.id
            raise
        except Exception:
            log.exception("connection %d: internal error in game %s", conn.id, session.id)
            self._close(conn, session)
            return [
                error(
                    "internal",
                    f"internal error in game {session.id} (logged); the game is closed",
                    session.id,
                )
            ]
        self._settle(conn, session)
        return out

    def _settle(self, conn: Connection, session: Session) -> None:
        """Move a finished session from the open games to the ended ones."""
        if not session.finished or session.id not in conn.sessions:
            return
        del conn.sessions[session.id]
        with self._lock:
            self._open_games -= 1
        conn.ended[session.id] = session
        while len(conn.ended) > self.limits.max_games:
            conn.ended.popitem(last=False)

    def _close(self, conn: Connection, session: Session) -> None:
        if conn.sessions.pop(session.id, None) is not None:
            with self._lock:
                self._open_games -= 1
        conn.ended.pop(session.id, None)
        log.info("connection %d: closed %s", conn.id, session.id)

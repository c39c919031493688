"""The wire format of the bot protocol ``mazzo-bot/1`` (``docs/protocol.md``): parsing one client
line into a checked message, the message shapes (each type's fields, their JSON types, which are
required), the server limits, and error objects with their codes.

Every check names the input as the client sent it and what is allowed. Nothing here knows a
game, a bot or a session (``server``, ``table`` and ``bots`` do).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from mazzo.envs.cards.jsontext import loads

__all__ = [
    "CODES",
    "MESSAGES",
    "PROTOCOL",
    "Field",
    "Limits",
    "ProtocolError",
    "check_fields",
    "error",
    "field_list",
    "parse_line",
    "register_message",
]

PROTOCOL = "mazzo-bot/1"

# Every error code (docs/protocol.md, "Errors").
CODES = (
    "bad_json",
    "not_object",
    "unknown_type",
    "bad_version",
    "bad_field",
    "unknown_game",
    "unknown_bot",
    "bad_flags",
    "foreign_rules",
    "bad_origin",
    "unknown_session",
    "not_your_turn",
    "illegal",
    "impossible",
    "too_big",
    "too_many_games",
    "too_many_connections",
    "over",
    "timeout",
    "internal",
)
# The codes after which the server closes the connection.
CLOSING_CODES = frozenset({"too_big", "too_many_connections", "timeout"})
_PREVIEW = 80  # characters of a bad input quoted in a message


class ProtocolError(Exception):
    """A client error: its ``code`` (one of ``CODES``), the message, and the game id it concerns.

    Attributes:
        code: the error code.
        message: what was wrong, naming the input and what is allowed.
        game: the game id the error concerns, if any.
        extra: more fields of the error object (``legal`` for ``illegal``).
        ident: the ``id`` of the message it answers, when that could be read.
        game_ref: the game id a malformed message names (its ``"game"``, when a string and the
            message is not an ``open``); the server reports it as ``game`` when it is a game of
            the connection.
    """

    def __init__(self, code: str, message: str, game: str | None = None, **extra: Any) -> None:
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}; codes: {', '.join(CODES)}")
        super().__init__(message)
        self.code, self.message, self.game, self.extra = code, message, game, extra
        self.ident: str | int | None = None
        self.game_ref: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The error object sent to the client (without ``id``)."""
        return error(self.code, self.message, self.game, **self.extra)


def error(code: str, message: str, game: str | None = None, **extra: Any) -> dict[str, Any]:
    """``{"type": "error", "code", "message", "game"?, ...extra}``."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if game is not None:
        out["game"] = game
    return out | extra


@dataclass(frozen=True)
class Limits:
    """The server's limits (``mazzo serve`` options; reported in ``hello``).

    Attributes:
        max_bytes: the longest message a client may send, in bytes (UTF-8).
        max_games: open games per connection.
        max_server_games: open games in the whole server.
        max_connections: open connections.
        idle_timeout: seconds a connection may stay silent before it is closed.
    """

    max_bytes: int = 65536
    max_games: int = 16
    max_server_games: int = 256
    max_connections: int = 64
    idle_timeout: float = 300.0

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise ValueError(f"limit {name} must be a positive number, got {value!r}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Field:
    """One field of a message type: its JSON types and whether it must be present."""

    types: tuple[type, ...]
    required: bool = False

    def describe(self) -> str:
        return " or ".join(_JSON_NAMES[t] for t in self.types)


_JSON_NAMES: dict[type, str] = {
    str: "a string",
    int: "an integer",
    bool: "true or false",
    dict: "an object",
    list: "a list",
    float: "a number",
    type(None): "null",
}
_STR = Field((str,))
_REQ_STR = Field((str,), True)
_ID = Field((str, int))
_COMMON = {"type": _REQ_STR, "id": _ID, "protocol": _STR}

# Every message type a client may send: field -> Field (``type``, ``id``, ``protocol`` apply to
# all). The ``seat`` helper's session messages register themselves (``register_message``).
MESSAGES: dict[str, dict[str, Field]] = {
    "hello": {},
    "bots": {},
    "open": {
        "mode": _REQ_STR,
        "game": _REQ_STR,
        "flags": Field((dict,)),
        "seats": Field((list,)),
        "seed": Field((int,)),
        "deal": Field((dict,)),
        "seat": Field((int,)),
        "bot": _STR,
    },
    "move": {"game": _REQ_STR, "action": _REQ_STR, "seat": Field((int,))},
    "view": {"game": _REQ_STR, "seat": Field((int,))},
    "legal": {"game": _REQ_STR},
    "close": {"game": _REQ_STR},
}


def register_message(kind: str, fields: Mapping[str, Field]) -> None:
    """Add (or extend) a client message type: ``fields`` besides ``type``/``id``/``protocol``."""
    MESSAGES[kind] = {**MESSAGES.get(kind, {}), **fields}


def field_list(kind: str) -> str:
    """The fields message type ``kind`` takes, for messages."""
    return ", ".join(sorted({*_COMMON, *MESSAGES[kind]}))


def _preview(text: str) -> str:
    return text if len(text) <= _PREVIEW else text[:_PREVIEW] + "..."


def parse_line(line: str | bytes, limits: Limits) -> dict[str, Any]:
    """One client message (a line without its newline, or a WebSocket text frame) -> the
    checked message object.

    Raises:
        ProtocolError: ``too_big`` (longer than ``limits.max_bytes``), ``bad_json``,
            ``not_object``, ``bad_field`` (a missing, ill-typed or unknown field; a bad ``id``),
            ``unknown_type`` or ``bad_version``.
    """
    size = len(line) if isinstance(line, bytes) else len(line.encode("utf-8", "replace"))
    if size > limits.max_bytes:
        raise ProtocolError(
            "too_big", f"a message of {size} bytes is over the limit of {limits.max_bytes} bytes"
        )
    try:
        message = loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        raise ProtocolError(
            "bad_json", f"not valid JSON ({e}): {_preview(text)!r}; send one JSON object a line"
        ) from None
    if not isinstance(message, dict):
        raise ProtocolError(
            "not_object",
            f'a message must be a JSON object with a "type", got {type(message).__name__} '
            f"{_preview(json.dumps(message))}",
        )
    try:
        _check_fields(message)
    except ProtocolError as e:
        ident, ref = message.get("id"), message.get("game")
        e.ident = ident if _is(ident, _ID) else None
        e.game_ref = ref if isinstance(ref, str) and message.get("type") != "open" else None
        raise
    return message


def _check_fields(message: dict[str, Any]) -> None:
    ident = message.get("id")
    if "id" in message and not _is(ident, _ID):
        raise ProtocolError("bad_field", f'"id" must be a string or an integer, got {ident!r}')
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(
            "bad_field",
            f'a message needs "type" (a string), got {kind!r}; types: {", ".join(MESSAGES)}',
        )
    if kind not in MESSAGES:
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind!r}; types: {', '.join(MESSAGES)}"
        )
    version = message.get("protocol", PROTOCOL)
    if version != PROTOCOL:
        raise ProtocolError(
            "bad_version",
            f"protocol {version!r} is not spoken here; this server speaks {PROTOCOL!r}",
        )
    check_fields(kind, message, {**_COMMON, **MESSAGES[kind]})


def check_fields(where: str, message: Mapping[str, Any], fields: Mapping[str, Field]) -> None:
    """Check ``message``'s fields against ``fields``: none unknown, each of its JSON types,
    every required one present. Raises ProtocolError ``bad_field`` naming ``where``."""
    known = ", ".join(sorted(fields))
    for name, value in message.items():
        spec = fields.get(name)
        if spec is None:
            raise ProtocolError("bad_field", f"{where}: unknown field {name!r}; fields: {known}")
        if not _is(value, spec):
            raise ProtocolError(
                "bad_field", f"{where}: {name!r} must be {spec.describe()}, got {value!r}"
            )
    missing = [name for name, spec in fields.items() if spec.required and name not in message]
    if missing:
        raise ProtocolError("bad_field", f"{where}: missing field {missing[0]!r}; fields: {known}")


def _is(value: object, spec: Field) -> bool:
    """Whether ``value`` has one of ``spec``'s JSON types (a bool is not an integer)."""
    if isinstance(value, bool):
        return bool in spec.types
    return any(isinstance(value, t) and t is not bool for t in spec.types)

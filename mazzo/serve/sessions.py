"""What every session of the bot protocol shares: the ``Session`` protocol the server drives, the
registry of session modes (``open`` with ``"mode": "table"`` or ``"seat"``), and the checks of
an ``open`` message's common fields (the game, its flags) that name the input and what is
allowed.

A mode module (``table``, the ``seat`` helper's ``seat``) registers its opener here; the server
knows no mode.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from mazzo.agents.trained_rules import ForeignRules, describe
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, game_names, get_game
from mazzo.serve.bots import Bots
from mazzo.serve.protocol import ProtocolError

_log = logging.getLogger("mazzo.serve")

__all__ = [
    "MODES",
    "Opener",
    "Session",
    "check_bots_fit",
    "game_of",
    "open_game",
    "register_mode",
    "rules_of",
]


class Session(Protocol):
    """One open game of a connection.

    Attributes:
        id: the game id (unique in the server).
        mode: ``table`` or ``seat``.
        finished: the deal has ended (the server then answers ``over`` to its moves).
    """

    id: str
    mode: str
    finished: bool

    def handle(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Answer one message addressed to this game (``move``, ``view``, ``legal``, ...).

        Raises:
            ProtocolError: a client error; the session is unchanged.
        """
        ...


# (game id, the checked ``open`` message, the server's bots) -> the session and its first
# messages (``opened`` and the pushes that follow it).
Opener = Callable[[str, dict[str, Any], Bots], tuple[Session, list[dict[str, Any]]]]
MODES: dict[str, Opener] = {}


def register_mode(mode: str, opener: Opener) -> None:
    """Make ``{"type": "open", "mode": mode}`` open a session with ``opener``."""
    MODES[mode] = opener


def game_of(message: dict[str, Any]) -> AnyGame:
    """The registered game an ``open`` message names. Raises ProtocolError ``unknown_game``."""
    name = message["game"]
    try:
        return get_game(name)
    except ValueError:
        raise ProtocolError(
            "unknown_game", f"unknown game {name!r}; games: {', '.join(game_names())}"
        ) from None


def rules_of(game: AnyGame, flags: dict[str, Any] | None) -> RulesLike:
    """The game's rules from an ``open`` message's ``flags``. Raises ProtocolError ``bad_flags``
    (the rules' own message: the flag as given and what is allowed)."""
    try:
        rules: RulesLike = game.rules(flags or {})
        return rules
    except (ValueError, TypeError) as e:
        raise ProtocolError("bad_flags", f"{game.name} flags {flags!r}: {e}") from None


def open_game(
    message: dict[str, Any], mode: str, fields: frozenset[str] | set[str]
) -> tuple[AnyGame, RulesLike]:
    """The game and rules of an ``open`` message of session ``mode`` that takes ``fields``.

    Raises:
        ProtocolError: ``bad_field`` (a field the mode does not take), ``unknown_game``,
            ``bad_flags``.
    """
    extra = sorted(set(message) - fields)
    if extra:
        raise ProtocolError(
            "bad_field",
            f"open: a {mode} session does not take {extra[0]!r}; fields: "
            f"{', '.join(sorted(fields))}",
        )
    game = game_of(message)
    return game, rules_of(game, message.get("flags"))


def check_bots_fit(bots: Bots, game: AnyGame, names: list[str], rules: RulesLike) -> None:
    """Refuse to open a game whose rules a chosen trained bot was not trained for (unless the
    server was started with ``--foreign-rules``; the note is then logged).

    Raises:
        ProtocolError: ``foreign_rules``, naming the bot and each differing flag.
    """
    for name in dict.fromkeys(names):
        try:
            note = bots.fit(game, name, rules)
        except ForeignRules as e:
            raise ProtocolError(
                "foreign_rules",
                f"open: bot {name!r} was trained for other {game.name} rules: "
                f"{describe(e.differences)} (a server started with --foreign-rules, or the bot "
                "served with foreign_rules=true in its spec, lets it play them)",
            ) from None
        if note is not None:
            _log.warning("%s", note)

"""One bot's move for a deal so far, without a session: ``POST /api/move`` takes
``{game, flags?, record, seat, bot, seed?}`` (``record`` the D.3 record of the deal so far) and
answers ``{"type": "move", "game", "seat", "action", "step"}``. The record is replayed by the
referee's own rules (``Game.replay``), so a move the seat could not make is refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mazzo.serve.bots import Bots
from mazzo.serve.protocol import Field, ProtocolError, check_fields
from mazzo.serve.sessions import game_of, rules_of

__all__ = ["MOVE_REQUEST", "advise"]

MOVE_REQUEST = {
    "game": Field((str,), True),
    "flags": Field((dict,)),
    "record": Field((dict,), True),
    "seat": Field((int,), True),
    "bot": Field((str,), True),
    "seed": Field((int,)),
    "id": Field((str, int)),
}


def advise(request: Any, bots: Bots) -> dict[str, Any]:
    """The bot's move for ``request`` (a parsed JSON object).

    Raises:
        ProtocolError: ``not_object``, ``bad_field`` (fields, a bad record or seed),
            ``unknown_game``, ``bad_flags``, ``unknown_bot``, ``over`` (the record's deal has
            ended), ``not_your_turn`` (the seat is not to play after the record's actions).
    """
    if not isinstance(request, dict):
        raise ProtocolError("not_object", f"the request must be a JSON object, got {request!r}")
    check_fields("move request", request, MOVE_REQUEST)
    game = game_of(request)
    rules = rules_of(game, request["flags"]) if "flags" in request else None
    seat, name, seed = request["seat"], request["bot"], request.get("seed")
    try:
        bot = bots.get(game.name, name)
    except KeyError:
        raise ProtocolError(
            "unknown_bot",
            f"unknown {game.name} bot {name!r}; bots: {', '.join(bots.names(game.name))}",
        ) from None
    if seed is not None and seed < 0:
        raise ProtocolError("bad_field", f"'seed' must be an integer >= 0, got {seed!r}")
    try:
        state = game.replay(request["record"], rules)
    except (ValueError, TypeError) as e:
        raise ProtocolError("bad_field", f"bad 'record': {e}") from None
    if state.is_terminal():
        raise ProtocolError("over", "the record's deal has ended; no move to make")
    if seat != state.to_play:
        raise ProtocolError(
            "not_your_turn", f"S{state.to_play} is to play after the record, not S{seat}"
        )
    bot = bots.get(game.name, name, state.rules)  # the bot shipped for the record's rules
    action = bot.act(state.info_view(seat), np.random.default_rng(seed))
    return {
        "type": "move",
        "game": game.name,
        "seat": seat,
        "action": state.action_label(action),
        "step": len(request["record"].get("actions") or []),
    }

"""Perft for any registered game: the number of legal action sequences of a given length from a
position (a sequence that reaches the end earlier counts once), and the fixed positions the
pinned table in ``test_perft`` starts from.

A position is named by (game, flags, deal seed, prefix length): the deal's card order sorts the
card ids by CRC-32 of ``"<seed>/<card>"`` and its dealer is CRC-32 of the seed modulo the seats;
the prefix applies, at step i, the legal action number CRC-32 of ``"<seed>/<i>"`` modulo the
number of legal actions (in id order). Only ``zlib.crc32`` enters, so the positions are the same
on every machine and every Python or numpy version.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.deal import Deal
from mazzo.envs.registry import Game

__all__ = ["perft", "position"]


def _crc(text: str) -> int:
    return zlib.crc32(text.encode())


def position(game: Game, flags: Mapping[str, Any], seed: int, prefix: int) -> Any:
    """The state ``prefix`` deterministic actions into the deal named by ``seed``."""
    rules = game.rules(flags)
    size = game.info.deck.size
    order = tuple(sorted(range(size), key=lambda c: _crc(f"{seed}/{c}")))
    state = game.new_state(Deal(_crc(str(seed)) % game.seats(rules), order), rules)
    for i in range(prefix):
        legal = bit_list(state.legal_mask())
        assert legal, f"the deal of seed {seed} ends before {prefix} actions"
        state.apply(legal[_crc(f"{seed}/{i}") % len(legal)])
    return state


def perft(state: Any, depth: int) -> int:
    """Legal action sequences of length ``depth`` from ``state`` (shorter ones ending the deal
    count once); ``state`` is left as it was."""
    if depth == 0 or state.is_terminal():
        return 1
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total

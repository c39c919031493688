"""The RULES.md D.3 replay records shared by both games: loading a record from a dict or JSON
text, seat tokens (``S1``), action triples (``["S1", "bid", "chiamo"]``) and their labels.

A label is what agents and people read (``bid chiamo``, ``pass``, ``play Ac``, ``declare``); a
triple is what a record stores. The two differ only for the bid ``pass`` (label ``pass``) and the
declaration choice (labels ``declare`` / ``skip``, stored as verb ``declare``).

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["label_to_triple", "load_record", "parse_seat", "seat_token", "triple_to_label"]


def load_record(
    record: Mapping[str, Any] | str, fmt: str, required: set[str], optional: set[str]
) -> dict[str, Any]:
    """A D.3 record (dict or JSON text) -> dict, with its format and keys checked.

    Raises:
        ValueError: not JSON / not an object, wrong ``format``, a missing or unknown key.
    """
    if isinstance(record, str | bytes):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as e:
            raise ValueError(f"the {fmt} deal is not valid JSON: {e}") from None
    if not isinstance(record, Mapping):
        raise ValueError(f"a {fmt} deal must be a JSON object or dict, got {type(record).__name__}")
    got = record.get("format", fmt)
    if got != fmt:
        raise ValueError(f"deal format is {got!r}, expected {fmt!r}")
    keys = set(record)
    missing = required - keys
    if missing:
        raise ValueError(f"the {fmt} deal lacks {sorted(missing)}")
    unknown = keys - required - optional - {"format"}
    if unknown:
        raise ValueError(
            f"unknown key(s) {sorted(unknown)} in the {fmt} deal; "
            f"known: {sorted(required | optional | {'format'})}"
        )
    return dict(record)


def seat_token(seat: int) -> str:
    """Seat number -> ``S<seat>``."""
    return f"S{seat}"


def parse_seat(token: object, n_seats: int) -> int:
    """``S<k>`` -> k. Raises ValueError if malformed or outside ``0 .. n_seats-1``."""
    if isinstance(token, str) and token[:1] == "S" and token[1:].isdigit():
        seat = int(token[1:])
        if seat < n_seats:
            return seat
    raise ValueError(f"bad seat {token!r}: expected S0..S{n_seats - 1}")


def triple_to_label(verb: str, arg: str) -> str:
    """Record verb and argument -> action label."""
    if verb == "bid" and arg == "pass":
        return "pass"
    if verb == "declare":
        return arg
    return f"{verb} {arg}"


def label_to_triple(label: str) -> tuple[str, str]:
    """Action label -> record verb and argument (inverse of :func:`triple_to_label`)."""
    label = " ".join(label.split())
    if label == "pass":
        return "bid", "pass"
    if label in ("declare", "skip"):
        return "declare", label
    verb, _, arg = label.partition(" ")
    return verb, arg

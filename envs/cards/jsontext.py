"""JSON read at every edge where a user's text comes in (deal files, protocol messages, flag
values, search labels), with one guard: text whose arrays or objects nest deeper than Python
can decode (a few kilobytes of ``[[[[...``) is refused as invalid JSON, a
``json.JSONDecodeError`` that says so, instead of the interpreter's ``RecursionError``.

Every caller already turns ``json.JSONDecodeError`` into its own message naming the input, so
such text gets that message too. Standard library only.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["TOO_DEEP", "loads"]

TOO_DEEP = (
    "arrays or objects nested too deeply to read (no mazzo input nests more than a few levels)"
)


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``; text nested too deeply raises ``json.JSONDecodeError`` (a
    ``ValueError``) with ``TOO_DEEP`` as its message."""
    try:
        return json.loads(text)
    except RecursionError:
        doc = text if isinstance(text, str) else text.decode("utf-8", "replace")
        raise json.JSONDecodeError(TOO_DEEP, doc[:100], 0) from None

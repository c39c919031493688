"""Exceptions shared by both rules engines and their environments.

Owns the error types that cross layers: an illegal action (raised by an engine's ``apply`` with the
action's label and the legal labels, and leaving the state unchanged) and malformed input (a deal,
a replay record, a flag). Both subclass ``ValueError`` so callers can catch bad input uniformly.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

__all__ = ["IllegalAction"]


class IllegalAction(ValueError):
    """An action that is not legal in the current state. The state is unchanged.

    Attributes:
        action: the offending action id (or ``-1`` if it could not be parsed).
        label: its label in the D.3 vocabulary.
        reason: why it is not legal (the rule, in words).
        legal: the labels of the legal actions.
    """

    def __init__(self, action: int, label: str, reason: str, legal: list[str]) -> None:
        self.action = action
        self.label = label
        self.reason = reason
        self.legal = legal
        shown = ", ".join(legal) if len(legal) <= 40 else ", ".join(legal[:40]) + ", ..."
        super().__init__(f"illegal action {label!r} (id {action}): {reason}; legal: [{shown}]")

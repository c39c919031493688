"""The base of the layers that chain deals (a Calabresella match, a Minchiate series).

Owns the delegation of the engine protocol to the current deal's ``State``: ``to_play``,
``legal_mask``, ``legal_actions``, ``action_label``, ``parse_action`` and ``apply``, which hands
a finished deal to the subclass's ``_end_deal``. The subclass decides when the sequence ends,
what it returns and how the next deal is dealt.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

from typing import Any

__all__ = ["DealSequence"]


class DealSequence:
    """Deals one after another; the current one is ``state``."""

    __slots__ = ()
    state: Any

    def is_terminal(self) -> bool:
        """True once the whole sequence is over."""
        raise NotImplementedError

    def _end_deal(self) -> None:
        """Book the finished ``state`` and deal the next one (unless the sequence is over)."""
        raise NotImplementedError

    @property
    def to_play(self) -> int:
        """Seat on turn (-1 once the sequence is over)."""
        return -1 if self.is_terminal() else int(self.state.to_play)

    def legal_mask(self) -> int:
        """Legal actions of the current deal (0 once the sequence is over)."""
        return 0 if self.is_terminal() else int(self.state.legal_mask())

    def legal_actions(self) -> list[int]:
        """Legal action ids of the current deal."""
        return [] if self.is_terminal() else list(self.state.legal_actions())

    def action_label(self, action: int) -> str:
        """Label of ``action`` in the current deal's phase."""
        return str(self.state.action_label(action))

    def parse_action(self, label: str) -> int:
        """Label -> action id in the current deal's phase."""
        return int(self.state.parse_action(label))

    def apply(self, action: int) -> None:
        """Apply an action to the current deal; a finished deal goes to ``_end_deal``."""
        self.state.apply(action)
        if self.state.is_terminal():
            self._end_deal()

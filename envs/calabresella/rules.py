"""Calabresella rule flags: the frozen ``Rules`` dataclass with the canonical defaults of
RULES.md Part B / C.2, one field per flag of the C.3 table. Variants are values, never subclasses.

A ``Rules`` checks itself whatever builds it (``Rules(...)`` directly, ``Rules.from_flags``, a
record): ``__post_init__`` checks every field's type and allowed values or range, then the
cross-field rules (``validate``), and raises a ValueError naming the flag, the value as given and
what is allowed. ``from_flags`` first coerces and checks a flags mapping
(``mazzo.envs.cards.flags``: unknown names, JSON types), with the messages it always had.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mazzo.envs.calabresella.actions import CONTRACTS
from mazzo.envs.cards.flags import check_fields, rules_from_flags, rules_to_flags

__all__ = ["Rules"]

N_CONTRACTS = len(CONTRACTS)


def _choice(default: Any, *choices: Any) -> Any:
    return field(default=default, metadata={"choices": (default, *choices)})


_ALLOWED_BITS: dict[tuple[str, ...], int] = {}  # Rules.allowed_bits per allowed_contracts


@dataclass(frozen=True, slots=True)
class Rules:
    """All Calabresella flags (RULES.md C.3). Build from a mapping with :meth:`from_flags`.

    Raises:
        ValueError: a field of the wrong type or outside its allowed values, or flags that do
            not fit together (see :meth:`validate`); the message names the flag and the value.
    """

    players: int = _choice(3, 2, 4)
    auction: str = _choice("single_round", "until_two_passes")
    allowed_contracts: tuple[str, ...] = field(default=CONTRACTS, metadata={"items": CONTRACTS})
    all_pass: str = _choice(
        "redeal_same_dealer", "redeal_next_dealer", "next_deal_no_chiamo", "forced_chiamo_eldest"
    )
    chiamo_monte_exposed: bool = False
    chiamo_return_public: bool = False
    allow_call_own_card: bool = False
    solissimo_view_monte: bool = False
    scegliete_splits: str = _choice("all16", "only_2_2")
    first_lead: str = _choice("eldest", "soloist", "dealer_left")
    cappotto_mult: int = 2
    stramazzo: bool = True
    stramazzo_mult: int = 3
    stramazzo_def: str = _choice("truncated", "raw_zero")
    contract_values: tuple[int, ...] = (1, 2, 4, 8, 16)
    payout_mode: str = _choice("fixed", "difference")
    reward_mode: str = _choice("pairwise", "raw")
    match_rule: str = _choice("individual", "seed_sum")
    target: int = 21
    aperta: bool = False
    aperta_payout_factor: float = 1.0

    def __post_init__(self) -> None:
        check_fields(self, "calabresella")
        self.validate()

    @classmethod
    def from_flags(cls, flags: Mapping[str, Any] | None = None) -> Rules:
        """Flags mapping -> Rules. Raises ValueError naming any unknown flag or bad value."""
        return rules_from_flags(cls, flags or {}, "calabresella")

    def to_flags(self) -> dict[str, Any]:
        """The flags that differ from the defaults (JSON-ready)."""
        return rules_to_flags(self)

    def validate(self) -> None:
        """Ranges and cross-field checks (run on every construction). Raises ValueError naming
        the problem."""
        if not self.allowed_contracts:
            raise ValueError("calabresella flag 'allowed_contracts' must name a contract, got []")
        if len(set(self.allowed_contracts)) != len(self.allowed_contracts):
            raise ValueError(
                "calabresella flag 'allowed_contracts' repeats a contract, "
                f"got {list(self.allowed_contracts)}"
            )
        if len(self.contract_values) != N_CONTRACTS or any(v <= 0 for v in self.contract_values):
            raise ValueError(
                "calabresella flag 'contract_values' needs 5 positive integers "
                f"(chiamo..scegliete), got {list(self.contract_values)}"
            )
        for name in ("cappotto_mult", "stramazzo_mult", "target"):
            if getattr(self, name) < 1:
                raise ValueError(
                    f"calabresella flag {name!r} must be >= 1, got {getattr(self, name)!r}"
                )
        if not self.aperta_payout_factor > 0 or not math.isfinite(self.aperta_payout_factor):
            raise ValueError(
                "calabresella flag 'aperta_payout_factor' must be > 0 (a finite number), "
                f"got {self.aperta_payout_factor!r}"
            )
        if self.all_pass == "forced_chiamo_eldest" and "chiamo" not in self.allowed_contracts:
            raise ValueError("all_pass='forced_chiamo_eldest' needs 'chiamo' in allowed_contracts")
        if self.all_pass == "next_deal_no_chiamo" and set(self.allowed_contracts) == {"chiamo"}:
            raise ValueError("all_pass='next_deal_no_chiamo' needs a contract other than chiamo")

    @property
    def allowed_bits(self) -> int:
        """Bitmask over contract indices 0..4 of the allowed contracts (remembered per tuple
        of contracts: the auction asks on every bid)."""
        key = self.allowed_contracts
        got = _ALLOWED_BITS.get(key) if type(key) is tuple else None
        if got is None:
            got = sum(1 << CONTRACTS.index(c) for c in key)
            if type(key) is tuple:
                _ALLOWED_BITS[key] = got
        return got

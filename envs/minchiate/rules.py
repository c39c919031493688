"""Minchiate rule flags: the frozen ``Rules`` dataclass with the canonical defaults of
RULES.md Part A / C.1, one field per Minchiate flag of the C.3 table (plus MA-13's
``matto_bonus_at_end``). Variants are values, never subclasses.

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mazzo.envs.cards.flags import check_fields, rules_from_flags, rules_to_flags

__all__ = ["RULESET", "Rules"]

RULESET = "cardavia"


def _choice(default: Any, *choices: Any) -> Any:
    return field(default=default, metadata={"choices": (default, *choices)})


@dataclass(frozen=True, slots=True)
class Rules:
    """All Minchiate flags (RULES.md C.3, rows marked M). Build from a mapping with
    :meth:`from_flags`; the defaults are the resolutions of C.1.

    Attributes:
        faceup_21st: ``all`` (M-6.2) or ``dealer_only`` (only the last card dealt; MA-3).
        dealer_takes: what the dealer takes from the Fola after robbing (M-7.2, MA-6).
        score_taken_cards: the taken cards score at once (MA-17), one event after the robbing.
        discard_rule: ``zero_not_29`` (M-8.2) or ``any`` (MA-8).
        impossible_discard: ``redeal`` (void deal, M-8.5) or ``relax`` (MA-9).
        declarations: ``agent`` (one decision per combination) or ``auto_all`` (no phase).
        declare_timing: ``before_first_lead`` (M-9.1) or ``with_first_card`` (each player right
            after his card of trick 1, MA-11).
        diecine: ``merge_four`` (25), ``two_triples`` (15 + 20) or ``any_three`` (MA-12).
        matto_bonus_in_own_combo: 1-40-M also gets the Matto bonus (MA-13).
        matto_bonus_at_end: the Matto bonus applies to pile combinations at the end (MA-13).
        end_recount_combos: pile combinations score at the end (MA-16).
        declaration_score_timing: ``immediate`` (M-9.6) or ``end`` (added to the end count).
        fola_exposure: ``after_declarations`` (M-10.1) or ``never`` (MA-10).
        king_rule: M-11.3.1 (MA-19).
        must_overtrump: a trump played to a trick holding a trump must beat it if possible.
        matto_payment: ``auto`` (M-13.1) or ``agent`` (the owner picks; MATTO_PAY phase).
        matto_last_trick_lost: a Matto played to trick 21 goes to the opponents (MA-22).
        matto_death_bonus: the team receiving a lost Matto scores its 5 at once (MA-22).
        capture_bonus: the immediate capture event of M-12.1 (MA-24).
        rob_cap: the cutter robs at most this many cards (0..13; M-5.2).
        resti_unit: points per resto (M-14).
        surplus_base: each pile card beyond this scores 1 (M-13.2).
        last_trick_bonus: points for winning trick 21 (M-13.2).
    """

    faceup_21st: str = _choice("all", "dealer_only")
    dealer_takes: str = _choice("counters_and_29", "counters_only")
    score_taken_cards: bool = False
    discard_rule: str = _choice("zero_not_29", "any")
    impossible_discard: str = _choice("redeal", "relax")
    declarations: str = _choice("agent", "auto_all")
    declare_timing: str = _choice("before_first_lead", "with_first_card")
    diecine: str = _choice("merge_four", "two_triples", "any_three")
    matto_bonus_in_own_combo: bool = False
    matto_bonus_at_end: bool = True
    end_recount_combos: bool = True
    declaration_score_timing: str = _choice("immediate", "end")
    fola_exposure: str = _choice("after_declarations", "never")
    king_rule: bool = True
    must_overtrump: bool = False
    matto_payment: str = _choice("auto", "agent")
    matto_last_trick_lost: bool = False
    matto_death_bonus: bool = False
    capture_bonus: bool = True
    rob_cap: int = 13
    resti_unit: int = 60
    surplus_base: int = 42
    last_trick_bonus: int = 10

    @classmethod
    def from_flags(cls, flags: Mapping[str, Any] | None = None) -> Rules:
        """Flags mapping -> Rules. Raises ValueError naming any unknown flag or bad value."""
        return rules_from_flags(cls, flags or {}, "minchiate")

    def to_flags(self) -> dict[str, Any]:
        """The flags that differ from the defaults (JSON-ready)."""
        return rules_to_flags(self)

    def __post_init__(self) -> None:
        """Check every field, whatever built the rules (``Rules(...)``, ``from_flags``,
        ``dataclasses.replace``). Raises ValueError naming the field, the value as given and
        what is allowed."""
        check_fields(self, "minchiate")
        self.validate()

    def validate(self) -> None:
        """Range checks of the numeric flags. Raises ValueError naming the problem."""
        if not 0 <= self.rob_cap <= 13:
            raise ValueError(
                f"minchiate flag 'rob_cap' must be 0..13 (97 - 4 x 21 = 13), got {self.rob_cap}"
            )
        if self.resti_unit < 1:
            raise ValueError(f"minchiate flag 'resti_unit' must be >= 1, got {self.resti_unit}")
        for name in ("surplus_base", "last_trick_bonus"):
            if getattr(self, name) < 0:
                raise ValueError(f"minchiate flag {name!r} must be >= 0, got {getattr(self, name)}")

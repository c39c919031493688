"""What each Minchiate rule flag means, in one line, and where RULES.md decides it: the text
``mazzo rules --game minchiate`` prints (reached through
``mazzo.envs.registry.GameInfo.flag_help``). One entry per field of ``rules.Rules`` (a test checks
it).

Stdlib only; must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

__all__ = ["FLAG_HELP"]

FLAG_HELP: dict[str, tuple[str, str]] = {
    "faceup_21st": (
        "which 21st cards are dealt face up: every player's, or only the dealer's last card",
        "A.6, C.1 MA-3",
    ),
    "dealer_takes": (
        "what the dealer takes from the Fola after robbing: the counters and T29, or the "
        "counters only",
        "A.7, C.1 MA-6",
    ),
    "score_taken_cards": ("the cards the dealer takes from the Fola score at once", "C.1 MA-17"),
    "discard_rule": (
        "zero_not_29: only 0-point cards other than T29 may be discarded; any: any card",
        "A.8, C.1 MA-8",
    ),
    "impossible_discard": (
        "too few legal discards: void deal and redeal, or relax (discard the lowest cards)",
        "A.8, C.1 MA-9",
    ),
    "declarations": (
        "agent: each combination is a decision (declare or skip); auto_all: all are declared",
        "A.9, C.1 MA-11",
    ),
    "declare_timing": (
        "declarations before the first lead, or each player's with his card of trick 1",
        "A.9, C.1 MA-11",
    ),
    "diecine": (
        "how the trump tens combine: four merge (25), two triples (15 + 20), or any three",
        "A.9, C.1 MA-12",
    ),
    "matto_bonus_in_own_combo": (
        "the combination 1-40-Matto also gets the Matto's +5 bonus",
        "A.9, C.1 MA-13",
    ),
    "matto_bonus_at_end": (
        "the Matto's bonus applies to combinations counted in the piles at the end",
        "A.13, C.1 MA-13",
    ),
    "end_recount_combos": (
        "combinations in a team's pile score again at the end",
        "A.13, C.1 MA-16",
    ),
    "declaration_score_timing": (
        "declared combinations score at once (immediate) or in the end count (end)",
        "A.9, C.1 MA-16",
    ),
    "fola_exposure": (
        "the Fola and discards are shown after the declarations, or never",
        "A.10, C.1 MA-10",
    ),
    "king_rule": (
        "a bare king of the led suit must be played once a trump is in the trick",
        "A.11, C.1 MA-19",
    ),
    "must_overtrump": (
        "a trump played to a trumped trick must beat it if it can",
        "A.11, C.1 MA-20",
    ),
    "matto_payment": (
        "the card owed for a Matto kept by its team: chosen automatically (auto) or by its "
        "owner (agent)",
        "A.13, C.1 MA-23",
    ),
    "matto_last_trick_lost": (
        "a Matto played to the last trick goes to the opponents",
        "A.11, C.1 MA-22",
    ),
    "matto_death_bonus": (
        "the team that receives a lost Matto scores its 5 points at once",
        "A.12, C.1 MA-22",
    ),
    "capture_bonus": (
        "a counter captured from the opponents scores at once, besides the end count",
        "A.12, C.1 MA-24",
    ),
    "rob_cap": ("the most cards the cutter may rob (0..13)", "A.5, C.1 MA-1"),
    "resti_unit": ("points per resto (the settlement unit)", "A.14, C.1 MA-27"),
    "surplus_base": ("each pile card beyond this many scores 1 point", "A.13 M-13.2, C.3"),
    "last_trick_bonus": ("points for winning the last trick", "A.13 M-13.2, C.3"),
}

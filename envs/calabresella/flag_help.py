"""What each Calabresella rule flag means, in one line, and where RULES.md decides it: the text
``mazzo rules`` prints (reached through ``mazzo.envs.registry.GameInfo.flag_help``). One entry per
field of ``rules.Rules`` (a test checks it).

Stdlib only; must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

__all__ = ["FLAG_HELP"]

FLAG_HELP: dict[str, tuple[str, str]] = {
    "players": (
        "seats: 3; 4 adds a dealer who sits out each deal; 2 is 'a due' (the defender "
        "seats played by one person)",
        "B.1, B.10, C.2 CA-19",
    ),
    "auction": (
        "single_round: each player speaks once; until_two_passes: bidding goes on until two "
        "players have passed",
        "B.4, C.2 CA-1",
    ),
    "allowed_contracts": (
        "the contracts that may be bid ([chiamo] alone is the 'Nur Chiamata' variant)",
        "B.11, C.3",
    ),
    "all_pass": (
        "when all pass: the same dealer redeals, the next dealer deals, the next deal bars "
        "Chiamo, or the eldest must play Chiamo",
        "B.4, C.2 CA-2",
    ),
    "chiamo_monte_exposed": ("in Chiamo the monte is shown to everyone", "C.2 CA-3"),
    "chiamo_return_public": ("in Chiamo the card returned to the giver is shown", "C.2 CA-3"),
    "allow_call_own_card": ("the Chiamo soloist may call a card he holds", "C.2 CA-3"),
    "solissimo_view_monte": ("the Solissimo soloist may look at the unused monte", "C.2 CA-4"),
    "scegliete_splits": (
        "how the defenders may split the open monte in Scegliete: any of the 16 ways, or 2-2 only",
        "B.5, C.2 CA-6",
    ),
    "first_lead": (
        "who leads trick 1: the eldest (dealer's right), the soloist, or the dealer's left",
        "B.6, C.2 CA-15",
    ),
    "cappotto_mult": ("multiplier when one side takes every trick", "B.8, C.2 CA-11"),
    "stramazzo": (
        "the stramazzo multiplier applies (one side takes all the card points without every trick)",
        "B.8, C.2 CA-12",
    ),
    "stramazzo_mult": ("multiplier of a stramazzo", "B.8, C.2 CA-12"),
    "stramazzo_def": (
        "truncated: the other side's card points round to 0; raw_zero: it took no valued card",
        "B.8, C.2 CA-12",
    ),
    "contract_values": (
        "the value V of chiamo, solo, solissimo, dividete, scegliete",
        "B.9, C.2 CA-17",
    ),
    "payout_mode": (
        "fixed: the contract's value changes hands; difference: the point difference does",
        "B.9, C.2 CA-10",
    ),
    "reward_mode": (
        "the env's reward: pairwise (zero-sum settlement, C-9.5) or raw (game-point increments)",
        "B.9, C.2 CA-10",
    ),
    "match_rule": (
        "match end: individual (one player reaches the target) or seed_sum (the defenders' "
        "totals summed)",
        "B.9, C.2 CA-13",
    ),
    "target": ("game points that end a match (31: Terziglio)", "B.9, B.11"),
    "aperta": ("the soloist plays with his hand face up after trick 1", "B.11, C.2 CA-19"),
    "aperta_payout_factor": ("factor on every payout under aperta", "B.11, C.2 CA-19"),
}

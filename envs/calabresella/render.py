"""Text rendering of a Calabresella deal: the table (hands by suit, strongest first), the
auction, the contract's exchanges, the current trick, the trick history and the score.

``render_state`` shows every hand (the environment's god view, for debugging and logs);
``render_view`` shows one player's view (for a person at the terminal).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Sequence

from mazzo.envs.calabresella.actions import CONTRACTS, PASS, Phase
from mazzo.envs.calabresella.dealing import dealt_hands
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.calabresella.exchanges import GIVER_MONTE, GIVER_OWN
from mazzo.envs.calabresella.kernel import trick_winner
from mazzo.envs.calabresella.scoring import pile_thirds
from mazzo.envs.calabresella.state import State
from mazzo.envs.calabresella.view import InfoView
from mazzo.envs.cards.bits import bit_list

__all__ = ["dealt_hand", "format_hand", "render_state", "render_view"]

SUIT_WORDS = ("coppe", "denari", "spade", "bastoni")


def format_hand(hand: int) -> str:
    """``c: 3 A K 7 | d: 2 N | ...``: suits in order, cards strongest first."""
    parts = []
    for s in range(4):
        cards = sorted(
            (c for c in bit_list(hand & ITALIAN_40.suit_mask[s])),
            key=lambda c: -ITALIAN_40.strength[c],
        )
        if cards:
            parts.append(
                f"{ITALIAN_40.suit_names[s]}: " + " ".join(ITALIAN_40.labels[c][:-1] for c in cards)
            )
    return " | ".join(parts) if parts else "(empty)"


def _auction_line(
    bids: tuple[tuple[int, int], ...] | list[tuple[int, int]], seat_of: tuple[int, ...]
) -> str:
    words = [f"S{seat_of[p]} " + ("pass" if a == PASS else CONTRACTS[a - 41]) for p, a in bids]
    return "Auction: " + (", ".join(words) if words else "(nobody has spoken)")


def _trick_lines(
    tricks: Sequence[tuple[int, tuple[int, ...], int]], seat_of: tuple[int, ...], last: int = 12
) -> list[str]:
    """The last ``last`` tricks, from their position form (who played each card)."""
    lines = ["Tricks:"] if tricks else []
    first = max(0, len(tricks) - last)
    for i, (leader, cards, winner) in enumerate(tricks[first:], first + 1):
        played = "  ".join(
            f"S{seat_of[(leader + k) % 3]} {ITALIAN_40.labels[c]}" for k, c in enumerate(cards)
        )
        lines.append(f"  {i:2d}. {played}  -> S{seat_of[winner]}")
    return lines


def _contract_line(contract: int, soloist: int, seat_of: tuple[int, ...]) -> str:
    if contract < 0:
        return ""
    return f"Contract: {CONTRACTS[contract]} by S{seat_of[soloist]}"


def _call_line(called: int, giver: int, returned: int, seat_of: tuple[int, ...]) -> str:
    if called < 0:
        return ""
    src = {GIVER_MONTE: "the monte", GIVER_OWN: "his own hand"}.get(giver)
    line = f"Called {ITALIAN_40.labels[called]}: from {src or f'S{seat_of[giver]}'}"
    if returned >= 0:
        line += f", returned {ITALIAN_40.labels[returned]}"
    return line


def dealt_hand(s: State, pos: int) -> int:
    """The 12 cards position ``pos`` was dealt (C-3.1)."""
    return dealt_hands(s.deal.order)[pos]


def render_state(s: State, totals: tuple[float, ...] | None = None) -> str:
    """The whole table as text (every hand shown)."""
    lines = [
        f"Calabresella, {s.rules.players} players, dealer S{s.deal.dealer}, phase {s.phase.name}"
    ]
    if totals is not None:
        lines.append("Match totals: " + "  ".join(f"S{i} {t:g}" for i, t in enumerate(totals)))
    lines.append(_auction_line(s.bids, s.seat_of))
    lines += filter(None, [_contract_line(s.contract, s.soloist, s.seat_of)])
    lines += filter(None, [_call_line(s.called, s.giver, s.returned, s.seat_of)])
    done = s.phase is Phase.DONE
    if done:
        lines.append("Dealt hands:")
    for pos in range(3):
        tag = " (soloist)" if pos == s.soloist else ""
        turn = "  <- to play" if pos == s.pos and not done else ""
        shown = dealt_hand(s, pos) if done else s.hands[pos]
        lines.append(f"  A{pos} S{s.seat_of[pos]}{tag}: {format_hand(shown)}{turn}")
    lines.append(f"Monte: {ITALIAN_40.format_mask(s.monte_mask())}")
    if s.set_aside:
        lines.append(f"Set aside: {ITALIAN_40.format_mask(s.set_aside)}")
    lines += _play_summary(s.tricks_won, s.piles, s.soloist)
    lines += _trick_lines(s.position_tricks, s.seat_of)
    if s.trick:
        lines.append(_current_trick(s.trick, s.leader, s.seat_of))
    if s.is_terminal():
        lines.append(_result_line(s))
    return "\n".join(lines)


def _play_summary(
    tricks_won: tuple[int, int] | list[int], piles: tuple[int, int] | list[int], soloist: int
) -> list[str]:
    if soloist < 0 or not sum(tricks_won):
        return []
    sol, dfn = pile_thirds(piles[0]), pile_thirds(piles[1])
    return [
        f"Won so far: soloist {_count(tricks_won[0], 'trick')} / {_points(sol)} "
        f"({_count(sol, 'third')}), defenders {_count(tricks_won[1], 'trick')} / "
        f"{_points(dfn)} ({_count(dfn, 'third')})",
        "The soloist needs 6 of the 11 points (each side's thirds cut to whole points; the last "
        "trick +1)",
    ]


def _points(thirds: int) -> str:
    """Thirds as points, the way a player counts them: 7 -> ``2 1/3 points``."""
    whole, rest = divmod(thirds, 3)
    frac = f" {rest}/3" if rest and whole else f"{rest}/3" if rest else ""
    number = f"{whole}{frac}" if whole else (frac or "0")
    return f"{number} point{'s' if thirds == 0 or thirds > 3 else ''}"


def _count(n: int, noun: str) -> str:
    """``1 trick``, ``2 tricks``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _current_trick(
    trick: tuple[int, ...] | list[int], leader: int, seat_of: tuple[int, ...]
) -> str:
    played = "  ".join(
        f"S{seat_of[(leader + k) % 3]} {ITALIAN_40.labels[c]}" for k, c in enumerate(trick)
    )
    ahead = seat_of[(leader + trick_winner(trick)) % 3]  # C-6.3 so far
    return f"Current trick (S{seat_of[leader]} led): {played}  (winning so far: S{ahead})"


def _result_line(s: State) -> str:
    r = s.result()
    if r["void"]:
        return "Result: all passed, the deal is void"
    bonus = f" x{r['multiplier']} {r['bonus']}" if r["bonus"] else ""
    verdict = "made" if r["success"] else "failed"
    return (
        f"Result: {r['contract']} {verdict}{bonus}; points soloist {r['points']['soloist']} - "
        f"defenders {r['points']['defenders']} (thirds {r['thirds']['soloist']}-"
        f"{r['thirds']['defenders']}, last trick {r['last_trick']}); "
        "settlement " + "  ".join(f"S{i} {x:+g}" for i, x in enumerate(r["returns"]))
    )


def render_view(v: InfoView) -> str:
    """One player's view as text: own hand, the auction, the contract, the trick and history."""
    who = f"S{v.seat}" + (f" (A{v.position})" if v.position >= 0 else " (idle dealer)")
    lines = [f"You are {who}; dealer S{v.dealer}; phase {v.phase.name}"]
    if any(v.totals):
        lines.append("Match totals: " + "  ".join(f"S{i} {t:g}" for i, t in enumerate(v.totals)))
    lines.append(_auction_line(v.bids, v.seat_of))
    lines += filter(None, [_contract_line(v.contract, v.soloist, v.seat_of)])
    lines += filter(None, [_call_line(v.called, v.giver, v.returned, v.seat_of)])
    if v.known_monte:
        lines.append(f"Monte cards you have seen: {ITALIAN_40.format_mask(v.known_monte)}")
    if v.discards:
        lines.append(f"Your discards: {ITALIAN_40.format_mask(v.discards)}")
    if v.position >= 0:
        lines.append(f"Your hand: {format_hand(v.hand)}")
    if v.partner_hand:
        lines.append(f"Partner's hand: {format_hand(v.partner_hand)}")
    lines += _play_summary(v.tricks_won, v.piles, v.soloist)
    lines += _trick_lines(v.position_tricks, v.seat_of, last=4)
    if v.trick:
        lines.append(_current_trick(v.trick, v.leader, v.seat_of))
    elif v.phase is Phase.PLAY:
        lines.append(f"S{v.seat_of[v.leader]} leads trick {v.n_tricks + 1}")
    return "\n".join(lines)

"""Text rendering of a Minchiate deal: the cut and the deal, every hand (trumps and suits,
strongest first), the declarations, the Fola, the current trick, the trick history and the score.

``render_state`` shows every hand (the environment's god view, for debugging and logs);
``render_view`` shows one seat's table from its ``InfoView`` only (for a person at the terminal).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.minchiate.combos import combo_label
from mazzo.envs.minchiate.deck import MINCHIATE_97
from mazzo.envs.minchiate.kernel import winner_seat
from mazzo.envs.minchiate.scoring import TEAM_NAMES
from mazzo.envs.minchiate.state import State
from mazzo.envs.minchiate.view import InfoView

__all__ = ["format_cards", "format_hand", "render_state", "render_view"]

DECK = MINCHIATE_97
SUIT_WORDS = ("coppe", "denari", "spade", "bastoni")


def format_cards(cards: int | tuple[int, ...]) -> str:
    """Card codes of a bitmask (index order) or a tuple (its order), space-separated."""
    if isinstance(cards, tuple):
        return " ".join(DECK.labels[c] for c in cards) or "-"
    return DECK.format_mask(cards) or "-"


def format_hand(hand: int) -> str:
    """``T: 40 36 29 | M | c: K Q 3 | ...``: trumps and suits, strongest first."""
    parts = []
    trumps = [n for n in range(40, 0, -1) if (hand >> (n - 1)) & 1]
    if trumps:
        parts.append("T: " + " ".join(str(n) for n in trumps))
    if (hand >> 40) & 1:
        parts.append("M")
    for s in range(4):
        cards = [c for c in range(97) if (hand >> c) & 1 and DECK.suit[c] == s]
        cards.sort(key=lambda c: -DECK.strength[c])
        if cards:
            parts.append(f"{'cdsb'[s]}: " + " ".join(DECK.labels[c][:-1] for c in cards))
    return " | ".join(parts) if parts else "(empty)"


def _setup_lines(s: State) -> list[str]:
    st = s.setup
    faceup = ", ".join(f"S{p} {DECK.labels[c]}" for p, c in enumerate(st.faceup) if c >= 0)
    return [
        f"Dealer S{s.dealer}, cutter S{s.cutter}; S{(s.dealer + 1) % 4} leads.",
        f"Cut: robbed {format_cards(st.robbed)}; stop card {DECK.labels[st.stop]}",
        f"Face up: {faceup or '-'}",
        f"Dealer robbed {format_cards(st.dealer_robbed)}, took {format_cards(st.dealer_taken)}",
    ]


def _trick_lines(s: State | InfoView, last: int = 21) -> list[str]:
    lines = ["Tricks:"] if s.tricks else []
    first = max(0, len(s.tricks) - last)
    if first:
        lines[0] = f"Tricks (the last {last} of {len(s.tricks)}):"
    for i, (leader, cards, winner) in enumerate(s.tricks[first:], first + 1):
        played = "  ".join(f"S{(leader + k) % 4} {DECK.labels[c]}" for k, c in enumerate(cards))
        lines.append(f"  {i:2d}. {played}  -> S{winner}")
    return lines


def _score_lines(s: State, series_resti: int | None) -> list[str]:
    lines = [f"D = {s.D:+d} (A - B), R = {s.R:+d}"]
    if s.events:
        shown = ", ".join(f"{TEAM_NAMES[e.team]} {e.points} {e.cause}" for e in s.events[-8:])
        lines.append(f"Events (last {min(8, len(s.events))}): {shown}")
    if s.is_terminal():
        if s.void:
            lines.append("Result: void deal (too few legal discards); the same dealer redeals")
        else:
            counts = s.end_counts or ()
            totals = ", ".join(f"T_{TEAM_NAMES[i]} = {c.total}" for i, c in enumerate(counts))
            lines.append(f"Result: {totals}; net resti {s.R:+d} (A), returns {s.returns()}")
    if series_resti is not None:
        lines.append(f"Series: team A {series_resti:+d} resti before this deal")
    return lines


def render_state(s: State, series_resti: int | None = None) -> str:
    """The whole table as text (every hand shown)."""
    lines = _setup_lines(s)
    lines.append(
        f"Phase {s.phase.name}; " + (f"S{s.to_play} to play" if s.to_play >= 0 else "over")
    )
    for seat in range(4):
        hand = s.hands[seat]  # once the hands are played out, show the cards each seat played
        shown = format_hand(hand) if hand else "played " + format_hand(s.played_by[seat])
        lines.append(f"  S{seat} ({TEAM_NAMES[seat & 1]}): {shown}")
    if s.declared:
        lines.append("Declared: " + "; ".join(f"S{p} {combo_label(c)}" for p, c in s.declared))
    shown = "exposed" if s.fola_exposed else "face down"
    lines.append(f"Fola ({shown}): {format_cards(s.fola)}")
    if s.trick:
        cards = "  ".join(f"S{(s.leader + k) % 4} {DECK.labels[c]}" for k, c in enumerate(s.trick))
        lines.append(f"Trick {len(s.tricks) + 1}: {cards}")
    lines += _trick_lines(s)
    lines += _score_lines(s, series_resti)
    return "\n".join(lines)


def _who(seat: int, me: int) -> str:
    if seat == me:
        return "you"
    return f"S{seat}" + (" (partner)" if seat == me ^ 2 else "")


def render_view(v: InfoView) -> str:
    """One seat's table as text, from its view only: the deal's public cards, its own hand and
    discards, the Fola it knows, the declarations, the last tricks, the trick in progress, the
    score, and what it is being asked."""
    me, team = v.seat, TEAM_NAMES[v.seat & 1]
    lines = [
        f"You are S{me}, team {team} with S{me ^ 2}; dealer S{v.dealer}, cutter S{v.cutter}; "
        f"phase {v.phase.name}"
    ]
    faceup = ", ".join(f"S{p} {DECK.labels[c]}" for p, c in enumerate(v.faceup) if c >= 0)
    lines.append(
        f"Cut: robbed {format_cards(v.robbed)}; stop card {DECK.labels[v.stop_card]}; "
        f"face up: {faceup or '-'}; dealer robbed {format_cards(v.dealer_robbed)}, took "
        f"{format_cards(v.dealer_taken)}"
    )
    if v.discards:
        lines.append(f"Your discards: {format_cards(v.discards)}")
    if v.fola_known:
        shown = "exposed" if v.fola_exposed else "known to you"
        lines.append(f"Fola ({shown}): {format_cards(v.fola_known)}")
    if v.declared:
        lines.append("Declared: " + "; ".join(f"S{p} {combo_label(c)}" for p, c in v.declared))
    lines.append(f"Your hand ({v.hand.bit_count()}): {format_hand(v.hand)}")
    sizes = ", ".join(f"S{p} {n}" for p, n in enumerate(v.hand_sizes) if p != me)
    lines.append(f"Cards in the other hands: {sizes}")
    lines += _trick_lines(v, last=4)
    if v.trick:
        cards = "  ".join(f"S{(v.leader + k) % 4} {DECK.labels[c]}" for k, c in enumerate(v.trick))
        ahead = ""
        if v.led >= 0:  # M-11.4 so far (the Matto alone sets no suit and wins nothing)
            ahead = f"  (winning so far: {_who(winner_seat(v.trick, v.leader, v.led), me)})"
        lines.append(f"Trick {v.n_tricks + 1}: {cards}{ahead}")
    elif v.phase is Phase.PLAY:
        who = "You lead" if v.leader == me else f"{_who(v.leader, me)} leads"
        lines.append(f"{who} trick {v.n_tricks + 1}")
    if v.matto_owner >= 0:
        debt = ", its team owes a card" if v.matto_debt else ""
        lines.append(f"The Matto was played by {_who(v.matto_owner, me)}{debt}")
    sign = 1 if v.seat & 1 == 0 else -1
    lines.append(
        f"Score: D = {v.D:+d} (A - B), R = {v.R:+d}; your team {sign * v.R:+d} resti so far"
    )
    if v.offered is not None:
        lines.append(f"You may declare: {combo_label(v.offered)}")
    if v.phase is Phase.MATTO_PAY:
        lines.append(
            f"Your team owes a card for the Matto; your pile: {format_cards(v.piles[me & 1])}"
        )
    return "\n".join(lines)

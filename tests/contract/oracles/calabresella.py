"""What a Calabresella seat knows, written from RULES.md part B and the public record only.

The positions A0, A1, A2 are the dealer's right and onwards (C-1.3; with 2 players A0 is the
non-dealer and the dealer holds A1 and A2); the deal gives position k the deck slots
``12j + 4k .. 12j + 4k + 3`` and the monte the slots 36..39 (C-3.1). A seat knows:

- its own positions' dealt cards;
- every card an action it saw moved (``action_is_visible``: bids, the call, plays, its own
  discards, the return where it is shown);
- the monte: for all once Solissimo scegliete is bid (C-5.5), for all after the Chiamo exchange
  under ``chiamo_monte_exposed``, for the Solissimo soloist under ``solissimo_view_monte``, for
  the Chiamo/Solo soloist once he has taken it (C-5.1 d), the two cards each Dividete defender
  received (C-5.4);
- under ``aperta``, after trick 1, everything of the other defender's (his hand shows, so his
  dealt and received cards and hence his discards and the card returned to him).

The contract and the soloist come from the bid labels (the last ``bid``; A0 when all passed and
Chiamo was forced, which shows as a ``call`` without a bid). Voids and follow-suit need no rule
here: a resampled world that breaks them does not replay.
"""

from __future__ import annotations

from typing import Any

from mazzo.envs.cards.deal import Deal

__all__ = ["holders", "known_cards", "map_action", "may_hold", "public"]

MONTE = (36, 37, 38, 39)
CARDS = 40


def positions(rules: Any, dealer: int) -> tuple[int, int, int]:
    """The player seat of A0, A1, A2 (C-1.3, CA-19)."""
    n = rules.players
    if n == 2:
        return ((dealer + 1) % 2, dealer, dealer)
    return ((dealer + 1) % n, (dealer + 2) % n, (dealer + 3) % n)


def slot_position(slot: int) -> int:
    """C-3.1: the position dealt deck slot ``slot`` (-1: the monte)."""
    return -1 if slot >= 36 else (slot % 12) // 4


def holders(rules: Any, deal: Deal) -> list[int]:
    """Per deck slot, the position it was dealt to (-1: the monte)."""
    return [slot_position(i) for i in range(CARDS)]


def _slots_of(position: int) -> list[int]:
    return [i for i in range(36) if slot_position(i) == position]


def _auction(steps: list[Any], seat_of: tuple[int, int, int]) -> tuple[str, int]:
    """(contract name or '', soloist position or -1) from the labels."""
    contract, soloist = "", -1
    for s in steps:
        if s.label.startswith("bid "):
            contract = s.label[4:]
            soloist = seat_of.index(s.actor)  # a due: the non-dealer A0 bids
    if not contract and any(s.label.startswith("call ") for s in steps):
        contract, soloist = "chiamo", 0  # all passed, Chiamo forced on the eldest
    return contract, soloist


def known_cards(rules: Any, deal: Deal, steps: list[Any], state: Any, seat: int) -> int:
    """Bitmask of the cards ``seat`` knows the place of (see the module docstring)."""
    seat_of = positions(rules, deal.dealer)
    mine = [p for p in range(3) if seat_of[p] == seat]
    order = deal.order
    known_slots = {i for p in mine for i in _slots_of(p)}
    known = 0
    for s in steps:
        if s.visible and s.action < CARDS:
            known |= 1 << s.action
    verbs = {s.label.split()[0] for s in steps}
    if not state.is_terminal():
        verbs.add(state.action_label(state.legal_actions()[0]).split()[0])
    contract, soloist = _auction(steps, seat_of)
    after_auction = bool(verbs - {"pass", "bid"})
    took_monte = bool(verbs & {"discard", "play"})
    exposed = (contract == "scegliete" and after_auction) or (
        contract == "chiamo" and rules.chiamo_monte_exposed and took_monte
    )
    seen_by_soloist = soloist in mine and (
        (contract == "solissimo" and rules.solissimo_view_monte and after_auction)
        or (contract in ("chiamo", "solo") and took_monte)
    )
    if exposed or seen_by_soloist:
        known_slots.update(MONTE)
    defenders = [p for p in range(3) if p != soloist] if soloist >= 0 else []
    if contract == "dividete" and after_auction:
        d1, d2 = (soloist + 1) % 3, (soloist + 2) % 3
        if d1 in mine:
            known_slots.update(MONTE[:2])
        if d2 in mine:
            known_slots.update(MONTE[2:])
    plays = sum(s.label.startswith("play ") for s in steps)
    if rules.aperta and plays >= 3 and any(p in defenders for p in mine):
        partner = [p for p in defenders if p not in mine]
        for p in partner:  # his hand shows: all he was dealt, received, discarded, was returned
            known_slots.update(_slots_of(p))
            if contract == "dividete":
                known_slots.update(MONTE[:2] if p == (soloist + 1) % 3 else MONTE[2:])
            for s in steps:
                if s.actor == seat_of[p] and s.action < CARDS:
                    known |= 1 << s.action
                if s.label.startswith("return ") and s.action < CARDS:
                    known |= 1 << s.action
    for i in known_slots:
        known |= 1 << order[i]
    return known


def may_hold(rules: Any, deal: Deal, slot: int, card: int) -> bool:
    """Any hidden card may lie in any hidden slot (the replay rules out the rest)."""
    return True


def map_action(action: int, swap: dict[int, int]) -> int:
    """Card actions (ids 0..39) follow the transposition; the others stay."""
    return swap.get(action, action) if action < CARDS else action


def public(state: Any) -> object:
    """Nothing the rules announce beyond the actions (bids, calls, plays are the steps)."""
    return None

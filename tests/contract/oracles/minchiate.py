"""What a Minchiate seat knows, written from RULES.md part A and the public record only.

From the stream S and the dealer d (M-5, M-6): the cutter S(d+3) robs the longest prefix of
qualifying cards (M-5.1, capped by ``rob_cap``); the stop card S[r] is shown and goes to the
bottom of the pack P = S[r+1..] + [S[r]]; seat S(d+1+k) is dealt P[10k..10k+9] and
P[40+11k..40+11k+10], whose last card is face up (for every seat, or only the dealer's under
``faceup_21st = dealer_only``); P[84..] is the Fola. A seat knows:

- its own dealt cards, and the robbed cards and the stop card (public, M-5.3, M-5.4);
- the face-up 21st cards (M-6.2);
- in the Fola: what the dealer robs and takes, i.e. its qualifying cards, counters and T29
  (public, M-7.1, M-7.2: this oracle treats all of them as known, a superset); the whole Fola
  for the dealer (M-7.3); the whole Fola and every discard for everyone once it is exposed
  (M-10.1: after the declarations, or after trick 1's under ``declare_timing =
  with_first_card``; never under ``fola_exposure = never``);
- every card an action it saw moved (``action_is_visible``: plays, the Matto payment, its own
  discards);
- the members of every declared combination (M-9, public).

Only dead cards (value 0, not qualifying, not T29) may move into a hidden Fola slot, so the
dealer's robbing and taking stay what they were. The declarations are compared between worlds
(``public``): a resampled world that gives a seat another combination is dropped.
"""

from __future__ import annotations

from typing import Any

from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate.deck import MINCHIATE_97 as DECK

__all__ = ["holders", "known_cards", "map_action", "may_hold", "public"]

CARDS = 97
FOLA = -1
QUALIFYING = frozenset(
    DECK.parse(code)
    for code in ["M", "T1", "T2", "T3", "T4", "T5", "T10", "T13", "Kc", "Kd", "Ks", "Kb"]
    + [f"T{n}" for n in range(20, 41)]
)  # M-5.1: 33 cards
T29 = DECK.parse("T29")
DEAD = frozenset(c for c in range(CARDS) if DECK.value[c] == 0 and c not in QUALIFYING and c != T29)


def robbed(rules: Any, deal: Deal) -> int:
    """M-5.2: the number of cards the cutter robs."""
    r = 0
    while r < rules.rob_cap and deal.order[r] in QUALIFYING:
        r += 1
    return r


def pack_slots(rules: Any, deal: Deal) -> list[int]:
    """M-5.4: the stream slot of each pack card P[0..]."""
    r = robbed(rules, deal)
    return [*range(r + 1, CARDS), r]


def holders(rules: Any, deal: Deal) -> list[int]:
    """Per stream slot, the seat it was dealt to (robbed cards: the cutter; -1: the Fola)."""
    d = deal.dealer
    out = [FOLA] * CARDS
    r = robbed(rules, deal)
    for i in range(r):
        out[i] = (d + 3) % 4
    pack = pack_slots(rules, deal)
    for k in range(4):
        for p in [*range(10 * k, 10 * k + 10), *range(40 + 11 * k, 51 + 11 * k)]:
            out[pack[p]] = (d + 1 + k) % 4
    return out


def _fola_exposed(rules: Any, steps: list[Any], state: Any) -> bool:
    if rules.fola_exposure == "never":
        return False
    verbs = [s.label.split()[0] for s in steps]
    pending = "" if state.is_terminal() else state.action_label(state.legal_actions()[0])
    pending = pending.split()[0] if pending else ""
    plays = verbs.count("play")
    if rules.declare_timing == "with_first_card":
        return plays >= 5 or (plays == 4 and pending not in ("declare", "skip"))
    return plays > 0 or pending in ("play", "pay") or state.is_terminal()


def known_cards(rules: Any, deal: Deal, steps: list[Any], state: Any, seat: int) -> int:
    """Bitmask of the cards ``seat`` knows the place of (see the module docstring)."""
    order, d = deal.order, deal.dealer
    owner = holders(rules, deal)
    pack = pack_slots(rules, deal)
    r = robbed(rules, deal)
    slots = {i for i in range(CARDS) if owner[i] == seat}
    slots.update(range(r + 1))  # robbed and stop cards
    for k in range(4):
        if rules.faceup_21st == "all" or k == 3:
            slots.add(pack[50 + 11 * k])
    fola = [i for i in range(CARDS) if owner[i] == FOLA]
    exposed = _fola_exposed(rules, steps, state)
    for i in fola:
        if seat == d or exposed or order[i] not in DEAD:
            slots.add(i)
    known = 0
    for i in slots:
        known |= 1 << order[i]
    for s in steps:
        if s.action < CARDS and (s.visible or (exposed and s.label.startswith("discard "))):
            known |= 1 << s.action
    for _, combo in public(state):
        known |= combo.members
    return known


def may_hold(rules: Any, deal: Deal, slot: int, card: int) -> bool:
    """A hidden Fola slot takes only a dead card (so M-7.1/M-7.2 are unchanged)."""
    return holders(rules, deal)[slot] != FOLA or card in DEAD


def map_action(action: int, swap: dict[int, int]) -> int:
    """Card actions (ids 0..96) follow the transposition; declare and skip stay."""
    return swap.get(action, action) if action < CARDS else action


def public(state: Any) -> tuple[Any, ...]:
    """The declarations made so far (seat, combination): announced to all (M-9)."""
    return tuple(state.declared)

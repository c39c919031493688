"""Rejected Minchiate actions: the ``IllegalAction`` that names the action, the rule it violates
(RULES.md M-8.2, M-9, M-11.3, M-13.1) and the legal labels. Off the hot path: called only when
``State.apply`` rejects an action. Reads the deal through the ``DealState`` protocol (no import
of ``rules``).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.errors import IllegalAction
from mazzo.envs.minchiate.actions import NUM_ACTIONS, NUM_CARDS, Phase, action_label
from mazzo.envs.minchiate.combos import combo_label
from mazzo.envs.minchiate.kernel import play_mask
from mazzo.envs.minchiate.protocol import DealState
from mazzo.envs.minchiate.scoring import TEAM_NAMES
from mazzo.envs.minchiate.tables import KING, LABELS, SUIT_MASK, TRUMPS

__all__ = ["illegal_action", "why_illegal"]

SUIT_WORDS = ("cups (c)", "coins (d)", "swords (s)", "batons (b)")


def illegal_action(state: DealState, action: object) -> IllegalAction:
    """The error for ``action`` (anything but a legal action id) taken by the seat on turn."""
    phase = state.phase
    legal = [action_label(a, phase) for a in bit_list(state.legal_mask())]
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        return IllegalAction(-1, repr(action), f"not an action id 0..{NUM_ACTIONS - 1}", legal)
    return IllegalAction(action, action_label(action, phase), why_illegal(state, action), legal)


def why_illegal(state: DealState, action: int) -> str:
    """The rule that ``action`` (an id 0..98 that is not legal now) violates."""
    phase, who = state.phase, f"S{state.to_play}"
    if phase is Phase.DONE:
        return "the deal is void" if state.void else "the deal is over"
    if phase is Phase.DECLARE:
        offered = state.offered()
        shown = combo_label(offered) if offered is not None else "?"
        return f"{who} must declare or skip the offered combination ({shown})"
    if action >= NUM_CARDS:
        verb = {Phase.PLAY: "play", Phase.MATTO_PAY: "pay"}.get(phase, "discard")
        return f"{who} must {verb} a card"
    if phase is Phase.MATTO_PAY:
        team = TEAM_NAMES[state.matto_owner & 1]
        return f"{who} must pay a card of team {team}'s pile other than the Matto"
    if not (state.hands[state.to_play] >> action) & 1:
        return f"{who} does not hold {LABELS[action]}"
    if phase is Phase.PLAY:
        return _why_play(state, who, action)
    if state.rules.impossible_discard == "relax":
        return (
            "only zero-value cards other than T29 may be discarded "
            "(relax: the lowest-valued cards first)"
        )
    return "only zero-value cards other than T29 may be discarded"


def _why_play(state: DealState, who: str, card: int) -> str:
    """M-11.3 for a held card that is not a legal play (so a card has been led)."""
    hand, led, rules = state.hands[state.to_play], state.led, state.rules
    legal = play_mask(
        hand, led, state.top_trump, state.suits_led, rules.king_rule, rules.must_overtrump
    )
    if 0 <= led < 4 and legal == KING[led]:
        return f"King rule: {who} must play {LABELS[KING[led].bit_length() - 1]}"
    if 0 <= led < 4 and hand & SUIT_MASK[led]:
        return f"must follow suit ({SUIT_WORDS[led]} led)"
    top = state.top_trump
    if card < 40 and state.rules.must_overtrump and top >= 0 and (hand & TRUMPS) >> (top + 1):
        return f"must overtrump {LABELS[top]}"
    if led == 4:
        return "must play a trump (trumps led)"
    return f"must trump (void in {SUIT_WORDS[led]})"

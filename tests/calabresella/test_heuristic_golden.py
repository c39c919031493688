"""A golden table of the Calabresella heuristic's card play: one position per named rule of its
docstring (cash masters, lead low from length, defenders lead into the soloist's voids, keep a
master for the last trick, follow low when it cannot beat, the last to play wins cheaply, win
with a master, duck without one, feed a partner who is winning safely, not when he is not,
discard the cheapest to lose), each with the card a player following that rule plays. The
positions are views of a real deal with the fields the heuristic reads replaced (its hand, the
trick, who leads, who is soloist, the cards out); the expected cards are worked out from the
rules by hand (card strength 3 2 A K N J 7 6 5 4; thirds A 3, the figures and 2 3 one each).
A changed rule or a tuned constant that changes a choice fails its row."""

from __future__ import annotations

import numpy as np
import pytest

from mazzo.agents.calabresella.heuristic import HeuristicV1
from mazzo.envs.calabresella.actions import Phase
from mazzo.envs.registry import get_game

from .helpers import cards

GAME = get_game("calabresella")


def _play_view():
    """A view of the first card play of a seeded deal (the fields to replace come from it)."""
    rng = np.random.default_rng(3)
    rules = GAME.rules()
    while True:
        state = GAME.new_state(GAME.deal_random(rng, rules), rules)
        while not state.is_terminal():
            view = state.info_view(state.to_play)
            if view.phase == Phase.PLAY:
                return view
            state.apply(int(rng.choice(state.legal_actions())))


BASE = _play_view()


def _bits(text: str) -> int:
    return cards(text) if text else 0


def _card(text: str) -> int:
    return cards(text).bit_length() - 1


def position(hand, trick="", leader=0, me=0, soloist=0, out="", soloist_void=""):
    """A view: ``me`` (a position) holds ``hand``; ``trick`` was led by ``leader``; ``out`` are
    cards played in earlier tricks (by someone else); the soloist shows void in the suits of
    ``soloist_void`` (letters c d s b)."""
    void = [0, 0, 0]
    void[soloist] = sum(1 << "cdsb".index(s) for s in soloist_void)
    played = [0, 0, 0]
    played[(me + 1) % 3] = _bits(out)
    return BASE._replace(
        hand=_bits(hand), trick=tuple(_card(c) for c in trick.split()), leader=leader,
        position=me, soloist=soloist, void=tuple(void), played_by=tuple(played), discards=0,
        partner_hand=0,
    )  # fmt: skip


# rule, the view, the card the rule plays
TABLE = [
    ("cash_masters", position("3c 2c 5d 6d 4s"), "3c"),
    ("lead_low_from_length", position("Kc 7c 5c 4c Nd 6d"), "4c"),
    ("defenders_attack_voids", position("Kd 5d 7s 4s 6s", me=1, soloist=0, soloist_void="d"), "Kd"),
    ("keep_master_for_last", position("3s 4c", out="2s"), "4c"),
    ("follow_low_when_beaten", position("Kc 5c 4s", trick="Ac", leader=2, me=0, soloist=0), "5c"),
    ("last_wins_cheaply", position("3c Ac 4c", trick="5c Kc", leader=1, me=0, soloist=0), "Ac"),
    ("win_with_a_master", position("3c Nc 4c", trick="Kc", leader=2, me=0, soloist=0), "3c"),
    ("duck_without_a_master", position("2c 5c", trick="Kc", leader=2, me=0, soloist=0), "5c"),
    # a defender last to play, his partner (the other defender) winning: the counter goes in
    ("feed_a_safe_partner", position("Ac Kc 5c", trick="3c 4c", leader=2, me=1, soloist=0), "Ac"),
    # the partner leads 2c with the soloist (who may hold 3c) still to play: no gift
    ("no_feed_when_unsafe", position("Ac Kc 5c", trick="2c", leader=0, me=1, soloist=2), "5c"),
    ("discard_cheapest_to_lose", position("Ad 4s 5b", trick="3c", leader=2, me=0, soloist=0), "4s"),
]


@pytest.mark.parametrize(("rule", "view", "expected"), TABLE, ids=[r for r, _, _ in TABLE])
def test_each_rule_decides_its_position(rule, view, expected):
    chosen = HeuristicV1().decide(view)
    assert GAME.info.deck.labels[chosen] == expected, (rule, GAME.info.deck.labels[chosen])

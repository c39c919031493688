"""No-leak checks particular to Calabresella. The general test (every seat's view and encoding
unchanged when every card it cannot know is resampled, with an oracle built from the public
record, across suits and hands) runs for every variant in ``tests/contract/test_no_leak.py``."""

from envs.calabresella.rules import Rules
from envs.calabresella.state import State
from envs.calabresella.view import info_view
from envs.cards.deal import Deal


def test_views_differ_between_seats_only_in_private_fields():
    s = State.new(Deal(0, tuple(range(40))), Rules())
    a, b = info_view(s, 1), info_view(s, 2)
    assert a.hand != b.hand and a.bids == b.bids and a.played_by == b.played_by

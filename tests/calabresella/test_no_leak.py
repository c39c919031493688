"""No-leak checks particular to Calabresella. The general test (every seat's view and encoding
unchanged when every card it cannot know is resampled, with an oracle built from the public
record, across suits and hands) runs for every variant in ``tests/contract/test_no_leak.py``."""

from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.state import State
from mazzo.envs.calabresella.view import InfoView, info_view
from mazzo.envs.cards.deal import Deal

from .helpers import cards, new_state, play
from .test_golden import DEAL2, SOLO2_SCRIPT

# What only some seats may know (envs/calabresella/view.py; docs/encoding.md 2.4).
PRIVATE = {"seat", "position", "legal_mask", "hand", "partner_hand", "returned", "known_monte",
           "discards", "received"}  # fmt: skip
PUBLIC = [f for f in InfoView._fields if f not in PRIVATE]


def differing(a: InfoView, b: InfoView) -> set[str]:
    return {f for f in InfoView._fields if getattr(a, f) != getattr(b, f)}


def test_views_at_the_deal_differ_only_in_the_seat_its_hand_and_turn():
    """Dealer S0 and the deck in index order: C-3.1 gives A0 = S1 the cards 0-3, 12-15, 24-27
    and A1 = S2 the cards 4-7, 16-19, 28-31 (RULES.md D.2: Ac 2c 3c 4c = 0..3, ...)."""
    s = State.new(Deal(0, tuple(range(40))), Rules())
    a, b = info_view(s, 1), info_view(s, 2)
    assert differing(a, b) == {"seat", "position", "hand", "legal_mask"}
    assert (a.seat, a.position, b.seat, b.position) == (1, 0, 2, 1)
    assert a.hand == cards("Ac 2c 3c 4c 3d 4d 5d 6d 5s 6s 7s Js")
    assert b.hand == cards("5c 6c 7c Jc 7d Jd Nd Kd Ns Ks Ab 2b")
    assert a.legal_mask == s.legal_mask() != 0 and b.legal_mask == 0  # the eldest bids first


def test_views_differ_between_seats_only_in_private_fields():
    """S1's Solo of ``test_golden`` after trick 1 (S1 took the monte 4d 5s 2s 6b and set aside
    7b 6b 4d 4s; trick 1: S0 3b, S1 4b, S2 Jb, won by S0, who leads): every public field is the
    same for the three seats, and each private field holds that seat's own knowledge."""
    s = new_state(DEAL2, dealer=2)
    play(s, SOLO2_SCRIPT[:10])
    v0, v1, v2 = (info_view(s, seat) for seat in range(3))
    for f in PUBLIC:
        assert getattr(v0, f) == getattr(v1, f) == getattr(v2, f), f
    assert differing(v0, v2) == {"seat", "position", "hand", "legal_mask"}
    assert differing(v0, v1) == {"seat", "position", "hand", "legal_mask", "known_monte",
                                 "discards", "received"}  # fmt: skip
    # the hands: dealt (test_golden's DEAL2), plus the monte, less the discards and trick 1
    assert v0.hand == cards("Nc Jc 7c Kd Nd Jd Ks Ns 2b Ab Kb")
    assert v1.hand == cards("3c 2c Kc 3d 2d Ad 3s As 5b 5s 2s")
    assert v2.hand == cards("6c 5c 4c 7d 6d 5d Js 7s 6s Nb Ac")
    # the soloist alone saw the monte and knows what he set aside
    assert v1.known_monte == cards("4d 5s 2s 6b") and v1.discards == cards("7b 6b 4d 4s")
    assert v1.received == (0, cards("4d 5s 2s 6b"), 0)
    for v in (v0, v2):
        assert v.known_monte == v.discards == v.partner_hand == 0 and v.received == (0, 0, 0)
    assert v0.returned == v1.returned == v2.returned == -1  # no Chiamo exchange
    # S0 leads trick 2: any card of his hand; nobody else has a legal action
    assert v0.legal_mask == v0.hand and v1.legal_mask == v2.legal_mask == 0

"""Full golden deals worked out by hand from RULES.md Part B (one per contract family).

Each deal gives the three dealt hands by position (A0 = the dealer's right), the monte, every
decision, and the expected tricks, thirds, points, multiplier and settlement. The numbers in the
comments are the hand count; the engine must agree with them.
"""

import pytest

from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.view import info_view

from .helpers import cards, deck_from_positions, new_state, play


def tricks(*rows: str) -> list[tuple[int, str]]:
    """'S1 3c, S2 Jc, S0 5c' rows -> (seat, 'play X') steps."""
    out = []
    for row in rows:
        for item in row.split(","):
            seat, card = item.split()
            out.append((int(seat[1]), f"play {card}"))
    return out


# ----------------------------------------------------------------------------------- deal 1
# Dealer S0: A0 = S1, A1 = S2, A2 = S0. S1 holds the top cards of every suit.
DEAL1 = deck_from_positions(
    "3c 2c Ac Kc Nc 3d 2d Ad 3s 2s 3b 2b",
    "Jc 7c 6c Kd Nd Jd 7d As Ks Ns Ab Kb",
    "5c 4c 6d 5d 4d Js 7s 6s 5s Nb Jb 7b",
    "4s 6b 5b 4b",
)
DEAL1_TRICKS = tricks(
    "S1 3c, S2 Jc, S0 5c",
    "S1 2c, S2 7c, S0 4c",
    "S1 Ac, S2 6c, S0 6d",  # S0 shows void in coppe
    "S1 Kc, S2 Kd, S0 5d",
    "S1 Nc, S2 Nd, S0 4d",
    "S1 3d, S2 Jd, S0 Js",
    "S1 2d, S2 7d, S0 7s",
    "S1 Ad, S2 As, S0 6s",
    "S1 3s, S2 Ks, S0 5s",
    "S1 2s, S2 Ns, S0 Nb",
    "S1 3b, S2 Ab, S0 Jb",
    "S1 2b, S2 Kb, S0 7b",
)


def test_solo_cappotto():
    """S1 bids Solo, takes the monte and discards it again, then wins all 12 tricks.
    Soloist: 32 thirds -> 10 + last trick = 11 points; cappotto x2; V = 2, unit 4:
    raw S1 +4; pairwise S1 +8, S2 -4, S0 -4."""
    s = new_state(DEAL1, dealer=0)
    play(s, [(1, "bid solo"), (2, "pass"), (0, "pass")])
    assert s.hands[0] == cards("3c 2c Ac Kc Nc 3d 2d Ad 3s 2s 3b 2b 4s 6b 5b 4b")
    play(s, [(1, "discard 4s"), (1, "discard 6b"), (1, "discard 5b"), (1, "discard 4b")])
    assert s.set_aside == cards("4s 6b 5b 4b")
    play(s, DEAL1_TRICKS[:9])
    assert s.void[2] == 0b0001  # S0 (A2) void in coppe after trick 3
    play(s, DEAL1_TRICKS[9:])
    r = s.result()
    assert r["contract"] == "solo" and r["soloist"] == 1 and r["defenders"] == [2, 0]
    assert r["thirds"] == {"soloist": 32, "defenders": 0}
    assert r["points"] == {"soloist": 11, "defenders": 0}
    assert r["tricks"] == {"soloist": 12, "defenders": 0}
    assert (r["success"], r["multiplier"], r["bonus"], r["value"], r["unit"]) == (
        True,
        2,
        "cappotto",
        2,
        4,
    )
    assert r["raw"] == [0, 4, 0] and r["pairwise"] == [-4, 8, -4] and s.returns() == (-4, 8, -4)


def test_solissimo_cappotto_cx5_row3():
    """The same cards as Solissimo: no exchange, the monte set aside goes to the last trick's
    winner. V = 4, cappotto: raw S1 +8; pairwise +16 / -8 (CX-5)."""
    s = new_state(DEAL1, dealer=0)
    play(s, [(1, "bid solissimo"), (2, "pass"), (0, "pass")])
    assert s.set_aside == cards("4s 6b 5b 4b") and s.phase.name == "PLAY"
    play(s, DEAL1_TRICKS)
    r = s.result()
    assert (r["points"]["soloist"], r["multiplier"], r["raw"], r["pairwise"]) == (
        11,
        2,
        [0, 8, 0],
        [-8, 16, -8],
    )


# ----------------------------------------------------------------------------------- deal 2
# Dealer S2: A0 = S0, A1 = S1, A2 = S2.
DEAL2 = deck_from_positions(
    "Nc Jc 7c Kd Nd Jd Ks Ns 3b 2b Ab Kb",
    "3c 2c Kc 7b 3d 2d Ad 3s As 4s 5b 4b",
    "6c 5c 4c 7d 6d 5d Js 7s 6s Nb Jb Ac",
    "4d 5s 2s 6b",
)


def test_chiamo_called_card_from_a_defender():
    """S1 bids Chiamo and calls Ac, held by S2, who hands it over; S1 returns 7b; takes the
    monte (4d 5s 2s 6b) and discards 4d 5s 4s 6b.
    Defenders take tricks 1-4: 3b 4b 7b (1) + 2b 5b Jb (2) + Ab Kc Nb (5) + Kb 2s 6s (2) = 10.
    The soloist takes 5-12: Ks 3s 7s (2) + As Js Ns (5) + 3c (1) + 2c Jc (2) + Ac Nc (4)
    + 3d Jd (2) + 2d Nd (2) + Ad Kd (4) = 22, plus the set-aside cards (0) for the last trick.
    Points 7 + 1 = 8 against 3: made, m = 1, V = 1: pairwise S1 +2, S0 -1, S2 -1."""
    s = new_state(DEAL2, dealer=2)
    play(s, [(0, "pass"), (1, "bid chiamo"), (2, "pass"), (1, "call Ac")])
    assert s.giver == 2 and s.hands[1] & cards("Ac")
    play(s, [(1, "return 7b")])
    assert s.hands[2] == cards("6c 5c 4c 7d 6d 5d Js 7s 6s Nb Jb 7b")
    # what each seat learns: the call and the giver are public, the returned card is not
    assert (
        info_view(s, 0).returned == -1 and info_view(s, 2).returned == cards("7b").bit_length() - 1
    )
    assert info_view(s, 0).giver == 2 and info_view(s, 0).known_monte == 0
    assert info_view(s, 1).known_monte == cards("4d 5s 2s 6b")
    play(s, [(1, "discard 4d"), (1, "discard 5s"), (1, "discard 4s"), (1, "discard 6b")])
    play(s, tricks(
        "S0 3b, S1 4b, S2 7b", "S0 2b, S1 5b, S2 Jb", "S0 Ab, S1 Kc, S2 Nb", "S0 Kb, S1 2s, S2 6s",
        "S0 Ks, S1 3s, S2 7s", "S1 As, S2 Js, S0 Ns", "S1 3c, S2 4c, S0 7c", "S1 2c, S2 5c, S0 Jc",
        "S1 Ac, S2 6c, S0 Nc", "S1 3d, S2 5d, S0 Jd", "S1 2d, S2 6d, S0 Nd", "S1 Ad, S2 7d, S0 Kd",
    ))  # fmt: skip
    r = s.result()
    assert r["called"] == "Ac" and r["called_from"] == "S2"
    assert r["thirds"] == {"soloist": 22, "defenders": 10}
    assert r["points"] == {"soloist": 8, "defenders": 3}
    assert r["tricks"] == {"soloist": 8, "defenders": 4} and r["last_trick"] == "soloist"
    assert (r["success"], r["multiplier"], r["bonus"]) == (True, 1, None)
    assert r["raw"] == [0, 1, 0] and r["pairwise"] == [-1, 2, -1]


SOLO2_SCRIPT = [(0, "pass"), (1, "bid solo"), (2, "pass")] + [
    (1, f"discard {c}") for c in ("7b", "6b", "4d", "4s")
] + tricks(
    "S0 3b, S1 4b, S2 Jb", "S0 2b, S1 5b, S2 Nb", "S0 Ab, S1 5s, S2 4c", "S0 Kb, S1 Kc, S2 5c",
    "S0 Ks, S1 3s, S2 6s", "S1 2s, S2 7s, S0 Ns", "S1 As, S2 Js, S0 7c", "S1 3c, S2 6c, S0 Jc",
    "S1 2c, S2 Ac, S0 Nc", "S1 3d, S2 5d, S0 Jd", "S1 2d, S2 6d, S0 Nd", "S1 Ad, S2 7d, S0 Kd",
)  # fmt: skip


def test_solo_made_without_multiplier():
    """The same deal as Solo: S1 discards 7b 6b 4d 4s. Defenders: 3b Jb (2) + 2b Nb (2)
    + Ab (3) + Kb Kc (2) = 9 thirds; the soloist 23 (2c Ac Nc is 5). Points 7 + 1 = 8 vs 3:
    made, V = 2: raw S1 +2, pairwise +4 / -2."""
    s = new_state(DEAL2, dealer=2)
    play(s, SOLO2_SCRIPT)
    r = s.result()
    assert r["thirds"] == {"soloist": 23, "defenders": 9}
    assert r["points"] == {"soloist": 8, "defenders": 3}
    assert r["raw"] == [0, 2, 0] and r["pairwise"] == [-2, 4, -2]


# ----------------------------------------------------------------------------------- deal 3
# Dealer S1: A0 = S2, A1 = S0, A2 = S1. D1 = S1, D2 = S2 once S0 is the soloist.
DEAL3 = deck_from_positions(
    "6c 5c 7d 6d 5d 4d Js 7s 6s 5s 4s Nb",
    "3c 2c Ac Kc Nc 3d 2d 3s 7b 6b 5b 4b",
    "Jc 7c Kd Nd Jd As Ks Ns 3b 2b Ab Kb",
    "2s Ad 4c Jb",
)


def test_scegliete_split_and_exchanges():
    """S0 bids Scegliete. The monte in canonical order is [4c, Ad, 2s, Jb]; D1 = S1 takes
    Ad 2s Jb (bits 1, 2, 3: split 14), discards 7c Jb Jc; D2 = S2 gets 4c and discards it.
    Set aside: 7c Jb Jc 4c = 2 thirds. Defenders win tricks 1-4: Nb 3b (2) + 2b (1) + Ab (3)
    + Kb (1) = 7; the soloist the rest: 2s 3s (2) + 3c Jd (2) + 2c Ns (2) + Ac Ks Js (5)
    + Kc Nd (2) + Nc Kd (2) + 3d Ad (4) + 2d As (4) = 23, + 2 set aside = 25.
    Points 8 + 1 = 9 vs 2: made, V = 16: raw S0 +16; pairwise S0 +32, S1 -16, S2 -16."""
    s = new_state(DEAL3, dealer=1)
    play(s, [(2, "pass"), (0, "bid scegliete"), (1, "pass")])
    assert s.legal_mask() >> 46 == 0xFFFF  # all 16 splits
    for seat in range(3):  # the monte is open for everyone
        assert info_view(s, seat).known_monte == cards("2s Ad 4c Jb")
    play(s, [(1, "split 14")])
    assert info_view(s, 0).split_d1 == cards("Ad 2s Jb") and info_view(s, 0).split_d2 == cards("4c")
    play(s, [(1, "discard 7c"), (1, "discard Jb"), (1, "discard Jc"), (2, "discard 4c")])
    assert s.set_aside == cards("7c Jb Jc 4c")
    play(s, tricks(
        "S2 Nb, S0 4b, S1 3b", "S1 2b, S2 4s, S0 5b", "S1 Ab, S2 5s, S0 6b", "S1 Kb, S2 6s, S0 7b",
        "S1 2s, S2 7s, S0 3s", "S0 3c, S1 Jd, S2 5c", "S0 2c, S1 Ns, S2 6c", "S0 Ac, S1 Ks, S2 Js",
        "S0 Kc, S1 Nd, S2 4d", "S0 Nc, S1 Kd, S2 5d", "S0 3d, S1 Ad, S2 6d", "S0 2d, S1 As, S2 7d",
    ))  # fmt: skip
    r = s.result()
    assert r["thirds"] == {"soloist": 25, "defenders": 7}
    assert r["points"] == {"soloist": 9, "defenders": 2}
    assert r["raw"] == [16, 0, 0] and r["pairwise"] == [32, -16, -16]


# ----------------------------------------------------------------------------------- deal 4
FAIL4_SCRIPT = [
    (1, "pass"), (2, "bid chiamo"), (0, "pass"), (2, "call 3s"), (2, "return 7d"),
    (2, "discard 7c"), (2, "discard 6c"), (2, "discard 4s"), (2, "discard 5b"),
] + tricks(
    "S1 3c, S2 Jc, S0 4c", "S1 2c, S2 4b, S0 5c", "S1 Ac, S2 6b, S0 5s", "S1 Kc, S2 Kb, S0 6s",
    "S1 Nc, S2 Jd, S0 7s", "S1 2s, S2 3s, S0 Js", "S2 As, S0 Nb, S1 7d", "S2 Ks, S0 Jb, S1 2b",
    "S2 Ns, S0 7b, S1 3b", "S2 Ab, S0 4d, S1 2d", "S2 Kd, S0 5d, S1 3d", "S1 Ad, S2 Nd, S0 6d",
)  # fmt: skip


def test_chiamo_failed_on_the_last_trick_cx1():
    """Deal 1's cards, S2 bids Chiamo and calls 3s from S1, returns 7d. Thirds split 16 / 16
    (s mod 3 = 1): 5 card points each; the defenders take the last trick: 5 - 6, failed.
    m = 1, V = 1: raw S0 +1, S1 +1; pairwise S2 -2, S0 +1, S1 +1."""
    s = new_state(DEAL1, dealer=0)
    play(s, FAIL4_SCRIPT)
    r = s.result()
    assert r["thirds"] == {"soloist": 16, "defenders": 16}
    assert r["points"] == {"soloist": 5, "defenders": 6} and r["last_trick"] == "defenders"
    assert r["tricks"] == {"soloist": 5, "defenders": 7}
    assert (r["success"], r["multiplier"]) == (False, 1)
    assert r["raw"] == [1, 1, 0] and r["pairwise"] == [1, 1, -2]


# ----------------------------------------------------------------------------------- deal 5
DEAL5 = deck_from_positions(
    "7c 6c 5c 4c 7d 6d 5d 4d 7s 6s 5s 7b",
    "3c 2c Ac Kc Nc Jc 3d 2d Ad Kd Nd Jd",
    "3s 2s As Ks Ns Js 3b 2b Ab Kb Nb Jb",
    "4s 6b 5b 4b",
)
DIV5_SCRIPT = [
    (1, "bid dividete"), (2, "pass"), (0, "pass"),
    (2, "discard Jc"), (2, "discard Jd"), (0, "discard Js"), (0, "discard Jb"),
] + tricks(
    "S1 7c, S2 3c, S0 5b", "S2 4s, S0 Ns, S1 7s", "S0 4b, S1 7b, S2 6b", "S1 6c, S2 2c, S0 3b",
    "S2 Ac, S0 2b, S1 5c", "S2 Kc, S0 Ab, S1 4c", "S2 Nc, S0 Kb, S1 7d", "S2 3d, S0 Nb, S1 6d",
    "S2 2d, S0 Ks, S1 5d", "S2 Ad, S0 As, S1 4d", "S2 Kd, S0 2s, S1 6s", "S2 Nd, S0 3s, S1 5s",
)  # fmt: skip


@pytest.mark.parametrize(
    ("flags", "mult", "pairwise"),
    [
        ({}, 3, [24, -48, 24]),
        ({"stramazzo_def": "raw_zero"}, 3, [24, -48, 24]),
        ({"stramazzo": False}, 1, [8, -16, 8]),
    ],
)
def test_dividete_defenders_stramazzo_cx5(flags, mult, pairwise):
    """S1 bids Dividete with nothing: D1 = S2 receives 4s 6b (monte[0..1]) and discards
    Jc Jd; D2 = S0 receives 5b 4b and discards Js Jb. The soloist wins only trick 3
    (4b 7b 6b: 0 thirds), so the defenders hold all 32 thirds (set aside 4 included):
    failed, defenders' stramazzo x3, V = 8: pairwise S1 -48, defenders +24 each (CX-5)."""
    s = new_state(DEAL5, dealer=0, rules=Rules.from_flags(flags))
    play(s, DIV5_SCRIPT[:3])
    assert info_view(s, 2).known_monte == cards("4s 6b") and info_view(s, 0).known_monte == cards(
        "5b 4b"
    )
    assert info_view(s, 1).known_monte == 0  # the soloist sees none of it
    play(s, DIV5_SCRIPT[3:])
    r = s.result()
    assert r["thirds"] == {"soloist": 0, "defenders": 32} and r["tricks"] == {
        "soloist": 1,
        "defenders": 11,
    }
    assert r["points"] == {"soloist": 0, "defenders": 11}
    assert r["multiplier"] == mult and r["pairwise"] == pairwise and not r["success"]

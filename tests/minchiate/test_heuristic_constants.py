"""The Minchiate heuristic's tuned constants pinned by positions (its named rules each have a
position in tests/minchiate/test_agents.py; these rows sit on either side of each constant, so
moving one by a step a tuner would try fails a row):

- ``safe_feed`` (0.25): partner's T36 (or T30) leads the trick and S3, still to play, may beat
  it with one of the trumps above it that I cannot see. S3 holds n of the 85 cards I cannot
  see (the Fola is hidden), so he holds a given one with chance n/85; with two trumps above
  unseen the chance he beats partner is 1 - (1 - n/85)^2: 0.242 for n = 11 (feed: at most
  0.25), 0.262 for n = 12 (no feed: I win the trick myself with my cheapest winner); with
  three and n = 10, 0.313 (no feed). The constant is pinned to [0.242, 0.262).
- ``spend_value`` (5): second to a trick of trumps led by an opponent, my only winner is the
  T37 (one of the five 10-point masters): spent on a trick worth 5 (the T35), not on one worth
  3 (the T5), where I duck with my low trump instead. (No trick is worth exactly 4: the counters
  are worth 3, 5 and 10, so 4 and 5 are the same threshold.)
- the last five tricks (``n_tricks >= 17``): there the master is spent on the trick worth 3 too.

The beat chances are checked with the heuristic's own reading of the table (``Table``) so a
change of the estimate shows as such, not as a changed constant."""

from __future__ import annotations

import pytest

from mazzo.agents.minchiate.heuristic import HeuristicV1, Table
from mazzo.agents.minchiate.knowledge import WIN_KEY
from mazzo.envs.minchiate import Rules
from mazzo.envs.minchiate.tables import FULL

from .helpers import mask, play_position

FILL = {0: "2c 3c 4c 5c 6c 7c 8c 9c 10c", 1: "2d 3d 4d 5d 6d 7d 8d 9d 10d"}
S3 = "T8 2b 3b 4b 5b 6b 7b 8b 9b 10b"
S3_11, S3_12 = f"{S3} Jb", f"{S3} Jb Qb"


def view(hands: dict[int, str], leader: int, trick: str, n_tricks: int | None = None):
    """The view of the seat on turn after ``trick``: these hands, every other card in the
    Fola, which stays hidden (so the unseen cards are many, as early in a deal)."""
    held = sum(mask(h) for h in hands.values())
    s = play_position(hands, leader, rules=Rules(declarations="auto_all"), fola=FULL & ~held,
                      fola_exposed=False, discards=[0, 0, 0, 0])  # fmt: skip
    for card in trick.split():
        s.apply(s.parse_action("play " + card))
    v = s.info_view(s.to_play)
    return (v if n_tricks is None else v._replace(n_tricks=n_tricks)), s


def chosen(hands, leader, trick, n_tricks=None, **constants) -> str:
    v, s = view(hands, leader, trick, n_tricks)
    return s.action_label(HeuristicV1(**constants).decide(v)).split()[-1]


def beat_chance(hands, leader, trick) -> float:
    v, _ = view(hands, leader, trick)
    t = Table.read(v)
    return t.beat_chance(WIN_KEY[t.led][v.trick[t.win_i]], t.me & 1)


def feed_hands(partner_top: str, mine: str, s3: str = S3) -> dict[int, str]:
    return {0: f"{partner_top} {FILL[0]}", 1: f"T7 {FILL[1]}", 2: mine, 3: s3}


# partner S0 leads, S1 follows with the T7, I am S2, S3 is still to play
SAFE = feed_hands("T36", "T1 T6 T37 T38 4s 5s 6s 7s 8s 9s", S3_11)  # T39, T40 unseen
UNSAFE = feed_hands("T36", "T1 T6 T37 T38 4s 5s 6s 7s 8s 9s", S3_12)
UNSAFE_3 = feed_hands("T36", "T1 T6 T37 3s 4s 5s 6s 7s 8s 9s")  # T38, T39, T40 unseen
SAFE_30 = feed_hands("T30", "T1 T6 T31 T32 T33 T34 T35 T36 T37 T38", S3_11)
UNSAFE_30 = feed_hands("T30", "T1 T6 T31 T32 T33 T34 T35 T36 T37 T38", S3_12)


@pytest.mark.parametrize(
    ("hands", "chance", "expected"),
    [(SAFE, 0.242, "T1"), (UNSAFE, 0.262, "T37"), (UNSAFE_3, 0.313, "T37"),
     (SAFE_30, 0.242, "T1"), (UNSAFE_30, 0.262, "T31")],
    ids=["safe-T36", "unsafe-T36", "unsafe-three-above", "safe-T30", "unsafe-T30"],
)  # fmt: skip
def test_safe_feed_feeds_at_0_242_and_not_at_0_262(hands, chance, expected):
    trick = f"{hands[0].split()[0]} T7"
    assert beat_chance(hands, 0, trick) == pytest.approx(chance, abs=5e-4)
    assert chosen(hands, 0, trick) == expected


@pytest.mark.parametrize("step", [-0.05, -0.02, 0.02, 0.05])
def test_a_step_of_safe_feed_changes_a_row(step):
    moved = {"safe_feed": 0.25 + step}
    rows = [(SAFE, "T1"), (UNSAFE, "T37")]
    assert any(chosen(h, 0, f"{h[0].split()[0]} T7", **moved) != e for h, e in rows)


# an opponent S1 leads a trump; I (S2) hold the T37 and a trump too low to win
SPEND = {1: f"T35 {FILL[1]}", 2: "T37 T4 2s 3s 4s 5s 6s 7s 8s 9s", 3: S3, 0: f"T9 {FILL[0]}"}
KEEP = {1: f"T5 {FILL[1]}", 2: "T37 T3 2s 3s 4s 5s 6s 7s 8s 9s", 3: S3, 0: f"T9 {FILL[0]}"}


def test_a_master_is_spent_on_a_trick_worth_5_not_on_one_worth_3():
    assert chosen(SPEND, 1, "T35") == "T37"
    assert chosen(KEEP, 1, "T5") == "T3"


@pytest.mark.parametrize(("spend_value", "row"), [(3, "keep"), (6, "spend")])
def test_a_step_of_spend_value_changes_a_row(spend_value, row):
    if row == "keep":
        assert chosen(KEEP, 1, "T5", spend_value=spend_value) != "T3"
    else:
        assert chosen(SPEND, 1, "T35", spend_value=spend_value) != "T37"


@pytest.mark.parametrize(
    ("n_tricks", "expected"), [(15, "T3"), (16, "T3"), (17, "T37"), (18, "T37")]
)
def test_in_the_last_five_tricks_a_master_is_spent_on_any_trick(n_tricks, expected):
    assert chosen(KEEP, 1, "T5", n_tricks=n_tricks) == expected

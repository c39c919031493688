"""Pinned legal-sequence counts (perft) for golden deal 1, worked out by hand.

From the start: the cutter S3 holds 15 legal discards (T7 T11 T12 T22 Qd Nd 9d 10d 5c 7c 8c As
2b Ab 7s), so 15 and 15 x 14 = 210 sequences; the dealer S0 then holds 18 (T8 T9 T21 9c 10c 3d
4d 5d 6d 6s 4s 9b 8b 7b 6b 8s 9s 10s): 210 x 18 = 3780 and 3780 x 17 = 64260.

From the first lead (S1: 7 trumps, the Matto, 5 coins, 3 cups, 2 swords, 3 batons; S2: 10
trumps, no coins, 4 cups, 3 swords, 4 batons; S3: 8 trumps, 5 coins with Kd, 3 cups, 2 swords,
3 batons; S0: 8 trumps, 3 cups, 4 coins, 2 swords, 4 batons):
- depth 2: trump 7 x 10 + Matto 1 x 21 + coins 5 x 10 + cups 3 x 4 + swords 2 x 3 + batons 3 x 4
  = 171;
- depth 3: 70 x 8 + (10 x 8 + 4 x 3 + 3 x 2 + 4 x 3) + 50 x 1 (King rule: Kd only) + 12 x 3 +
  6 x 2 + 12 x 3 = 804;
- depth 4: 560 x 8 + (80 x 8 + 12 x 3 + 6 x 2 + 12 x 4) + 50 x 4 + 36 x 3 + 12 x 2 + 36 x 4
  = 5692.
"""

import pytest

from mazzo.envs.minchiate import State, make_deal

from .deals import DEAL1, DEAL1_DECISIONS
from .helpers import play_script


def perft(s: State, depth: int) -> int:
    if depth == 0 or s.is_terminal():
        return 1
    total = 0
    for action in s.legal_actions():
        child = s.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


@pytest.mark.parametrize(("depth", "count"), [(1, 15), (2, 210), (3, 3780), (4, 64260)])
def test_perft_from_the_start(depth, count):
    assert perft(State.new(make_deal(0, DEAL1)), depth) == count


@pytest.mark.parametrize(("depth", "count"), [(1, 21), (2, 171), (3, 804), (4, 5692)])
def test_perft_from_the_first_lead(depth, count):
    s = State.new(make_deal(0, DEAL1))
    play_script(s, DEAL1_DECISIONS)
    assert perft(s, depth) == count

"""The rules kernel (``mazzo.envs.calabresella.kernel``) against the rules written out from the deck
tables, and the search's one inlined form (the solver's trick close) against the kernel, on many
random positions: random deals played to random points under several rule variants."""

import random

import pytest

from mazzo.agents.calabresella.rollout import _Search, leaf_index, leaf_table
from mazzo.envs.calabresella import kernel
from mazzo.envs.calabresella.actions import Phase
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.scoring import settle
from mazzo.envs.calabresella.state import State
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.deal import Deal

FLAGS = [{}, {"payout_mode": "difference"}, {"stramazzo_def": "raw_zero"}, {"stramazzo": False},
         {"aperta": True, "aperta_payout_factor": 0.5}, {"players": 2}, {"players": 4},
         {"cappotto_mult": 5, "stramazzo_mult": 2, "contract_values": [3, 1, 4, 1, 5]}]  # fmt: skip


def play_positions(rules: Rules, n: int, seed: int) -> list[State]:
    """``n`` states in PLAY: random deals played with random legal actions to random points."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < n:
        order = list(range(40))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)
        while not s.is_terminal():
            if s.phase is Phase.PLAY and rng.random() < 0.3:
                out.append(s.clone())
            s.apply(rng.choice(s.legal_actions()))
    return out[:n]


def reference_legal(hand: int, trick: list[int]) -> int:
    """C-6.2 from the deck tables: the led suit if held, else any card."""
    if not trick:
        return hand
    led = ITALIAN_40.suit[trick[0]]
    follow = [c for c in bit_list(hand) if ITALIAN_40.suit[c] == led]
    return sum(1 << c for c in follow) if follow else hand


def reference_winner(trick: list[int]) -> int:
    """C-6.3 from the deck tables: the strongest card of the led suit."""
    led = ITALIAN_40.suit[trick[0]]
    return max(
        (i for i, c in enumerate(trick) if ITALIAN_40.suit[c] == led),
        key=lambda i: ITALIAN_40.strength[trick[i]],
    )


def led_suit(s: State) -> int:
    return ITALIAN_40.suit[s.trick[0]] if s.trick else -1


@pytest.mark.parametrize("flags", FLAGS[:1] + FLAGS[5:7], ids=str)
def test_legal_plays_and_trick_winner_on_random_positions(flags):
    for s in play_positions(Rules.from_flags(flags), 3000, seed=len(str(flags))):
        hand = s.hands[s.pos]
        legal = kernel.legal_plays(hand, led_suit(s))
        assert legal == reference_legal(hand, s.trick) == s.legal_mask()
        assert kernel.legal_play_list(hand, led_suit(s)) == bit_list(legal) == s.legal_actions()
        for c in bit_list(legal):
            trick = [*s.trick, c]
            assert kernel.trick_winner(trick) == reference_winner(trick)


def test_close_trick_on_random_positions():
    rules = Rules()
    for s in play_positions(rules, 3000, seed=11):
        if len(s.trick) != 2:
            continue
        last = len(s.tricks) == 11
        for c in s.legal_actions():
            trick = [*s.trick, c]
            winner, side, gain = kernel.close_trick(trick, s.leader, s.soloist, last, s.set_aside)
            assert winner == (s.leader + reference_winner(trick)) % 3
            assert side == (0 if winner == s.soloist else 1)
            assert gain == sum(1 << x for x in trick) | (s.set_aside if last else 0)
            after = s.clone()
            after.apply(c)
            assert after.piles[side] == s.piles[side] | gain
            assert after.tricks_won[side] == s.tricks_won[side] + 1
            if not last:
                assert after.pos == winner and after.leader == winner


class _Probe(_Search):
    """The solver with its recursion replaced by a recorder: what ``_close`` hands on."""

    seen: tuple[int, ...] = ()

    def _node(self, hands, trick, leader, pos, thirds, tricks, done, alpha, beta):
        self.seen = (leader, pos, thirds, tricks, done, len(trick))
        return 0.0


def test_solver_trick_close_equals_the_kernel_on_random_positions():
    """``_Search._close`` inlines ``kernel.close_trick``: same next leader, same soloist thirds
    and tricks (mid-deal), same leaf (last trick), on every completion of random tricks."""
    identity = tuple(float(i) for i in range(33 * 13 * 2))
    checked = 0
    for s in play_positions(Rules(), 4000, seed=5):
        if len(s.trick) != 2:
            continue
        thirds, won = kernel.pile_thirds(s.piles[0]), s.tricks_won[0]
        for c in s.legal_actions():
            trick = [*s.trick, c]
            winner, side, gain = kernel.close_trick(trick, s.leader, s.soloist, False, 0)
            want_thirds = thirds + (kernel.pile_thirds(gain) if side == 0 else 0)
            want_tricks = won + (side == 0)
            probe = _Probe(s.soloist, identity)
            probe._close(list(s.hands), trick[:], s.leader, thirds, won, 5, -1e9, 1e9)
            assert probe.seen == (winner, winner, want_thirds, want_tricks, 6, 0)
            leaf = probe._close(list(s.hands), trick[:], s.leader, thirds, won, 11, -1e9, 1e9)
            assert leaf == leaf_index(want_thirds, want_tricks, side)
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_solver_leaves_equal_the_engine_settlement(flags):
    """At the last trick, the solver's leaf value is the settlement the engine computes (with
    the aperta payout factor, which the solver includes)."""
    rules = Rules.from_flags(flags)
    factor = rules.aperta_payout_factor if rules.aperta else 1
    checked = 0
    for s in play_positions(rules, 1500, seed=len(str(flags))):
        if len(s.tricks) != 11 or len(s.trick) != 2:
            continue
        table = leaf_table(rules, s.contract, kernel.pile_thirds(s.set_aside))
        search = _Search(s.soloist, table)
        thirds, won = kernel.pile_thirds(s.piles[0]), s.tricks_won[0]
        for c in s.legal_actions():
            end = s.clone()
            end.apply(c)
            assert end.settlement is not None
            value = search._close(list(s.hands), [*s.trick, c], s.leader, thirds, won, 11, 0, 0)
            assert value == end.settlement.pairwise[s.soloist] * factor
            checked += 1
    assert checked > 20


def reference_payments(rules: Rules, contract: int, soloist: int, thirds: int, tricks: int,
                       last: int) -> tuple[tuple[int, ...], tuple[int, ...]]:  # fmt: skip
    """(raw, pairwise) per position, written out again from RULES.md B.7 to B.9 and the flags
    of C.3 (not from the kernel): ``thirds`` and ``tricks`` are the soloist side's, ``last``
    the side (0 soloist, 1 defenders) that won trick 12."""
    t_def = 32 - thirds  # C-7.2: 32 thirds in all
    p_sol = thirds // 3 + (last == 0)  # C-7.1: truncated, plus 1 for the last trick
    p_def = t_def // 3 + (last == 1)
    made = p_sol >= 6  # C-8.1
    m = 1  # C-8.4
    if tricks in (0, 12):  # C-8.2 cappotto, either side
        m = rules.cappotto_mult
    elif rules.stramazzo:  # C-8.3: the other side's truncated card points are 0 (CA-12)
        loser_thirds = min(thirds, t_def)
        if (loser_thirds // 3 == 0) if rules.stramazzo_def == "truncated" else loser_thirds == 0:
            m = rules.stramazzo_mult
    v = rules.contract_values[contract] * m  # C-9.1: V x m
    if rules.payout_mode == "difference":  # C.3: times the point difference [EN-C]
        v *= abs(p_sol - p_def)
    defenders = [p for p in range(3) if p != soloist]
    raw, pair = [0, 0, 0], [0, 0, 0]
    if made:  # C-9.1 the soloist's total rises; C-9.5 he gets 2Vm, each defender -Vm
        raw[soloist], pair[soloist] = v, 2 * v
        for d in defenders:
            pair[d] = -v
    else:  # each defender's total rises; C-9.5 the soloist pays 2Vm
        pair[soloist] = -2 * v
        for d in defenders:
            raw[d], pair[d] = v, v
    return tuple(raw), tuple(pair)


@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_payments_and_the_settlement_follow_the_rules_text(flags):
    """Every (contract, soloist, thirds, tricks, last side): the kernel's payments, the search's
    soloist payment and ``settle()`` all equal the payments written out from RULES.md."""
    rules = Rules.from_flags(flags)
    for contract in range(5):
        for soloist in range(3):
            for thirds in range(33):
                for tricks in range(13):
                    for last in (0, 1):
                        want = reference_payments(rules, contract, soloist, thirds, tricks, last)
                        pair = want[1]
                        got = kernel.payments(rules, contract, soloist, thirds, tricks, last)
                        st = settle(rules, contract, soloist, thirds, tricks, last)
                        assert got == want == (st.raw, st.pairwise), (contract, thirds, tricks)
                        assert pair[soloist] == kernel.soloist_pairwise(
                            rules, contract, thirds, tricks, last
                        )
                        assert st.success == (pair[soloist] > 0)


# Golden deals worked by hand (RULES.md CX-5 and B.7 to B.9), default flags: contract values
# 1 2 4 8 16 (chiamo solo solissimo dividete scegliete), cappotto x2, stramazzo x3 (truncated).
# (contract, soloist position, soloist side's thirds, its tricks, last-trick side,
#  points, success, multiplier, raw per position, pairwise per position)
GOLDEN = [
    # Solo by A1 with 20 thirds and the last trick: 20 // 3 + 1 = 7 to 12 // 3 = 4, made;
    # V = 2, m = 1: A1's total +2 (C-9.1), pairwise +4 / -2 / -2 (C-9.5)
    (1, 1, 20, 7, 0, (7, 4), True, 1, (0, 2, 0), (-2, 4, -2)),
    # Solo by A0 with 15 thirds, defenders take the last trick: 5 to 17 // 3 + 1 = 6, failed
    # (CX-1): each defender +2, the soloist pays 2 x 2 = 4
    (1, 0, 15, 5, 1, (5, 6), False, 1, (0, 2, 2), (-4, 2, 2)),
    # Solissimo by A2, all 12 tricks, all 32 thirds: 10 + 1 = 11 to 0; cappotto (C-8.2), not
    # stramazzo (C-8.4): V x m = 4 x 2 = 8; pairwise +16 / -8
    (2, 2, 32, 12, 0, (11, 0), True, 2, (0, 0, 8), (-8, -8, 16)),
    # Solissimo by A0, 30 thirds, defenders won one trick with 2 thirds (not the last):
    # 10 + 1 = 11 to 0; stramazzo (2 thirds truncate to 0, C-8.3): 4 x 3 = 12; +24 / -12
    (2, 0, 30, 11, 0, (11, 0), True, 3, (12, 0, 0), (24, -12, -12)),
    # Dividete by A1, 2 thirds and 1 trick, defenders take the last: 0 to 10 + 1 = 11, failed,
    # the defenders' stramazzo: 8 x 3 = 24 each; the soloist pays 48
    (3, 1, 2, 1, 1, (0, 11), False, 3, (24, 0, 24), (24, -48, 24)),
    # Chiamo by A2, no trick at all: the defenders' cappotto, 1 x 2 = 2 each; soloist -4
    (0, 2, 0, 0, 1, (0, 11), False, 2, (2, 2, 0), (2, 2, -4)),
    # Scegliete by A0, 17 thirds, last trick to the defenders: 5 to 15 // 3 + 1 = 6, failed,
    # V = 16, m = 1: each defender +16, the soloist pays 32
    (4, 0, 17, 6, 1, (5, 6), False, 1, (0, 16, 16), (-32, 16, 16)),
    # Chiamo by A1, 18 thirds and the last trick: 6 + 1 = 7 to 14 // 3 = 4 (CX-1's s mod 3 = 0
    # row), made: +1 to A1, pairwise +2 / -1 / -1
    (0, 1, 18, 6, 0, (7, 4), True, 1, (0, 1, 0), (-1, 2, -1)),
]  # fmt: skip


@pytest.mark.parametrize("case", GOLDEN, ids=lambda c: f"contract{c[0]}-thirds{c[2]}")
def test_golden_settlements(case):
    contract, soloist, thirds, tricks, last, points, made, mult, raw, pair = case
    st = settle(Rules(), contract, soloist, thirds, tricks, last)
    assert (st.points, st.success, st.multiplier) == (points, made, mult)
    assert (st.raw, st.pairwise) == (raw, pair)
    assert kernel.payments(Rules(), contract, soloist, thirds, tricks, last) == (raw, pair)

"""The rules kernel (``envs.calabresella.kernel``) against the rules written out from the deck
tables, and the search's one inlined form (the solver's trick close) against the kernel, on many
random positions: random deals played to random points under several rule variants."""

import random

import pytest

from agents.calabresella.rollout import _Search, leaf_index, leaf_table
from envs.calabresella import kernel
from envs.calabresella.actions import Phase
from envs.calabresella.deck import ITALIAN_40
from envs.calabresella.rules import Rules
from envs.calabresella.scoring import settle
from envs.calabresella.state import State
from envs.cards.bits import bit_list
from envs.cards.deal import Deal

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


@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_payments_are_the_settlement(flags):
    rules = Rules.from_flags(flags)
    for contract in range(5):
        for soloist in range(3):
            for thirds in range(33):
                for tricks in range(13):
                    for last in (0, 1):
                        raw, pair = kernel.payments(rules, contract, soloist, thirds, tricks, last)
                        st = settle(rules, contract, soloist, thirds, tricks, last)
                        assert (st.raw, st.pairwise) == (raw, pair) and sum(pair) == 0
                        assert pair[soloist] == kernel.soloist_pairwise(
                            rules, contract, thirds, tricks, last
                        )
                        assert st.success == (sum(st.points) == 11 and st.points[0] >= 6)

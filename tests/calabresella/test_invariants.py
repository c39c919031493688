"""Invariants over many random deals (RULES.md B.12), for the default rules and every variant
family, plus fuzzing of illegal actions (rejected, state unchanged) and clone independence."""

import json
import random
import zlib

import pytest

from mazzo.envs.calabresella.actions import NUM_ACTIONS, Phase
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.calabresella.game import TEST_VARIANTS
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.scoring import pile_thirds
from mazzo.envs.calabresella.state import State
from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.errors import IllegalAction

FULL = (1 << 40) - 1


def snapshot(s: State) -> tuple:
    return tuple(
        tuple(v) if isinstance(v, list) else v for v in (getattr(s, k) for k in State.__slots__)
    )


def conserved(s: State) -> bool:
    untouched = (
        s.monte_mask() if s.phase in (Phase.BID, Phase.CALL, Phase.RETURN, Phase.SPLIT) else 0
    )
    if s.phase is Phase.DONE:
        untouched = 0 if s.settlement else s.monte_mask()
    in_trick = sum(1 << c for c in s.trick)
    set_aside = 0 if s.phase is Phase.DONE and s.settlement else s.set_aside
    parts = [*s.hands, in_trick, *s.piles, set_aside, untouched]
    union = 0
    for p in parts:
        if union & p:
            return False
        union |= p
    return union == FULL


def check_play_sizes(s: State) -> None:
    done = len(s.tricks)
    for k in range(3):
        pos = (s.leader + k) % 3
        expect = 12 - done - (1 if k < len(s.trick) else 0)
        assert s.hands[pos].bit_count() == expect


def random_deal(rng: random.Random, rules: Rules) -> State:
    order = list(range(40))
    rng.shuffle(order)
    return State.new(Deal(rng.randrange(rules.players), tuple(order)), rules)


def playout(rng: random.Random, rules: Rules, fuzz: float = 0.0) -> State:
    s = random_deal(rng, rules)
    while not s.is_terminal():
        mask = s.legal_mask()
        assert mask, "empty legal set before the end"
        assert conserved(s)
        if s.phase is Phase.PLAY:
            check_play_sizes(s)
        legal = s.legal_actions()
        assert legal == [a for a in range(NUM_ACTIONS) if mask >> a & 1]
        if fuzz and rng.random() < fuzz and len(legal) < NUM_ACTIONS:
            bad = rng.choice([a for a in range(NUM_ACTIONS) if not mask >> a & 1])
            before = snapshot(s)
            with pytest.raises(IllegalAction):
                s.apply(bad)
            assert snapshot(s) == before
        s.apply(rng.choice(legal))
    check_final(s, rules)
    return s


def check_final(s: State, rules: Rules) -> None:
    assert s.legal_mask() == 0 and s.to_play == -1 and conserved(s)
    r = s.returns()
    if s.is_void():
        assert r == (0,) * rules.players and not s.tricks
        return
    st = s.settlement
    assert st is not None
    assert len(s.tricks) == 12 and all(len(t[1]) == 3 for t in s.tricks)
    assert s.set_aside.bit_count() == 4 and s.piles[st.last_trick_side] & s.set_aside == s.set_aside
    assert s.piles[0] | s.piles[1] == FULL and not s.piles[0] & s.piles[1]
    assert st.thirds[0] == pile_thirds(s.piles[0]) and sum(st.thirds) == 32
    assert sum(st.points) == 11 and st.success == (st.points[0] >= 6)
    assert st.points[0] > st.points[1] if st.success else st.points[0] < st.points[1]
    assert sum(st.tricks) == 12 and st.tricks[0] == s.tricks_won[0]
    assert st.multiplier in {1, rules.cappotto_mult, rules.stramazzo_mult}
    assert (st.bonus == "cappotto") == (0 in st.tricks)
    assert all(x >= 0 for x in s.raw_increments()) and sum(s.raw_increments()) > 0
    if rules.reward_mode == "pairwise":
        assert sum(r) == 0
    if rules.players == 4:
        assert r[s.deal.dealer] == 0
    for pos in range(3):  # every active hand played 12 cards
        assert s.played_by[pos].bit_count() == 12
    check_result(s, rules)


def check_result(s: State, rules: Rules) -> None:
    """``State.result()``, the JSON a front end shows, says who is who and what was scored:
    the soloist's seat, the defenders' (the other two playing seats, in position order from
    the soloist), the called card only in a Chiamo, each side's figures, the returns."""
    st = s.settlement
    assert st is not None
    res = json.loads(json.dumps(s.result()))
    sol = st.soloist
    assert res["soloist"] == s.seat_of[sol]
    assert res["defenders"] == [s.seat_of[(sol + 1) % 3], s.seat_of[(sol + 2) % 3]]
    # every playing seat has a hand in it (a due: the dealer's seat holds two positions)
    assert {res["soloist"], *res["defenders"]} == set(s.seat_of)
    chiamo = res["contract"] == "chiamo"
    assert (res["called"] is not None) == chiamo
    if chiamo:
        assert res["called"] == ITALIAN_40.labels[s.called]
    for key in ("thirds", "points", "tricks"):
        assert res[key] == dict(zip(("soloist", "defenders"), getattr(st, key), strict=True))
    assert res["returns"] == list(s.returns()) and res["void"] is False


def _default_rules_deals(n: int, seed: int) -> None:
    """The invariants over ``n`` random deals of the default rules, in which every contract,
    the void deal and every multiplier occur."""
    rng = random.Random(seed)
    contracts = [0] * 6
    mults = {1: 0, 2: 0, 3: 0}
    for _ in range(n):
        s = playout(rng, Rules())
        contracts[s.contract] += 1
        if s.settlement:
            mults[s.settlement.multiplier] += 1
    assert all(contracts), contracts  # every contract and the void deal occurred
    assert all(mults.values()), mults


def test_4000_random_deals_default_rules():
    _default_rules_deals(4_000, seed=20261130)


@pytest.mark.slow
def test_100000_random_deals_slow():
    _default_rules_deals(100_000, seed=99)


VARIANTS = [dict(v) for v in TEST_VARIANTS if v]  # the registered variants, defaults aside


@pytest.mark.parametrize(
    "flags", VARIANTS, ids=lambda f: ",".join(f"{k}={v}" for k, v in f.items())
)
def test_variant_invariants(flags):
    rules = Rules.from_flags(flags)
    rng = random.Random(zlib.crc32(json.dumps(flags, sort_keys=True).encode()))
    for _ in range(400):
        playout(rng, rules, fuzz=0.05)


def test_until_two_passes_auction_sequences():
    rules = Rules(auction="until_two_passes")
    s = State.new(Deal(2, tuple(range(40))), rules)
    for seat, label in [
        (0, "bid chiamo"),
        (1, "bid solo"),
        (2, "pass"),
        (0, "bid dividete"),
        (1, "pass"),
    ]:
        assert s.to_play == seat
        s.apply(s.parse_action(label))
    assert s.contract_name() == "dividete" and s.seat_of[s.soloist] == 0
    s = State.new(Deal(2, tuple(range(40))), rules)
    for label in ["pass", "pass", "bid solo"]:
        s.apply(s.parse_action(label))
    assert s.contract_name() == "solo" and s.soloist == 2


def test_fuzzed_illegal_actions_never_change_state():
    rng = random.Random(5)
    for _ in range(300):
        playout(rng, Rules(), fuzz=0.5)


def test_clone_is_independent():
    rng = random.Random(9)
    for _ in range(200):
        s = random_deal(rng, Rules())
        for _ in range(rng.randrange(40)):
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
        c = s.clone()
        before = snapshot(s)
        while not c.is_terminal():
            c.apply(rng.choice(c.legal_actions()))
        assert snapshot(s) == before

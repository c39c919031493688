"""Playing strength through the arena (``mazzo eval``'s engine), duplicate deals, 95%
intervals over deals: the heuristic beats random, and PIMC beats the heuristic, both in the
default suite (PIMC at half its default budget, with the compiled search core: about 20 s on
two cores); the full-budget study is marked ``slow``; the 2,000-deal numbers are in
docs/agents.md."""

import pytest

from mazzo.arena.evaluate import EvalConfig, evaluate
from mazzo.envs.registry import get_game


def _pair(agents: tuple[str, str], n: int, seed: int, workers: int | None = None):
    _, summary = evaluate(
        EvalConfig(agents, game=get_game("minchiate"), n=n, seed=seed, workers=workers)
    )
    assert summary.games == 2 * n and summary.zero_sum
    (pair,) = summary.pairs
    return pair


def test_heuristic_beats_random():
    pair = _pair(("heuristic", "random"), 150, 5, workers=1)
    assert pair.diff.low > 4.0  # about +6.1 resti per seat and game over 2,000 deals
    assert pair.verdict == "heuristic better"


def test_pimc_beats_the_heuristic_at_half_its_budget():
    """PIMC with 32 worlds a decision and no clock (``ms=0``: the same decisions on any
    machine, so the result is a function of the seed) against the heuristic on 100 deals:
    +1.030 [+0.661, +1.399] resti per seat and game (seed 11)."""
    pair = _pair(("pimc:samples=32,ms=0", "heuristic"), 100, 11)
    assert pair.diff.low > 0 and pair.verdict.endswith("better") and pair.diff.mean > 0


@pytest.mark.slow
def test_pimc_beats_the_heuristic():
    """About 7 minutes on two cores with the compiled search core at 64 worlds (12 with the
    Python core at 32; 2,000 deals took 81)."""
    pair = _pair(("pimc", "heuristic"), 300, 11)
    assert pair.diff.low > 0 and pair.verdict == "pimc better"

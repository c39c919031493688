"""``paired_margin``, the one measurement behind the trainers' evaluations, the expert-iteration
gate and ``mazzo exploit``: the first entrant's margin over the second, the right way round
whichever the arena lists first, with its deals counted on the right sides."""

from mazzo.arena.plan import Entrant
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game
from mazzo.training.rl.evaluate import paired_margin


def test_the_margin_is_the_first_entrants_over_the_second():
    game = get_game("calabresella")
    deals = generate_deals(game, game.rules(), 12, 3)
    up = paired_margin(deals, Entrant("heuristic", "heuristic"), Entrant("random", "random"))
    assert up.mean > 5 and up.low > 0 and up.opponent == "random"  # random loses ~18 a deal
    assert up.better > up.worse and up.better + up.equal + up.worse == up.deals == 12
    # two agents that draw no randomness: the same games either way round, the signs swapped
    a, b = Entrant("bot", "bot"), Entrant("heuristic", "heuristic")
    one, other = paired_margin(deals, a, b), paired_margin(deals, b, a)
    assert (other.mean, other.low, other.high) == (-one.mean, -one.high, -one.low)
    assert (other.better, other.equal, other.worse) == (one.worse, one.equal, one.better)

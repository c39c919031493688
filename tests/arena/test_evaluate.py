"""``EvalConfig`` and ``evaluate``: the config's checks, deal loading from a file or a seed,
and one in-process evaluation end to end."""

import pytest

from mazzo.arena.evaluate import DEFAULT_DEALS, EvalConfig, evaluate, load_deals
from mazzo.envs.deal_sets import generate_deals, write_deal_set
from mazzo.envs.registry import get_game


def test_from_mapping_rejects_unknown_keys():
    config = EvalConfig.from_mapping({"agents": ["random", "random"], "n": 5, "seed": 2})
    assert config.agents == ("random", "random") and config.n == 5 and config.seed == 2
    with pytest.raises(ValueError, match=r"unknown eval config key\(s\) \['deal'\]"):
        EvalConfig.from_mapping({"agents": ["random", "random"], "deal": "x.jsonl"})


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"agents": ("random",)}, "at least two agents"),
        ({"seating": "swiss"}, "unknown seating 'swiss'"),
        ({"confidence": 1.5}, "confidence"),
        ({"bootstrap": -1}, "bootstrap"),
        ({"workers": 0}, "workers"),
        ({"n": 0}, "deals must be >= 1"),
    ],
)
def test_check(changes, message):
    config = EvalConfig.from_mapping({"agents": ["random", "random"], **changes})
    with pytest.raises(ValueError, match=message):
        config.check()


def test_load_deals_from_a_seed_or_a_file(tmp_path):
    agents = ("random", "random")
    generated = load_deals(EvalConfig(agents, seed=4))
    assert len(generated.deals) == DEFAULT_DEALS and generated.source == "seed=4"
    rules = get_game("calabresella").rules({"players": 2})
    path = tmp_path / "d.jsonl"
    write_deal_set(generate_deals(get_game("calabresella"), rules, 10, 4), path)
    from_file = load_deals(EvalConfig(agents, deals=str(path), n=6))
    assert from_file.rules == rules and len(from_file.deals) == 6
    assert from_file.deals == generate_deals(get_game("calabresella"), rules, 6, 4).deals
    with pytest.raises(ValueError, match="holds 10"):
        load_deals(EvalConfig(agents, deals=str(path), n=11))


def test_evaluate_end_to_end():
    run, summary = evaluate(EvalConfig(("a=random", "b=random", "c=random"), n=6, workers=1))
    assert [a.label for a in summary.agents] == ["a", "b", "c"]
    assert summary.games == 6 * 18 == sum(len(d) for d in run.outcomes)
    assert [(p.a, p.b) for p in summary.pairs] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert summary.zero_sum and sum(a.mean.mean for a in summary.agents) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="unknown rating anchor 'z'"):
        evaluate(EvalConfig(("random", "random"), n=2, workers=1, anchor="z"))

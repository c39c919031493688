"""The arena's statistics on inputs with known answers: Student's t against published tables
and closed forms, a t-interval computed by hand, the bootstrap, and Bradley-Terry ratings
(exact for two players, recovered from simulated games for four)."""

import math

import numpy as np
import pytest

from mazzo.arena.stats import (
    ELO_PER_NATURAL,
    bootstrap_ci,
    fit_bradley_terry,
    mean_ci,
    t_cdf,
    t_quantile,
    t_two_sided_p,
)

# Two-sided 95% and 99% critical values of Student's t (standard published table, e.g. NIST
# Engineering Statistics Handbook 1.3.6.7.2), to the table's 3 decimals.
T_TABLE = {
    1: (12.706, 63.657),
    2: (4.303, 9.925),
    3: (3.182, 5.841),
    4: (2.776, 4.604),
    5: (2.571, 4.032),
    7: (2.365, 3.499),
    10: (2.228, 3.169),
    20: (2.086, 2.845),
    30: (2.042, 2.750),
    60: (2.000, 2.660),
    100: (1.984, 2.626),
}


@pytest.mark.parametrize("df", sorted(T_TABLE))
def test_t_quantile_matches_the_published_table(df):
    t95, t99 = T_TABLE[df]
    assert t_quantile(0.975, df) == pytest.approx(t95, abs=5e-4)
    assert t_quantile(0.995, df) == pytest.approx(t99, abs=5e-4)
    assert t_quantile(0.025, df) == -t_quantile(0.975, df)


def test_t_quantile_closed_forms_and_the_normal_limit():
    # df = 1 (Cauchy): q = tan(pi (p - 1/2)); df = 2: q = (2p - 1) / sqrt(2 p (1 - p)).
    for p in (0.6, 0.9, 0.975, 0.999):
        assert t_quantile(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-10)
        assert t_quantile(p, 2) == pytest.approx(
            (2 * p - 1) / math.sqrt(2 * p * (1 - p)), rel=1e-10
        )
    # Large df: the normal quantile 1.959963985 (plus the first Cornish-Fisher term).
    z = 1.959963984540054
    assert t_quantile(0.975, 1_000_000) == pytest.approx(z + (z**3 + z) / 4e6, abs=1e-8)
    assert t_quantile(0.5, 7) == 0.0


def test_t_cdf_closed_forms():
    for t in (-5.0, -1.3, 0.0, 0.4, 2.0, 30.0):
        assert t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-13)
        assert t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)), abs=1e-13)
    assert t_cdf(math.inf, 3) == 1.0 and t_cdf(-math.inf, 3) == 0.0
    assert t_two_sided_p(2.0, 1) == pytest.approx(1 - 2 * math.atan(2.0) / math.pi, abs=1e-13)


def test_t_rejects_bad_arguments():
    with pytest.raises(ValueError, match="0 < p < 1"):
        t_quantile(1.0, 5)
    with pytest.raises(ValueError, match="degrees of freedom"):
        t_cdf(1.0, 0)


def test_mean_ci_by_hand():
    # x = 2 4 4 4 5 5 7 9: mean 5, squared deviations 9+1+1+1+0+0+4+16 = 32, s^2 = 32/7,
    # s = 2.13809, se = s / sqrt(8) = 0.755929, t(0.975, 7) = 2.364624 (table 2.365),
    # half width = 1.787489.
    iv = mean_ci([2, 4, 4, 4, 5, 5, 7, 9])
    assert iv.mean == 5.0 and iv.n == 8
    assert iv.sd == pytest.approx(math.sqrt(32 / 7))
    assert iv.low == pytest.approx(5 - 1.787489, abs=1e-5)
    assert iv.high == pytest.approx(5 + 1.787489, abs=1e-5)
    assert iv.half_width == pytest.approx(1.787489, abs=1e-5)
    # t = 5 / 0.755929 = 6.6144 on 7 df: p = 0.0003 (two-sided).
    assert iv.p_value == pytest.approx(0.000300, abs=5e-6)


def test_mean_ci_two_values_and_degenerate_samples():
    # [1, 3]: mean 2, s = sqrt 2, se = 1, df 1: half width = t(0.975, 1) = 12.7062.
    iv = mean_ci([1.0, 3.0])
    assert (iv.low, iv.high) == pytest.approx((2 - 12.7062047, 2 + 12.7062047))
    assert iv.p_value == pytest.approx(1 - 2 * math.atan(2.0) / math.pi)
    one = mean_ci([4.0])
    assert one.mean == 4.0 and one.low == -math.inf and one.high == math.inf
    flat = mean_ci([3.0, 3.0, 3.0])
    assert (flat.low, flat.high, flat.p_value) == (3.0, 3.0, 0.0)
    assert mean_ci([0.0, 0.0]).p_value == 1.0
    with pytest.raises(ValueError, match="non-empty"):
        mean_ci([])
    with pytest.raises(ValueError, match="confidence"):
        mean_ci([1.0, 2.0], confidence=1.0)


def test_mean_ci_level():
    # 90%: t(0.95, 7) = 1.894579 (table 1.895).
    iv = mean_ci([2, 4, 4, 4, 5, 5, 7, 9], confidence=0.90)
    assert iv.half_width == pytest.approx(1.894579 * math.sqrt(32 / 7) / math.sqrt(8), abs=1e-5)


def test_bootstrap_agrees_with_t_on_a_large_sample_and_is_seeded():
    x = np.random.default_rng(7).normal(1.0, 2.0, size=4000)
    low, high = bootstrap_ci(x, np.random.default_rng(1), resamples=4000)
    iv = mean_ci(x)
    assert low < iv.mean < high
    assert low == pytest.approx(iv.low, abs=0.02) and high == pytest.approx(iv.high, abs=0.02)
    assert bootstrap_ci(x, np.random.default_rng(1), 4000) == (low, high)
    assert bootstrap_ci([5.0] * 10, np.random.default_rng(0), 50) == (5.0, 5.0)
    with pytest.raises(ValueError, match="resample"):
        bootstrap_ci(x, np.random.default_rng(0), 0)


def test_bradley_terry_two_players_exact():
    # 70 wins to 30: the MLE is p = 0.7, Elo difference 400 log10(7/3) = 147.19; centred
    # ratings are +-73.6. Fisher information n p (1-p) = 21 for the difference: SE of the
    # difference 1/sqrt(21) natural units, half of it for each centred rating.
    fit = fit_bradley_terry(np.array([[0, 70], [30, 0]]), prior_draws=0.0)
    assert fit.elo[0] - fit.elo[1] == pytest.approx(400 * math.log10(70 / 30), abs=1e-6)
    assert fit.elo[0] == pytest.approx(-fit.elo[1])
    assert fit.se[0] == pytest.approx(ELO_PER_NATURAL / math.sqrt(21) / 2, rel=1e-6)
    # One virtual draw: (70.5 / 30.5).
    prior = fit_bradley_terry(np.array([[0, 70], [30, 0]]), prior_draws=1.0)
    assert prior.elo[0] - prior.elo[1] == pytest.approx(400 * math.log10(70.5 / 30.5), abs=1e-6)
    # Anchored on player 1: its rating and SE are 0, the other's SE is the difference's.
    anchored = fit_bradley_terry(np.array([[0, 70], [30, 0]]), prior_draws=0.0, anchor=1)
    assert anchored.elo[1] == 0.0 and anchored.se[1] == pytest.approx(0.0, abs=1e-9)
    assert anchored.elo[0] == pytest.approx(400 * math.log10(70 / 30), abs=1e-6)
    assert anchored.se[0] == pytest.approx(ELO_PER_NATURAL / math.sqrt(21), rel=1e-6)


def test_bradley_terry_recovers_known_strengths():
    true = np.array([-200.0, 0.0, 100.0, 300.0])
    true -= true.mean()
    fit = fit_bradley_terry(_simulated_scores(true, 3000, 2024))
    for est, se, want in zip(fit.elo, fit.se, true, strict=True):
        assert abs(est - want) < 4 * se and se < 10
    assert sum(fit.elo) == pytest.approx(0.0, abs=1e-9)


def test_bradley_terry_draws_and_separation():
    # All draws: equal ratings.
    even = fit_bradley_terry(np.array([[0, 5, 5], [5, 0, 5], [5, 5, 0]]), prior_draws=0.0)
    assert even.elo == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    # One player won everything: the prior keeps its rating finite and on top.
    sep = fit_bradley_terry(np.array([[0, 20], [0, 0]]))
    assert math.isfinite(sep.elo[0]) and sep.elo[0] > 300
    assert sep.elo[0] - sep.elo[1] == pytest.approx(400 * math.log10(20.5 / 0.5), abs=1e-6)
    with pytest.raises(ValueError, match="connected"):
        fit_bradley_terry(np.array([[0, 3, 0, 0], [2, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]]))
    with pytest.raises(ValueError, match="square"):
        fit_bradley_terry(np.array([[0, -1], [1, 0]]))


def _simulated_scores(true, games, seed):
    rng = np.random.default_rng(seed)
    k = len(true)
    scores = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            p = 1 / (1 + 10 ** ((true[j] - true[i]) / 400))
            wins = rng.binomial(games, p)
            scores[i, j], scores[j, i] = wins, games - wins
    return scores


def test_bradley_terry_agrees_with_choix():
    """The fit is checked against a well-kept library's maximum-likelihood Bradley-Terry fit
    (choix.opt_pairwise, scipy's Newton-CG on the same likelihood, parameters centred on 0)."""
    choix = pytest.importorskip("choix")
    scores = _simulated_scores(np.array([-250.0, -50.0, 50.0, 250.0, 0.0]), 400, seed=11)
    k = len(scores)
    games = [(i, j) for i in range(k) for j in range(k) for _ in range(int(scores[i, j]))]
    theirs = choix.opt_pairwise(k, games, alpha=0.0, tol=1e-10) * ELO_PER_NATURAL
    ours = fit_bradley_terry(scores, prior_draws=0.0)
    assert ours.elo == pytest.approx(tuple(theirs - theirs.mean()), abs=1e-3)


def test_bootstrap_is_scipys_percentile_interval_of_the_same_draws():
    """``bootstrap_ci`` is scipy.stats.bootstrap's percentile interval; its resamples are the
    caller's generator's draws, batch by batch, so a plain numpy bootstrap of the same draws
    gives the same interval to the last bit."""
    x = np.random.default_rng(3).exponential(2.0, size=300)
    low, high = bootstrap_ci(x, np.random.default_rng(5), resamples=999, confidence=0.9)
    rng = np.random.default_rng(5)
    means = x[rng.integers(0, x.size, size=(999, x.size))].mean(axis=1)
    assert (low, high) == tuple(np.percentile(means, [5.0, 95.0]))
    assert bootstrap_ci([2.5], np.random.default_rng(0), 10) == (2.5, 2.5)


def test_without_scipy_the_error_names_the_extra(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "scipy", None)
    with pytest.raises(ModuleNotFoundError, match=r"pip install 'mazzo\[eval\]'") as e:
        mean_ci([1.0, 2.0, 4.0])
    assert e.value.name == "scipy"


def test_wilson_interval_against_published_values():
    """Wilson's interval (Newcombe 1998, table I: 81/263 gives 0.2553 to 0.3662 at 95%; 0/10
    gives 0 to 0.2775), inside [0, 1] where a t-interval would not be."""
    from mazzo.arena.stats import wilson_ci

    p, low, high = wilson_ci(81, 263)
    assert p == pytest.approx(81 / 263) and low == pytest.approx(0.2553, abs=1e-4)
    assert high == pytest.approx(0.3662, abs=1e-4)
    assert wilson_ci(0, 10)[1:] == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_ci(10, 10)[1:] == pytest.approx((0.7225, 1.0), abs=1e-4)
    with pytest.raises(ValueError, match="0 <= successes <= n"):
        wilson_ci(3, 2)

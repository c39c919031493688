"""The arena's statistics, as pure functions of numbers: Student's t distribution, confidence
intervals for a mean (t and bootstrap), and Bradley-Terry / Elo ratings fitted by maximum
likelihood. Nothing here knows games, agents or lineups (``summary`` maps results onto these).

Formulas and where they come from:

- t-interval for the mean of ``x_1..x_n``: ``mean +- t_{(1+c)/2, n-1} * s / sqrt(n)``, with ``s``
  the sample standard deviation (``n - 1`` in the denominator) and ``c`` the confidence level.
- Student's t distribution: SciPy's ``scipy.stats.t`` (its CDF, survival function and
  quantiles), checked against the published tables and closed forms (tests/arena/test_stats.py).
- Wilson score interval for a proportion of ``k`` successes in ``n`` trials (Wilson 1927):
  ``(p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)``, ``z`` the normal quantile
  of ``(1+c)/2``; it stays inside [0, 1] and is honest at 0 or ``n`` successes, where a
  t-interval on 0/1 values collapses to a point.
- Bootstrap: the percentile interval of the means of ``B`` resamples (with replacement) of the
  ``n`` values: SciPy's ``scipy.stats.bootstrap`` (``method="percentile"``), drawing from the
  caller's generator in batches of at most 4,000,000 indices.
- Bradley-Terry: ``P(i beats j) = 1 / (1 + exp(theta_j - theta_i))``. With ``W[i, j]`` the score
  of ``i`` against ``j`` (wins plus half the draws) and ``N = W + W^T``, the log-likelihood
  ``sum_{i != j} W[i, j] log P(i beats j)`` is concave; Newton's method with step halving finds
  its maximum under ``sum(theta) = 0``. Elo = ``theta * 400 / ln 10`` (so 400 Elo points mean
  10:1 odds). Standard errors come from the observed information matrix
  ``J[i, i] = sum_j N[i, j] p_ij (1 - p_ij)``, ``J[i, j] = -N[i, j] p_ij (1 - p_ij)``: the
  covariance of the centred ratings is the pseudo-inverse ``J^+``. Written here (about 40 lines of
  numpy) because no well-kept library gives the fit with fractional draws, a prior, an anchor and
  these standard errors; the tests check the ratings against choix's maximum-likelihood fit.

SciPy (the ``eval`` extra) is imported on first use: ``import scipy.stats`` costs about a second,
which only the commands that compute intervals should pay.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "ELO_PER_NATURAL",
    "Interval",
    "RatingFit",
    "bootstrap_ci",
    "fit_bradley_terry",
    "mean_ci",
    "t_cdf",
    "t_quantile",
    "t_two_sided_p",
    "wilson_ci",
]

ELO_PER_NATURAL = 400.0 / math.log(10.0)


# ---------------------------------------------------------------- Student's t distribution
def _scipy_stats() -> Any:
    """``scipy.stats``, imported on first use; without SciPy a ModuleNotFoundError that says
    which extra installs it (``mazzo.cli`` turns it into its one-line message)."""
    try:
        from scipy import stats
    except ModuleNotFoundError as e:
        raise ModuleNotFoundError(
            "the arena's statistics need SciPy: pip install 'mazzo[eval]'", name="scipy"
        ) from e
    return stats


def _t() -> Any:
    """``scipy.stats.t``, imported on first use."""
    return _scipy_stats().t


def _check_df(df: float) -> None:
    if not df > 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")


def t_cdf(t: float, df: float) -> float:
    """``P(T <= t)`` for Student's t with ``df`` degrees of freedom (``df > 0``)."""
    _check_df(df)
    return float(_t().cdf(t, df))


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (``0 < p < 1``);
    symmetric to the last bit: ``t_quantile(p) == -t_quantile(1 - p)``."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"a quantile needs 0 < p < 1, got {p}")
    _check_df(df)
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    return float(_t().ppf(p, df))


def t_two_sided_p(t: float, df: float) -> float:
    """Two-sided p-value of a t statistic: ``P(|T| >= |t|)``."""
    if math.isnan(t):
        return float("nan")
    _check_df(df)
    return float(2.0 * _t().sf(abs(t), df))


# ---------------------------------------------------------------- intervals for a mean
@dataclass(frozen=True)
class Interval:
    """A mean with a confidence interval.

    Attributes:
        mean: the sample mean.
        low: lower end of the interval.
        high: upper end of the interval.
        n: sample size.
        sd: sample standard deviation (0 for ``n = 1``).
        p_value: two-sided p-value of the t-test of mean 0 (NaN if undefined).
    """

    mean: float
    low: float
    high: float
    n: int
    sd: float
    p_value: float

    @property
    def half_width(self) -> float:
        """Half the interval's width."""
        return (self.high - self.low) / 2.0


def _sample(values: Sequence[float] | np.ndarray) -> np.ndarray:
    x = np.asarray(values, dtype=np.float64)
    if x.ndim != 1 or x.size == 0:
        raise ValueError("a confidence interval needs a non-empty 1-D sample")
    return x


def _check_level(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"a confidence level must lie strictly between 0 and 1, got {confidence}")


def mean_ci(values: Sequence[float] | np.ndarray, confidence: float = 0.95) -> Interval:
    """The t-interval of the mean of ``values`` (a single value gives an infinite interval)."""
    _check_level(confidence)
    x = _sample(values)
    n, mean = x.size, float(x.mean())
    if n == 1:
        return Interval(mean, -math.inf, math.inf, 1, 0.0, float("nan"))
    sd = float(x.std(ddof=1))
    se = sd / math.sqrt(n)
    half = t_quantile((1.0 + confidence) / 2.0, n - 1) * se
    if se > 0:
        p = t_two_sided_p(mean / se, n - 1)
    else:
        p = 1.0 if mean == 0 else 0.0
    return Interval(mean, mean - half, mean + half, n, sd, p)


def wilson_ci(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """The proportion ``successes / n`` and its Wilson score interval: ``(p, low, high)``."""
    _check_level(confidence)
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"a proportion needs 0 <= successes <= n and n >= 1, got {successes}/{n}")
    from statistics import NormalDist

    z = NormalDist().inv_cdf((1.0 + confidence) / 2.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_ci(
    values: Sequence[float] | np.ndarray,
    rng: np.random.Generator,
    resamples: int = 2000,
    confidence: float = 0.95,
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean: ``resamples`` resamples of the values
    (``scipy.stats.bootstrap``; a single value is its own interval)."""
    _check_level(confidence)
    if resamples < 1:
        raise ValueError(f"the bootstrap needs at least one resample, got {resamples}")
    x = _sample(values)
    if x.size == 1:
        return float(x[0]), float(x[0])
    result = _scipy_stats().bootstrap(
        (x,), np.mean, n_resamples=resamples, batch=max(1, 4_000_000 // x.size),
        vectorized=True, axis=-1, confidence_level=confidence, method="percentile", rng=rng,
    )  # fmt: skip
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


# ---------------------------------------------------------------- Bradley-Terry / Elo
@dataclass(frozen=True)
class RatingFit:
    """Fitted Bradley-Terry strengths on the Elo scale.

    Attributes:
        elo: one rating per player, centred on 0 (or on the anchor).
        se: standard error of each rating relative to the centre (or to the anchor).
        iterations: Newton steps taken.
    """

    elo: tuple[float, ...]
    se: tuple[float, ...]
    iterations: int


def _log_likelihood(theta: np.ndarray, w: np.ndarray) -> float:
    diff = theta[:, None] - theta[None, :]
    return float(-(w * np.logaddexp(0.0, -diff)).sum())


def fit_bradley_terry(
    scores: np.ndarray, prior_draws: float = 1.0, anchor: int | None = None
) -> RatingFit:
    """Maximum-likelihood Bradley-Terry ratings from a matrix of pairwise scores.

    Args:
        scores: ``k x k``; ``scores[i, j]`` = wins of ``i`` over ``j`` plus half their draws.
        prior_draws: virtual drawn games added to every pair that met (half a win each way);
            keeps ratings finite when one player won every game against another.
        anchor: report ratings relative to this player (its rating 0, its SE 0); by default
            the ratings are centred on their mean.

    Raises:
        ValueError: a malformed matrix, negative scores, or players not all connected by games.
    """
    w = np.array(scores, dtype=np.float64)
    k = w.shape[0]
    if w.ndim != 2 or w.shape != (k, k) or k < 2 or (w < 0).any():
        raise ValueError("scores must be a square matrix of non-negative numbers, k >= 2")
    np.fill_diagonal(w, 0.0)
    met = (w + w.T) > 0
    _check_connected(met)
    w = w + met * (prior_draws / 2.0)
    n = w + w.T
    theta = np.zeros(k)
    ll = _log_likelihood(theta, w)
    iterations = 0
    while iterations < 200:
        iterations += 1
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
        grad = (w - n * p).sum(axis=1)
        info = -(n * p * (1.0 - p))
        np.fill_diagonal(info, 0.0)
        np.fill_diagonal(info, -info.sum(axis=1))
        step = np.linalg.pinv(info) @ grad
        scale = 1.0
        while True:
            cand = theta + scale * step
            cand -= cand.mean()
            cand_ll = _log_likelihood(cand, w)
            if cand_ll >= ll - 1e-12 or scale < 1e-9:
                break
            scale /= 2.0
        theta, done = cand, abs(cand_ll - ll) < 1e-13 * max(1.0, abs(ll))
        ll = cand_ll
        if done and float(np.abs(step).max()) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    info = -(n * p * (1.0 - p))
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    cov = np.linalg.pinv(info)
    if anchor is not None:
        theta = theta - theta[anchor]
        var = np.diag(cov) + cov[anchor, anchor] - 2.0 * cov[:, anchor]
    else:
        var = np.diag(cov)
    se = np.sqrt(np.maximum(var, 0.0))
    return RatingFit(
        tuple(float(v) for v in theta * ELO_PER_NATURAL),
        tuple(float(v) for v in se * ELO_PER_NATURAL),
        iterations,
    )


def _check_connected(met: np.ndarray) -> None:
    k = met.shape[0]
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in np.flatnonzero(met[i]):
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    if len(seen) != k:
        raise ValueError("ratings need every player connected to the others by games played")

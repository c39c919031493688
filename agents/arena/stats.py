"""The arena's statistics, as pure functions of numbers: Student's t distribution, confidence
intervals for a mean (t and bootstrap), and Bradley-Terry / Elo ratings fitted by maximum
likelihood. Nothing here knows games, agents or lineups (``summary`` maps results onto these).

Formulas:

- t-interval for the mean of ``x_1..x_n``: ``mean +- t_{(1+c)/2, n-1} * s / sqrt(n)``, with ``s``
  the sample standard deviation (``n - 1`` in the denominator) and ``c`` the confidence level.
- Student's t CDF from the regularized incomplete beta function:
  ``P(T <= t) = 1 - I_{v/(v+t^2)}(v/2, 1/2) / 2`` for ``t >= 0`` (symmetric for ``t < 0``); ``I``
  by its continued fraction (Numerical Recipes 6.4, modified Lentz). Quantiles by bisection on
  the CDF to machine precision. (scipy is not a dependency.)
- Bootstrap: the percentile interval of the means of ``B`` resamples (with replacement) of the
  ``n`` values.
- Bradley-Terry: ``P(i beats j) = 1 / (1 + exp(theta_j - theta_i))``. With ``W[i, j]`` the score
  of ``i`` against ``j`` (wins plus half the draws) and ``N = W + W^T``, the log-likelihood
  ``sum_{i != j} W[i, j] log P(i beats j)`` is concave; Newton's method with step halving finds
  its maximum under ``sum(theta) = 0``. Elo = ``theta * 400 / ln 10`` (so 400 Elo points mean
  10:1 odds). Standard errors come from the observed information matrix
  ``J[i, i] = sum_j N[i, j] p_ij (1 - p_ij)``, ``J[i, j] = -N[i, j] p_ij (1 - p_ij)``: the
  covariance of the centred ratings is the pseudo-inverse ``J^+``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

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
]

ELO_PER_NATURAL = 400.0 / math.log(10.0)


# ---------------------------------------------------------------- Student's t distribution
def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, eps = 1e-300, 1e-16
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < eps:
            return h
    raise ArithmeticError(f"incomplete beta did not converge (a={a}, b={b}, x={x})")


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta ``I_x(a, b)`` for ``0 <= x <= 1``."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """``P(T <= t)`` for Student's t with ``df`` degrees of freedom (``df > 0``)."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (``0 < p < 1``)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"a quantile needs 0 < p < 1, got {p}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, 2.0 * hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def t_two_sided_p(t: float, df: float) -> float:
    """Two-sided p-value of a t statistic: ``P(|T| >= |t|)``."""
    if math.isnan(t):
        return float("nan")
    return 2.0 * t_cdf(-abs(t), df)


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


def bootstrap_ci(
    values: Sequence[float] | np.ndarray,
    rng: np.random.Generator,
    resamples: int = 2000,
    confidence: float = 0.95,
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean: ``resamples`` resamples of the values."""
    _check_level(confidence)
    if resamples < 1:
        raise ValueError(f"the bootstrap needs at least one resample, got {resamples}")
    x = _sample(values)
    means = np.empty(resamples)
    step = max(1, 4_000_000 // x.size)  # bound memory: rows of indices per batch
    for start in range(0, resamples, step):
        rows = min(step, resamples - start)
        means[start : start + rows] = x[rng.integers(0, x.size, size=(rows, x.size))].mean(1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return float(low), float(high)


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

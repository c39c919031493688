"""From played games to the arena's numbers: per-agent payoffs and win rates with confidence
intervals, paired differences between agents, ratings, contract statistics and void deals.

Definitions (deal ``i``, lineup ``r``, seat ``s``, payoff ``P[i, r, s]`` = the engine's
``returns()``; an agent's *seat-games* on a deal are the (lineup, seat) pairs it occupies):

- *deal score* ``m_a(i)``: the mean of ``P[i, r, s]`` over agent ``a``'s seat-games on deal
  ``i``, i.e. its payoff per seat and game, averaged over the rotations of the deal. The
  reported *mean payoff* is the mean of ``m_a(i)`` over deals, with a t-interval over deals:
  the duplicate games of one deal share the cards and are not independent, the deals are.
- *win rate*: the share of the agent's seat-games whose payoff is positive (a void deal, a
  tie and an idle seat are not wins); its interval is the t-interval of the per-deal shares.
- *paired difference* A - B on deal ``i``: over the lineups where both sit, A's mean seat
  payoff minus B's. Its mean and t-interval over deals answer "is A better than B"; with two
  agents in a zero-sum game it is twice A's mean payoff.
- *rating*: each (deal, pair of agents) is one duplicate match, won by the agent with the
  higher paired difference (a draw when equal). Bradley-Terry is fitted to these matches by
  maximum likelihood (``stats.fit_bradley_terry``) and shown as Elo. Matches, not single games,
  because a deal's games share their cards; maximum likelihood, not incremental Elo or
  TrueSkill, because the result must not depend on the order of the games.
- *contracts* (games whose results name one): per agent and contract, how often the agent
  was the soloist of that contract (per seat-game) and how often it made it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mazzo.arena.latency import Histogram, merge, quantile
from mazzo.arena.runner import ArenaRun
from mazzo.arena.stats import Interval, bootstrap_ci, fit_bradley_terry, mean_ci
from mazzo.arena.streams import bootstrap_rng

__all__ = [
    "AgentStats",
    "ContractStats",
    "PairStats",
    "Summary",
    "Timing",
    "deal_diffs",
    "summarize",
    "tally",
]

RATING_PRIOR_DRAWS = 1.0  # virtual drawn matches per pair (keeps ratings finite)
_TIE = 1e-9  # paired differences smaller than this are draws


@dataclass(frozen=True)
class AgentStats:
    """One agent's numbers (see the module docstring for the definitions)."""

    label: str
    spec: str
    mean: Interval
    win_rate: Interval
    elo: float
    elo_se: float
    seat_games: int
    wins: int
    seat_means: tuple[float, ...]
    bootstrap: tuple[float, float] | None = None


@dataclass(frozen=True)
class PairStats:
    """The paired difference ``a - b`` over the deals (``a`` listed first)."""

    a: str
    b: str
    diff: Interval
    a_better: int
    equal: int
    b_better: int
    bootstrap: tuple[float, float] | None = None

    @property
    def verdict(self) -> str:
        """Which agent is better at the interval's confidence, if the interval excludes 0."""
        if self.diff.low > 0:
            return f"{self.a} better"
        if self.diff.high < 0:
            return f"{self.b} better"
        return "no significant difference"


@dataclass(frozen=True)
class ContractStats:
    """How often ``agent`` was the soloist of ``contract`` and how often it made it."""

    agent: str
    contract: str
    bid: int
    made: int
    seat_games: int

    @property
    def bid_rate(self) -> float:
        """Share of the agent's seat-games in which it played this contract as soloist."""
        return self.bid / self.seat_games if self.seat_games else math.nan

    @property
    def made_rate(self) -> float:
        """Share of those contracts made (NaN if never bid)."""
        return self.made / self.bid if self.bid else math.nan


@dataclass(frozen=True)
class Timing:
    """Measured speed (not reproducible; kept out of the deterministic report).

    Attributes:
        seconds: wall time of the play.
        workers: processes (or Ray workers) that played.
        decisions: decisions taken per agent.
        act_seconds: time spent deciding per agent.
        median: per agent, the median time of one decision in seconds (NaN: none timed).
        p95: per agent, its 95th percentile.
    """

    seconds: float
    workers: int
    decisions: tuple[int, ...]
    act_seconds: tuple[float, ...]
    median: tuple[float, ...] = ()
    p95: tuple[float, ...] = ()


@dataclass(frozen=True)
class Summary:
    """Everything the report shows."""

    game: str
    flags: dict[str, Any]
    deal_source: str
    deal_digest: str
    n_deals: int
    seed: int
    scheme: str
    lineups: tuple[tuple[str, ...], ...]
    confidence: float
    games: int
    void_games: int
    void_deals: int
    zero_sum: bool
    agents: tuple[AgentStats, ...]
    pairs: tuple[PairStats, ...]
    contracts: tuple[ContractStats, ...]
    rating_anchor: str | None
    bootstrap_resamples: int
    timing: Timing = field(compare=False)


def summarize(
    run: ArenaRun,
    confidence: float = 0.95,
    bootstrap: int = 0,
    anchor: str | None = None,
) -> Summary:
    """Compute the arena's statistics from a played run.

    Args:
        run: the games.
        confidence: level of every interval.
        bootstrap: if positive, also percentile bootstrap intervals with this many resamples.
        anchor: label of the agent rated 0 Elo (default: ratings centred on their mean).

    Raises:
        ValueError: an unknown anchor label or a bad confidence level.
    """
    plan = run.plan
    labels = plan.labels
    if anchor is not None and anchor not in labels:
        raise ValueError(f"unknown rating anchor {anchor!r}; agents: {', '.join(labels)}")
    pay = np.array(
        [[o.payoffs for o in deal] for deal in run.outcomes], dtype=np.float64
    )  # (deals, lineups, seats)
    void = np.array([[o.void for o in deal] for deal in run.outcomes], dtype=bool)
    lineups = np.array(plan.lineups)
    k = len(labels)
    rng = bootstrap_rng(plan.seed) if bootstrap > 0 else None

    def boot(values: np.ndarray) -> tuple[float, float] | None:
        if rng is None:
            return None
        return bootstrap_ci(values, rng, bootstrap, confidence)

    pairs, scores = _pairs(pay, lineups, labels, confidence, boot)
    fit = fit_bradley_terry(
        scores, RATING_PRIOR_DRAWS, labels.index(anchor) if anchor is not None else None
    )
    agents = []
    for a in range(k):
        mask = lineups == a
        per_seat = mask.sum()
        deal_means = (pay * mask).sum(axis=(1, 2)) / per_seat
        deal_wins = ((pay > 0) & mask).sum(axis=(1, 2))
        seat_means = (pay * mask).sum(axis=(0, 1)) / np.maximum(mask.sum(axis=0), 1) / len(pay)
        entrant = plan.entrants[a]
        agents.append(
            AgentStats(
                label=labels[a],
                spec=_spec_text(entrant.source),
                mean=mean_ci(deal_means, confidence),
                win_rate=mean_ci(deal_wins / per_seat, confidence),
                elo=fit.elo[a],
                elo_se=fit.se[a],
                seat_games=int(per_seat) * len(pay),
                wins=int(deal_wins.sum()),
                seat_means=tuple(float(v) for v in seat_means),
                bootstrap=boot(deal_means),
            )
        )
    return Summary(
        game=plan.deal_set.game.name,
        flags=plan.deal_set.rules.to_flags(),
        deal_source=plan.deal_set.source,
        deal_digest=plan.deal_set.digest(),
        n_deals=len(pay),
        seed=plan.seed,
        scheme=plan.scheme,
        lineups=tuple(tuple(labels[a] for a in lineup) for lineup in plan.lineups),
        confidence=confidence,
        games=int(void.size),
        void_games=int(void.sum()),
        void_deals=int(void.any(axis=1).sum()),
        zero_sum=bool((np.abs(pay.sum(axis=2)) <= _TIE).all()),
        agents=tuple(agents),
        pairs=tuple(pairs),
        contracts=_contracts(run),
        rating_anchor=anchor,
        bootstrap_resamples=bootstrap,
        timing=_timing(run),
    )


def deal_diffs(run: ArenaRun, a: int, b: int) -> np.ndarray:
    """The paired difference ``a - b`` (entrants by index) on each deal of ``run``: the
    values whose mean and interval are the summary's ``PairStats.diff``."""
    pay = np.array([[o.payoffs for o in deal] for deal in run.outcomes], dtype=np.float64)
    return _pair_diffs(pay, np.array(run.plan.lineups), a, b)


def tally(diffs: np.ndarray) -> tuple[int, int, int]:
    """Deals on which the first of a pair did better, the same (within ``_TIE``), worse."""
    better, worse = int((diffs > _TIE).sum()), int((diffs < -_TIE).sum())
    return better, len(diffs) - better - worse, worse


def _pair_diffs(pay: np.ndarray, lineups: np.ndarray, a: int, b: int) -> np.ndarray:
    """Per deal, over the lineups where both sit: ``a``'s mean seat payoff minus ``b``'s."""
    both = (lineups == a).any(axis=1) & (lineups == b).any(axis=1)
    ma, mb = lineups[both] == a, lineups[both] == b
    sub = pay[:, both, :]
    out: np.ndarray = (sub * ma).sum(axis=(1, 2)) / ma.sum() - (sub * mb).sum(
        axis=(1, 2)
    ) / mb.sum()
    return out


def _spec_text(source: object) -> str:
    """An entrant's spec for reports: the spec string, or the factory's qualified name (never
    a repr with a memory address, which would change from run to run)."""
    if isinstance(source, str):
        return source
    module = getattr(source, "__module__", None) or "?"
    name = getattr(source, "__qualname__", None) or type(source).__qualname__
    return f"{module}.{name}"


def _pairs(
    pay: np.ndarray,
    lineups: np.ndarray,
    labels: tuple[str, ...],
    confidence: float,
    boot: Any,
) -> tuple[list[PairStats], np.ndarray]:
    """Paired differences for every pair, and the duplicate-match score matrix for ratings."""
    k = len(labels)
    scores = np.zeros((k, k))
    out = []
    for a in range(k):
        for b in range(a + 1, k):
            diff = _pair_diffs(pay, lineups, a, b)
            a_better, equal, b_better = tally(diff)
            scores[a, b] += a_better + equal / 2.0
            scores[b, a] += b_better + equal / 2.0
            out.append(
                PairStats(
                    a=labels[a],
                    b=labels[b],
                    diff=mean_ci(diff, confidence),
                    a_better=a_better,
                    equal=equal,
                    b_better=b_better,
                    bootstrap=boot(diff),
                )
            )
    return out, scores


def _contracts(run: ArenaRun) -> tuple[ContractStats, ...]:
    plan = run.plan
    names: list[str] = []
    bid: dict[tuple[int, str], int] = {}
    made: dict[tuple[int, str], int] = {}
    for deal in run.outcomes:
        for r, o in enumerate(deal):
            if o.contract is None or o.soloist is None:
                continue
            if o.contract not in names:
                names.append(o.contract)
            key = (plan.lineups[r][o.soloist], o.contract)
            bid[key] = bid.get(key, 0) + 1
            made[key] = made.get(key, 0) + bool(o.success)
    canonical = tuple(getattr(plan.deal_set.game.info.rules_type(), "allowed_contracts", ()))
    names.sort(key=lambda c: (canonical.index(c) if c in canonical else len(canonical), c))
    n_deals = len(run.outcomes)
    out: list[ContractStats] = []
    for a, label in enumerate(plan.labels):
        seat_games = sum(lineup.count(a) for lineup in plan.lineups) * n_deals
        out.extend(
            ContractStats(label, c, bid.get((a, c), 0), made.get((a, c), 0), seat_games)
            for c in names
        )
    return tuple(out)


def _timing(run: ArenaRun) -> Timing:
    k = len(run.plan.entrants)
    decisions, seconds = [0] * k, [0.0] * k
    histograms: list[Histogram] = [{} for _ in range(k)]
    for deal in run.outcomes:
        for r, o in enumerate(deal):
            for s, a in enumerate(run.plan.lineups[r]):
                decisions[a] += o.decisions[s]
                seconds[a] += o.seconds[s]
                if o.latency:
                    merge(histograms[a], o.latency[s])
    return Timing(
        run.seconds, run.workers, tuple(decisions), tuple(seconds),
        tuple(quantile(h, 0.5) for h in histograms),
        tuple(quantile(h, 0.95) for h in histograms),
    )  # fmt: skip

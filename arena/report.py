"""The arena's outputs: the table printed to stdout, and JSON and CSV files.

Files written to the output folder:

- ``summary.json``: everything in the table and more (format ``mazzo-arena/1``); byte-identical
  for the same deals, agents and seed, whatever the number of workers;
- ``agents.csv``: one row per agent; ``pairs.csv``: one row per pair of agents;
  ``contracts.csv``: one row per agent and contract (games with contracts only);
  ``games.csv``: one row per game (deal, lineup, agent and payoff per seat, contract);
- ``timing.json``: measured speed (wall time, workers, time per decision: mean, median and
  95th percentile): the one output that is not reproducible, hence kept apart.

An interrupted run's outputs cover the deals it finished (the first ``k``: the same as a run of
``--n k``) and ``summary.json`` and ``timing.json`` then say so: ``"partial": {"deals_done": k,
"deals_planned": n}`` (the key is absent from a complete run's files).

Non-finite numbers (an interval from one deal, a rate of nothing) are written as JSON ``null``
and as empty CSV cells.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from mazzo.arena.runner import ArenaRun
from mazzo.arena.stats import Interval
from mazzo.arena.summary import AgentStats, ContractStats, PairStats, Summary, Timing
from mazzo.arena.units import format_rate

__all__ = [
    "FORMAT",
    "format_table",
    "partial_json",
    "summary_json",
    "timing_json",
    "write_outputs",
]

FORMAT = "mazzo-arena/1"
T = TypeVar("T")


def _num(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _interval(iv: Interval) -> dict[str, Any]:
    return {
        "mean": _num(iv.mean),
        "low": _num(iv.low),
        "high": _num(iv.high),
        "sd": _num(iv.sd),
        "n": iv.n,
        "p_value": _num(iv.p_value),
    }


def _pair(bounds: tuple[float, float] | None) -> list[float | None] | None:
    return None if bounds is None else [_num(bounds[0]), _num(bounds[1])]


def summary_json(s: Summary) -> dict[str, Any]:
    """The reproducible summary as a JSON-ready dict (no timings)."""
    return {
        "format": FORMAT,
        "game": s.game,
        "flags": s.flags,
        "deals": {"source": s.deal_source, "n": s.n_deals, "sha256": s.deal_digest},
        "seed": s.seed,
        "seating": {"scheme": s.scheme, "lineups": [list(x) for x in s.lineups]},
        "confidence": s.confidence,
        "bootstrap_resamples": s.bootstrap_resamples,
        "games": s.games,
        "void_games": s.void_games,
        "void_deals": s.void_deals,
        "zero_sum": s.zero_sum,
        "agents": [
            {
                "label": a.label,
                "spec": a.spec,
                "mean_payoff": _interval(a.mean),
                "mean_payoff_bootstrap": _pair(a.bootstrap),
                "win_rate": _interval(a.win_rate),
                "wins": a.wins,
                "seat_games": a.seat_games,
                "seat_means": [_num(v) for v in a.seat_means],
                "elo": _num(a.elo),
                "elo_se": _num(a.elo_se),
            }
            for a in s.agents
        ],
        "rating": {
            "method": "Bradley-Terry maximum likelihood over duplicate matches (deal x pair)",
            "scale": "Elo (400 points = 10:1 odds)",
            "anchor": s.rating_anchor,
        },
        "pairs": [
            {
                "a": p.a,
                "b": p.b,
                "diff": _interval(p.diff),
                "diff_bootstrap": _pair(p.bootstrap),
                "deals_a_better": p.a_better,
                "deals_equal": p.equal,
                "deals_b_better": p.b_better,
                "verdict": p.verdict,
            }
            for p in s.pairs
        ],
        "contracts": [
            {
                "agent": c.agent,
                "contract": c.contract,
                "bid": c.bid,
                "made": c.made,
                "seat_games": c.seat_games,
                "bid_rate": _num(c.bid_rate),
                "made_rate": _num(c.made_rate),
            }
            for c in s.contracts
        ],
    }


def _micro(values: tuple[float, ...], i: int) -> float | None:
    """``values[i]`` in microseconds, None where not measured."""
    if i >= len(values) or not math.isfinite(values[i]):
        return None
    return 1e6 * values[i]


def timing_json(s: Summary) -> dict[str, Any]:
    """The measured speed (not reproducible)."""
    t = s.timing
    return {
        "seconds": t.seconds,
        "workers": t.workers,
        "games_per_second": s.games / t.seconds if t.seconds > 0 else None,
        "agents": [
            {
                "label": a.label,
                "decisions": d,
                "act_seconds": sec,
                "us_per_decision": 1e6 * sec / d if d else None,
                "us_median": _micro(t.median, i),
                "us_p95": _micro(t.p95, i),
            }
            for i, (a, d, sec) in enumerate(zip(s.agents, t.decisions, t.act_seconds, strict=True))
        ],
    }


# ---------------------------------------------------------------- the table
def _signed(x: float, digits: int = 3) -> str:
    return f"{x:+.{digits}f}" if math.isfinite(x) else "n/a"


def _ci(iv: Interval, digits: int = 3, pct: bool = False) -> str:
    if pct:
        if not (math.isfinite(iv.low) and math.isfinite(iv.high)):
            return "[n/a]"
        return f"[{100 * iv.low:.1f}, {100 * iv.high:.1f}]"
    return f"[{_signed(iv.low, digits)}, {_signed(iv.high, digits)}]"


def _p(p: float) -> str:
    if not math.isfinite(p):
        return "n/a"
    return "<1e-6" if p < 1e-6 else f"{p:.2g}"


def _grid(header: Sequence[str], rows: Iterable[Sequence[str]], right: set[int]) -> list[str]:
    rows = [list(header), *[list(r) for r in rows]]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    out = []
    for row in rows:
        cells = (
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        out.append("  ".join(cells).rstrip())
    return out


def format_table(s: Summary) -> str:
    """The human-readable report."""
    level = f"{100 * s.confidence:g}%"
    flags = ", ".join(f"{k}={v}" for k, v in s.flags.items()) or "default rules"
    lines = [
        f"{s.game} ({flags}): {s.n_deals} deals from {s.deal_source} "
        f"(sha256 {s.deal_digest[:12]}), agent seed {s.seed}",
        f"seating {s.scheme!r}: {len(s.lineups)} lineups per deal, {s.games} games; "
        f"void games {s.void_games} ({100 * s.void_games / max(1, s.games):.1f}%) "
        f"on {s.void_deals} deals; payoffs {'zero-sum' if s.zero_sum else 'NOT zero-sum'}",
        f"payoff = the engine's returns() per seat and game; {level} t-intervals over deals",
        "",
    ]
    boot = s.bootstrap_resamples > 0
    head = ["agent", "mean payoff", f"{level} CI", "win rate", f"{level} CI", "Elo", "+-SE"]
    head += ["seat-games"] + ([f"bootstrap {level}"] if boot else [])
    rows = []
    for a in s.agents:
        row = [
            a.label,
            _signed(a.mean.mean),
            _ci(a.mean),
            f"{100 * a.win_rate.mean:.1f}%",
            _ci(a.win_rate, pct=True),
            f"{round(a.elo):+d}",
            f"{a.elo_se:.0f}",
            str(a.seat_games),
        ]
        if boot and a.bootstrap is not None:
            row.append(f"[{_signed(a.bootstrap[0])}, {_signed(a.bootstrap[1])}]")
        rows.append(row)
    lines += _grid(head, rows, right={1, 3, 5, 6, 7})
    anchor = f"{s.rating_anchor} = 0" if s.rating_anchor else "mean 0"
    lines.append(f"(Elo: Bradley-Terry fit over duplicate matches, {anchor})")
    lines += ["", f"paired differences A - B (per seat and game, over {s.n_deals} deals)"]
    head = ["A", "B", "A - B", f"{level} CI", "p", "deals A>B/=/B>A", "verdict"]
    rows = [
        [
            p.a,
            p.b,
            _signed(p.diff.mean),
            _ci(p.diff),
            _p(p.diff.p_value),
            f"{p.a_better}/{p.equal}/{p.b_better}",
            p.verdict,
        ]
        for p in s.pairs
    ]
    lines += _grid(head, rows, right={2, 4})
    if s.contracts:
        lines += ["", "contracts as soloist (share of the agent's seat-games; share made)"]
        names = list(dict.fromkeys(c.contract for c in s.contracts))
        by_agent: dict[str, dict[str, str]] = {}
        for c in s.contracts:
            made = f"{100 * c.made_rate:.0f}%" if c.bid else "-"
            by_agent.setdefault(c.agent, {})[c.contract] = f"{100 * c.bid_rate:.1f}% ({made})"
        rows = [[a.label, *(by_agent[a.label][n] for n in names)] for a in s.agents]
        lines += _grid(["agent", *names], rows, right=set(range(1, len(names) + 1)))
    t = s.timing
    speed = format_rate(s.games / t.seconds, "games") if t.seconds > 0 else ""
    per = ", ".join(
        f"{a.label} {_duration(sec / d)}{_spread(t, i)}" if d else f"{a.label} -"
        for i, (a, d, sec) in enumerate(zip(s.agents, t.decisions, t.act_seconds, strict=True))
    )
    lines += [
        "",
        f"played in {t.seconds:.1f}s with {t.workers} worker(s), {speed}; time per decision: {per}",
    ]
    return "\n".join(lines) + "\n"


def _duration(seconds: float) -> str:
    """A time per decision in the unit that reads best (us below a millisecond, else ms)."""
    return f"{1e6 * seconds:.0f} us" if seconds < 1e-3 else f"{1e3 * seconds:.1f} ms"


def _spread(t: Timing, i: int) -> str:
    """`` (median M, p95 P)`` of agent ``i``, where measured."""
    if i >= len(t.median) or not math.isfinite(t.median[i]):
        return ""
    return f" (median {_duration(t.median[i])}, p95 {_duration(t.p95[i])})"


# ---------------------------------------------------------------- files
def _cell(x: object) -> object:
    if isinstance(x, float) and not math.isfinite(x):
        return ""
    return x


def _write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    with path.open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows([_cell(x) for x in row] for row in rows)


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, allow_nan=False) + "\n"


_AGENT_COLUMNS: tuple[tuple[str, Callable[[AgentStats], object]], ...] = (
    ("agent", lambda a: a.label),
    ("spec", lambda a: a.spec),
    ("mean_payoff", lambda a: a.mean.mean),
    ("ci_low", lambda a: a.mean.low),
    ("ci_high", lambda a: a.mean.high),
    ("win_rate", lambda a: a.win_rate.mean),
    ("win_low", lambda a: a.win_rate.low),
    ("win_high", lambda a: a.win_rate.high),
    ("elo", lambda a: a.elo),
    ("elo_se", lambda a: a.elo_se),
    ("seat_games", lambda a: a.seat_games),
    ("wins", lambda a: a.wins),
    ("deals", lambda a: a.mean.n),
)
_PAIR_COLUMNS: tuple[tuple[str, Callable[[PairStats], object]], ...] = (
    ("a", lambda p: p.a),
    ("b", lambda p: p.b),
    ("diff", lambda p: p.diff.mean),
    ("ci_low", lambda p: p.diff.low),
    ("ci_high", lambda p: p.diff.high),
    ("p_value", lambda p: p.diff.p_value),
    ("deals_a_better", lambda p: p.a_better),
    ("deals_equal", lambda p: p.equal),
    ("deals_b_better", lambda p: p.b_better),
    ("verdict", lambda p: p.verdict),
)
_CONTRACT_COLUMNS: tuple[tuple[str, Callable[[ContractStats], object]], ...] = (
    ("agent", lambda c: c.agent),
    ("contract", lambda c: c.contract),
    ("bid", lambda c: c.bid),
    ("made", lambda c: c.made),
    ("seat_games", lambda c: c.seat_games),
    ("bid_rate", lambda c: c.bid_rate),
    ("made_rate", lambda c: c.made_rate),
)


def _table_csv(
    path: Path, columns: Sequence[tuple[str, Callable[[T], object]]], items: Iterable[T]
) -> None:
    _write_csv(path, [name for name, _ in columns], ([get(x) for _, get in columns] for x in items))


def write_outputs(s: Summary, run: ArenaRun, out: str | Path) -> list[Path]:
    """Write the JSON and CSV files into folder ``out`` (created); returns their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    names = ("summary.json", "timing.json", "agents.csv", "pairs.csv", "contracts.csv", "games.csv")
    paths = {name: out / name for name in names}
    summary, timing = summary_json(s), timing_json(s)
    if run.planned is not None:
        summary["partial"] = timing["partial"] = partial_json(run)
    paths["summary.json"].write_text(_dump(summary))
    paths["timing.json"].write_text(_dump(timing))
    _table_csv(paths["agents.csv"], _AGENT_COLUMNS, s.agents)
    _table_csv(paths["pairs.csv"], _PAIR_COLUMNS, s.pairs)
    _table_csv(paths["contracts.csv"], _CONTRACT_COLUMNS, s.contracts)
    _write_games(paths["games.csv"], run)
    return list(paths.values())


def partial_json(run: ArenaRun) -> dict[str, Any]:
    """What an interrupted run's files say about it."""
    return {
        "deals_done": len(run.outcomes),
        "deals_planned": run.planned,
        "note": f"interrupted: the first {len(run.outcomes)} deals (the same as --n "
        f"{len(run.outcomes)})",
    }


def _write_games(path: Path, run: ArenaRun) -> None:
    labels = run.plan.labels
    n = len(run.plan.lineups[0])
    header = ["deal", "lineup", *(f"agent_s{s}" for s in range(n))]
    header += [*(f"payoff_s{s}" for s in range(n)), "void", "contract", "soloist", "success"]
    rows = []
    for i, deal in enumerate(run.outcomes):
        for r, o in enumerate(deal):
            lineup = run.plan.lineups[r]
            rows.append(
                [
                    i,
                    r,
                    *(labels[a] for a in lineup),
                    *o.payoffs,
                    int(o.void),
                    o.contract or "",
                    "" if o.soloist is None else o.soloist,
                    "" if o.success is None else int(o.success),
                ]
            )
    _write_csv(path, header, rows)

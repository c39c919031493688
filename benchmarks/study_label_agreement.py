"""How far a network can agree with its search labels (issue 41): a search's decision is drawn
from its sampled worlds, so asked again on the same position it may choose another card. Over a
labels file (``mazzo-search-labels/1``: ``mazzo labels`` or an expert-iteration round's
``labels.jsonl``), a random share of the searched decisions is replayed, and at each the
searcher (by default the file's own, from its header) is asked again with a generator of its
own, and optionally another agent too (the network the search had inside, the next round's
network): the share of decisions where each agrees with the label, and with each other, by
phase, with 95% (Wilson) intervals. The search asked again is the yardstick of a learner's
*held-out agreement* (``distill``'s figure): a network that drew its card from the search's own
distribution would agree with single labels that often, one that always took the search's most
likely card somewhat more, and none can reach 100%.

Run: ``python benchmarks/study_label_agreement.py runs/X/round-05/labels.jsonl --agent
nn:runs/X/round-04 --decisions 1000``. The labels' relative paths (a ``net=nn:runs/...`` inside
the searcher's spec) are read from the working directory. ``--phases discard_cutter+
discard_dealer`` compares the decisions of those phases only (a rare phase, one decision in
twenty-five, gets a sample of its own).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from mazzo.agents.registry import make_agent
from mazzo.arena.stats import wilson_ci
from mazzo.envs.cards.record import apply_actions
from mazzo.envs.registry import get_game
from mazzo.training.search_labels import label_games

PAIRS = ("search again = label", "agent = label", "agent = search again")


@dataclass
class Agreement:
    """0/1 outcomes of each comparison (``PAIRS``), by phase."""

    by_phase: dict[str, dict[str, list[int]]] = field(default_factory=dict)

    def add(self, phase: str, label: int, again: int, other: int | None) -> None:
        row = self.by_phase.setdefault(phase, {p: [] for p in PAIRS})
        row[PAIRS[0]].append(int(again == label))
        if other is not None:
            row[PAIRS[1]].append(int(other == label))
            row[PAIRS[2]].append(int(other == again))

    def total(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {p: [] for p in PAIRS}
        for row in self.by_phase.values():
            for p in PAIRS:
                out[p] += row[p]
        return out


def study(
    path: Path, searcher: str | None, agent: str | None, decisions: int, rate: float, seed: int,
    phases: frozenset[str] = frozenset(),
) -> tuple[str, Agreement]:  # fmt: skip
    """Replay ``path`` and compare at up to ``decisions`` searched decisions (each taken with
    probability ``rate``; of ``phases`` only, where given); returns the searcher's spec and the
    outcomes. Raises ValueError naming a phase the labels' game does not have."""
    rng = np.random.default_rng(seed)
    result = Agreement()
    n = 0
    search = other = None
    spec = searcher or ""
    for header, lines in label_games(path):
        if search is None:
            game = get_game(header["game"])
            rules = game.rules(header.get("flags") or {})
            spec = searcher or header["searcher"]
            search = make_agent(spec, game, rules)
            other = make_agent(agent, game, rules) if agent else None
            known = set(game.phase_names(rules).values()) - {"done"}
            if phases - known:
                raise ValueError(
                    f"--phases: {'+'.join(sorted(phases - known))} is no phase of "
                    f"{game.name}; its phases: {', '.join(sorted(known))}"
                )
        wanted = {ln["step"]: ln for ln in lines if len(ln["values"]) > 1}
        if not wanted:
            continue
        parsed = game.read_record(lines[-1]["record"], rules)
        state = game.new_state(parsed.deal, parsed.rules, **parsed.options)
        for step, triple in enumerate([*parsed.actions, None]):
            line = wanted.get(step)
            if line is not None and phases and state.phase.name.lower() not in phases:
                line = None
            if line is not None and rng.random() < rate:
                view = state.info_view(line["seat"])
                again = search.act(view, rng)
                theirs = other.act(view, rng) if other is not None else None
                result.add(view.phase.name.lower(), int(line["action"]), again, theirs)
                n += 1
                if n >= decisions:
                    return spec, result
            if triple is None or step >= max(wanted):
                break
            apply_actions(game.vocabulary, state, [triple])
    if search is None:
        raise SystemExit(f"{path}: no complete deal in this labels file")
    return spec, result


def _cell(values: list[int]) -> str:
    if not values:
        return "-"
    share, low, high = wilson_ci(sum(values), len(values))
    return f"{100 * share:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def render(result: Agreement, with_agent: bool) -> str:
    """A Markdown table: by phase and in all, each comparison's agreement with its interval."""
    cols = PAIRS if with_agent else PAIRS[:1]
    head = "| phase | decisions | " + " | ".join(cols) + " |"
    rule = "| --- | --- | " + " | ".join("---" for _ in cols) + " |"
    rows = [
        f"| {phase} | {len(row[PAIRS[0]]):,} | " + " | ".join(_cell(row[c]) for c in cols) + " |"
        for phase, row in result.by_phase.items()
    ]
    total = result.total()
    rows.append(
        f"| all | {len(total[PAIRS[0]]):,} | " + " | ".join(_cell(total[c]) for c in cols) + " |"
    )
    return "\n".join([head, rule, *rows])


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("labels", type=Path, help="a mazzo-search-labels/1 file")
    p.add_argument("--searcher", help="the search asked again (default: the file's searcher)")
    p.add_argument("--agent", help="another agent compared too (e.g. nn:RUN, bot)")
    p.add_argument("--decisions", type=int, default=1000, help="decisions compared (1000)")
    p.add_argument("--rate", type=float, default=0.25, help="share of searched decisions taken")
    p.add_argument("--seed", type=int, default=0, help="seed of the draw and of the agents")
    p.add_argument("--phases", default="", help="only these phases, joined by '+' (lower case)")
    args = p.parse_args(argv)
    if args.decisions < 1 or not 0 < args.rate <= 1:
        p.error(f"--decisions must be >= 1 and --rate in (0, 1], got {args.decisions}, {args.rate}")
    if not args.labels.is_file():
        p.error(f"no labels file at {args.labels}")
    t0 = time.perf_counter()
    phases = frozenset(x for x in args.phases.lower().split("+") if x)
    try:
        spec, result = study(args.labels, args.searcher, args.agent, args.decisions, args.rate,
                             args.seed, phases)  # fmt: skip
    except ValueError as e:
        p.error(str(e))
    print(f"labels: {args.labels}; search asked again: {spec}; agent: {args.agent or '-'}")
    print(render(result, args.agent is not None))
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

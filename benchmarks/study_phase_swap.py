"""Where an agent loses its points (issue 41): the agent with another agent taking the decisions
of some phases, against an opponent on the same duplicate deals as the agent alone, and the two
margins compared deal by deal. A phase swap that lifts the margin is a phase the agent plays
worse than the other agent does; one that lowers it, better (``mazzo exploit --by-phase``
does the same for a best response).

Run: ``python benchmarks/study_phase_swap.py nn:runs/X/bot heuristic
--phases discard_cutter+discard_dealer --opponent pimc:samples=32,ms=0 --deals
configs/deals/minchiate-2000-s1.jsonl --n 2000`` (phase names as ``mazzo exploit``'s: the
game's phases in lower case; the game is the deal file's, or ``--game``). Prints the agent
alone, the swapped agent and their difference (paired 95% intervals per seat and game);
``--out`` writes them as JSON with the per-deal margins. ``--alone FILE`` takes the agent
alone from such a file (the same agent, opponent, deals and seed, checked) instead of playing
it again: a study of several swaps plays the agent alone once.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from mazzo.agents.registry import make_agent
from mazzo.arena.evaluate import default_game
from mazzo.arena.plan import Entrant
from mazzo.envs.deal_sets import generate_deals, read_deal_set
from mazzo.envs.registry import game_names, get_game
from mazzo.training.rl.evaluate import margin_of, paired_diffs
from mazzo.training.rl.exploit import PhaseSplit


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("agent", help="the agent studied (an agent spec)")
    ap.add_argument("swap", help="the agent that takes the decisions of --phases instead")
    ap.add_argument("--phases", required=True, help="phases joined by '+' (lower case)")
    ap.add_argument("--opponent", required=True, help="the agent both play against")
    ap.add_argument("--game", choices=game_names(), help="default: the deal file's, else the first")
    ap.add_argument("--deals", help="a deal file (default: generated from --seed)")
    ap.add_argument("--n", type=int, default=1000, help="deals: the first N of the file, or N")
    ap.add_argument("--seed", type=int, default=0, help="seed of generated deals and agents")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, help="write the figures as JSON here")
    ap.add_argument("--alone", type=Path, help="the agent alone from an earlier --out file")
    args = ap.parse_args(argv)
    try:
        game = get_game(args.game) if args.game else default_game(args.deals)
    except ValueError as e:
        print(f"study_phase_swap: {e}", file=sys.stderr)
        return 2
    args.game, rules = game.name, game.rules()
    known = set(game.phase_names(rules).values()) - {"done"}
    phases = frozenset(p for p in args.phases.lower().split("+") if p)
    if not phases or phases - known:
        print(
            f"study_phase_swap: --phases {args.phases!r}: give {args.game} phases joined by "
            f"'+' among {', '.join(sorted(known))}",
            file=sys.stderr,
        )
        return 2
    try:
        for spec in (args.agent, args.swap, args.opponent):
            make_agent(spec, args.game, rules)
        deals = (
            read_deal_set(args.deals, game, rules).head(args.n)
            if args.deals
            else generate_deals(game, rules, args.n, args.seed)
        )
    except ValueError as e:
        print(f"study_phase_swap: {e}", file=sys.stderr)
        return 2
    source = (
        str(Path(args.deals).resolve())
        if args.deals
        else f"generated ({args.game}, seed {args.seed})"
    )
    opponent = Entrant(args.opponent, args.opponent)
    t0 = time.perf_counter()
    try:
        alone = (
            earlier_alone(
                args.alone, args.agent, args.opponent, source, args.seed, len(deals.deals)
            )
            if args.alone
            else paired_diffs(
                deals, Entrant("agent", args.agent), opponent, args.seed, args.workers
            )
        )
    except ValueError as e:
        print(f"study_phase_swap: {e}", file=sys.stderr)
        return 2
    split = PhaseSplit(args.swap, args.agent, args.game, rules, phases)
    swapped = paired_diffs(deals, Entrant("swapped", split), opponent, args.seed, args.workers)
    seconds = time.perf_counter() - t0
    rows = {"alone": alone, "swapped": swapped, "difference": swapped - alone}
    figures = {}
    print(
        f"{args.agent} against {args.opponent} on {len(alone):,} deals; swapped: "
        f"{'+'.join(sorted(phases))} by {args.swap} ({seconds:.0f} s)"
    )
    for name, diffs in rows.items():
        m = margin_of(args.opponent, diffs)
        figures[name] = [m.mean, m.low, m.high]
        print(f"  {name:<10} {m.mean:+.3f} [{m.low:+.3f}, {m.high:+.3f}]")
    if args.out:
        data = {
            "agent": args.agent, "swap": args.swap, "phases": sorted(phases),
            "opponent": args.opponent, "deal_source": source, "seed": args.seed,
            "deals": len(alone), "seconds": round(seconds, 1),
            **figures, "per_deal": {k: np.round(v, 6).tolist() for k, v in rows.items()},
        }  # fmt: skip
        args.out.write_text(json.dumps(data) + "\n")
    return 0


def earlier_alone(
    path: Path, agent: str, opponent: str, source: str, seed: int, n: int
) -> np.ndarray:
    """The first ``n`` per-deal margins of the agent alone from an earlier ``--out`` file.
    Raises ValueError naming the file and what differs where it was another study."""
    try:
        data = json.loads(path.read_text())
        margins = data["per_deal"]["alone"]
        wanted = {"agent": agent, "opponent": opponent, "deal_source": source, "seed": seed}
        got = {k: data.get(k) for k in wanted}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"--alone {path}: not a study_phase_swap --out file ({e})") from None
    for key, want in wanted.items():
        if got[key] != want:
            raise ValueError(f"--alone {path}: its {key} is {got[key]!r}, this study's {want!r}")
    if len(margins) < n:
        raise ValueError(f"--alone {path}: holds {len(margins)} deals, this study plays {n}")
    return np.asarray(margins[:n], dtype=float)


if __name__ == "__main__":
    sys.exit(main())

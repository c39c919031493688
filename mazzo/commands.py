"""The ``demo``, ``rules``, ``agents`` and ``eval`` subcommands of ``mazzo`` (``mazzo.cli``
builds the parser and dispatches).

Every count is checked by argparse (``--deals 0`` is a usage error, exit status 2). Ctrl-C stops
a command cleanly with exit status 130 and no traceback, saying what was done: ``demo`` prints
the totals of the deals it finished; ``eval`` prints the report of the first deals it finished
(the same numbers as a run of ``--n k``), marked partial, and with ``--out`` writes its files
marked partial (``"partial"`` in ``summary.json``). Games, agents and rule flags come from the
registries (``mazzo.envs.registry``, ``mazzo.agents.registry``); nothing here names a game.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mazzo.agents.arena.evaluate import EvalConfig, EvalInterrupted, default_game, evaluate
from mazzo.agents.arena.journal import JOURNAL
from mazzo.agents.arena.report import format_table, write_outputs
from mazzo.agents.base import RandomAgent
from mazzo.agents.distributed import INSTALL_HINT, LOCAL
from mazzo.agents.registry import agents_of
from mazzo.agents.trained_rules import SWITCH
from mazzo.envs.cards.flags import parse_assignments
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, game_names, get_game
from mazzo.extras import require
from mazzo.recipes import DEALS, find_deals

__all__ = [
    "EXIT_INTERRUPTED",
    "add_agents",
    "add_demo",
    "add_eval",
    "add_flag_option",
    "add_foreign_rules_option",
    "add_ray_options",
    "add_rules",
    "agents_text",
    "count",
    "description",
    "game_and_rules",
]

EXIT_INTERRUPTED = 130  # 128 + SIGINT, what shells report for Ctrl-C


def count(low: int) -> Callable[[str], int]:
    """An argparse ``type``: an integer >= ``low`` (``--deals 0`` -> a usage error)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not an integer (must be >= {low})"
            ) from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{text!r}: must be an integer >= {low}")
        return value

    parse.__name__ = f"integer >= {low}"
    return parse


def description(doc: str | None) -> str:
    """A command module's docstring's first paragraph as ``--help`` shows it: one paragraph,
    without the docstring's ````code```` markup."""
    first = (doc or "").split("\n\n")[0]
    return " ".join(first.replace("``", "").split())


def add_foreign_rules_option(p: argparse.ArgumentParser) -> None:
    """``--foreign-rules``: the one switch that lets trained bots play rules they were not
    trained for (``mazzo.agents.trained_rules``)."""
    p.add_argument(
        SWITCH,
        action="store_true",
        help="let trained bots (nn:, bot, onnx:) play rules other than the flags they were "
        "trained for (refused otherwise, naming each differing flag); the output says so",
    )


def add_ray_options(p: argparse.ArgumentParser, what: str) -> None:
    """``--ray`` and ``--ray-address ADDR`` (one of them): where ``what`` is spread on Ray
    (``mazzo.agents.distributed``; the extra ``mazzo[distributed]``)."""
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--ray", action="store_const", const=LOCAL, dest="ray_address",
        help=f"spread {what} on a Ray runtime started here (needs {INSTALL_HINT}); "
        "the results are those of a local run",
    )  # fmt: skip
    group.add_argument(
        "--ray-address", metavar="ADDR", dest="ray_address",
        help=f"spread {what} on the running Ray cluster at ADDR (auto, HOST:PORT or "
        "ray://HOST:PORT); --workers then counts Ray workers (default: the cluster's CPUs)",
    )  # fmt: skip


def add_flag_option(p: argparse.ArgumentParser, help: str) -> None:
    """``--flag KEY=VALUE`` (repeatable): a rule flag of the game, read by its one parser."""
    p.add_argument("--flag", action="append", default=[], metavar="KEY=VALUE", help=help)


# ---------------------------------------------------------------- demo
def add_demo(sub: Any) -> None:
    p = sub.add_parser("demo", help="play a few deals between random agents and show them")
    p.add_argument("--game", default=game_names()[0], choices=game_names())
    p.add_argument("--deals", type=count(1), default=2, help="number of deals (default 2)")
    p.add_argument("--seed", type=count(0), default=0, help="seed of the first deal (default 0)")
    add_flag_option(p, "a rule flag, e.g. --flag players=4 (repeatable; see mazzo rules)")
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    flags = parse_assignments(args.flag, "--flag")  # rule flags and env options (render_mode)
    render_mode = flags.pop("render_mode", "ansi")
    if render_mode not in ("ansi", "human"):
        raise ValueError(
            f"demo shows the table: render_mode must be 'ansi' (after each deal, the default) "
            f"or 'human' (after every move), got {render_mode!r}"
        )
    env = get_game(args.game).env(render_mode=render_mode, **flags)
    rng = np.random.default_rng(args.seed)
    agent = RandomAgent()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    finished = 0
    try:
        for deal in range(args.deals):
            print(f"=== deal {deal + 1} of {args.deals} (seed {args.seed + deal}) ===")
            deal_totals = _demo_deal(env, args.seed + deal, agent, rng)
            for name, reward in deal_totals.items():
                totals[name] += reward
            finished += 1
            if render_mode == "ansi":  # "human" printed the table after every move
                print(env.unwrapped.render())
            print()
    except KeyboardInterrupt:
        print(f"\ninterrupted after {finished} of {args.deals} deals")
        _print_totals(totals, f" of the {finished} finished deals")
        print(f"mazzo demo: interrupted after {finished} of {args.deals} deals", file=sys.stderr)
        return EXIT_INTERRUPTED
    _print_totals(totals, "")
    return 0


def _demo_deal(
    env: Any, seed: int, agent: RandomAgent, rng: np.random.Generator
) -> dict[str, float]:
    env.reset(seed=seed)
    raw = env.unwrapped
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for name in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        totals[name] += reward
        if term or trunc:
            env.step(None)
            continue
        view = raw.game.info_view(raw.possible_agents.index(name))
        env.step(agent.act(view, rng))
    return totals


def _print_totals(totals: dict[str, float], which: str) -> None:
    print(f"Total rewards{which}: " + "  ".join(f"{a} {r:+.4g}" for a, r in totals.items()))


# ---------------------------------------------------------------- rules, agents
def add_rules(sub: Any) -> None:
    p = sub.add_parser(
        "rules", help="list a game's rule flags: default, choices, meaning, RULES.md section"
    )
    p.add_argument("--game", default=game_names()[0], choices=game_names())
    p.set_defaults(func=cmd_rules)


def cmd_rules(args: argparse.Namespace) -> int:
    info = get_game(args.game).info
    print(f"{info.title} rule flags (--flag NAME=VALUE; RULES.md sections in [ ]):")
    for f in dataclasses.fields(info.rules_type):
        choices = f.metadata.get("choices") or f.metadata.get("items")
        kind = "subset of" if "items" in f.metadata else "choices"
        extra = f"  ({kind}: {', '.join(map(str, choices))})" if choices else ""
        print(f"{f.name} = {_default(f)!r}{extra}")
        meaning, section = info.flag_help.get(f.name, ("(no description)", "RULES.md C.3"))
        print(f"    {meaning}  [{section}]")
    return 0


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    factory = f.default_factory
    return factory() if factory is not dataclasses.MISSING else None


def add_agents(sub: Any) -> None:
    p = sub.add_parser("agents", help="list the agents of each game with their parameters")
    p.add_argument("--game", choices=game_names(), help="one game (default: all)")
    p.set_defaults(func=cmd_agents)


def cmd_agents(args: argparse.Namespace) -> int:
    print(agents_text([args.game] if args.game else list(game_names())), end="")
    return 0


def agents_text(games: Sequence[str]) -> str:
    """Each game's agents: the spec's shape, what it is, and every parameter."""
    lines = ["agent specs: NAME[@VERSION][:KEY=VALUE,...] (e.g. pimc:samples=64,ms=500)"]
    for game in games:
        lines += ["", f"{game}:"]
        for a in agents_of(game):
            lines.append(f"  {a.usage()}")
            if a.help:
                lines.append(f"      {a.help}")
            for p in a.params:
                lines.append(f"      {p.describe()}: {p.help}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- eval
def add_eval(sub: Any) -> None:
    p = sub.add_parser(
        "eval",
        help="benchmark agents against each other on fixed deals, duplicate style",
        description="Play every agent in every seat of every deal (seats rotated duplicate "
        "style) and report mean payoffs and win rates with confidence intervals, paired "
        "differences, Elo ratings and, in games with contracts, the contracts. Ctrl-C stops "
        "it and reports the deals finished so far (marked partial). See docs/arena.md.",
        epilog=agents_text(game_names()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "agents",
        nargs="+",
        metavar="AGENT",
        help="agent spec (random, heuristic@1, pimc:samples=64) or label=spec",
    )
    p.add_argument(
        "--game",
        choices=game_names(),
        help=f"default: the deal file's game, else {game_names()[0]}",
    )
    p.add_argument(
        "--deals",
        metavar="FILE",
        type=find_deals,
        help="deal set (JSON Lines of D.3 records), or a committed set by name "
        f"({', '.join(sorted(p.stem for p in DEALS.glob('*.jsonl')))}); default: generate "
        "from --seed",
    )
    p.add_argument(
        "--n",
        type=count(1),
        metavar="N",
        help="number of deals: the first N of the file (default all), "
        "or N generated (default 1000)",
    )
    p.add_argument(
        "--seed",
        type=count(0),
        default=0,
        help="seed of generated deals and of every agent's generator (default 0)",
    )
    add_flag_option(p, "a rule flag, e.g. --flag players=4 (repeatable; see mazzo rules)")
    p.add_argument(
        "--seating",
        default="pairs",
        choices=("pairs", "mixed"),
        help="rotation scheme (default pairs: every pair head to head)",
    )
    p.add_argument(
        "--workers",
        type=count(1),
        default=None,
        help=f"worker processes (default: all cores, {os.cpu_count()} here)",
    )
    add_ray_options(p, "the deals")
    p.add_argument(
        "--confidence",
        type=float,
        default=0.95,
        help="confidence level of the intervals, in (0, 1) (default 0.95)",
    )
    p.add_argument(
        "--bootstrap",
        type=count(0),
        default=0,
        metavar="B",
        help="also give percentile bootstrap intervals from B resamples",
    )
    p.add_argument("--anchor", metavar="LABEL", help="agent rated 0 Elo (default: mean 0)")
    add_foreign_rules_option(p)
    p.add_argument(
        "--out",
        metavar="DIR",
        help=f"write summary.json and CSV files here; while the run goes, every finished "
        f"deal is booked in DIR/{JOURNAL} (removed at the end)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run journaled in --out (stopped by Ctrl-C, a crash or the end of a "
        "session) with the same arguments: its finished deals are not played again, and the "
        "results are those of an uninterrupted run",
    )
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar with the time left, on stderr (default: when stderr is a terminal)",
    )
    p.set_defaults(func=cmd_eval)


def game_and_rules(args: argparse.Namespace) -> tuple[AnyGame | None, RulesLike | None]:
    """The game and rules of ``--game``, ``--flag`` and ``--deals``: the flags are the game's,
    the deal file's when no ``--game`` is given; None where neither is given (the deal file's,
    or the defaults)."""
    game = get_game(args.game) if args.game else None
    if not args.flag:
        return game, None
    game = game or default_game(args.deals)
    return game, game.parse_flags(args.flag)


def cmd_eval(args: argparse.Namespace) -> int:
    require("eval", "eval")
    from mazzo.agents.arena.progress import ProgressBar  # tqdm: the 'eval' extra

    game, rules = game_and_rules(args)
    config = EvalConfig(
        agents=tuple(args.agents),
        game=game,
        deals=args.deals,
        n=args.n,
        seed=args.seed,
        rules=rules,
        seating=args.seating,
        workers=args.workers,
        ray=args.ray_address,
        confidence=args.confidence,
        bootstrap=args.bootstrap,
        anchor=args.anchor,
        foreign_rules=args.foreign_rules,
    )
    config.check()
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = ProgressBar(label="eval", unit="deals") if show else None
    if args.resume and not args.out:
        raise ValueError("--resume continues the run journaled in --out DIR: give --out")
    journal = Path(args.out) / JOURNAL if args.out else None
    try:
        run, summary = evaluate(config, bar, journal, args.resume)
    except EvalInterrupted as e:
        if bar is not None:
            bar.close()
        return _eval_interrupted(e, args.out)
    finally:
        if bar is not None:
            bar.close()
    for note in run.plan.notes:
        print(note)
    print(format_table(summary), end="")
    if args.out:
        paths = write_outputs(summary, run, args.out)
        print(f"wrote {', '.join(str(p) for p in paths)}")
    if journal is not None:
        journal.unlink(missing_ok=True)  # the results are written: nothing left to resume
    return 0


def _eval_interrupted(e: EvalInterrupted, out: str | None) -> int:
    """Report what an interrupted eval finished; exit status 130."""
    said = f"mazzo eval: interrupted after {e.done} of {e.planned} deals"
    if e.run is None or e.summary is None:
        print(f"{said}; no deal was finished, nothing to report", file=sys.stderr)
        return EXIT_INTERRUPTED
    print(
        f"PARTIAL RESULTS: interrupted after {e.done} of {e.planned} deals; this report covers "
        f"the first {e.done} (the same games as --n {e.done})\n"
    )
    print(format_table(e.summary), end="")
    where = ""
    if out:
        paths = write_outputs(e.summary, e.run, out)
        print(f"wrote {', '.join(str(p) for p in paths)} (marked partial)")
        where = f", written to {out} (marked partial)"
    print(f"{said}; partial results above{where}", file=sys.stderr)
    if out:
        print("mazzo eval: continue it with the same arguments and --resume", file=sys.stderr)
    return EXIT_INTERRUPTED

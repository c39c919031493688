"""A mutation-testing study (issue 44): how many plausible one-token bugs in the trainers' loss
and advantage code, the heuristics, the rules kernels and the scoring the tests catch, with
Cosmic Ray (``pip install cosmic-ray``; https://cosmic-ray.readthedocs.io).

Each target is a module (or some functions of one) and the tests that specify it. Cosmic Ray
writes every mutant into the source file in turn, runs the target's tests and puts the file
back; a mutant the tests fail on is *killed*, one they pass on *survived*; one whose tests ran
past the timeout counts as killed (``timeout`` in the report). Only the operators of a
developer's plausible slips are kept (``OPERATORS``: a comparison's boundary or negation, ``+``
for ``-``, ``*`` for ``/``, ``&`` for ``|``, a shift the other way, ``and`` for ``or``, a
``not`` added or dropped, ``True`` for ``False``, a number off by one, ``break`` for
``continue``, a loop that never runs); Cosmic Ray's others (every operator for every other,
exceptions replaced, decorators removed) mostly make mutants no developer would write.

Never in the checkout you work in: the files are edited in place, so the study makes a git
worktree of ``HEAD`` of its own (``--tree``, default ``runs/mutation/tree``), builds the C
extensions there and runs from it; sessions (``runs/mutation/<target>.sqlite``) resume where
they stopped, so a stopped study loses nothing but the mutant in flight.

Run (minutes to hours; not part of CI):

    python benchmarks/study_mutation.py --list
    python benchmarks/study_mutation.py ppo_loss gae dmc_update label_loss
    python benchmarks/study_mutation.py --all --report docs/mutation_results.md

The report lists every target's score (killed / all run) and every surviving mutant (file,
line, operator, the line as mutated), by target; ``docs/testing.md`` quotes the last one.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mazzo.envs.registry import game_names

ROOT = Path(__file__).resolve().parents[1]
PYTEST = "-m pytest -x -q -p no:cacheprovider"

# The operators kept (Cosmic Ray's names); every other operator's mutants are skipped.
OPERATORS = {
    *(
        f"core/ReplaceComparisonOperator_{a}_{b}"
        for a, b in [
            ("Lt", "LtE"),
            ("LtE", "Lt"),
            ("Gt", "GtE"),
            ("GtE", "Gt"),
            ("Eq", "NotEq"),
            ("NotEq", "Eq"),
            ("Is", "IsNot"),
            ("IsNot", "Is"),
            ("Lt", "Gt"),
            ("Gt", "Lt"),
        ]
    ),
    *(
        f"core/ReplaceBinaryOperator_{a}_{b}"
        for a, b in [
            ("Add", "Sub"),
            ("Sub", "Add"),
            ("Mul", "Div"),
            ("Div", "Mul"),
            ("FloorDiv", "Div"),
            ("BitAnd", "BitOr"),
            ("BitOr", "BitAnd"),
            ("BitXor", "BitOr"),
            ("LShift", "RShift"),
            ("RShift", "LShift"),
            ("Mod", "FloorDiv"),
        ]
    ),
    "core/ReplaceUnaryOperator_USub_UAdd",
    "core/ReplaceUnaryOperator_Delete_Not",
    "core/AddNot",
    "core/ReplaceTrueWithFalse",
    "core/ReplaceFalseWithTrue",
    "core/ReplaceAndWithOr",
    "core/ReplaceOrWithAnd",
    "core/ReplaceBreakWithContinue",
    "core/ReplaceContinueWithBreak",
    "core/NumberReplacer",
    "core/ZeroIterationForLoop",
}


@dataclass(frozen=True)
class Target:
    """A module (``functions`` of it, or all of it when empty) and the tests that specify it."""

    name: str
    module: str
    tests: tuple[str, ...]
    functions: tuple[str, ...] = ()
    timeout: float = 120.0
    select: str = ""  # pytest's -k: the tests of the target within those files

    def command(self) -> str:
        """The test command, with this interpreter (the venv's, where torch is)."""
        k = f" -k {shlex.quote(self.select)}" if self.select else ""
        return f"{shlex.quote(sys.executable)} {PYTEST} {' '.join(self.tests)}{k}"


TARGETS: list[Target] = [
    Target("ppo_loss", "training/rl/ppo.py", ("tests/rl/test_ppo_math.py",), ("ppo_loss",)),
    Target("gae", "training/rl/collect.py", ("tests/rl/test_ppo_math.py",), ("gae",)),
    Target(
        "dmc_update",
        "training/rl/dmc.py",
        ("tests/rl/test_dmc_and_label_math.py",),
        ("dmc_update",),
    ),
    Target(
        "label_loss",
        "training/rl/distill.py",
        ("tests/rl/test_dmc_and_label_math.py",),
        ("label_cross_entropy", "soft_targets", "_cross_entropy"),
    ),
]


def _tests(game: str, *patterns: str) -> tuple[str, ...]:
    """The game's test files matching ``patterns`` (``tests/<game>/``), in that order."""
    out: list[str] = []
    for pattern in patterns:
        out += sorted(str(q.relative_to(ROOT)) for q in (ROOT / "tests" / game).glob(pattern))
    return tuple(dict.fromkeys(out))


def _game_targets(game: str) -> list[Target]:
    """Each game's heuristic, scoring and kernel with the tests that specify them (found by
    name in ``tests/<game>/``: the heuristic's own and its agents' tests but the search's, the
    golden deals, worked examples, bounds and invariants, the rules specs and kernel tests)."""
    return [
        Target(f"{game}_heuristic", f"agents/{game}/heuristic.py",
               _tests(game, "test_heuristic*.py", "test_agents.py"),
               select="not pimc and not solver and not rollout and not registry and not act_batch "
               "and not equivalent"),
        Target(f"{game}_scoring", f"envs/{game}/scoring.py",
               _tests(game, "test_golden.py", "test_examples.py", "test_payoff_bound.py",
                      "test_invariants.py")),
        Target(f"{game}_kernel", f"envs/{game}/kernel.py",
               _tests(game, "test_golden.py", "test_examples.py", "test_*_spec.py",
                      "test_kernel.py"), timeout=300.0),
    ]  # fmt: skip


TARGETS += [t for game in game_names() for t in _game_targets(game)]
BY_NAME = {t.name: t for t in TARGETS}


def function_lines(path: Path, names: Iterable[str]) -> list[tuple[int, int]]:
    """The line ranges of the named functions (top level or methods) of a module."""
    wanted, spans = set(names), []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in wanted:
            spans.append((node.lineno, node.end_lineno or node.lineno))
            wanted.discard(node.name)
    if wanted:
        raise SystemExit(f"{path}: no function named {', '.join(sorted(wanted))}")
    return spans


def make_tree(tree: Path) -> None:
    """A git worktree of HEAD at ``tree`` with the C extensions built (once)."""
    if not (tree / ".git").exists():
        tree.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(tree), "HEAD"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [sys.executable, "setup.py", "build_ext", "--inplace"],
            cwd=tree,
            check=True,
            capture_output=True,
        )
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    if dirty.strip():  # a mutant left behind by a killed run: put the files back
        subprocess.run(["git", "checkout", "--", "."], cwd=tree, check=True)
    purge_bytecode(tree)


def _env(tree: Path) -> dict[str, str]:
    """The tree first on the path, and no bytecode written: a mutant's .pyc could otherwise
    stand in for another mutant of the same size written within the same second (Python
    checks a .pyc by the source's size and whole-second mtime), and that mutant would be
    tested as the wrong code."""
    return {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}


def purge_bytecode(tree: Path) -> None:
    for cache in tree.rglob("__pycache__"):
        if ".venv" not in cache.parts:
            shutil.rmtree(cache, ignore_errors=True)


def cosmic_ray(*args: str, tree: Path) -> None:
    env = _env(tree)
    subprocess.run(
        [str(Path(sys.executable).with_name("cosmic-ray")), *args], cwd=tree, env=env, check=True
    )


def prepare(target: Target, tree: Path, sessions: Path) -> Path:
    """The target's session, created and filtered once (then resumed as it stands)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    db = sessions / f"{target.name}.sqlite"
    if db.exists():
        return db
    config = sessions / f"{target.name}.toml"
    config.write_text(
        "[cosmic-ray]\n"
        f"module-path = {json.dumps(target.module)}\n"
        f"timeout = {target.timeout}\n"
        "excluded-modules = []\n"
        f"test-command = {json.dumps(target.command())}\n\n"
        '[cosmic-ray.distributor]\nname = "local"\n'
    )
    partial = db.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    cosmic_ray("init", str(config), str(partial), tree=tree)
    spans = function_lines(tree / target.module, target.functions) if target.functions else []
    with use_db(str(partial), WorkDB.Mode.open) as work_db:
        skip = []
        for item in work_db.pending_work_items:
            m = item.mutations[0]
            line = m.start_pos[0]
            outside = spans and not any(a <= line <= b for a, b in spans)
            if m.operator_name not in OPERATORS or outside:
                skip.append(item.job_id)
        work_db.set_multiple_results(
            skip, WorkResult(output="not studied", worker_outcome=WorkerOutcome.SKIPPED)
        )
    partial.rename(db)
    return db


def baseline(target: Target, tree: Path) -> None:
    """The target's tests pass on the unmutated tree, or the study stops (a mutant would
    otherwise count as killed by a test that fails anyway)."""
    env = _env(tree)
    done = subprocess.run(
        shlex.split(target.command()), cwd=tree, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(
            f"{target.name}: the tests fail without a mutant ({target.command()}):\n"
            + (done.stdout + done.stderr)[-2000:]
        )


def run(target: Target, tree: Path, sessions: Path) -> None:
    baseline(target, tree)
    db = prepare(target, tree, sessions)
    started = time.monotonic()
    cosmic_ray("exec", str(sessions / f"{target.name}.toml"), str(db), tree=tree)
    print(f"{target.name}: ran in {time.monotonic() - started:.0f}s", flush=True)


def summarise(target: Target, sessions: Path, tree: Path) -> dict[str, object] | None:
    """Counts and survivors of a target's session (None if it has none)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    db = sessions / f"{target.name}.sqlite"
    if not db.exists():
        return None
    source = (tree / target.module).read_text().splitlines()
    killed = timeouts = survived = incompetent = 0
    survivors = []
    with use_db(str(db), WorkDB.Mode.open) as work_db:
        pending = sum(1 for _ in work_db.pending_work_items)
        for item, result in work_db.completed_work_items:
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                continue
            if result.test_outcome == TestOutcome.SURVIVED:
                survived += 1
                m = item.mutations[0]
                survivors.append(
                    {
                        "line": m.start_pos[0],
                        "operator": m.operator_name.removeprefix("core/"),
                        "function": m.definition_name or "",
                        "source": source[m.start_pos[0] - 1].strip(),
                        "mutated": _mutated_line(result.diff or ""),
                    }
                )
            elif result.test_outcome == TestOutcome.INCOMPETENT or (
                result.worker_outcome == WorkerOutcome.ABNORMAL
            ):
                timeouts += 1
            elif result.test_outcome == TestOutcome.KILLED:
                killed += 1
            else:
                incompetent += 1
    run_ = killed + timeouts + survived
    return {
        "target": target.name,
        "module": target.module,
        "functions": list(target.functions),
        "tests": list(target.tests),
        "mutants": run_,
        "killed": killed,
        "timeouts": timeouts,
        "survived": survived,
        "other": incompetent,
        "pending": pending,
        "score": (killed + timeouts) / run_ if run_ else None,
        "survivors": sorted(survivors, key=lambda s: s["line"]),
    }


def _mutated_line(diff: str) -> str:
    for line in diff.splitlines():
        if line.startswith("+") and not line.startswith("+++"):
            return line[1:].strip()
    return ""


def report_markdown(rows: list[dict[str, object]]) -> str:
    out = [
        "| target | module | mutants | killed | timeouts | survived | score | pending |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        where = f"`{r['module']}`" + (f" ({', '.join(r['functions'])})" if r["functions"] else "")  # type: ignore[arg-type]
        score = f"{r['score']:.1%}" if r["score"] is not None else "-"
        out.append(
            f"| {r['target']} | {where} | {r['mutants']} | {r['killed']} | "
            f"{r['timeouts']} | {r['survived']} | {score} | {r['pending']} |"
        )
    for r in rows:
        if not r["survivors"]:
            continue
        out += [
            "",
            f"**{r['target']}**: the surviving mutants (tests: "
            + ", ".join(f"`{t}`" for t in r["tests"])
            + ")",
            "",  # type: ignore[attr-defined]
            "| line | operator | the line | mutated |",
            "|---:|---|---|---|",
        ]
        for s in r["survivors"]:  # type: ignore[attr-defined]
            out.append(
                f"| {s['line']} | {s['operator']} | `{_cell(s['source'])}` | "
                f"`{_cell(s['mutated'])}` |"
            )
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("targets", nargs="*", help="targets to run (see --list)")
    p.add_argument("--all", action="store_true", help="every target")
    p.add_argument("--list", action="store_true", help="list the targets and exit")
    p.add_argument("--tree", type=Path, default=ROOT / "runs" / "mutation" / "tree")
    p.add_argument("--sessions", type=Path, default=ROOT / "runs" / "mutation")
    p.add_argument("--report", type=Path, help="write the markdown report here")
    p.add_argument("--json", type=Path, help="write the counts and survivors as JSON here")
    p.add_argument("--report-only", action="store_true", help="report the sessions as they are")
    args = p.parse_args(argv)
    if args.list:
        for t in TARGETS:
            part = f" ({', '.join(t.functions)})" if t.functions else ""
            print(f"{t.name:24} {t.module}{part}\n{'':24} tests: {shlex.join(t.tests)}")
        return 0
    unknown = [n for n in args.targets if n not in BY_NAME]
    if unknown:
        p.error(f"unknown target(s) {', '.join(map(repr, unknown))}; known: {', '.join(BY_NAME)}")
    chosen = TARGETS if args.all or not args.targets else [BY_NAME[n] for n in args.targets]
    args.sessions.mkdir(parents=True, exist_ok=True)
    if not args.report_only:  # a report reads the tree as it is: a study may be running in it
        make_tree(args.tree)
        for t in chosen:
            run(t, args.tree, args.sessions)
    rows = [r for t in chosen if (r := summarise(t, args.sessions, args.tree)) is not None]
    text = report_markdown(rows)
    print(text)
    if args.report:
        args.report.write_text(text)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``mazzo`` run in the test's own process: the ``main`` that the console script calls, with
the arguments as a user types them, its stdout and stderr captured (neither is a terminal, as
in a pipe) and its exit status, returned as a ``subprocess.CompletedProcess``.

For the many runs that check an answer to bad input, where a subprocess would add only its
start-up (half a second each). The smoke tests of every subcommand (``tests/test_cli.py``), the
Ctrl-C tests and the console script itself still run in real subprocesses.

An exception that ``main`` lets through is written to the captured stderr as its traceback with
exit status 1, as the interpreter would, so "no traceback" checks mean the same in both.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import traceback
from pathlib import Path

from mazzo.cli import main

ROOT = Path(__file__).resolve().parents[1]

__all__ = ["ROOT", "run_cli"]


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``mazzo ARGS...`` run in ``cwd`` (the repository root by default)."""
    out, err = io.StringIO(), io.StringIO()
    before = Path.cwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as e:  # argparse's usage errors, --help
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
                if isinstance(e.code, str):
                    print(e.code, file=err)
            except Exception:  # what the interpreter would print
                traceback.print_exc(file=err)
                code = 1
    finally:
        os.chdir(before)
    return subprocess.CompletedProcess(["mazzo", *args], code, out.getvalue(), err.getvalue())

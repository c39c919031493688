"""Loading a game's compiled search core: the optional C twin of its playouts and endgame solver.

A game may ship ``agents/<game>/_csearch.c`` (built by ``pip install``, see ``setup.py``), a
module that plays determinized worlds out with the same results as the game's Python rollout
policy and solver (``agents/<game>/rollout.py``, the reference: the parity tests in
``tests/<game>/test_compiled_search.py`` hold the two equal). Its per-card tables are compiled
in or handed over (a module with ``configure(*tables)``); ``load_search`` checks them against
the engine's (``card_tables()``) before the module is used. It returns None where
the module was not built (no C compiler at install time) or where ``MAZZO_PURE_PYTHON`` is set to
anything but ``""`` or ``0`` (``mazzo.envs.common.compiled.pure_python_requested``); PIMC then plays
its worlds out in Python, with the same results, only slower.

Imports nothing outside the standard library and ``mazzo.envs.common.compiled``.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType

from mazzo.envs.common.compiled import pure_python_requested

__all__ = ["load_search"]


def load_search(module: str, tables: Sequence[Sequence[int]]) -> ModuleType | None:
    """The compiled search core ``module``, or None where it is not built or
    ``MAZZO_PURE_PYTHON`` asks for the Python code.

    Args:
        module: the extension's dotted name (``mazzo.agents.<game>._csearch``).
        tables: the engine's per-card tables, which the module's ``card_tables()`` must equal.

    Raises:
        RuntimeError: the module's compiled-in card tables differ from the engine's (a stale
            build: rebuild it).
    """
    if pure_python_requested():
        return None
    try:
        core = importlib.import_module(module)
    except ImportError:
        return None
    if hasattr(core, "configure"):  # tables handed over rather than compiled in
        core.configure(*(tuple(t) for t in tables))
    got = tuple(tuple(t) for t in core.card_tables())
    want = tuple(tuple(t) for t in tables)
    if got != want:
        raise RuntimeError(
            f"{module}: its compiled card tables differ from the engine's (a stale build?); "
            "rebuild with `python setup.py build_ext --inplace` or `pip install -e .`"
        )
    return core

"""Which optional extra each job of the ``mazzo`` command needs, and the one-line message when it
is missing.

``pip install mazzo`` installs what the environments need (numpy, Gymnasium, PettingZoo); every
other job is an extra of ``pyproject.toml`` (``mazzo[eval]``, ``mazzo[train]``, ...). A command
calls :func:`require` before it imports its job's packages, so a missing one ends in one line,
``mazzo train needs the 'train' extra: pip install 'mazzo[train]'``, with exit status 2
(``mazzo.cli``); :func:`extra_for_module` names the extra of a package found missing later
(a network agent's torch).

Owns the table of extras by the modules they install; imports nothing from the project.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable

__all__ = [
    "EXIT_MISSING_EXTRA",
    "EXTRAS",
    "MissingExtra",
    "extra_for_module",
    "missing_module",
    "require",
]

EXIT_MISSING_EXTRA = 2

# extra -> the top-level modules it installs (import names), as in pyproject.toml's
# [project.optional-dependencies]; tests/test_extras.py keeps the two in step.
EXTRAS: dict[str, tuple[str, ...]] = {
    "eval": ("scipy", "tqdm"),
    "train": ("scipy", "tqdm", "torch", "tensorboard"),
    "runtime": ("onnxruntime",),
    "export": ("scipy", "tqdm", "torch", "tensorboard", "onnxruntime", "onnx", "onnxscript"),
    "serve": ("onnxruntime", "uvicorn", "starlette", "websockets"),
    "distributed": ("ray",),
    "notebooks": ("jupytext", "nbclient", "ipykernel", "matplotlib"),
}

# The extra to name for a module several extras install: the smallest that has it.
_SMALLEST = ("eval", "runtime", "train", "serve", "export", "distributed", "notebooks")


class MissingExtra(Exception):
    """A command needs an extra that is not installed.

    Attributes:
        command: the subcommand (``train``).
        extra: the extra to install (``train``).
        module: the first of its modules found missing (``torch``).
    """

    def __init__(self, command: str, extra: str, module: str) -> None:
        self.command, self.extra, self.module = command, extra, module
        super().__init__(f"mazzo {command} needs the '{extra}' extra: pip install 'mazzo[{extra}]'")


def _known(extra: str) -> tuple[str, ...]:
    try:
        return EXTRAS[extra]
    except KeyError:
        raise ValueError(f"unknown extra {extra!r}; extras: {', '.join(EXTRAS)}") from None


def missing_module(extra: str) -> str | None:
    """The first module of ``extra`` that cannot be imported, or None when all can."""
    for module in _known(extra):
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a finder that refuses it, a broken install
            found = False
        if not found:
            return module
    return None


def require(command: str, *extras: str) -> None:
    """Raise :class:`MissingExtra` for the first of ``extras`` not installed.

    Args:
        command: the subcommand, for the message (``train``).
        extras: the extras it needs (``train``); unknown names are a ValueError.
    """
    for extra in extras:
        module = missing_module(extra)
        if module is not None:
            raise MissingExtra(command, extra, module)


def extra_for_module(module: str | None, prefer: Iterable[str] = ()) -> str | None:
    """The extra that installs ``module`` (``torch.nn`` counts as ``torch``): the first of
    ``prefer`` that has it, else the smallest; None for a module of no extra."""
    if not module:
        return None
    top = module.partition(".")[0]
    for extra in (*prefer, *_SMALLEST):
        if top in _known(extra):
            return extra
    return None

"""The subcommands of ``mazzo``, one module each, and their table (``COMMANDS``, in the order
``mazzo --help`` lists them). Each module has ``add(sub)``, which adds its parser to the
subparsers ``sub`` with its handler as ``func``; ``options`` holds what several share.

``demo`` plays a few deals between random agents and shows the table; ``play`` lets a person
play in the terminal against agents; ``replay`` replays D.3 records; ``rules`` lists a game's
rule flags; ``agents`` lists the agents with their parameters; ``eval`` benchmarks agents on
fixed deals, duplicate style (``mazzo.arena``); ``dealset`` writes a deal set; ``train`` runs a
trainer from a config or a recipe; ``serve`` serves bots over the bot protocol and the web
table; ``export`` writes a trained bot as an ONNX bundle; ``labels`` records a search agent's
decisions for distillation; ``belief`` fits a belief model for ``ipimc``; ``exploit`` trains a
best response to an agent (its approximate exploitability).
"""

from __future__ import annotations

from types import ModuleType

from mazzo.commands import (
    agents,
    belief,
    dealset,
    demo,
    eval,
    exploit,
    export,
    labels,
    play,
    replay,
    rules,
    serve,
    train,
)

__all__ = ["COMMANDS"]

COMMANDS: tuple[ModuleType, ...] = (
    demo,
    play,
    replay,
    rules,
    agents,
    eval,
    dealset,
    train,
    serve,
    export,
    labels,
    belief,
    exploit,
)

"""The options and argument types several commands share: counts checked by argparse
(``--deals 0`` is a usage error, exit status 2), ``--flag``, ``--foreign-rules``, ``--ray`` /
``--ray-address``, a command's description from its docstring, and the game and rules a
command's ``--game`` and ``--flag`` name.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from mazzo.agents.distributed import INSTALL_HINT, LOCAL
from mazzo.agents.trained_rules import SWITCH
from mazzo.arena.evaluate import default_game
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, get_game

__all__ = [
    "EXIT_INTERRUPTED",
    "add_flag_option",
    "add_foreign_rules_option",
    "add_ray_options",
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


def game_and_rules(args: argparse.Namespace) -> tuple[AnyGame | None, RulesLike | None]:
    """The game and rules of ``--game``, ``--flag`` and ``--deals``: the flags are the game's,
    the deal file's when no ``--game`` is given; None where neither is given (the deal file's,
    or the defaults)."""
    game = get_game(args.game) if args.game else None
    if not args.flag:
        return game, None
    game = game or default_game(args.deals)
    return game, game.parse_flags(args.flag)

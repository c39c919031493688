"""The ``mazzo`` command line: one entry point, one subcommand per job, each in its own module
of ``mazzo.commands`` (its table, ``COMMANDS``, says which).

Bad input (an unknown agent, flag or game, a malformed or missing deal file, a save path that
cannot be written) ends with a message on stderr naming it and exit status 2; so does a job
whose extra is not installed (``mazzo.extras``: one line naming the extra to install). Ctrl-C
ends with a short message and exit status 130, without a traceback; ``mazzo train`` stopped by
SIGINT or SIGTERM writes its checkpoint first and exits with 130 or 143.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from mazzo.commands import COMMANDS
from mazzo.commands.options import EXIT_INTERRUPTED
from mazzo.envs.cards.flags import did_you_mean
from mazzo.envs.registry import game_names
from mazzo.extras import EXIT_MISSING_EXTRA, MissingExtra, extra_for_module

__all__ = ["build_parser", "main", "parse_args"]


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand (``mazzo.commands.COMMANDS``)."""
    parser = argparse.ArgumentParser(
        prog="mazzo",
        description="mazzo: reinforcement learning for Italian trick-taking card games "
        f"({', '.join(game_names())}).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add(sub)
    return parser


def parse_args(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``parser.parse_args``, except that an option the command does not have is reported by
    that command's parser (its usage, not the top level's), with the closest of its options."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        command = _subparsers(parser)[args.command]
        options = [o for action in command._actions for o in action.option_strings]
        first = next((u.split("=")[0] for u in unknown if u.startswith("-")), "")
        command.error(f"unrecognized arguments: {' '.join(unknown)}" + did_you_mean(first, options))
    return args


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mazzo`` console script."""
    args = parse_args(build_parser(), argv)
    try:
        return int(args.func(args))
    except MissingExtra as e:
        print(e, file=sys.stderr)
        return EXIT_MISSING_EXTRA
    except ModuleNotFoundError as e:  # found missing later: a network agent's torch
        extra = extra_for_module(e.name)
        if extra is None:
            raise
        print(MissingExtra(args.command, extra, e.name or extra), file=sys.stderr)
        return EXIT_MISSING_EXTRA
    except (ValueError, OSError) as e:
        print(f"mazzo {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:  # a trainer's stop says which signal (130 or 143)
        print(f"\nmazzo {args.command}: interrupted", file=sys.stderr)
        return int(getattr(e, "exit_status", EXIT_INTERRUPTED))


if __name__ == "__main__":
    sys.exit(main())

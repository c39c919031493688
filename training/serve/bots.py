"""The bots a server plays with: the ``NAME=SPEC`` pairs it was started with (``mazzo serve
--bot``), each built once per game with ``agents.registry.make_agent``. Clients choose a bot by
name only; no client message names a file or a spec.

A bot is listed for every game whose registry knows its agent; a spec that no game can build is
a ``ValueError`` at start-up. Agents are stateless between decisions (they take a view and a
generator), so one agent serves every session; a lock per agent keeps concurrent decisions of
one agent apart all the same.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.base import AnyAgent
from agents.registry import agent_info, agents_of, make_agent, parse_spec
from envs.registry import game_names

__all__ = ["DEFAULT_BOTS", "Bot", "Bots", "parse_bot_option"]

# name=spec of the bots a server has when started without --bot.
DEFAULT_BOTS = ("random=random", "heuristic=heuristic", "bot=bot")
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


@dataclass
class Bot:
    """One bot of one game: its name, the spec it was built from, and the agent."""

    name: str
    spec: str
    help: str
    agent: AnyAgent
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def act(self, view: Any, rng: np.random.Generator) -> int:
        """The agent's action for ``view`` (one decision at a time per agent)."""
        with self.lock:
            return int(self.agent.act(view, rng))


def parse_bot_option(text: str) -> tuple[str, str]:
    """``NAME=SPEC`` (or a bare ``SPEC``, ``pimc:samples=8`` included: its agent's name is the
    bot's) -> (name, spec).

    Raises:
        ValueError: an empty or badly formed name or spec.
    """
    name, sep, spec = text.partition("=")
    if not sep or ":" in name or "@" in name:
        spec = text
        name = parse_spec(text).name
    name, spec = name.strip(), spec.strip()
    if not _NAME.match(name):
        raise ValueError(
            f"--bot {text!r}: a bot name is 1-40 letters, digits or _.- (expected NAME=SPEC)"
        )
    parse_spec(spec)
    return name, spec


class Bots:
    """The server's bots per game: game -> name -> ``Bot``."""

    def __init__(self, pairs: Sequence[tuple[str, str]], skip_missing: bool = False) -> None:
        """Build every bot for every game that has its agent.

        Args:
            pairs: (name, spec) in the order they are listed.
            skip_missing: drop a bot no game can build (the defaults: ``bot`` needs a shipped
                checkpoint) instead of raising.

        Raises:
            ValueError: a name given twice, or a spec that no game can build (unless skipped),
                or one whose parameters its agent rejects.
        """
        self._by_game: dict[str, dict[str, Bot]] = {g: {} for g in game_names()}
        seen: set[str] = set()
        for name, spec in pairs:
            if name in seen:
                raise ValueError(f"bot {name!r} is given twice")
            seen.add(name)
            built = self._build(name, spec)
            if not built and not skip_missing:
                raise ValueError(
                    f"bot {name}={spec}: no game has agent {parse_spec(spec).name!r}; agents: "
                    + "; ".join(
                        f"{g}: {', '.join(a.name for a in agents_of(g))}" for g in game_names()
                    )
                )

    def _build(self, name: str, spec: str) -> int:
        agent_name = parse_spec(spec).name
        built = 0
        for game in game_names():
            if agent_name not in {a.name for a in agents_of(game)}:
                continue
            agent = make_agent(spec, game)
            info = agent_info(agent_name, game)
            self._by_game[game][name] = Bot(name, spec, info.help, agent)
            built += 1
        return built

    def names(self, game: str) -> list[str]:
        """The bot names of ``game``, in the order given."""
        return list(self._by_game[game])

    def get(self, game: str, name: str) -> Bot:
        """Bot ``name`` of ``game``. Raises KeyError (the server reports ``unknown_bot``)."""
        return self._by_game[game][name]

    def describe(self) -> dict[str, list[dict[str, str]]]:
        """``{game: [{"name", "spec", "help"}]}`` (the ``bots`` reply)."""
        return {
            game: [{"name": b.name, "spec": b.spec, "help": b.help} for b in bots.values()]
            for game, bots in self._by_game.items()
        }

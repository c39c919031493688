"""The bots a server plays with: the ``NAME=SPEC`` pairs it was started with (``mazzo serve
--bot``), each built once per game with ``mazzo.agents.registry.make_agent``. Clients choose a bot
by name only; no client message names a file or a spec.

A bot is listed for every game whose registry knows its agent; a spec that no game can build is
a ``ValueError`` at start-up. Agents are stateless between decisions (they take a view and a
generator), so one agent serves every session; a lock per agent keeps concurrent decisions of
one agent apart all the same.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from mazzo.agents import shipped
from mazzo.agents.base import AnyAgent
from mazzo.agents.registry import agent_info, agents_of, make_agent
from mazzo.agents.shipped import bot_for_rules, shipped_rule_sets
from mazzo.agents.specs import parse_spec
from mazzo.agents.trained_rules import check_rules_fit, trained_rules
from mazzo.envs.cards.flags import resolved_flags
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, game_names
from mazzo.extras import extra_for_module

__all__ = ["DEFAULT_BOTS", "Bot", "BotOption", "Bots", "default_bots", "parse_bot_option"]

# name=spec of the bots a server has when started without --bot (and the levels: default_bots).
DEFAULT_BOTS = ("random=random", "heuristic=heuristic", "bot=bot")


def default_bots() -> list[str]:
    """The bots of a server started without ``--bot``: ``DEFAULT_BOTS``, then each game's
    strength levels (``GAME/level-N=bot:level=N``, weakest first) where it ships them."""
    levels = [
        f"{game}/level-{n}=bot:level={n}"
        for game in game_names()
        for n in shipped.shipped_levels(shipped.SHIPPED, game)
    ]
    return [*DEFAULT_BOTS, *levels]


log = logging.getLogger("mazzo.serve")
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


class BotOption(NamedTuple):
    """One ``--bot`` option: the bot's name, its agent spec, and the one game it is for (None:
    every game whose registry has the agent)."""

    name: str
    spec: str
    game: str | None = None


def parse_bot_option(text: str) -> BotOption:
    """``[GAME/]NAME=SPEC`` or a bare ``[GAME/]SPEC`` (``pimc:samples=8`` included: its agent's
    name is the bot's) -> ``BotOption``. ``GAME/`` limits the bot to one game (a bundle of one
    game's policy: ``calabresella/onnx=onnx:bundles/cal``).

    Raises:
        ValueError: an unknown game, an empty or badly formed name or spec.
    """
    head, slash, rest = text.partition("/")
    game: str | None = None
    if slash and "=" not in head and ":" not in head:
        game = head.strip()
        if game not in game_names():
            raise ValueError(
                f"--bot {text!r}: unknown game {game!r}; games: {', '.join(game_names())}"
            )
    else:
        rest = text
    name, sep, spec = rest.partition("=")
    if not sep or ":" in name or "@" in name:
        spec = rest
        name = parse_spec(rest).name
    name, spec = name.strip(), spec.strip()
    if not _NAME.match(name):
        raise ValueError(
            f"--bot {text!r}: a bot name is 1-40 letters, digits or _.- (expected [GAME/]NAME=SPEC)"
        )
    parse_spec(spec)
    return BotOption(name, spec, game)


class Bots:
    """The server's bots per game: game -> name -> ``Bot``."""

    def __init__(
        self,
        options: Sequence[tuple[str, str] | BotOption],
        skip_missing: bool = False,
        foreign_rules: bool = False,
    ) -> None:
        """Build every bot for every game that has its agent (or for its one game).

        Args:
            options: ``BotOption``s or (name, spec) pairs, in the order they are listed.
            skip_missing: drop a bot no game can build (the defaults: ``bot`` needs a shipped
                checkpoint, and torch: the 'train' extra) instead of raising.
            foreign_rules: let trained bots play rules they were not trained for
                (``mazzo serve --foreign-rules``; refused otherwise, see ``fit``).

        Raises:
            ValueError: a name given twice for one game, a spec that no game can build (unless
                skipped), a game-bound bot whose game lacks its agent, or parameters its agent
                rejects (a bundle of another game's policy).
        """
        self.foreign_rules = foreign_rules
        self._by_game: dict[str, dict[str, Bot]] = {g: {} for g in game_names()}
        self._for_rules: dict[tuple[str, str, str], Bot] = {}  # (game, name, rule set)
        for option in options:
            name, spec, game = BotOption(*option)
            try:
                built = self._build(name, spec, game)
            except ModuleNotFoundError as e:
                extra = extra_for_module(e.name)
                if not skip_missing or extra is None:
                    raise
                log.warning("bot %s=%s left out: it needs the %r extra", name, spec, extra)
                continue
            if not built and (game is not None or not skip_missing):
                agent = parse_spec(spec).name
                where = f"{game} has no agent {agent!r}" if game else f"no game has agent {agent!r}"
                raise ValueError(
                    f"bot {name}={spec}: {where}; agents: "
                    + "; ".join(
                        f"{g}: {', '.join(a.name for a in agents_of(g))}"
                        for g in ([game] if game else game_names())
                    )
                )

    def _build(self, name: str, spec: str, only: str | None) -> int:
        agent_name = parse_spec(spec).name
        built = 0
        for game in [only] if only else game_names():
            if agent_name not in {a.name for a in agents_of(game)}:
                continue
            if name in self._by_game[game]:
                raise ValueError(f"bot {name!r} is given twice for {game}")
            agent = make_agent(spec, game)
            info = agent_info(agent_name, game)
            self._by_game[game][name] = Bot(name, spec, info.help, agent)
            built += 1
        return built

    def add(self, game: str, bot: Bot) -> None:
        """Offer ``bot`` (an agent built by the caller) for ``game``. Raises ValueError for a
        name it already has."""
        if bot.name in self._by_game[game]:
            raise ValueError(f"bot {bot.name!r} is given twice for {game}")
        self._by_game[game][bot.name] = bot

    def names(self, game: str) -> list[str]:
        """The bot names of ``game``, in the order given."""
        return list(self._by_game[game])

    def get(self, game: str, name: str, rules: RulesLike | None = None) -> Bot:
        """Bot ``name`` of ``game``; for a table of ``rules``, a bot served as the shipped
        ``bot`` is the bot shipped for those rules where there is one (built once, then kept).
        Raises KeyError (the server reports ``unknown_bot``)."""
        bot = self._by_game[game][name]
        if rules is None:
            return bot
        spec = parse_spec(bot.spec)
        if spec.name != "bot" or spec.version is not None:
            return bot
        folder = bot_for_rules(game, rules)
        if folder is None:
            return bot
        key = (game, name, folder.name)
        if key not in self._for_rules:
            agent = make_agent(bot.spec, game, rules)
            self._for_rules[key] = Bot(name, bot.spec, bot.help, agent)
        return self._for_rules[key]

    def fit(self, game: AnyGame, name: str, rules: RulesLike) -> str | None:
        """Check that bot ``name`` of ``game`` (for ``rules``: ``get``) may play ``rules``
        (``mazzo.agents.trained_rules``): None, or the note to log when the server lets it
        play rules it was not trained for.

        Raises:
            ForeignRules: a trained bot under other rules (each differing flag named).
        """
        agent = self.get(game.name, name, rules).agent
        return check_rules_fit(agent, f"bot {name!r}", game, rules, self.foreign_rules)

    def describe(self) -> dict[str, list[dict[str, Any]]]:
        """``{game: [{"name", "spec", "help", "rules", "foreign_rules", "other_rules"}]}`` (the
        ``bots`` reply): ``rules`` the flags a trained bot was trained for (every flag,
        resolved), null for a bot that plays any rules; ``foreign_rules`` whether it opens other
        rules anyway (``mazzo serve --foreign-rules``, or ``foreign_rules=true`` in its spec);
        ``other_rules`` the rule sets a ``bot`` switches to the bot shipped for (their flags)."""
        return {
            game: [
                {
                    "name": b.name,
                    "spec": b.spec,
                    "help": b.help,
                    "rules": _rules_of(b.agent),
                    "foreign_rules": self.foreign_rules
                    or bool(getattr(b.agent, "foreign_rules", False)),
                    "other_rules": _other_rules(game, b.spec),
                }
                for b in bots.values()
            ]
            for game, bots in self._by_game.items()
        }


def _other_rules(game: str, spec: str) -> list[dict[str, object]]:
    """The flags of each rule set that ``bot`` (no version asked for) is shipped for besides
    the default; empty for any other bot."""
    parsed = parse_spec(spec)
    if parsed.name != "bot" or parsed.version is not None:
        return []
    return shipped_rule_sets(game)


def _rules_of(agent: AnyAgent) -> dict[str, Any] | None:
    rules = trained_rules(agent)
    return None if rules is None else resolved_flags(rules)

"""The rules a trained agent was made for, and the check that it plays only those.

A network policy (``nn:``, the shipped ``bot``, an ``onnx:`` bundle) records the rule flags it
was trained for (its checkpoint's ``meta.json``, its bundle's manifest); its agent carries them
as ``trained_rules``. Evaluating, playing or serving it under rules that differ is refused
before anything is dealt, with a message that names each differing flag with both values,
unless the user asks for it: ``foreign_rules=true`` in the agent's spec, or ``--foreign-rules``
on ``mazzo eval``, ``mazzo play`` and ``mazzo serve``; then the caller says so in its output
(``check_rules_fit`` returns the note). Every flag is compared: no flag of either game is
beyond a policy's reach (the one candidate, Calabresella's ``match_rule``, changes when a match
ends, and so what the seats see next).

Must not import torch or training/.
"""

from __future__ import annotations

from typing import Any

from mazzo.agents import shipped
from mazzo.envs.cards.flags import flag_differences, resolved_flags
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame

__all__ = ["SWITCH", "ForeignRules", "check_rules_fit", "rule_differences", "trained_rules"]

SWITCH = "--foreign-rules"
"""The command-line switch that lets every agent play rules it was not trained for."""


class ForeignRules(ValueError):
    """An agent asked to play rules it was not trained for.

    Attributes:
        label: the agent as the user named it.
        differences: ``(flag, trained value, value here)`` per differing flag.
    """

    def __init__(
        self, label: str, differences: list[tuple[str, Any, Any]], shipped: tuple[str, ...] = ()
    ) -> None:
        others = (
            f"; bot is shipped for the default rules and for {', '.join(shipped)} (it picks the "
            "one trained for the table's rules)"
            if shipped
            else ""
        )
        super().__init__(
            f"{label} was trained for other rules: {describe(differences)}{others}; to play it "
            f"anyway, add foreign_rules=true to its spec or pass {SWITCH}"
        )
        self.label, self.differences, self.shipped = label, differences, shipped


def trained_rules(agent: object) -> RulesLike | None:
    """The rules ``agent`` was trained for, or None for an agent that plays any (a baseline)."""
    rules: RulesLike | None = getattr(agent, "trained_rules", None)
    return rules


def rule_differences(
    game: AnyGame, trained: RulesLike, here: RulesLike
) -> list[tuple[str, Any, Any]]:
    """``(flag, trained value, value here)`` for each flag in which two rules of ``game``
    differ, in name order."""
    game.check_rules(trained)
    game.check_rules(here)
    return flag_differences(resolved_flags(trained), resolved_flags(here))


def describe(differences: list[tuple[str, Any, Any]]) -> str:
    """``players 3 (trained) vs 4 (here), aperta false (trained) vs true (here)``."""
    return ", ".join(
        f"{flag} {_plain(mine)} (trained) vs {_plain(theirs)} (here)"
        for flag, mine, theirs in differences
    )


def check_rules_fit(
    agent: object, label: str, game: AnyGame, rules: RulesLike, allow: bool = False
) -> str | None:
    """Check that ``agent`` (named ``label``) may play ``rules``: None when it may (a baseline,
    or rules it was trained for); with ``allow`` or its own ``foreign_rules``, the note to show
    the user; otherwise ``ForeignRules`` naming each difference."""
    trained = trained_rules(agent)
    if trained is None:
        return None
    differences = rule_differences(game, trained, rules)
    if not differences:
        return None
    if allow or getattr(agent, "foreign_rules", False):
        return f"note: {label} plays rules it was not trained for: {describe(differences)}"

    others = shipped.rules_bots(shipped.SHIPPED, game.name)
    raise ForeignRules(label, differences, tuple(others))


def _plain(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ",".join(_plain(v) for v in value) + "]"
    return str(value)

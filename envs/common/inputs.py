"""Checks and conversions of what callers hand the card-game envs: rule flags and env options,
reset options, actions; and the errors and warnings that answer bad ones.

Must not import torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

__all__ = [
    "ActionTypeError",
    "IllegalMoveWarning",
    "as_action",
    "rules_from_kwargs",
    "type_name",
    "warn_unknown_options",
]


class IllegalMoveWarning(UserWarning):
    """Warned by ``env()`` when an agent plays an illegal move and the episode ends."""


class ActionTypeError(TypeError, ValueError):
    """Raised by ``env()`` for an action that is not an int (a float, bool, string ...): the
    action spaces are ``Discrete``, whose members are ints. A ``TypeError`` and, as all bad input
    here, a ``ValueError``."""


def rules_from_kwargs(rules_type: Any, flags: dict[str, Any], env_options: tuple[str, ...]) -> Any:
    """``rules_type.from_flags(flags)``; an unknown flag's error also lists the env options (the
    keyword arguments an env takes besides the rule flags)."""
    try:
        return rules_type.from_flags(flags)
    except ValueError as e:
        raise ValueError(f"{e} (env options: {', '.join(env_options)})") from None


def warn_unknown_options(options: dict[str, Any], known: tuple[str, ...]) -> None:
    """Warn about reset options this env does not use (PettingZoo's api_test passes arbitrary
    ones, so they cannot be errors; a warning still catches a misspelt ``deal``)."""
    unknown = sorted(set(options) - set(known))
    if unknown:
        warnings.warn(
            f"ignoring unknown reset option(s) {unknown}; known: {list(known)}", stacklevel=3
        )


def as_action(action: Any) -> Any:
    """NumPy integer scalars and 0-d integer arrays -> int; anything else unchanged."""
    if isinstance(action, np.integer):
        return int(action)
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        return int(action)
    return action


def type_name(value: object) -> str:
    kind = type(value)
    return (
        kind.__qualname__
        if kind.__module__ == "builtins"
        else f"{kind.__module__}.{kind.__qualname__}"
    )

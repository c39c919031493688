"""Minchiate's compiled search core, as PIMC uses it: a world handed over once, the value of
every candidate play back (``agents/minchiate/_csearch.c``).

``CORE`` is the loaded module, or None (not built, or ``MAZZO_PURE_PYTHON``): then PIMC plays its
worlds out with ``rollout.py``, the reference. The core is handed the engine's per-card tables
once (``configure``), the rules as a tuple of ints (``config``, one per ``Rules``) and each
world as a tuple of ints (``world_of``).

``values(state, team, candidates, exact_tricks, point_weight, blind)`` is ``rollout.playout``'s
value for ``team`` of each candidate play of ``state`` (None: the state as it is; ``blind``: the
playout's leads without the other hands, the last int of the config); ``ready(state)``
says whether the core can take ``state``: in PLAY and past the declarations that
``declare_timing = with_first_card`` opens during trick 1 (those are played in Python).
``playout`` is ``rollout.playout`` with the core taking over as soon as it can. In card play
every world of a view differs only in its hands: ``view_world`` builds the core's world tuple
from the view and the sampled hands (no state), ``world_values`` plays it.

Must not import torch or training/.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType

from mazzo.agents.csearch import load_search
from mazzo.agents.minchiate.rollout import deal_value, rollout_action, solve
from mazzo.agents.minchiate.rollout import playout as rollout_playout
from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.minchiate.rules import Rules
from mazzo.envs.minchiate.state import State
from mazzo.envs.minchiate.tables import STRENGTH, SUIT, VALUE
from mazzo.envs.minchiate.view import InfoView
from mazzo.envs.minchiate.worlds import declared_for_the_end

__all__ = [
    "CONFIG_FIELDS",
    "CORE",
    "World",
    "compiled_value",
    "config",
    "playout",
    "positions",
    "ready",
    "reference_value",
    "values",
    "view_ready",
    "view_world",
    "world_of",
    "world_values",
]

CORE: ModuleType | None = load_search("mazzo.agents.minchiate._csearch", (SUIT, STRENGTH, VALUE))

DIECINE = ("merge_four", "two_triples", "any_three")
# The ints of ``config``, in order (the core reads them by position).
CONFIG_FIELDS = (
    "king_rule", "must_overtrump", "capture_bonus", "matto_last_trick_lost", "resti_unit",
    "matto_payment == agent", "matto_death_bonus", "end_recount_combos", "diecine (index)",
    "matto_bonus_at_end", "matto_bonus_in_own_combo", "surplus_base", "last_trick_bonus",
    "blind_leads",
)  # fmt: skip
World = tuple[
    tuple[int, int, int, int], tuple[int, ...], int, int, tuple[int, int], int, int, int, int,
    int, tuple[int, int],
]  # fmt: skip
_PLAY = Phase.PLAY


@lru_cache(maxsize=256)
def config(rules: Rules, blind: bool = False) -> tuple[int, ...]:
    """The rules as the core reads them (``CONFIG_FIELDS``), the playouts' leads ``blind``
    where asked (``rollout.rollout_action``)."""
    return (
        int(rules.king_rule), int(rules.must_overtrump), int(rules.capture_bonus),
        int(rules.matto_last_trick_lost), rules.resti_unit, int(rules.matto_payment == "agent"),
        int(rules.matto_death_bonus), int(rules.end_recount_combos), DIECINE.index(rules.diecine),
        int(rules.matto_bonus_at_end), int(rules.matto_bonus_in_own_combo), rules.surplus_base,
        rules.last_trick_bonus, int(blind),
    )  # fmt: skip


def world_of(s: State) -> World:
    """The core's world tuple of a state it is ``ready`` for: (hands, trick, leader, suits_led,
    piles, D, R, matto_owner, matto_debt, closed tricks, decl_end)."""
    h, p = s.hands, s.piles
    return (
        (h[0], h[1], h[2], h[3]), tuple(s.trick), s.leader, s.suits_led, (p[0], p[1]), s.D, s.R,
        s.matto_owner, int(s.matto_debt), len(s.tricks), (s.decl_end[0], s.decl_end[1]),
    )  # fmt: skip


def view_ready(view: InfoView) -> bool:
    """``ready`` of every world of ``view`` (the same phase and tricks in all of them)."""
    return view.phase is _PLAY and not (
        view.rules.declare_timing == "with_first_card" and not view.tricks
    )


def view_world(view: InfoView, hands: tuple[int, int, int, int]) -> World:
    """``world_of(determinize(view, world))`` for a world with these ``hands``, without
    building the state: in card play every field but the hands is the view's."""
    p, decl_end = view.piles, declared_for_the_end(view)
    return (
        hands, tuple(view.trick), view.leader, view.suits_led, (p[0], p[1]), view.D, view.R,
        view.matto_owner, int(view.matto_debt), len(view.tricks), (decl_end[0], decl_end[1]),
    )  # fmt: skip


def world_values(
    world: World,
    rules: Rules,
    team: int,
    candidates: Sequence[int] | None,
    exact_tricks: int,
    point_weight: float,
) -> tuple[float, ...]:
    """``values`` of a world tuple (``view_world``) under ``rules``."""
    if CORE is None:
        raise RuntimeError("the compiled Minchiate search core is not loaded")
    result: tuple[float, ...] = CORE.values(
        world, candidates, exact_tricks, team, point_weight, config(rules)
    )
    return result


def ready(s: State) -> bool:
    """Whether the core can play ``s`` out: in PLAY, with no declaration left in trick 1."""
    return s.phase is _PLAY and not (s.trick1_declare and not s.tricks)


def _config(s: State, blind: bool = False) -> tuple[int, ...]:
    cf = config(s.rules, blind)
    if cf[0] != s.king_rule or cf[1] != s.overtrump:  # a state's own play flags win
        cf = (int(s.king_rule), int(s.overtrump), *cf[2:])
    return cf


def values(
    s: State,
    team: int,
    candidates: Sequence[int] | None,
    exact_tricks: int,
    point_weight: float,
    blind: bool = False,
) -> tuple[float, ...]:
    """Per candidate play of ``s`` (None: ``s`` as it is), ``team``'s value of
    ``rollout.playout`` (its leads ``blind`` where asked). Raises RuntimeError where the core
    is not loaded."""
    if CORE is None:
        raise RuntimeError("the compiled Minchiate search core is not loaded")
    result: tuple[float, ...] = CORE.values(
        world_of(s), candidates, exact_tricks, team, point_weight, _config(s, blind)
    )
    return result


def greedy_action(s: State, blind: bool = False) -> int:
    """``rollout_action`` of a ``ready`` state, by the core."""
    if CORE is None:
        raise RuntimeError("the compiled Minchiate search core is not loaded")
    action: int = CORE.greedy_action(world_of(s), _config(s, blind))
    return action


def playout(
    s: State, exact_tricks: int, team: int, point_weight: float, blind: bool = False
) -> float:
    """``rollout.playout`` (``s`` played in place until the core takes it over): the same
    value."""
    while not s.is_terminal():
        if ready(s) and CORE is not None:
            return values(s, team, None, exact_tricks, point_weight, blind)[0]
        if s.phase is _PLAY and 21 - len(s.tricks) <= exact_tricks:
            return solve(s, team, point_weight)
        s.apply(rollout_action(s, blind))
    return deal_value(s, team, point_weight)


# ---------------------------------------------------------------------------------- benchmark
# The hooks ``benchmarks/bench_search.py`` times, the same for every game: PLAY positions, and
# one seat's playout value by either core.
DEFAULT_EXACT = 2  # PIMC's default ``exact_tricks``
MAX_EXACT = 3  # PIMC's largest ``exact_tricks``
TRICKS = 21  # tricks in a deal
POINT_WEIGHT = 0.1  # PIMC's default ``point_weight``


def positions(rules: Rules, n: int, seed: int, done: int) -> list[State]:
    """n positions the core is ready for, of random deals played greedily
    (``rollout_action``) to the lead of trick ``done + 1`` (at least trick 2 under
    ``declare_timing = with_first_card``)."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < n:
        order = list(range(97))
        rng.shuffle(order)
        s = State.new(Deal(rng.randrange(4), tuple(order)), rules)
        while not s.is_terminal() and (not ready(s) or len(s.tricks) < done or s.trick):
            s.apply(rollout_action(s))
        if not s.is_terminal():
            out.append(s)
    return out


def reference_value(s: State, seat: int, exact: int) -> float:
    """The value for ``seat``'s team of ``rollout.playout`` of ``s`` (in Python)."""
    return rollout_playout(s.clone(), exact, seat & 1, POINT_WEIGHT)


def compiled_value(s: State, seat: int, exact: int) -> float:
    """``reference_value`` by the compiled core (``s`` ready for it)."""
    return values(s, seat & 1, None, exact, POINT_WEIGHT)[0]

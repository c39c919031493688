"""Trainer configs: what every trainer's run depends on (``RunConfig``; each trainer's own
dataclass adds its coefficients), read from TOML files under ``configs/``.

Every key of the file (and every ``--set key=value``, read by
``mazzo.envs.cards.flags.parse_assignments`` as rule flags are) must be a field of the trainer's
config dataclass; a value must have the field's type (ints for ints, a list of ints for a tuple
of ints, ...). An unknown key or a bad value is a ``ValueError`` that names it, the file and what
is allowed. A config records itself as a plain dict (``config_dict``) for checkpoints and
TensorBoard's hyperparameters.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from mazzo.agents.run_folders import checkpoints_in
from mazzo.envs.cards.flags import did_you_mean
from mazzo.envs.registry import get_game

__all__ = [
    "LR_SCHEDULE",
    "RESUMABLE_CHANGES",
    "RunConfig",
    "config_dict",
    "field_defaults",
    "load_config",
    "make_config",
    "read_toml",
    "resumed_config",
    "schedule_kept",
    "stored_run",
]

RESUMABLE_CHANGES = frozenset({
    "total_decisions", "checkpoint_minutes", "eval_every", "rounds", "label_workers",
    "gate_workers",
})  # fmt: skip
"""Config keys a resumed run may change: they do not enter the training computation (the
labels and the gate are the same on any number of workers), so the run stays exactly the run
it would have been (every other key is refused on resume)."""

LR_SCHEDULE = ("lr_decay_start", "lr_decay_decisions", "lr_end")
"""The learning-rate schedule's keys (``RunConfig.lr_at``). A resumed run may change them where
the change lies wholly ahead of it: both the old and the new schedule keep ``lr`` up to the
decisions already trained (``schedule_kept``), so the run stays the run that one config, the
new schedule from the start, would have trained."""

C = TypeVar("C")


@dataclasses.dataclass(frozen=True)
class RunConfig:
    """What every trainer's run depends on (a file under ``configs/``)."""

    game: str
    """registered game name"""
    flags: dict[str, Any] = dataclasses.field(default_factory=dict)
    """the game's rule flags"""
    seed: int = 1
    """root seed, spawned into the deal, sampling and torch streams"""
    total_decisions: int = 1_000_000
    """learner decisions to train on (all learner seats together)"""
    n_envs: int = 128
    """engines stepped together"""
    rollout_decisions: int = 8192
    """learner decisions per update"""
    hidden: tuple[int, ...] = (256, 256)
    """MLP widths"""
    lr: float = 3e-4
    """the learning rate (Adam's step size), constant unless ``lr_decay_decisions`` > 0"""
    lr_decay_start: int = 0
    """learner decisions after which the learning rate starts to fall"""
    lr_decay_decisions: int = 0
    """decisions over which it falls linearly from ``lr`` to ``lr_end`` (then stays there); 0:
    a constant ``lr``"""
    lr_end: float = 0.0
    """the learning rate at the end of the decay"""
    epochs: int = 3
    minibatch: int = 1024
    reward_scale: float = 0.0
    """multiplies the engine's returns; 0: the game's default, 1 / payoff_bound (rewards in
    [-1, 1]; for games whose typical deal pays far less, a larger scale trains the value
    faster)"""
    gamma: float = 1.0
    lam: float = 0.95
    mc_phases: tuple[str, ...] = ()
    """phases (lower-case names, as ``charts/entropy_<phase>``) whose decisions take the Monte
    Carlo advantage, the seat's return to the deal's end less the value (GAE with lambda 1 from
    there), instead of ``lam``'s: for rare early decisions (a discard before the card play)
    whose payoff comes many decisions later, where lambda 0.95 leaves their advantage mostly to
    the value head's estimates; empty by default (every decision ``lam``'s)"""
    max_grad_norm: float = 0.5
    self_play: float = 0.8
    """probability that a deal is latest against latest"""
    pool_agents: tuple[str, ...] = ("heuristic",)
    """fixed opponents of the pool (agent specs)"""
    snapshot_every: int = 10
    """updates between snapshots added to the pool"""
    max_snapshots: int = 10
    threads: int = 2
    """torch threads of the learner"""
    n_actors: int = 0
    """actor processes collecting self-play (0: collect in the learner's process); each
    steps n_envs / n_actors engines"""
    eval_every: int = 10
    """updates between evaluations (0: none)"""
    eval_deals: int = 100
    """deals of the fixed evaluation set (each played in both seatings)"""
    eval_seed: int = 1000
    """seed of the evaluation deals (never the training deals' stream)"""
    eval_opponents: tuple[str, ...] = ("random", "heuristic")
    checkpoint_minutes: float = 5.0
    """minutes between checkpoints (one is also written at the end and on a signal)"""
    bc_decisions: int = 0
    """expert decisions to imitate before self-play (0: start from random weights)"""
    bc_experts: tuple[str, ...] = ("heuristic",)
    """agent specs whose games are imitated (one per deal, in turn)"""
    bc_epochs: int = 5
    bc_lr: float = 1e-3
    init_from: str = ""
    """start from the policy of this checkpoint or run directory, or of a shipped bot
    (``bot``: the one for the run's rules, else the default rules'; ``bot@N``), instead of
    random weights (its game, rules, encoding and network shape must be this run's); "" for
    none"""
    init_foreign_rules: bool = False
    """let ``init_from`` be a network trained for other rules of the game (same encoding and
    shape): a warm start for a variant, named in the run's log and its bot's card"""
    label_deals: int = 0
    """deals on which the run itself writes search labels (``label_searcher`` in every seat)
    into ``labels.jsonl`` in the run directory before distilling them with ``distill_labels``
    (0: none); a run stopped while labelling continues the file when started again"""
    label_searcher: str = "pimc:ms=0"
    """the search agent of those labels (a budget in worlds, so the file is reproducible)"""
    label_opponents: tuple[str, ...] = ()
    """agent specs the searcher plays against in those deals, seated in pairs as by ``mazzo
    labels`` (a network to be improved: labels on the positions it reaches); empty: the
    searcher in every seat"""
    label_seed: int = 424242
    """seed of the labelled deals and of the searcher (never the evaluation deals' seed)"""
    label_workers: int = 0
    """worker processes of the labelling (0: every core)"""
    distill_labels: tuple[str, ...] = ()
    """search-label files (``mazzo labels``) whose searched decisions the network learns
    before self-play (``mazzo.training.rl.distill``); empty for none"""
    distill_epochs: int = 3
    """passes over the labels before self-play (0: none; then ``distill_coef`` must be > 0)"""
    distill_lr: float = 3e-4
    distill_soft: float = 0.5
    """share of the policy target spread over the candidates by their search values (the rest
    on the search's chosen action)"""
    distill_temperature: float = 0.25
    """softmax temperature of that spread, in the game's payoff unit"""
    distill_limit: int = 0
    """read at most this many searched decisions (0: all)"""
    distill_coef: float = 0.0
    """expert iteration mixed with self-play: the weight of the labels' policy cross-entropy
    added to every PPO minibatch (on as many label rows, drawn at random), so self-play keeps
    the search's decisions in view; 0: the labels are learned before self-play only"""
    critic_sees_hidden: bool = False
    """the value head also reads the other seats' hands during training (PerfectDou's idea;
    the policy never does, so the trained bot plays on its own view)"""

    def __post_init__(self) -> None:
        get_game(self.game)
        positive = ("total_decisions", "n_envs", "rollout_decisions", "epochs", "minibatch")
        for name in (*positive, "snapshot_every", "max_snapshots", "threads", "eval_deals"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        for name in ("lr", "max_grad_norm"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)}")
        if min(self.lr_decay_start, self.lr_decay_decisions) < 0 or self.lr_end < 0:
            raise ValueError(
                "lr_decay_start and lr_decay_decisions must be >= 0 and lr_end >= 0, got "
                f"{self.lr_decay_start}, {self.lr_decay_decisions} and {self.lr_end}"
            )
        for name in ("gamma", "lam", "self_play"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)}")
        if self.n_actors < 0 or self.n_envs < max(self.n_actors, 1):
            raise ValueError(f"n_actors must be 0..n_envs, got {self.n_actors}")
        if self.reward_scale < 0:
            raise ValueError(f"reward_scale must be >= 0 (0: the game's), got {self.reward_scale}")
        if self.eval_every < 0 or self.checkpoint_minutes <= 0:
            raise ValueError("eval_every must be >= 0 and checkpoint_minutes > 0")
        if self.bc_decisions < 0 or self.bc_epochs < 1 or not self.bc_lr > 0:
            raise ValueError("bc_decisions must be >= 0, bc_epochs >= 1 and bc_lr > 0")
        if self.label_deals < 0 or self.label_workers < 0 or self.label_seed < 0:
            raise ValueError("label_deals, label_workers and label_seed must be >= 0")
        if self.label_deals and self.label_seed == self.eval_seed:
            raise ValueError(
                "label_seed must differ from eval_seed: never label the evaluation deals"
            )
        if self.distill_epochs < 0 or not self.distill_lr > 0 or self.distill_limit < 0:
            raise ValueError("distill_epochs must be >= 0, distill_lr > 0 and distill_limit >= 0")
        if self.distill_coef < 0:
            raise ValueError(f"distill_coef must be >= 0, got {self.distill_coef}")
        labelled = bool(self.distill_labels or self.label_deals)
        if self.distill_coef and not labelled:
            raise ValueError(
                f"distill_coef = {self.distill_coef} needs search labels: set distill_labels "
                "(label files) or label_deals"
            )
        if labelled and not (self.distill_epochs or self.distill_coef):
            raise ValueError(
                "the search labels would go unused: distill_epochs = 0 and distill_coef = 0 "
                "(set distill_epochs >= 1 to learn them before self-play, distill_coef > 0 "
                "to learn them during it)"
            )
        if not 0 <= self.distill_soft <= 1 or not self.distill_temperature > 0:
            raise ValueError("distill_soft must be in [0, 1] and distill_temperature > 0")
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError(f"hidden must list positive widths, got {list(self.hidden)}")

    def lr_at(self, decisions: int) -> float:
        """The learning rate of the update that follows ``decisions`` learner decisions:
        ``lr`` up to ``lr_decay_start``, then linear to ``lr_end`` over
        ``lr_decay_decisions`` (CleanRL's annealing, placed anywhere in the run)."""
        if not self.lr_decay_decisions or decisions <= self.lr_decay_start:
            return self.lr
        done = min(1.0, (decisions - self.lr_decay_start) / self.lr_decay_decisions)
        return self.lr + (self.lr_end - self.lr) * done


def schedule_kept(old: Mapping[str, Any], new: Mapping[str, Any], decisions: int) -> bool:
    """Whether configs ``old`` and ``new`` (``config_dict``s) give every update up to
    ``decisions`` the same learning rate: the same schedule, or both still at ``lr`` there. A
    config without a schedule (the gift repair's) keeps ``lr`` throughout."""

    def start(c: Mapping[str, Any]) -> float:
        return c["lr_decay_start"] if c.get("lr_decay_decisions") else float("inf")

    same = all(old.get(k) == new.get(k) for k in ("lr", *LR_SCHEDULE))
    return same or (old["lr"] == new["lr"] and min(start(old), start(new)) >= decisions)


def _fields(cls: type[Any]) -> dict[str, dataclasses.Field[Any]]:
    return {f.name: f for f in dataclasses.fields(cls)}


def _describe(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is tuple:
        return f"a list of {_describe(typing.get_args(tp)[0])}"
    if origin in (dict, Mapping):
        return "a table"
    if origin in (types.UnionType, typing.Union):
        return " or ".join(_describe(a) for a in typing.get_args(tp))
    return getattr(tp, "__name__", str(tp))


def _coerce(name: str, value: Any, tp: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    bad = ValueError(f"{where}: {name} must be {_describe(tp)}, got {value!r}")
    if origin in (types.UnionType, typing.Union):
        for arg in typing.get_args(tp):
            if arg is type(None) and value is None:
                return None
            try:
                return _coerce(name, value, arg, where)
            except ValueError:
                continue
        raise bad
    if origin is tuple:
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise bad
        item = typing.get_args(tp)[0]
        return tuple(_coerce(name, v, item, where) for v in value)
    if origin in (dict, Mapping):
        if not isinstance(value, Mapping):
            raise bad
        return dict(value)
    if tp is bool:
        if not isinstance(value, bool):
            raise bad
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise bad
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise bad
        return value
    raise bad


def make_config(cls: type[C], values: Mapping[str, Any], where: str = "config") -> C:
    """``cls(**values)`` with every key and value checked (see the module docstring).

    Raises:
        ValueError: an unknown key (the known ones are listed), a bad value, a missing key, or
            what the dataclass's own ``__post_init__`` refuses.
    """
    fields = _fields(cls)
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        if key not in fields:
            raise ValueError(
                f"{where}: unknown key {key!r}{did_you_mean(key, fields)}; "
                f"known: {', '.join(fields)}"
            )
        kwargs[key] = _coerce(key, value, hints[key], where)
    missing = [
        n for n, f in fields.items()
        if n not in kwargs and f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
    ]  # fmt: skip
    if missing:
        raise ValueError(f"{where}: missing key(s) {', '.join(missing)}")
    try:
        return cls(**kwargs)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def read_toml(path: str | Path) -> dict[str, Any]:
    """The table of TOML file ``path``. Raises ValueError naming the file and the problem."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text())
    except (FileNotFoundError, IsADirectoryError):
        raise ValueError(f"config file {str(path)!r} does not exist") from None
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path}: not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise ValueError(
            f"{path}: not UTF-8 text (byte {e.start}: {e.reason}); a config is TOML in UTF-8"
        ) from None
    except RecursionError:
        raise ValueError(
            f"{path}: not valid TOML: arrays or tables nested too deeply to read (a config "
            "nests a few levels at most)"
        ) from None


def load_config(
    cls: type[C], path: str | Path, overrides: Mapping[str, Any] | None = None,
    ignore: tuple[str, ...] = (),
) -> C:  # fmt: skip
    """The config of TOML file ``path`` with ``overrides`` applied on top (keys in ``ignore``,
    read by the caller, are left out).

    Raises:
        ValueError: the file cannot be read or parsed, or a key or value is bad.
    """
    values = read_toml(path)
    _check_keys(cls, overrides or {}, ignore)
    values.update(overrides or {})
    for key in ignore:
        values.pop(key, None)
    return make_config(cls, values, str(path))


def _check_keys(cls: type[Any], overrides: Mapping[str, Any], ignore: tuple[str, ...]) -> None:
    """Refuse a ``--set`` key that is no field of ``cls``, blaming ``--set`` (not the file)."""
    fields = _fields(cls)
    for key in overrides:
        if key not in fields and key not in ignore:
            raise ValueError(
                f"--set: unknown key {key!r}{did_you_mean(key, fields)}; known: {', '.join(fields)}"
            )


def stored_run(run_dir: str | Path) -> dict[str, Any]:
    """The metadata of a run's latest checkpoint (its algorithm, update and config), read
    without torch. Raises ValueError at once when ``run_dir`` holds no run."""
    run_dir = Path(run_dir)
    pointer = run_dir / "latest"
    try:
        name = pointer.read_text().strip()
        meta = json.loads((run_dir / name / "meta.json").read_text())
    except (OSError, ValueError):
        held = checkpoints_in(run_dir)
        if not held:
            raise ValueError(
                f"--resume {str(run_dir)!r}: not a mazzo train run (no readable checkpoint: "
                f"{pointer} names none)"
            ) from None
        raise ValueError(
            f"--resume {str(run_dir)!r}: its latest checkpoint cannot be read ({pointer} is "
            f"missing or damaged, or names a damaged checkpoint); the run holds "
            f"{', '.join(p.name for p in held)}: to resume from the newest, "
            f"echo {held[0].name} > {pointer} and run again"
        ) from None
    if not isinstance(meta, dict) or not isinstance(meta.get("config"), dict):
        raise ValueError(f"--resume {str(run_dir)!r}: its checkpoint {name} has no config")
    return meta


def resumed_config(
    cls: type[C],
    stored: Mapping[str, Any],
    overrides: Mapping[str, Any],
    ignore: tuple[str, ...] = (),
    decisions: int = 0,
) -> tuple[C, dict[str, tuple[Any, Any]]]:
    """A resumed run's config: the run's own (``stored``, its latest checkpoint's, at
    ``decisions``) with the explicit ``overrides`` applied, and the changes as
    ``key -> (old, new)``.

    Raises:
        ValueError: an override of a key that enters the training computation (exact resume
            would break: only ``RESUMABLE_CHANGES`` may change, and the ``LR_SCHEDULE`` keys
            where the change lies ahead of ``decisions``), or a bad key or value.
    """
    _check_keys(cls, overrides, ignore)
    values = {k: v for k, v in stored.items() if k not in ignore}
    own = config_dict(make_config(cls, values, "the run's config"))
    changes: dict[str, tuple[Any, Any]] = {}
    for key, value in overrides.items():
        if key in ignore:
            continue
        old = own[key]
        new = config_dict(make_config(cls, {**values, key: value}, "--set"))[key]
        if new == old:
            continue
        if key not in RESUMABLE_CHANGES and key not in LR_SCHEDULE:
            raise ValueError(
                f"--set {key}: a resumed run cannot change {key} ({old!r} -> {new!r}): it enters "
                "the training, and the run would no longer be the one it resumes; a resumed "
                f"run may change {', '.join(sorted(RESUMABLE_CHANGES & set(_fields(cls))))}, and "
                "the learning-rate "
                f"schedule ({', '.join(LR_SCHEDULE)}) ahead of the run"
            )
        values[key] = value
        changes[key] = (old, new)
    cfg = make_config(cls, values, "the run's config")
    if not schedule_kept(own, config_dict(cfg), decisions):
        said = ", ".join(f"{k} {old!r} -> {new!r}" for k, (old, new) in changes.items())
        raise ValueError(
            f"--set: a resumed run cannot change its learning-rate schedule so ({said}): the "
            f"{decisions:,} decisions already trained would have had another learning rate; a "
            f"resumed run may add a decay only ahead of them (lr_decay_start >= {decisions}, "
            "while its own decay has not begun)"
        )
    return cfg, changes


def field_defaults(cls: type[Any]) -> dict[str, Any]:
    """The defaults of ``cls``'s fields that have one, as JSON-ready values (as
    ``config_dict`` writes them)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            v = f.default
        elif f.default_factory is not dataclasses.MISSING:
            v = f.default_factory()
        else:
            continue
        out[f.name] = _json_ready(v)
    return out


def _json_ready(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def config_dict(config: object) -> dict[str, Any]:
    """The config's fields as JSON-ready values (tuples as lists)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(config):  # type: ignore[arg-type]
        out[f.name] = _json_ready(getattr(config, f.name))
    return out

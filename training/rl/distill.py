"""Distillation of a search into the network: the policy learns a search agent's decisions from
its search labels (``mazzo-search-labels/1`` files, ``mazzo.training.search_labels``), the first
half of expert iteration.

``label_decisions`` reads label files one game at a time (a file never sits in memory whole),
replays each game's D.3 record once and keeps every *searched* decision (a line with values:
the search compared at least two candidates; forced moves and the decisions a search leaves to
its heuristic are skipped, so the network keeps its own there): the seat's observation and
legal mask, the search's chosen action, a soft target over the candidates (a softmax of their
values at ``temperature``) and the game's scaled return for the seat. ``distill`` fits the
policy to ``(1 - soft) * one_hot(action) + soft * softmax(values / temperature)`` (cross-entropy
over the masked logits) and the value head to the returns. ``read_labels`` reads a run's label
files; ``distill_labels`` distils them for a fresh run before self-play (``distill_epochs``),
logging ``distill/`` scalars; ``label_cross_entropy`` is the same policy term on a random draw
of label rows, which PPO adds to its loss during self-play (``distill_coef``: expert iteration
mixed with self-play).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import torch

from mazzo.agents.nets import PolicyValueNet
from mazzo.envs.cards.record import apply_actions
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.protocols import AnyEncoder, RulesLike
from mazzo.envs.registry import AnyGame
from mazzo.training.search_labels import label_games, write_search_labels

if TYPE_CHECKING:
    from mazzo.training.rl.run import Run

__all__ = [
    "LabelledDecisions",
    "distill",
    "distill_labels",
    "label_cross_entropy",
    "label_decisions",
    "read_labels",
    "soft_targets",
    "write_run_labels",
]

RUN_LABELS = "labels.jsonl"  # a run's own labels, in its directory


@dataclass
class LabelledDecisions:
    """Searched decisions: ``obs (T, obs_size)`` (float16: the entries are 0/1 and small
    scalars), ``mask (T, A)``, ``action (T,)``, ``target (T, A)`` (the policy target, rows sum
    to 1), ``ret (T,)`` (scaled returns)."""

    obs: npt.NDArray[np.float16]
    mask: npt.NDArray[np.int8]
    action: npt.NDArray[np.int64]
    target: npt.NDArray[np.float32]
    ret: npt.NDArray[np.float32]

    def __len__(self) -> int:
        return len(self.action)


def soft_targets(
    values: dict[str, float], action: int, num_actions: int, soft: float, temperature: float
) -> npt.NDArray[np.float32]:
    """The policy target of one decision: ``1 - soft`` on the chosen action, ``soft`` spread by
    a softmax of the candidates' values at ``temperature`` (in the values' unit); all of it on
    the chosen action when the search gave no values (a target always sums to 1)."""
    out = np.zeros(num_actions, np.float32)
    if not values:
        soft = 0.0
    out[action] = 1.0 - soft
    if soft:
        acts = np.fromiter((int(a) for a in values), np.int64, len(values))
        v = np.fromiter(values.values(), np.float64, len(values))
        z = np.exp((v - v.max()) / temperature)
        out[acts] += (soft * z / z.sum()).astype(np.float32)
    return out


def label_decisions(
    paths: Sequence[str | Path], game: AnyGame, rules: RulesLike, encoder: AnyEncoder,
    reward_scale: float, soft: float = 0.5, temperature: float = 0.25,
    limit: int | None = None, chunk: int = 65536,
) -> LabelledDecisions:  # fmt: skip
    """The searched decisions of the label files ``paths`` (at most ``limit``), encoded for
    ``rules`` (see the module docstring). The rows are stacked ``chunk`` at a time, so reading
    holds about one copy of them (measured on 100,000 Minchiate rows, 537 MB of arrays: a peak
    of 1,140 MB resident for the whole process, 1,380 MB with a list of rows stacked at the end).

    Raises:
        ValueError: a file that is not a labels file, of another game or other rules, or a
            ``chunk`` below 1.
    """
    if not 0 <= soft <= 1 or not temperature > 0:
        raise ValueError(f"soft must be in [0, 1] and temperature > 0, got {soft}, {temperature}")
    n_act = encoder.num_actions
    rows = _Rows(encoder.obs_size, n_act, chunk)
    row = np.zeros((1, encoder.obs_size), np.float32)
    row_mask = np.zeros((1, n_act), np.int8)
    for path in map(Path, paths):
        checked = False
        for header, lines in label_games(path):
            if not checked:  # one header per file
                _check_header(path, header, game, rules)
                checked = True
            wanted = {ln["step"]: ln for ln in lines if len(ln["values"]) > 1}
            if not wanted:
                continue
            record = lines[-1]["record"]
            parsed = game.read_record(record, rules)
            state = game.new_state(parsed.deal, parsed.rules, **parsed.options)
            for step, triple in enumerate([*parsed.actions, None]):
                line = wanted.get(step)
                if line is not None:
                    view = state.info_view(line["seat"])
                    encoder.encode_batch([view], row, row_mask)
                    if not row_mask[0, line["action"]]:
                        raise ValueError(
                            f"{path}: deal {line['deal']} step {step}: the labelled action "
                            f"{line['label']!r} is not legal in the replayed position"
                        )
                    rows.add(
                        row[0], row_mask[0], int(line["action"]),
                        soft_targets(line["values"], line["action"], n_act, soft, temperature),
                        float(line["outcome"]) * reward_scale,
                    )  # fmt: skip
                    if limit is not None and len(rows) >= limit:
                        return rows.stacked()
                if triple is None or step >= max(wanted):
                    break
                apply_actions(game.vocabulary, state, [triple])
    return rows.stacked()


def _check_header(path: Path, header: dict[str, Any], game: AnyGame, rules: RulesLike) -> None:
    if header.get("game") != game.name:
        raise ValueError(f"{path}: labels of {header.get('game')!r}, this run plays {game.name!r}")
    theirs = game.rules(header.get("flags") or {})
    if theirs.to_flags() != rules.to_flags():
        raise ValueError(
            f"{path}: labels under flags {theirs.to_flags()}, this run's are {rules.to_flags()}"
        )


class _Rows:
    """The rows ``label_decisions`` keeps, stacked ``chunk`` rows at a time, so that reading
    holds about one copy of the labels (a list of row arrays and their stack would be two)."""

    def __init__(self, n_obs: int, n_act: int, chunk: int) -> None:
        if chunk < 1:
            raise ValueError(f"chunk must be >= 1, got {chunk}")
        self.n_obs, self.n_act, self.chunk = n_obs, n_act, chunk
        self.obs = np.empty((chunk, n_obs), np.float16)
        self.mask = np.empty((chunk, n_act), np.int8)
        self.target = np.empty((chunk, n_act), np.float32)
        self.filled = 0
        self.done: list[
            tuple[npt.NDArray[np.float16], npt.NDArray[np.int8], npt.NDArray[np.float32]]
        ] = []
        self.action: list[int] = []
        self.ret: list[float] = []

    def __len__(self) -> int:
        return len(self.action)

    def add(
        self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8], action: int,
        target: npt.NDArray[np.float32], ret: float,
    ) -> None:  # fmt: skip
        """Keep one row (``obs`` is cast to float16)."""
        i = self.filled
        self.obs[i], self.mask[i], self.target[i] = obs, mask, target
        self.action.append(action)
        self.ret.append(ret)
        self.filled += 1
        if self.filled == self.chunk:
            self.done.append((self.obs, self.mask, self.target))
            self.obs = np.empty_like(self.obs)
            self.mask = np.empty_like(self.mask)
            self.target = np.empty_like(self.target)
            self.filled = 0

    def stacked(self) -> LabelledDecisions:
        """All rows as one ``LabelledDecisions``; each chunk is freed once copied (the
        result's pages are only touched as they are filled)."""
        parts = [
            *self.done,
            (self.obs[: self.filled], self.mask[: self.filled], self.target[: self.filled]),
        ]
        self.done = []
        n = len(self.action)
        obs = np.empty((n, self.n_obs), np.float16)
        mask = np.empty((n, self.n_act), np.int8)
        target = np.empty((n, self.n_act), np.float32)
        at = 0
        while parts:
            o, m, t = parts.pop(0)
            obs[at : at + len(o)], mask[at : at + len(o)], target[at : at + len(o)] = o, m, t
            at += len(o)
            del o, m, t
        return LabelledDecisions(
            obs, mask, np.asarray(self.action, np.int64), target,
            np.asarray(self.ret, np.float32),
        )  # fmt: skip


def distill(
    net: PolicyValueNet, opt: torch.optim.Optimizer, data: LabelledDecisions, epochs: int,
    minibatch: int, gen: torch.Generator, value_coef: float = 0.5, holdout: float = 0.05,
) -> dict[str, float]:  # fmt: skip
    """Fit the policy to ``data``'s targets and the value to its returns for ``epochs`` passes.
    The last ``holdout`` share of the decisions (the files' latest games) is kept out and
    measured: returns the last epoch's mean training losses and, on the held-out decisions, the
    cross-entropy and how often the policy's best action is the search's (``agreement``)."""
    n = len(data)
    n_train = n - int(n * holdout) if n > 1 else n
    mask, act = torch.from_numpy(data.mask), torch.from_numpy(data.action)
    target, ret = torch.from_numpy(data.target), torch.from_numpy(data.ret)
    obs16 = torch.from_numpy(data.obs)
    stats: dict[str, float] = {}
    for _ in range(epochs):
        order = torch.randperm(n_train, generator=gen)
        ce_sum = v_sum = 0.0
        for start in range(0, n_train, minibatch):
            idx = order[start : start + minibatch]
            obs = obs16[idx].float()
            v: torch.Tensor = torch.zeros(())
            if net.critic_extra:  # that critic needs the hidden cards: it learns in self-play
                logits = net.logits(obs, mask[idx])
            else:
                logits, value = net(obs, mask[idx])
                v = ((value - ret[idx]) ** 2).mean()
            ce = _cross_entropy(logits, mask[idx], target[idx]).mean()
            opt.zero_grad()
            loss: torch.Tensor = ce + value_coef * v
            torch.autograd.backward([loss])
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            ce_sum += ce.item() * len(idx)
            v_sum += v.item() * len(idx)
        stats = {"cross_entropy": ce_sum / max(n_train, 1), "value": v_sum / max(n_train, 1)}
    return stats | _measure(
        net, obs16, mask, act, target, slice(n_train, n) if n > n_train else slice(0, n)
    )


def _cross_entropy(logits: torch.Tensor, mask: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Per row, the cross-entropy of the masked policy ``logits`` to ``target`` (which puts no
    mass on illegal actions)."""
    logp = torch.log_softmax(logits, dim=-1)
    return -(target * torch.where(mask == 1, logp, 0.0)).sum(-1)


@torch.no_grad()
def _measure(
    net: PolicyValueNet, obs16: torch.Tensor, mask: torch.Tensor, act: torch.Tensor,
    target: torch.Tensor, part: slice,
) -> dict[str, float]:  # fmt: skip
    """Held-out cross-entropy and agreement with the search's action on ``part``."""
    idx = torch.arange(len(act))[part]
    hits, ce, n = 0, 0.0, len(idx)
    for start in range(0, n, 4096):
        sl = idx[start : start + 4096]
        logits = net.logits(obs16[sl].float(), mask[sl])
        ce += float(_cross_entropy(logits, mask[sl], target[sl]).sum())
        hits += int((logits.argmax(-1) == act[sl]).sum())
    return {"heldout_cross_entropy": ce / max(n, 1), "agreement": hits / max(n, 1)}


def write_run_labels(run: Run) -> Path:
    """The run's own labels (``label_deals`` deals of ``label_searcher`` in every seat, or
    against ``label_opponents``) in ``labels.jsonl`` of the run directory, written or
    continued (``write_search_labels``)."""
    cfg = run.cfg
    path = run.run_dir / RUN_LABELS
    deals = generate_deals(run.game, run.rules, cfg.label_deals, cfg.label_seed)
    workers = cfg.label_workers or os.cpu_count() or 1
    t0 = time.perf_counter()
    agents = [cfg.label_searcher, *cfg.label_opponents]
    against = f" against {', '.join(cfg.label_opponents)}" if cfg.label_opponents else ""
    run.say(f"labels: {cfg.label_searcher}{against} on {cfg.label_deals:,} deals into {path}")
    done = write_search_labels(deals, agents, path, cfg.label_seed, workers=workers)
    run.say(
        f"labels: {done.deals:,} deals ({done.deals - done.resumed_at:,} written now, "
        f"{done.decisions:,} decisions) in {time.perf_counter() - t0:.0f}s"
    )
    return path


def read_labels(run: Run) -> LabelledDecisions:
    """The searched decisions of the run's labels: its own ``label_deals`` (written or
    continued first), then the ``distill_labels`` files (``label_decisions``).

    Raises:
        ValueError: labels that hold no searched decision (and ``label_decisions``' errors).
    """
    cfg = run.cfg
    files: list[str | Path] = [*cfg.distill_labels]
    if cfg.label_deals:
        files.insert(0, write_run_labels(run))
    t0 = time.perf_counter()
    data = label_decisions(
        files, run.game, run.rules, run.encoder, run.reward_scale,
        cfg.distill_soft, cfg.distill_temperature, cfg.distill_limit or None,
    )  # fmt: skip
    if not len(data):
        raise ValueError(f"the labels {[str(f) for f in files]} hold no searched decision")
    run.say(
        f"labels: {len(files)} file(s), {len(data):,} searched decisions read in "
        f"{time.perf_counter() - t0:.0f}s"
    )
    return data


def distill_labels(run: Run, gen: torch.Generator, data: LabelledDecisions) -> None:
    """Distil ``data`` (``read_labels``) into the run's network before self-play
    (``distill_epochs`` at ``distill_lr``), log ``distill/`` scalars, then evaluate (with
    ``eval_every``)."""
    cfg = run.cfg
    t0 = time.perf_counter()
    opt = torch.optim.Adam(run.net.parameters(), lr=cfg.distill_lr)
    stats = distill(run.net, opt, data, cfg.distill_epochs, cfg.minibatch, gen)
    for key, value in stats.items():
        run.writer.add_scalar(f"distill/{key}", value, 0)
    run.say(
        f"distillation of {len(data):,} searched decisions: held-out agreement "
        f"{stats['agreement']:.1%}, cross-entropy {stats['heldout_cross_entropy']:.3f}, "
        f"value loss {stats['value']:.4f} ({time.perf_counter() - t0:.0f}s)"
    )
    if cfg.eval_every:
        run.evaluate()


def label_cross_entropy(
    net: PolicyValueNet, data: LabelledDecisions, size: int, gen: torch.Generator
) -> tuple[torch.Tensor, float]:
    """The policy's cross-entropy to the targets of ``size`` label rows drawn uniformly from
    ``data`` with ``gen`` (the term ``distill_coef`` weighs in PPO), and the share of those
    rows whose most probable action is the search's."""
    idx = torch.randint(len(data), (size,), generator=gen).numpy()
    mask = torch.from_numpy(data.mask[idx])
    logits = net.logits(torch.from_numpy(data.obs[idx]).float(), mask)
    ce = _cross_entropy(logits, mask, torch.from_numpy(data.target[idx])).mean()
    with torch.no_grad():
        agree = float((logits.argmax(-1) == torch.from_numpy(data.action[idx])).float().mean())
    return ce, agree

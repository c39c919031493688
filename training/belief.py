"""Training belief models (``mazzo.agents.belief``): where every hidden card lies, predicted from
one seat's observation.

``collect`` plays deals with given agents (all seats the same agent, the agents taking turns by
deal) and keeps, at every card-play decision, the deciding seat's observation, the true holder
class of every card from its point of view, and which cards its view leaves hidden. On every
``uniform_every``-th decision of it, it also scores the exact uniform world sampler (the
marginals of ``uniform_worlds`` worlds drawn by the PIMC sampler, smoothed): the baseline the
model's log-loss is reported against. ``fit`` trains the MLP (cross-entropy over the hidden
cards, AdamW with weight decay) on the first deals, keeps the weights of the epoch with the
lowest loss on the next ``valid`` share of the deals (early stopping: the decisions of one deal
are alike, so a large net memorises deals quickly) and reports on the last ``holdout`` share,
which it never chose anything on; ``write_belief`` saves it in ``mazzo-belief/1``. The collected
decisions can be kept in a ``.npz`` file and fitted again (``train_belief(data=...)``).

Imports torch.
"""

from __future__ import annotations

import importlib
import itertools
import json
import math
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from mazzo.agents.belief import BELIEF_FORMAT, holder_map, mask_array
from mazzo.agents.registry import make_agent
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import get_game

__all__ = ["BeliefConfig", "BeliefData", "collect", "fit", "train_belief", "write_belief"]

UNIFORM_SMOOTHING = 0.5  # pseudo-count per class of the uniform sampler's marginals


@dataclass(frozen=True)
class BeliefConfig:
    """What ``train_belief`` does.

    Attributes:
        game: the game's registry name.
        flags: its rule flags.
        agents: the agent specs that play the training deals (in turn by deal).
        deals: deals played.
        seed: the deals' and agents' seed.
        workers: processes collecting.
        hidden: the MLP's hidden layer sizes.
        epochs, lr, batch, weight_decay: the fit.
        dropout: dropout on the observation and after each hidden layer while fitting.
        valid: share of the deals the epoch is chosen on (after the training deals).
        holdout: share of the deals held out for the reported figures (the last ones).
        uniform_every: score the uniform sampler on every this-many-th decision.
        uniform_worlds: worlds drawn per scored decision.
        threads: torch threads of the fit (one by default: on a busy machine more spin).
    """

    game: str
    flags: dict[str, Any] = field(default_factory=dict)
    agents: tuple[str, ...] = ("heuristic",)
    deals: int = 1000
    seed: int = 20261202
    workers: int = 1
    hidden: tuple[int, ...] = (512, 512)
    epochs: int = 10
    lr: float = 1e-3
    batch: int = 512
    weight_decay: float = 1e-2
    dropout: float = 0.0
    valid: float = 0.05
    holdout: float = 0.1
    uniform_every: int = 20
    uniform_worlds: int = 100
    threads: int = 1


@dataclass
class BeliefData:
    """Decisions collected by ``collect``.

    Attributes:
        obs: observations (float16), one row per decision.
        prior: the constraint prior of each decision (``mazzo.agents.belief.slot_prior``, float16).
        classes: the true holder class of every card (int8).
        hidden: the cards the seat's view leaves hidden (bool).
        deal: the deal (index) of each row.
        uniform_rows, uniform_loss, uniform_cards: the decisions where the uniform sampler was
            scored, its summed log-loss over their hidden cards and the number of those cards.
    """

    obs: npt.NDArray[np.float16]
    prior: npt.NDArray[np.float16]
    classes: npt.NDArray[np.int8]
    hidden: npt.NDArray[np.bool_]
    deal: npt.NDArray[np.int32]
    uniform_rows: npt.NDArray[np.int64]
    uniform_loss: npt.NDArray[np.float64]
    uniform_cards: npt.NDArray[np.int64]

    @classmethod
    def concat(cls, parts: Sequence[BeliefData]) -> BeliefData:
        offsets = np.cumsum([0] + [len(p.obs) for p in parts[:-1]])
        return cls(
            obs=np.concatenate([p.obs for p in parts]),
            prior=np.concatenate([p.prior for p in parts]),
            classes=np.concatenate([p.classes for p in parts]),
            hidden=np.concatenate([p.hidden for p in parts]),
            deal=np.concatenate([p.deal for p in parts]),
            uniform_rows=np.concatenate(
                [p.uniform_rows + o for p, o in zip(parts, offsets, strict=True)]
            ),
            uniform_loss=np.concatenate([p.uniform_loss for p in parts]),
            uniform_cards=np.concatenate([p.uniform_cards for p in parts]),
        )

    def save(self, path: str | Path) -> None:
        """Keep the decisions in ``path`` (``.npz``)."""
        with open(path, "wb") as f:  # exactly ``path``: np.savez would add ``.npz`` to a name
            np.savez(f, **{k: getattr(self, k) for k in self.__dataclass_fields__})

    @classmethod
    def load(cls, path: str | Path) -> BeliefData:
        """Decisions kept by ``save``."""
        with np.load(path, allow_pickle=False) as npz:
            return cls(**{k: npz[k] for k in cls.__dataclass_fields__})


def collect(config: BeliefConfig, deals: range) -> BeliefData:
    """Play deals ``deals`` of ``config`` and keep their card-play decisions."""
    game = get_game(config.game)
    rules = game.rules(config.flags)
    encoder = game.encoder(rules)
    holders = holder_map(config.game)
    sampler_type = importlib.import_module(f"mazzo.agents.{config.game}.sampler").WorldSampler
    play = importlib.import_module(f"mazzo.envs.{config.game}.actions").Phase.PLAY
    agents = [make_agent(spec, game) for spec in config.agents]
    obs_rows: list[np.ndarray] = []
    prior_rows: list[np.ndarray] = []
    class_rows: list[np.ndarray] = []
    hidden_rows: list[np.ndarray] = []
    deal_of: list[int] = []
    u_rows: list[int] = []
    u_loss: list[float] = []
    u_cards: list[int] = []
    obs = np.zeros((1, encoder.obs_size), np.float32)
    mask = np.zeros((1, encoder.num_actions), np.int8)
    for d in deals:
        rng = np.random.default_rng([config.seed, d])
        agent = agents[d % len(agents)]
        state: Any = game.new_state(game.deal_random(rng, rules), rules)
        while not state.is_terminal():
            seat = state.to_play
            view = state.info_view(seat)
            if view.phase is play:
                obs[:] = 0
                encoder.encode_batch([view], obs, mask)
                truth = holders.of_state(state, seat)
                hidden = mask_array(holders.hidden(view), holders.n_cards)
                row = len(obs_rows)
                obs_rows.append(obs[0].astype(np.float16))
                sampler = sampler_type(view)
                prior_rows.append(holders.prior(view, sampler).astype(np.float16))
                class_rows.append(truth)
                hidden_rows.append(hidden)
                deal_of.append(d)
                if row % config.uniform_every == 0 and hidden.any():
                    loss = _uniform_loss(
                        sampler, holders, view, truth, hidden, config.uniform_worlds, rng
                    )
                    u_rows.append(row)
                    u_loss.append(loss)
                    u_cards.append(int(hidden.sum()))
            state.apply(agent.act(view, rng))
    n, k = holders.n_cards, len(obs_rows)
    return BeliefData(
        obs=np.stack(obs_rows) if k else np.zeros((0, encoder.obs_size), np.float16),
        prior=np.stack(prior_rows) if k else np.zeros((0, n, holders.n_classes), np.float16),
        classes=np.stack(class_rows) if k else np.zeros((0, n), np.int8),
        hidden=np.stack(hidden_rows) if k else np.zeros((0, n), bool),
        deal=np.array(deal_of, np.int32),
        uniform_rows=np.array(u_rows, np.int64),
        uniform_loss=np.array(u_loss, np.float64),
        uniform_cards=np.array(u_cards, np.int64),
    )


def _uniform_loss(
    sampler: Any, holders: Any, view: Any, truth: np.ndarray, hidden: np.ndarray, worlds: int,
    rng: np.random.Generator,
) -> float:  # fmt: skip
    """The summed log-loss of the true classes of the hidden cards under the uniform sampler's
    marginals (estimated from ``worlds`` draws, ``UNIFORM_SMOOTHING`` added to every class)."""
    counts = np.zeros((holders.n_cards, holders.n_classes))
    cards = np.arange(holders.n_cards)
    for _ in range(worlds):
        counts[cards, holders.of_assignment(view, sampler.sample_assignment(rng))] += 1
    probs = (counts + UNIFORM_SMOOTHING) / (worlds + UNIFORM_SMOOTHING * holders.n_classes)
    return float(-np.log(probs[cards[hidden], truth[hidden]]).sum())


def _collect_chunk(args: tuple[BeliefConfig, int, int]) -> BeliefData:
    config, start, stop = args
    torch.set_num_threads(1)
    return collect(config, range(start, stop))


def collect_parallel(config: BeliefConfig, chunk: int = 25) -> BeliefData:
    """``collect`` over all of ``config``'s deals, ``config.workers`` processes."""
    jobs = [(config, s, min(s + chunk, config.deals)) for s in range(0, config.deals, chunk)]
    if config.workers <= 1:
        return BeliefData.concat([_collect_chunk(j) for j in jobs])
    with ProcessPoolExecutor(config.workers) as pool:
        return BeliefData.concat(list(pool.map(_collect_chunk, jobs)))


class BeliefNet(nn.Module):
    """The MLP: (observation, constraint prior) -> log q, the prior's logits plus the MLP's
    (its last layer starts at zero: an untrained net predicts the prior)."""

    def __init__(
        self, obs_size: int, hidden: Sequence[int], n_cards: int, n_classes: int,
        dropout: float = 0.0,
    ) -> None:  # fmt: skip
        super().__init__()
        sizes = [obs_size, *hidden]
        layers: list[nn.Module] = [nn.Dropout(dropout)] if dropout else []
        for a, b in itertools.pairwise(sizes):
            layers += [nn.Linear(a, b), nn.ReLU()] + ([nn.Dropout(dropout)] if dropout else [])
        out = nn.Linear(sizes[-1], n_cards * n_classes)
        nn.init.zeros_(out.weight)
        nn.init.zeros_(out.bias)
        layers.append(out)
        self.body = nn.Sequential(*layers)
        self.n_cards, self.n_classes = n_cards, n_classes

    def forward(self, obs: torch.Tensor, prior: torch.Tensor) -> torch.Tensor:
        logits = self.body(obs).view(-1, self.n_cards, self.n_classes) + prior
        out: torch.Tensor = torch.log_softmax(logits, dim=-1)
        return out

    def linears(self) -> list[nn.Linear]:
        return [m for m in self.body if isinstance(m, nn.Linear)]


def _loss(
    net: BeliefNet, obs: torch.Tensor, prior: torch.Tensor, classes: torch.Tensor,
    hidden: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:  # fmt: skip
    """(summed cross-entropy over the hidden cards, their number)."""
    logp = net(obs, prior)
    picked = logp.gather(2, classes.long().unsqueeze(-1)).squeeze(-1)
    return -(picked * hidden).sum(), hidden.sum()


def fit(
    config: BeliefConfig, data: BeliefData, log: Any = print
) -> tuple[BeliefNet, dict[str, Any]]:
    """Train on the first deals, keep the epoch best on the validation deals, report on the
    held-out ones: the model's and the uniform sampler's log-loss per hidden card (on the same
    held-out decisions)."""
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    holders = holder_map(config.game)
    last = int(data.deal.max()) + 1 if len(data.deal) else 0
    test_from = math.ceil(last * (1 - config.holdout))
    valid_from = math.ceil(last * (1 - config.holdout - config.valid))
    train = np.flatnonzero(data.deal < valid_from)
    valid = np.flatnonzero((data.deal >= valid_from) & (data.deal < test_from))
    held = np.flatnonzero(data.deal >= test_from)
    net = BeliefNet(
        data.obs.shape[1], config.hidden, holders.n_cards, holders.n_classes, config.dropout
    )
    opt = torch.optim.AdamW(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    obs = torch.from_numpy(data.obs)
    prior = torch.from_numpy(data.prior)
    classes = torch.from_numpy(data.classes)
    hidden = torch.from_numpy(data.hidden)
    gen = torch.Generator().manual_seed(config.seed)
    train_t = torch.from_numpy(train)
    best: tuple[float, int, dict[str, torch.Tensor]] | None = None
    for epoch in range(config.epochs):
        net.train()
        order = train_t[torch.randperm(len(train_t), generator=gen)]
        total, cards = 0.0, 0
        for i in range(0, len(order), config.batch):
            rows = order[i : i + config.batch]
            loss, n = _loss(
                net, obs[rows].float(), prior[rows].float(), classes[rows], hidden[rows].float()
            )
            opt.zero_grad()
            torch.autograd.backward([loss / n.clamp(min=1)])
            opt.step()
            total, cards = total + float(loss.detach()), cards + int(n)
        valid_loss = _held_loss(net, obs, prior, classes, hidden, valid if len(valid) else train)
        log(f"epoch {epoch + 1}: train {total / max(cards, 1):.4f}, validation {valid_loss:.4f}")
        if best is None or valid_loss < best[0]:
            best = (valid_loss, epoch + 1, {k: v.clone() for k, v in net.state_dict().items()})
    if best is not None:
        net.load_state_dict(best[2])
    report: dict[str, Any] = {
        "train_decisions": len(train),
        "valid_decisions": len(valid),
        "heldout_decisions": len(held),
        "best_epoch": best[1] if best is not None else 0,
        "valid_logloss": best[0] if best is not None else None,
        "heldout_logloss": _held_loss(net, obs, prior, classes, hidden, held),
        "prior_logloss": _prior_loss(prior, classes, hidden, held),
    }
    pick = np.isin(data.uniform_rows, held)
    if pick.any():
        report["uniform_compared_decisions"] = int(pick.sum())
        report["uniform_logloss"] = float(
            data.uniform_loss[pick].sum() / data.uniform_cards[pick].sum()
        )
        report["model_logloss_same_decisions"] = _held_loss(
            net, obs, prior, classes, hidden, data.uniform_rows[pick]
        )
    return net, report


@torch.no_grad()
def _held_loss(
    net: BeliefNet, obs: torch.Tensor, prior: torch.Tensor, classes: torch.Tensor,
    hidden: torch.Tensor, rows: npt.NDArray[np.int64],
) -> float:  # fmt: skip
    net.eval()
    total, cards = 0.0, 0
    for i in range(0, len(rows), 2048):
        r = torch.from_numpy(rows[i : i + 2048])
        loss, n = _loss(net, obs[r].float(), prior[r].float(), classes[r], hidden[r].float())
        total, cards = total + float(loss), cards + int(n)
    return total / max(cards, 1)


@torch.no_grad()
def _prior_loss(
    prior: torch.Tensor, classes: torch.Tensor, hidden: torch.Tensor, rows: npt.NDArray[np.int64]
) -> float:
    """The held-out log-loss of the constraint prior alone (an untrained network's)."""
    total, cards = 0.0, 0
    for i in range(0, len(rows), 2048):
        r = torch.from_numpy(rows[i : i + 2048])
        logp = torch.log_softmax(prior[r].float(), dim=-1)
        picked = logp.gather(2, classes[r].long().unsqueeze(-1)).squeeze(-1)
        mask = hidden[r].float()
        total, cards = total - float((picked * mask).sum()), cards + int(mask.sum())
    return total / max(cards, 1)


def write_belief(
    folder: str | Path, net: BeliefNet, config: BeliefConfig, rules: RulesLike,
    report: dict[str, Any],
) -> Path:  # fmt: skip
    """Save ``net`` in ``mazzo-belief/1`` (``mazzo.agents.belief`` reads it)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    game = get_game(config.game)
    arrays: dict[str, np.ndarray] = {}
    for i, layer in enumerate(net.linears()):
        arrays[f"w{i}"] = layer.weight.detach().numpy().astype(np.float16)
        arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float16)
    np.savez_compressed(folder / "weights.npz", **arrays)  # type: ignore[arg-type]
    meta = {
        "format": BELIEF_FORMAT,
        "game": config.game,
        "flags": rules.to_flags(),
        "encoding_version": game.encoder(rules).version,
        "hidden": list(config.hidden),
        "config": {**asdict(config), "hidden": list(config.hidden), "agents": list(config.agents)},
        "report": report,
    }
    (folder / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    return folder


def train_belief(
    config: BeliefConfig, out: str | Path, log: Any = print, data: str | Path | None = None
) -> dict[str, Any]:
    """Collect (or read ``data`` when that file exists; else collect and keep the decisions
    there), fit and save; returns the report (with the wall times)."""
    game = get_game(config.game)
    rules = game.rules(config.flags)
    start = time.perf_counter()
    if data is not None and Path(data).exists():
        decisions = BeliefData.load(data)
        log(f"read {len(decisions.obs)} decisions from {data}")
    else:
        decisions = collect_parallel(config)
        log(f"collected {len(decisions.obs)} decisions of {config.deals} deals")
        if data is not None:
            decisions.save(data)
    collected = time.perf_counter()
    net, report = fit(config, decisions, log)
    report["collect_s"] = round(collected - start, 1)
    report["fit_s"] = round(time.perf_counter() - collected, 1)
    write_belief(out, net, config, rules, report)
    return report

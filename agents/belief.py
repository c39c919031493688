"""Learned beliefs about the hidden cards, and search worlds drawn with them (game-agnostic).

A *belief model* reads one seat's observation (the game's encoder, the same vector the policies
read) and predicts, for every card, where it lies from that seat's point of view: a *holder
class*, ``0`` for the seat's own hand, ``1..n-1`` for the hands of the seats (Calabresella:
positions) that follow it in turn order, and ``n`` for every place outside the hands (the
Minchiate Fola and discards, the Calabresella monte or set-aside cards). Each game says how a
complete world maps to these classes (``HolderMap``: ``mazzo.agents.<game>.holders``).

The model starts from the *constraint prior* (``slot_prior``: each hidden card spread over the
slots the world sampler allows it, in proportion to their free room) and adds an MLP's logits to
the prior's: the network learns only what the play says beyond the rules' constraints (the
constraints themselves, which a network would have to learn from the raw observation, it gets
for free, and a network that learned nothing leaves the prior as it is). The MLP's last layer
starts at zero. Its forward pass runs here in numpy, so a search agent that uses it
needs neither torch nor a GPU; ``mazzo.training.belief`` trains it (with torch) and writes it in the
format read here: a folder with ``meta.json`` (``format``: ``mazzo-belief/1``, the game, its
rule flags, the encoding version, the layer sizes, the training and calibration figures) and
``weights.npz`` (``w0, b0, w1, b1, ...``, float16, computed in float32; read with
``allow_pickle=False``).

``BeliefWorlds`` is the search's use of it: draw a *pool* of worlds from the game's exact
uniform sampler, weight each world by ``prod (q / u) ** alpha`` over the cards the seat cannot
see (``q``: the model's probability of the card's class in that world; ``u``: the share of the
pool's worlds that put it there, the uniform sampler's own marginal), and resample the worlds
the search evaluates from the pool in proportion to those weights (systematic resampling).
The ratio is the model's evidence beyond what the uniform sampler already knows (voids, public
cards, hand sizes): where the model only repeats the sampler's marginals, every weight is one
and the search is plain PIMC's. The weights tilt the exact posterior of a uniform shuffle
towards what the play suggests, and the sampler's constraints still hold in every world.

Must not import torch or training/.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from mazzo.envs.cards.bits import bit_list
from mazzo.envs.protocols import AnyEncoder
from mazzo.envs.registry import get_game

__all__ = [
    "BELIEF_FORMAT",
    "BeliefModel",
    "BeliefWorlds",
    "HolderMap",
    "effective_size",
    "hand_classes",
    "load_belief",
    "mask_array",
    "slot_prior",
    "systematic_counts",
    "tempered",
]

BELIEF_FORMAT = "mazzo-belief/1"
U_SMOOTHING = 0.5  # pseudo-count per class of the pool's own shares

Classes = npt.NDArray[np.int8]


class HolderMap(Protocol):
    """One game's holder classes (``mazzo.agents.<game>.holders``)."""

    n_cards: int
    n_classes: int

    def of_state(self, state: Any, seat: int) -> Classes:
        """The class of every card in a complete state, from ``seat``'s point of view."""

    def of_assignment(self, view: Any, world: Any) -> Classes:
        """The class of every card in a sampler's assignment, from ``view``'s point of view."""

    def hidden(self, view: Any) -> int:
        """The cards whose place ``view`` does not show (bitmask)."""

    def prior(self, view: Any, sampler: Any) -> npt.NDArray[np.float32]:
        """log of the constraint prior (``slot_prior``) of ``view``'s world sampler."""


PRIOR_FLOOR = 1e-6  # the prior's share of a class the constraints rule out (log ~ -13.8)


def slot_prior(
    n_cards: int, n_classes: int, slot_class: Sequence[int], capacities: Sequence[int],
    allowed: dict[int, int], placed: Sequence[tuple[int, int]],
) -> npt.NDArray[np.float32]:  # fmt: skip
    """The *constraint prior*: log of each card's share of each class when every hidden card
    goes to an allowed slot in proportion to the slot's free capacity (what the rules and the
    view allow, card by card, without the coupling of the exact sampler), one-hot for the
    cards whose place is known.

    Args:
        slot_class: the holder class of each sampler slot.
        capacities: each sampler slot's free capacity.
        allowed: hidden card -> bitmask over the sampler slots it may occupy.
        placed: (cards, class) of the cards whose place is known (bitmask, class); every card
            not hidden and not placed is put in the last class (outside the hands).
    """
    share = np.zeros((n_cards, n_classes))
    share[:, n_classes - 1] = 1.0
    for cards, k in placed:
        for c in bit_list(cards):
            share[c] = 0.0
            share[c, k] = 1.0
    weight = np.zeros((len(slot_class), n_classes))
    weight[np.arange(len(slot_class)), list(slot_class)] = capacities
    by_mask: dict[int, list[int]] = {}
    for c, mask in allowed.items():
        by_mask.setdefault(mask, []).append(c)
    for mask, group in by_mask.items():  # most hidden cards share a few masks
        slots = [j for j in range(len(slot_class)) if mask >> j & 1]
        row = weight[slots].sum(axis=0)
        total = row.sum()
        if total > 0:
            share[group] = row / total
    out: npt.NDArray[np.float32] = np.log(np.maximum(share, PRIOR_FLOOR)).astype(np.float32)
    return out


def mask_array(mask: int, n_cards: int) -> npt.NDArray[np.bool_]:
    """Card bitmask ``mask`` as ``n_cards`` booleans (card id order)."""
    raw = np.frombuffer(mask.to_bytes((n_cards + 7) // 8, "little"), np.uint8)
    out: npt.NDArray[np.bool_] = np.unpackbits(raw, bitorder="little")[:n_cards].astype(bool)
    return out


def hand_classes(hands: Sequence[int], first: int, n_cards: int) -> Classes:
    """The holder class of every card when ``hands`` (per seat or position, in turn order)
    are the hands and ``first`` is the viewer: ``(holder - first) mod len(hands)``, and
    ``len(hands)`` (outside the hands) for every other card."""
    n = len(hands)
    out = np.full(n_cards, n, np.int8)
    for r in range(n):
        out[mask_array(hands[(first + r) % n], n_cards)] = r
    return out


def holder_map(game: str) -> HolderMap:
    """The holder classes of ``game``."""
    import importlib

    module = importlib.import_module(f"mazzo.agents.{game}.holders")
    found: HolderMap = module.HOLDERS
    return found


class BeliefModel:
    """A trained belief model (numpy inference).

    Attributes:
        meta: the model's ``meta.json``.
        encoder: the game's encoder for the rules it was trained for.
        holders: the game's holder classes.
    """

    def __init__(
        self, layers: Sequence[tuple[np.ndarray, np.ndarray]], meta: dict[str, Any],
        encoder: AnyEncoder, holders: HolderMap,
    ) -> None:  # fmt: skip
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        self.meta, self.encoder, self.holders = meta, encoder, holders
        self._obs = np.zeros((1, encoder.obs_size), np.float32)
        self._mask = np.zeros((1, encoder.num_actions), np.int8)

    def log_probs(self, view: Any, sampler: Any) -> npt.NDArray[np.float32]:
        """log q(card, class) for ``view`` (``sampler``: its world sampler, for the constraint
        prior): shape (n_cards, n_classes), each row normalised."""
        return self.log_probs_with(view, self.holders.prior(view, sampler))

    def log_probs_with(self, view: Any, prior: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """``log_probs`` given the view's constraint prior."""
        self._obs[:] = 0
        self._mask[:] = 0
        self.encoder.encode_batch([view], self._obs, self._mask)
        out: npt.NDArray[np.float32] = self.log_probs_of(self._obs, prior[None])[0]
        return out

    def log_probs_of(
        self, obs: npt.NDArray[np.float32], prior: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float32]:
        """log q for a batch of encoded observations and their constraint priors: shape
        (batch, n_cards, n_classes); the network adds its evidence to the prior's logits."""
        h = obs
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w.T + b
            if i < last:
                np.maximum(h, 0, out=h)
        h = h.reshape(len(obs), self.holders.n_cards, self.holders.n_classes) + prior
        h = h - h.max(axis=2, keepdims=True)
        out: npt.NDArray[np.float32] = h - np.log(np.exp(h).sum(axis=2, keepdims=True))
        return out


def load_belief(path: str | Path, game: str) -> BeliefModel:
    """The belief model in folder ``path``, checked to be ``game``'s.

    Raises:
        ValueError: not a belief model folder, another game's, an encoding version this mazzo
            does not have, or weights that do not fit the declared layers.
    """
    folder = Path(path)
    try:
        meta = json.loads((folder / "meta.json").read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{str(path)!r} is not a belief model folder ({e})") from None
    if not isinstance(meta, dict) or meta.get("format") != BELIEF_FORMAT:
        got = meta.get("format") if isinstance(meta, dict) else meta
        raise ValueError(f"{folder}: format {got!r}, expected {BELIEF_FORMAT!r}")
    if meta.get("game") != game:
        raise ValueError(f"{folder} holds a {meta.get('game')} belief model, not a {game} one")
    info = get_game(game)
    rules = info.rules(meta.get("flags", {}))
    encoder = info.encoder(rules)
    if meta.get("encoding_version") != encoder.version:
        raise ValueError(
            f"{folder}: trained on encoding v{meta.get('encoding_version')}, "
            f"this mazzo encodes v{encoder.version}"
        )
    holders = holder_map(game)
    sizes = [encoder.obs_size, *meta.get("hidden", []), holders.n_cards * holders.n_classes]
    try:
        with np.load(folder / "weights.npz", allow_pickle=False) as npz:
            layers = [(npz[f"w{i}"], npz[f"b{i}"]) for i in range(len(sizes) - 1)]
    except (OSError, KeyError, ValueError) as e:
        raise ValueError(f"{folder}: unreadable weights.npz ({e})") from None
    for i, (w, b) in enumerate(layers):
        if w.shape != (sizes[i + 1], sizes[i]) or b.shape != (sizes[i + 1],):
            raise ValueError(
                f"{folder}: layer {i} is {w.shape}, expected {(sizes[i + 1], sizes[i])}"
            )
    return BeliefModel(layers, meta, encoder, holders)


def systematic_counts(weights: npt.NDArray[np.float64], n: int, u: float) -> npt.NDArray[np.int64]:
    """How many of ``n`` systematic-resampling draws fall on each weight (``u`` in [0, 1)
    offsets the comb): every index gets ``floor`` or ``ceil`` of ``n * its share``."""
    cum = np.cumsum(weights)
    cum /= cum[-1]
    points = (u + np.arange(n)) / n
    idx = np.minimum(np.searchsorted(cum, points, side="right"), len(weights) - 1)
    counts: npt.NDArray[np.int64] = np.bincount(idx, minlength=len(weights))
    return counts


@dataclass
class BeliefWorlds:
    """Worlds for one decision, resampled from a uniform pool by a belief model.

    Attributes:
        model: the belief model.
        pool: uniform worlds drawn per evaluated world (1: no resampling, the evaluated
            worlds are weighted instead).
        alpha: the weight's largest exponent (0: the uniform sampler; 1: the model's product
            as is).
        ess: the smallest effective sample size of the weights, as a share of the worlds
            weighted: the exponent is lowered (tempered) until ``(sum w)^2 / sum w^2`` reaches
            it. A product over dozens of cards is peaked; untempered, a handful of worlds
            would carry the whole search.
        against: what the model's probabilities are divided by: ``pool`` (the pool's own
            shares, the uniform sampler's marginals; the default, measured stronger) or
            ``prior`` (the constraint prior: the weights are the network's own evidence, all 1
            for a network that learned nothing).
    """

    model: BeliefModel
    pool: int = 2
    alpha: float = 1.0
    ess: float = 0.5
    against: str = "pool"

    def draw(self, view: Any, sampler: Any, samples: int, rng: np.random.Generator) -> list[
        tuple[Any, float]
    ]:  # fmt: skip
        """(assignment, weight) pairs whose weights add up to ``samples``: with ``pool`` > 1,
        the distinct assignments of ``samples`` systematic draws from ``samples * pool``
        uniform ones, each weighted by its number of draws, in random order (the search
        evaluates each once); with ``pool`` = 1, ``samples`` uniform assignments, each
        weighted by its normalised belief weight (importance sampling, nothing drawn twice)."""
        worlds = [sampler.sample_assignment(rng) for _ in range(samples * self.pool)]
        weights = self.weights(view, sampler, worlds)
        if self.pool == 1:
            shares = weights * (samples / weights.sum())
            return [(w, float(x)) for w, x in zip(worlds, shares, strict=True)]
        counts = systematic_counts(weights, samples, float(rng.random()))
        chosen = np.flatnonzero(counts)
        rng.shuffle(chosen)
        return [(worlds[i], float(counts[i])) for i in chosen]

    def weights(self, view: Any, sampler: Any, worlds: Sequence[Any]) -> npt.NDArray[np.float64]:
        """Each world's weight (the largest is 1): ``prod over hidden cards of (q / r) **
        alpha`` at the card's class in the world, ``q`` the model's probability and ``r`` the
        reference ``against`` names: the constraint prior (the network's own evidence), or
        the share of the worlds given that puts the card there (smoothed by
        ``U_SMOOTHING``); the exponent tempered to keep ``ess``."""
        holders = self.model.holders
        hidden = holders.hidden(view)
        cards = np.array([c for c in range(holders.n_cards) if hidden >> c & 1], np.int64)
        if not len(cards) or self.alpha == 0:
            return np.ones(len(worlds))
        prior = holders.prior(view, sampler)
        logq = self.model.log_probs_with(view, prior)[cards].astype(np.float64)
        classes = np.stack([holders.of_assignment(view, w)[cards] for w in worlds])
        cols = np.broadcast_to(np.arange(len(cards)), classes.shape)
        if self.against == "prior":
            ratio = logq - prior[cards]
        else:
            counts = np.zeros((len(cards), holders.n_classes))
            np.add.at(counts, (cols, classes), 1.0)
            share = (counts + U_SMOOTHING) / (len(worlds) + U_SMOOTHING * holders.n_classes)
            ratio = logq - np.log(share)
        score = ratio[cols, classes].sum(axis=1)
        score -= score.max()
        out: npt.NDArray[np.float64] = np.exp(score * tempered(score, self.alpha, self.ess))
        return out


def effective_size(weights: npt.NDArray[np.float64]) -> float:
    """Kish's effective sample size of importance weights."""
    return float(weights.sum() ** 2 / (weights**2).sum())


def tempered(score: npt.NDArray[np.float64], alpha: float, ess: float) -> float:
    """The largest exponent ``a <= alpha`` whose weights ``exp(a * score)`` keep an effective
    sample size of at least ``ess * len(score)`` (bisection; the size falls as ``a`` grows)."""
    need = ess * len(score)
    if effective_size(np.exp(alpha * score)) >= need:
        return alpha
    lo, hi = 0.0, alpha
    for _ in range(30):
        mid = (lo + hi) / 2
        if effective_size(np.exp(mid * score)) >= need:
            lo = mid
        else:
            hi = mid
    return lo

"""A network policy as an agent: it encodes the seat's ``InfoView`` with the game's encoder and
picks from the masked policy, deterministically (the most probable legal action) by default or
by sampling on request. ``act_batch`` and ``act_each`` (one generator per view, as the arena
calls it) run one forward pass for many views.

``load_policy(path)`` reads a trainer's checkpoint (a folder with ``meta.json`` and
``model.pt``, or a run directory, whose latest checkpoint is taken) without executing anything
from it: the tensors are read with ``torch.load(weights_only=True)``, the rest is JSON. It
checks the checkpoint against the registered game (its encoding version) and rebuilds the net.

Imports torch; must not import training/.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import torch

from mazzo.agents.nets import PolicyValueNet
from mazzo.agents.run_folders import checkpoints_in
from mazzo.envs.protocols import AnyEncoder, RulesLike
from mazzo.envs.registry import get_game

__all__ = [
    "CHECKPOINT_FORMAT",
    "NeuralAgent",
    "PolicyNet",
    "checkpoint_dir",
    "load_policy",
    "read_policy",
]

CHECKPOINT_FORMAT = "mazzo-checkpoint/1"


class PolicyNet(Protocol):
    """What the agent needs of a network: masked logits from observations and masks."""

    def logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor: ...


class NeuralAgent:
    """Acts with ``net`` on views encoded by ``encoder``.

    Args:
        net: the policy (``logits(obs, mask)``); used in inference mode.
        encoder: the game's encoder for the rules the net was trained on.
        sample: sample from the policy instead of taking its most probable action.
        threads: torch threads of its forward passes (restored after each), or None for the
            process's setting. One by default: a batch of decisions is small, callers run
            processes in parallel, and on a busy machine extra OpenMP threads spin (the arena
            measured 30x slower with two threads under load).
        trained_rules: the rules the net was trained for (from its checkpoint), or None for a
            net in training; ``mazzo.agents.trained_rules`` refuses other rules.
    """

    name = "nn"
    foreign_rules = False  # set by the ``foreign_rules=true`` spec parameter

    def __init__(
        self, net: PolicyNet, encoder: AnyEncoder, sample: bool = False, threads: int | None = 1,
        trained_rules: RulesLike | None = None,
    ) -> None:  # fmt: skip
        self.net, self.encoder, self.sample, self.threads = net, encoder, sample, threads
        self.trained_rules = trained_rules

    def act(self, view: Any, rng: np.random.Generator) -> int:
        return self.act_batch([view], rng)[0]

    def act_batch(self, views: Sequence[Any], rng: np.random.Generator) -> list[int]:
        logits = self._logits(views)
        if not self.sample:
            return [int(a) for a in logits.argmax(dim=-1).tolist()]
        return [int(a) for a in _sample(torch.softmax(logits, dim=-1).numpy(), rng)]

    def act_each(self, views: Sequence[Any], rngs: Sequence[np.random.Generator]) -> list[int]:
        """One forward pass; with ``sample``, view ``i`` draws from ``rngs[i]`` as ``act``
        would."""
        logits = self._logits(views)
        if not self.sample:
            return [int(a) for a in logits.argmax(dim=-1).tolist()]
        probs = torch.softmax(logits, dim=-1).numpy()
        return [int(_sample(probs[i : i + 1], rng)[0]) for i, rng in enumerate(rngs)]

    @torch.no_grad()
    def _logits(self, views: Sequence[Any]) -> torch.Tensor:
        n = len(views)
        obs = np.zeros((n, self.encoder.obs_size), np.float32)
        mask = np.zeros((n, self.encoder.num_actions), np.int8)
        self.encoder.encode_batch(views, obs, mask)
        return self._forward(obs, mask)

    def _forward(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> torch.Tensor:
        """The masked logits on the agent's ``threads`` (the process's setting restored)."""
        before = torch.get_num_threads()
        if self.threads is None or self.threads == before:
            return self.net.logits(torch.from_numpy(obs), torch.from_numpy(mask))
        torch.set_num_threads(self.threads)
        try:
            return self.net.logits(torch.from_numpy(obs), torch.from_numpy(mask))
        finally:
            torch.set_num_threads(before)

    @torch.no_grad()
    def action_probs(self, view: Any) -> npt.NDArray[np.float64]:
        """The policy's probability of every action id for ``view`` (0 for illegal ones): the
        softmax of the masked logits, which ``act`` samples from or takes the most likely of."""
        obs = np.zeros((1, self.encoder.obs_size), np.float32)
        mask = np.zeros((1, self.encoder.num_actions), np.int8)
        self.encoder.encode_batch([view], obs, mask)
        logits = self._forward(obs, mask)
        probs: npt.NDArray[np.float64] = torch.softmax(logits.double(), dim=-1).numpy()[0]
        return probs


def _sample(probs: npt.NDArray[np.float32], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    cum = np.cumsum(probs.astype(np.float64), axis=1)
    u = rng.random(len(probs)) * cum[:, -1]
    out: npt.NDArray[np.int64] = np.minimum((cum < u[:, None]).sum(axis=1), probs.shape[1] - 1)
    return out


def checkpoint_dir(path: str | Path) -> Path:
    """The checkpoint folder ``path`` names: itself, or a run directory's latest.

    Raises:
        ValueError: no checkpoint there; for a run directory whose ``latest`` is missing or
            damaged, the message names the checkpoints the folder still holds.
    """
    path = Path(path)
    if (path / "meta.json").exists():
        return path
    pointer = path / "latest"
    named = ""
    if pointer.exists():
        try:
            named = pointer.read_text().strip()
        except (OSError, UnicodeDecodeError):
            named = "?"
        ckpt = path / named
        if named and (ckpt / "meta.json").exists():
            return ckpt
    held = checkpoints_in(path)
    if held:
        what = f"its 'latest' names {named!r}, no checkpoint" if named else "it has no 'latest'"
        raise ValueError(
            f"{str(path)!r}: {what}; the folder holds {', '.join(p.name for p in held)}: name "
            f"one ({path / held[0].name}), or make it the run's latest to resume from it "
            f"(echo {held[0].name} > {pointer})"
        )
    raise ValueError(f"{str(path)!r} is neither a mazzo checkpoint nor a run directory with one")


def load_tensors(file: Path) -> Any:
    """The tensors of a checkpoint file, read with ``torch.load(weights_only=True)``.

    Raises:
        ValueError: a file holding more than tensors (the refusal names the offending global),
            or a damaged one (truncated, not a torch file), naming the file and its size.
    """
    try:
        return torch.load(file, weights_only=True)
    except pickle.UnpicklingError as e:  # the weights-only unpickler's refusal
        raise ValueError(f"{file.parent}: not a weights-only checkpoint ({e})") from None
    except FileNotFoundError:
        raise ValueError(f"{file.parent}: the checkpoint has no {file.name}") from None
    except (RuntimeError, EOFError, OSError, ValueError) as e:
        size = file.stat().st_size if file.exists() else 0
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ValueError(
            f"{file}: damaged or truncated ({size:,} bytes: {reason}); an earlier checkpoint "
            "of the run, if there is one, is a ckpt-* folder beside it"
        ) from None


def read_policy(path: str | Path) -> tuple[dict[str, torch.Tensor], dict[str, Any]]:
    """(the policy's tensors, the checkpoint's metadata) of a checkpoint or run directory.

    Raises:
        ValueError: not a mazzo checkpoint, or a model file holding more than tensors or
            damaged.
    """
    ckpt = checkpoint_dir(path)
    try:
        meta = json.loads((ckpt / "meta.json").read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{ckpt}: unreadable meta.json ({e})") from None
    if not isinstance(meta, dict) or meta.get("format") != CHECKPOINT_FORMAT:
        got = meta.get("format") if isinstance(meta, dict) else meta
        raise ValueError(f"{ckpt}: format {got!r}, expected {CHECKPOINT_FORMAT!r}")
    return load_tensors(ckpt / "model.pt"), meta


def load_policy(path: str | Path, sample: bool = False) -> tuple[NeuralAgent, dict[str, Any]]:
    """A ``NeuralAgent`` on the policy of a checkpoint, and the checkpoint's metadata.

    Raises:
        ValueError: not a checkpoint, an unknown game, or an encoding version or network
            shape that the registered game does not have.
    """
    model, meta = read_policy(path)
    game = get_game(meta.get("game", ""))
    rules = game.rules(meta.get("flags", {}))
    encoder = game.encoder(rules)
    if meta.get("encoding_version") != encoder.version:
        raise ValueError(
            f"{path}: trained on {game.name} encoding v{meta.get('encoding_version')}, "
            f"this mazzo encodes v{encoder.version}"
        )
    shape = meta.get("network", {})
    if (shape.get("obs_size"), shape.get("num_actions")) != (encoder.obs_size, encoder.num_actions):
        raise ValueError(f"{path}: network shape {shape} does not fit {game.name}")
    hidden, extra = tuple(shape.get("hidden", ())), int(shape.get("critic_extra", 0))
    net = PolicyValueNet(encoder.obs_size, encoder.num_actions, hidden, extra)
    try:
        net.load_state_dict(model)
    except RuntimeError as e:
        raise ValueError(f"{path}: the weights do not fit the network ({e})") from None
    return NeuralAgent(net.eval(), encoder, sample=sample, trained_rules=rules), meta

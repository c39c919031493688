"""Exporting a trained policy as a bundle that runs without torch (``mazzo export``).

``export_bundle`` reads a checkpoint (``mazzo.agents.neural.load_policy``: a checkpoint folder, a
run directory's latest, or a shipped bot), wraps the policy's torso and head with the action mask
(``PolicyGraph``: ``obs``, ``mask`` -> ``probs``, ``logits``), and writes into the output
folder ``policy.onnx`` (``torch.onnx.export``, the torch.export-based exporter, opset 18, one
dynamic batch axis; checked with ``onnx.checker``), ``policy.pt`` (TorchScript of the same),
``test_vectors.jsonl`` (``mazzo.training.export_vectors``), a copy of ``docs/encoding.md`` when
there is one, and ``manifest.json`` last (format ``mazzo.agents.bundle.BUNDLE_FORMAT``, with the
sha256 of every other file). Both exports are compared with the PyTorch policy on the test vectors,
and the written bundle must pass the runtime's self-check (``mazzo.agents.bundle.check``), before
the export counts as done. PPO checkpoints hold policy logits, DMC checkpoints Q-values in the same
head: either way ``logits`` is the head's masked output and ``probs`` its softmax, as
``mazzo.agents.neural.NeuralAgent`` reads them.

Imports torch, onnx (and onnxscript, through the exporter).
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import io
import json
import logging
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from mazzo.agents.bundle import (
    BUNDLE_FORMAT,
    MANIFEST,
    action_labels,
    load_bundle,
    sha256,
)
from mazzo.agents.bundle.check import TOLERANCE, check_vectors
from mazzo.agents.nets import PolicyValueNet
from mazzo.agents.neural import checkpoint_dir, load_policy
from mazzo.agents.shipped import SHIPPED
from mazzo.envs.cards.flags import resolved_flags
from mazzo.envs.registry import AnyGame, game_names, get_game
from mazzo.training.export_vectors import make_vectors, vectors_jsonl
from mazzo.training.rl.ship import SHIPPED_KEYS

__all__ = ["BUNDLE_FILES", "OPSET", "PolicyGraph", "export_bundle", "source_checkpoint"]

OPSET = 18
ONNX_FILE, TORCHSCRIPT_FILE, VECTORS_FILE, ENCODING_DOC = (
    "policy.onnx", "policy.pt", "test_vectors.jsonl", "encoding.md",
)  # fmt: skip
BUNDLE_FILES = (MANIFEST, ONNX_FILE, TORCHSCRIPT_FILE, VECTORS_FILE, ENCODING_DOC)
ROOT = Path(__file__).resolve().parents[1]
HEADS = {"ppo": "policy logits", "dmc": "Q-values (probs are their softmax)"}


class PolicyGraph(nn.Module):
    """The acting part of a ``PolicyValueNet``: ``(obs, mask) -> (probs, logits)``, the logits
    masked with the float32 minimum (as ``mazzo.agents.nets.masked_logits``) and the probabilities
    their softmax with illegal entries set to exactly 0."""

    def __init__(self, net: PolicyValueNet) -> None:
        super().__init__()
        self.torso, self.policy = net.torso, net.policy
        self.fill = float(torch.finfo(torch.float32).min)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        legal = mask != 0
        logits = self.policy(self.torso(obs)).masked_fill(~legal, self.fill)
        probs = torch.where(legal, torch.softmax(logits, dim=-1), torch.zeros_like(logits))
        return probs, logits


def source_checkpoint(checkpoint: str | Path, game: str | None = None) -> Path:
    """The checkpoint folder that ``checkpoint`` names: ``bot`` is the shipped bot of ``game``
    (by default the first game, as every command's ``--game``), anything else a checkpoint
    folder or run directory.

    Raises:
        ValueError: ``bot`` for a game with no shipped bot; no checkpoint.
    """
    if str(checkpoint) == "bot":
        folder = SHIPPED / get_game(game or game_names()[0]).name
        if not (folder / "meta.json").exists():
            raise ValueError(f"{game} has no shipped bot (no {folder / 'meta.json'})")
        return folder
    return checkpoint_dir(checkpoint)


def export_bundle(
    checkpoint: str | Path, out: str | Path, *, game: str | None = None, force: bool = False,
    vectors: int = 64, seed: int = 0,
) -> dict[str, Any]:  # fmt: skip
    """Write the bundle of ``checkpoint`` into folder ``out``; returns its manifest.

    Args:
        checkpoint: a checkpoint folder, a run directory, or ``bot`` (with ``game``).
        out: the bundle folder; an existing non-empty one needs ``force`` (the bundle's own
            files in it are then replaced, nothing else is touched). The new bundle is written
            and self-checked in a staging folder beside ``out`` first: until it passes, a
            bundle already in ``out`` stays as it was (an interrupt, a full disk or a failed
            check leaves it whole).
        game: the game of a shipped bot; for a checkpoint, the game it must hold.
        vectors: the number of test vectors; seed: their deals' seed.

    Raises:
        ValueError: a bad checkpoint or ``out``, a checkpoint of another game than ``game``,
            fewer than 1 vector, or an export that does not reproduce the PyTorch policy.
    """
    ckpt = source_checkpoint(checkpoint, game)
    agent, meta = load_policy(ckpt)
    held = get_game(meta["game"])  # the game of the checkpoint's policy
    if game is not None and held.name != game:
        raise ValueError(f"{checkpoint} holds a {held.name} policy, not a {game} one")
    if vectors < 1:
        raise ValueError(f"the number of test vectors must be at least 1, got {vectors}")
    out = _prepare_out(Path(out), force)
    if not isinstance(agent.net, PolicyValueNet):
        raise ValueError(f"{ckpt}: not a PolicyValueNet policy ({type(agent.net).__name__})")
    staging = out.parent / f".{out.name}.partial"
    shutil.rmtree(staging, ignore_errors=True)  # a staging folder an interrupted export left
    staging.mkdir(parents=True)
    try:
        manifest = _write_bundle(held, meta, ckpt, agent.net, staging, vectors, seed)
        _move_into(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return manifest


def _write_bundle(
    held: AnyGame, meta: dict[str, Any], ckpt: Path, net: PolicyValueNet, out: Path,
    vectors: int, seed: int,
) -> dict[str, Any]:  # fmt: skip
    """Write and self-check the bundle in the empty folder ``out``; returns its manifest."""
    graph = PolicyGraph(net).eval()
    rules = held.rules(meta.get("flags", {}))
    with torch.no_grad():
        vecs = make_vectors(held, rules, lambda o, m: _torch_probs(graph, o, m), vectors, seed)
        obs = np.asarray([v["obs"] for v in vecs], np.float32)
        mask = np.asarray([v["mask"] for v in vecs], np.int8)
        _export_onnx(graph, out / ONNX_FILE, obs, mask)
        _export_torchscript(graph, out / TORCHSCRIPT_FILE)
        _verify(out, graph, obs, mask)
    (out / VECTORS_FILE).write_text(vectors_jsonl(vecs))
    doc = ROOT / "docs" / ENCODING_DOC
    if doc.is_file():
        shutil.copyfile(doc, out / ENCODING_DOC)
    manifest = _manifest(held, rules, meta, ckpt, net, out, vectors, seed)
    (out / MANIFEST).write_text(_json(manifest))
    report = check_vectors(load_bundle(out))
    if not report.ok:
        raise ValueError(f"the written bundle fails its self-check: {report.problems[0]}")
    return manifest


def _prepare_out(out: Path, force: bool) -> Path:
    """Check ``out`` (a folder, empty unless ``force``) and create it; nothing in it is
    touched here."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {str(out)!r} is a file, not a folder")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise ValueError(f"--out {str(out)!r} is not empty; pass --force to overwrite it")
    out.mkdir(parents=True, exist_ok=True)
    return out


def _move_into(staging: Path, out: Path) -> None:
    """Put the checked bundle of ``staging`` in ``out``: each file replaces its namesake
    (``os.replace``, one step each), the manifest last; a bundle file the new bundle lacks is
    removed; other files in ``out`` stay."""
    names = [n for n in BUNDLE_FILES if n != MANIFEST] + [MANIFEST]
    for name in names:
        if (staging / name).exists():
            (staging / name).replace(out / name)
        else:
            (out / name).unlink(missing_ok=True)


def _torch_probs(
    graph: PolicyGraph, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]
) -> npt.NDArray[np.float32]:
    probs, _ = graph(torch.from_numpy(obs), torch.from_numpy(mask))
    result: npt.NDArray[np.float32] = probs.numpy()
    return result


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence the exporter's progress lines, warnings and log records (it reports through
    all three); an error still raises."""
    log = logging.getLogger("torch.onnx")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            yield
    finally:
        log.setLevel(level)


def _export_onnx(
    graph: PolicyGraph, file: Path, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]
) -> None:
    import onnx

    batch = torch.export.Dim("batch")
    example = (torch.from_numpy(obs[:2].repeat(2, 0)), torch.from_numpy(mask[:2].repeat(2, 0)))
    with _quiet():
        torch.onnx.export(
            graph, example, str(file), input_names=["obs", "mask"],
            output_names=["probs", "logits"], opset_version=OPSET, dynamo=True,
            external_data=False, dynamic_shapes={"obs": {0: batch}, "mask": {0: batch}},
            verbose=False,
        )  # fmt: skip
    try:
        onnx.checker.check_model(str(file), full_check=True)
    except onnx.checker.ValidationError as e:
        raise ValueError(f"{file}: the exported model fails onnx.checker ({e})") from None


def _export_torchscript(graph: PolicyGraph, file: Path) -> None:
    """TorchScript, which torch 2.13 deprecates (in favour of torch.export) but still writes
    and libtorch still reads; its warning is silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.jit.script(graph).save(str(file))  # type: ignore[no-untyped-call]


def _verify(
    out: Path, graph: PolicyGraph, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]
) -> None:
    """Both exports give the PyTorch policy's probabilities on the test vectors (and on a
    batch of one)."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(out / ONNX_FILE), providers=["CPUExecutionProvider"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        script = torch.jit.load(str(out / TORCHSCRIPT_FILE))  # type: ignore[no-untyped-call]
    for o, m in ((obs, mask), (obs[:1], mask[:1])):
        want = _torch_probs(graph, o, m)
        got = {
            ONNX_FILE: session.run(["probs"], {"obs": o, "mask": m})[0],
            TORCHSCRIPT_FILE: script(torch.from_numpy(o), torch.from_numpy(m))[0].numpy(),
        }
        for name, probs in got.items():
            diff = float(np.abs(probs - want).max())
            if diff > TOLERANCE:
                raise ValueError(f"{out / name}: probabilities differ from PyTorch's by {diff}")


def _manifest(
    game: AnyGame, rules: Any, meta: dict[str, Any], ckpt: Path, net: PolicyValueNet, out: Path,
    vectors: int, seed: int,
) -> dict[str, Any]:  # fmt: skip
    info = game.info
    algorithm = str(meta.get("algorithm", "unknown"))
    files = sorted(p.name for p in out.iterdir() if p.name in BUNDLE_FILES and p.name != MANIFEST)
    io_spec = [("obs", "float32", info.obs_size), ("mask", "int8", info.num_actions)]
    outputs = [("probs", "float32", info.num_actions), ("logits", "float32", info.num_actions)]
    return {
        "format": BUNDLE_FORMAT,
        "game": game.name,
        "record_format": info.record_format,
        "encoding_version": info.encoding_version,
        "obs_size": info.obs_size,
        "obs_slices": {k: list(v) for k, v in info.obs_slices.items()},
        "num_actions": info.num_actions,
        "action_labels": action_labels(game, rules),
        "flags": resolved_flags(rules),
        "algorithm": algorithm,
        "network": {
            "kind": "mlp",
            "obs_size": info.obs_size,
            "num_actions": info.num_actions,
            "hidden": [m.out_features for m in net.torso if isinstance(m, nn.Linear)],
            "activation": "relu",
            "head": HEADS.get(algorithm, "policy logits"),
            "mask_fill": float(torch.finfo(torch.float32).min),
        },
        "onnx": {
            "file": ONNX_FILE,
            "opset": OPSET,
            "inputs": [{"name": n, "dtype": t, "shape": ["batch", s]} for n, t, s in io_spec],
            "outputs": [{"name": n, "dtype": t, "shape": ["batch", s]} for n, t, s in outputs],
        },
        "torchscript": {"file": TORCHSCRIPT_FILE, "torch": torch.__version__},
        "test_vectors": {
            "file": VECTORS_FILE,
            "count": vectors,
            "seed": seed,
            "tolerance": TOLERANCE,
        },
        "files": {name: sha256(out / name) for name in files},
        "source": {"path": _shown(ckpt), **{k: meta[k] for k in SHIPPED_KEYS if k in meta}},
        "mazzo_version": _version(),
    }


def _shown(path: Path) -> str:
    """``path`` relative to the repository when inside it (as a shipped bot is), else absolute."""
    path = path.resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _version() -> str:
    try:
        return importlib.metadata.version("mazzo")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _json(obj: Any) -> str:
    return json.dumps(obj, indent=1) + "\n"

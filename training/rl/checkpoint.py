"""Checkpoints of a training run: written atomically, loaded without executing code.

A checkpoint is a folder ``ckpt-<update>/`` in the run directory holding ``model.pt`` (the
policy's tensors), ``trainer.pt`` (optimizer state, torch generator states, the pool's
snapshot tensors) and ``meta.json`` (game, rules flags, encoding version, network shape,
config, counters, the collector's state: deals in flight as D.3 records, the deal stream's
position, the generators). The ``.pt`` files hold tensors and plain containers only and are
read with ``torch.load(weights_only=True)``, which refuses anything else: a checkpoint from
someone else cannot run code. A checkpoint is written to a temporary folder and renamed into
place; ``latest`` (a file naming the newest one) is replaced atomically after it.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import torch

__all__ = ["FORMAT", "latest_checkpoint", "load_checkpoint", "save_checkpoint"]

FORMAT = "mazzo-checkpoint/1"


def save_checkpoint(
    run_dir: Path, name: str, model: dict[str, torch.Tensor], trainer: dict[str, Any],
    meta: dict[str, Any], keep: int = 3,
) -> Path:  # fmt: skip
    """Write checkpoint ``name`` into ``run_dir`` atomically; keep the newest ``keep``."""
    run_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=run_dir))
    try:
        torch.save(model, tmp / "model.pt")
        torch.save(trainer, tmp / "trainer.pt")
        (tmp / "meta.json").write_text(json.dumps({"format": FORMAT, **meta}, indent=1))
        os.chmod(tmp, 0o755)
        final = run_dir / name
        if final.exists():
            shutil.rmtree(final)
        os.replace(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    pointer = run_dir / ".latest.tmp"
    pointer.write_text(name + "\n")
    os.replace(pointer, run_dir / "latest")
    done = sorted(p for p in run_dir.glob("ckpt-*") if p.is_dir())
    for old in done[: max(0, len(done) - keep)]:
        shutil.rmtree(old, ignore_errors=True)
    return final


def latest_checkpoint(path: Path) -> Path:
    """The checkpoint folder ``path`` names: itself, or a run directory's latest.

    Raises:
        ValueError: no checkpoint there.
    """
    if (path / "meta.json").exists():
        return path
    pointer = path / "latest"
    if pointer.exists():
        ckpt = path / pointer.read_text().strip()
        if (ckpt / "meta.json").exists():
            return ckpt
    raise ValueError(f"{str(path)!r} is neither a checkpoint nor a run directory with one")


def load_checkpoint(path: Path) -> tuple[dict[str, torch.Tensor], dict[str, Any], dict[str, Any]]:
    """(model tensors, trainer state, meta) of the checkpoint at ``path`` (or a run's latest).

    Raises:
        ValueError: not a mazzo checkpoint, or a file that holds more than tensors.
    """
    ckpt = latest_checkpoint(path)
    meta = json.loads((ckpt / "meta.json").read_text())
    if meta.get("format") != FORMAT:
        raise ValueError(f"{ckpt}: format {meta.get('format')!r}, expected {FORMAT!r}")
    try:
        model = torch.load(ckpt / "model.pt", weights_only=True)
        trainer = torch.load(ckpt / "trainer.pt", weights_only=True)
    except Exception as e:  # an unpickler refusal names the offending global
        raise ValueError(f"{ckpt}: not a weights-only checkpoint ({e})") from None
    return model, trainer, meta

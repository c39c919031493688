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

from mazzo.agents.neural import CHECKPOINT_FORMAT, checkpoint_dir, load_tensors, read_policy

__all__ = ["FORMAT", "check_start", "load_checkpoint", "save_checkpoint"]

FORMAT = CHECKPOINT_FORMAT


def check_start(
    name: str, meta: dict[str, Any], want: dict[str, Any], whose: str,
    foreign_rules: bool | None = None,
) -> None:  # fmt: skip
    """Check that the network a trainer starts from (``name`` as the config gave it, its
    ``meta.json``) was trained for ``want``'s game, flags and encoding version; its flags may
    differ where ``foreign_rules`` (the trainer's ``init_foreign_rules``; None for a trainer
    without that key) allows it.

    Raises:
        ValueError: naming the first key that differs, and ``whose`` value it should have.
    """
    for key, value in want.items():
        if meta.get(key) != value and not (key == "flags" and foreign_rules):
            offered = key == "flags" and foreign_rules is not None
            hint = " (init_foreign_rules = true allows it)" if offered else ""
            raise ValueError(
                f"init_from {name!r}: its {key} is {json.dumps(meta.get(key))}, {whose} "
                f"is {json.dumps(value)}{hint}"
            )


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
        pointer = run_dir / ".latest.tmp"
        pointer.write_text(name + "\n")
        os.replace(pointer, run_dir / "latest")
    except OSError as e:  # a full disk, a folder made read-only: name it, keep the last one
        shutil.rmtree(tmp, ignore_errors=True)
        raise OSError(
            e.errno,
            f"cannot write checkpoint {name} into {run_dir} ({e.strerror or e}); the "
            "run's previous checkpoint is intact: free space and resume from it",
        ) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    done = sorted(p for p in run_dir.glob("ckpt-*") if p.is_dir())
    for old in done[: max(0, len(done) - keep)]:
        shutil.rmtree(old, ignore_errors=True)
    return final


def load_checkpoint(path: Path) -> tuple[dict[str, torch.Tensor], dict[str, Any], dict[str, Any]]:
    """(model tensors, trainer state, meta) of the checkpoint at ``path`` (or a run's latest).

    Raises:
        ValueError: not a mazzo checkpoint, or a file that holds more than tensors.
    """
    model, meta = read_policy(path)
    trainer = load_tensors(checkpoint_dir(path) / "trainer.pt")
    return model, trainer, meta

"""Shipping a trained bot: the policy of a run's latest checkpoint as a small folder that the
``nn:`` and ``bot`` agents load (``agents.neural.load_policy``): ``model.pt`` (the tensors),
``meta.json`` (game, rules flags, encoding version, network shape, algorithm, config, counters;
without the trainer's state), ``config.json`` and a ``CARD.md`` saying how it was trained and
how it scores.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from agents.neural import checkpoint_dir, read_policy

__all__ = ["SHIPPED_KEYS", "ship"]

SHIPPED_KEYS = (
    "format", "algorithm", "game", "flags", "encoding_version", "network", "config", "update",
    "decisions",
)  # fmt: skip


def ship(run_dir: Path, out: Path, card: str) -> dict[str, Any]:
    """Write the bot of ``run_dir``'s latest checkpoint into ``out`` (replaced); returns its
    metadata.

    Raises:
        ValueError: no checkpoint in ``run_dir``.
    """
    _model, meta = read_policy(run_dir)
    ckpt = checkpoint_dir(run_dir)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copyfile(ckpt / "model.pt", out / "model.pt")
    kept = {k: meta[k] for k in SHIPPED_KEYS if k in meta}
    (out / "meta.json").write_text(json.dumps(kept, indent=1) + "\n")
    (out / "config.json").write_text(json.dumps(meta.get("config", {}), indent=1) + "\n")
    (out / "CARD.md").write_text(card)
    return kept

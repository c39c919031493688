"""Shipping a trained bot: the policy of a run's latest checkpoint as a small folder that the
``nn:`` and ``bot`` agents load (``mazzo.agents.neural.load_policy``): ``model.pt`` (the tensors),
``meta.json`` (game, rules flags, encoding version, network shape, algorithm, config, counters;
without the trainer's state), ``config.json`` and a ``CARD.md`` saying how it was trained and
how it scores.

Shipping into a folder that already holds a bot keeps that bot as the next ``v<N>/`` inside
it (``mazzo.agents.shipped.shipped_bots``: ``bot@N`` loads it), so earlier bots stay loadable by
versioned names; nothing else in the folder (the belief model) is touched.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from mazzo.agents.neural import checkpoint_dir, read_policy
from mazzo.agents.shipped import shipped_bots

__all__ = ["BOT_FILES", "SHIPPED_KEYS", "ship"]

BOT_FILES = ("model.pt", "meta.json", "config.json", "CARD.md")

SHIPPED_KEYS = (
    "format", "algorithm", "game", "flags", "encoding_version", "network", "config", "update",
    "decisions",
)  # fmt: skip


def ship(run_dir: Path, out: Path, card: str) -> dict[str, Any]:
    """Write the bot of ``run_dir``'s latest checkpoint into ``out`` (the files of
    ``BOT_FILES``); a bot already there moves to ``out/v<N>/`` first, N its version. Returns
    the new bot's metadata.

    Raises:
        ValueError: no checkpoint in ``run_dir`` (nothing in ``out`` is changed then).
    """
    _model, meta = read_policy(run_dir)
    ckpt = checkpoint_dir(run_dir)
    out.mkdir(parents=True, exist_ok=True)
    versions = shipped_bots(out.parent, out.name)
    if versions:
        keep = out / f"v{max(versions)}"
        keep.mkdir()
        for name in BOT_FILES:
            if (out / name).exists():
                shutil.move(out / name, keep / name)
    shutil.copyfile(ckpt / "model.pt", out / "model.pt")
    kept = {k: meta[k] for k in SHIPPED_KEYS if k in meta}
    (out / "meta.json").write_text(json.dumps(kept, indent=1) + "\n")
    (out / "config.json").write_text(json.dumps(meta.get("config", {}), indent=1) + "\n")
    (out / "CARD.md").write_text(card)
    return kept

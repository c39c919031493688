"""Strength levels: the promoted rounds of an expert-iteration run as a ladder of bots, from a
beginner to just below the best (``bot:level=N``; the best round is the bot itself).

``ship_levels`` writes up to ``count`` promoted rounds (spread evenly from the first, the
weakest, to the one before the best) as ``levels/<N>/`` shipped folders, their weights in
half precision (a level is a bot to play against, not to train on: half the size, the same
choices to within rounding); each folder's ``meta.json`` holds its ``level`` entry (the round,
and its rating once measured). ``write_ratings`` puts the ratings of an arena round robin of
the levels, the heuristic and PIMC (``mazzo eval``'s ``summary.json``, Elo with the heuristic at
0) into those entries; ``mazzo agents``, the server's ``bots`` reply and the web table show them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import torch

from mazzo.agents.shipped import LEVELS_FOLDER
from mazzo.training.rl.ship import ship

__all__ = ["level_rounds", "ship_levels", "write_ratings"]


def level_rounds(promoted: list[int], best: int, count: int, with_best: bool = False) -> list[int]:
    """The rounds that become levels 1, 2, ...: up to ``count`` of the ``promoted`` rounds
    before ``best`` (and ``best`` too with ``with_best``), spread evenly from the first (the
    weakest) to the last."""
    below = sorted(r for r in set(promoted) if r < best or (with_best and r == best))
    if len(below) <= count:
        return below
    step = (len(below) - 1) / max(count - 1, 1)
    return sorted({below[int(i * step + 0.5)] for i in range(count)})


def ship_levels(run_dir: Path, out: Path, count: int = 4, with_best: bool = False) -> list[Path]:
    """Write the levels of the expert-iteration run ``run_dir`` (its ``rounds.jsonl``) into
    ``out/levels/`` (replacing what was there); returns their folders, weakest first. The
    run's best round is a level only ``with_best`` (where ``out``'s bot is another network).

    Raises:
        ValueError: ``run_dir`` holds no finished round.
    """
    rounds_file = run_dir / "rounds.jsonl"
    if not rounds_file.is_file():
        raise ValueError(f"{run_dir}: not an expert-iteration run (no rounds.jsonl)")
    records = [json.loads(line) for line in rounds_file.read_text().splitlines() if line]
    if not records:
        raise ValueError(f"{run_dir}: no round has finished yet")
    promoted = [r["round"] for r in records if r["promoted"]]
    best = records[-1]["best"]
    target = out / LEVELS_FOLDER
    shutil.rmtree(target, ignore_errors=True)
    folders = []
    for n, k in enumerate(level_rounds(promoted, best, count, with_best), start=1):
        record = next(r for r in records if r["round"] == k)
        folder = target / str(n)
        card = (
            f"# Level {n}: round {k} of an expert-iteration run\n\n"
            f"A weaker bot to play against (`bot:level={n}`): the network of round {k} of "
            f"`{run_dir}`, weights in half precision. Its evaluations in the run: "
            f"{json.dumps(record.get('evals', {}))}.\n"
        )
        network = run_dir / f"round-{k:02d}" / record.get("network", "")  # (gate_passes)
        meta = ship(network, folder, card)
        model = torch.load(folder / "model.pt", weights_only=True)
        torch.save({name: t.half() for name, t in model.items()}, folder / "model.pt")
        meta["level"] = {"level": n, "round": k, "note": f"recipe round {k}", "rating": None}
        (folder / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
        folders.append(folder)
    return folders


def write_ratings(out: Path, summary: dict[str, Any], labels: dict[int, str]) -> dict[int, float]:
    """Put each level's Elo from an arena ``summary`` (``mazzo eval --out``'s summary.json,
    anchored at the heuristic) into its ``meta.json``; ``labels`` names each level's entrant
    in the summary. Returns the ratings by level.

    Raises:
        ValueError: a level the summary has no rating for.
    """
    elo = {row["label"]: row["elo"] for row in summary["agents"] if row["elo"] is not None}
    ratings = {}
    for n, label in labels.items():
        if label not in elo:
            raise ValueError(f"the summary has no rating for {label!r}; rated: {sorted(elo)}")
        file = out / LEVELS_FOLDER / str(n) / "meta.json"
        meta = json.loads(file.read_text())
        meta["level"]["rating"] = round(float(elo[label]), 1)
        file.write_text(json.dumps(meta, indent=1) + "\n")
        ratings[n] = meta["level"]["rating"]
    return ratings

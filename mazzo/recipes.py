"""Where mazzo's data lies, in a clone and installed alike, and how a command finds it by name:
the recipes (trainer configs, ``configs/*.toml``) and the committed deal sets
(``configs/deals/*.jsonl``). In a clone ``mazzo/configs`` links to the repository's
``configs/``; the wheel holds the same files there (docs/architecture.md, "What the wheel
holds").
"""

from __future__ import annotations

from pathlib import Path

from mazzo.envs.cards.flags import did_you_mean

__all__ = ["CONFIGS", "DEALS", "HISTORY", "find_config", "find_deals"]

CONFIGS = Path(__file__).resolve().parent / "configs"
DEALS = CONFIGS / "deals"


def _named(name: str | Path, folder: Path, suffix: str) -> Path | None:
    """``folder/<name><suffix>`` where ``name`` is a bare name (with or without the suffix)."""
    path = Path(name)
    if path.parent == Path(".") and path.suffix in ("", suffix):
        found = folder / f"{path.stem}{suffix}"
        if found.is_file():
            return found
    return None


HISTORY = CONFIGS / "history"  # the one-off runs behind earlier shipped bots, not recipes


def find_config(name: str | Path) -> Path:
    """The config file ``name`` names: a path to a file, the name of one of mazzo's recipes
    (``calabresella_quick``, with or without ``.toml``) or of a run of its history
    (``history/minchiate_expert_round2``). Raises ValueError naming the input and the recipes
    there are."""
    path = Path(name)
    if path.is_file():
        return path
    found = _named(name, CONFIGS, ".toml")
    if found is None and path.parent == Path("history"):
        found = _named(path.name, HISTORY, ".toml")
    if found is not None:
        return found
    recipes = sorted(p.stem for p in CONFIGS.glob("*.toml"))
    raise ValueError(
        f"config {str(name)!r} is neither a file nor a recipe of mazzo's"
        f"{did_you_mean(path.stem, recipes)}; the recipes: {', '.join(recipes)}"
    )


def find_deals(name: str) -> str:
    """``--deals``: a deal file's path as given, or the path of a committed deal set named
    ``name`` (``minchiate-2000-s1``); anything else as given, for the deal reader to refuse
    with its own message."""
    if Path(name).exists():
        return name
    found = _named(name, DEALS, ".jsonl")
    return str(found) if found is not None else name

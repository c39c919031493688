"""Deal sets: the fixed deals the arena plays, generated from a seed or read from a file.

A deal set file is JSON Lines: one RULES.md D.3 record per line (``calabresella-deal/1``,
``minchiate-deal/1``), holding the format, the rule flags that differ from the defaults, the
dealer and the cards in dealing order, and no actions. JSON Lines streams, appends and diffs
line by line, and an error names its line. A JSON list of the same records is accepted on read
too. Every record of a set must be of the same game and carry the same flags.

Generated deal ``i`` is shuffled by ``streams.deal_rng(seed, i)`` and dealt by seat
``i % n_players``, so the first ``n`` deals of a longer set from the same seed are the same
deals, and ``mazzo eval --seed S --n N`` plays the deals ``mazzo dealset --seed S --n N`` writes.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envs.cards.deal import Deal
from envs.registry import Game, game_for_format, get_game
from training.arena.streams import check_seed, deal_rng

__all__ = ["DealSet", "generate_deals", "read_deal_set", "rules_from_flags", "write_deal_set"]


def rules_from_flags(game: str, flags: Mapping[str, Any]) -> Any:
    """``game``'s ``Rules`` from a flags mapping. Raises ValueError naming a bad flag."""
    return get_game(game).rules(flags)


@dataclass(frozen=True)
class DealSet:
    """Deals of one game under one set of rules.

    Attributes:
        game: the game's name (registered in ``envs.registry``).
        rules: the game's frozen ``Rules``.
        deals: the deals, in order (their index is their identity in results and seeds).
        source: where they came from, for reports (``seed=1`` or the file path).
    """

    game: str
    rules: Any
    deals: tuple[Deal, ...]
    source: str

    @property
    def spec(self) -> Game:
        """The game's entry points."""
        return get_game(self.game)

    def records(self) -> list[dict[str, Any]]:
        """The D.3 records of the deals (no actions), JSON-ready."""
        spec = self.spec
        out = []
        for deal in self.deals:
            rec = spec.write_record(spec.new_state(deal, self.rules))
            rec.pop("result", None)
            if not rec.get("actions"):
                rec.pop("actions", None)
            out.append(rec)
        return out

    def to_jsonl(self) -> str:
        """The deal set file's text (one compact record per line)."""
        return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in self.records())

    def digest(self) -> str:
        """SHA-256 of :meth:`to_jsonl`: identifies the deals and rules whatever the source."""
        return hashlib.sha256(self.to_jsonl().encode()).hexdigest()

    def head(self, n: int) -> DealSet:
        """The first ``n`` deals. Raises ValueError if there are fewer."""
        if n > len(self.deals):
            raise ValueError(f"asked for {n} deals but {self.source} holds {len(self.deals)}")
        return DealSet(self.game, self.rules, self.deals[:n], self.source)


def generate_deals(game: str, rules: Any, n: int, seed: int) -> DealSet:
    """``n`` uniformly shuffled deals of ``game`` from ``seed`` (see the module docstring).

    Raises:
        ValueError: an unknown game, ``n < 1`` or a bad seed.
    """
    spec = get_game(game)
    _check_count(n)
    check_seed(seed)
    players = spec.seats(rules)
    deals = tuple(spec.deal_random(deal_rng(seed, i), rules, i % players) for i in range(n))
    return DealSet(game, rules, deals, f"seed={seed}")


def _check_count(n: object) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"the number of deals must be a positive integer, got {n!r}")


def write_deal_set(deal_set: DealSet, path: str | Path) -> None:
    """Write ``deal_set`` as JSON Lines to ``path`` atomically (a temporary file, renamed)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(deal_set.to_jsonl())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_deal_set(
    path: str | Path, game: str | None = None, flags: Mapping[str, Any] | None = None
) -> DealSet:
    """Read a deal set file (JSON Lines, or a JSON list of records).

    Args:
        path: the file.
        game: the expected game; by default taken from the first record's ``format``.
        flags: the rule flags in force (from ``--flag``); every record that names flags must
            name the same. By default the first record's flags (or the defaults) are used and
            every other record must carry the same.

    Raises:
        ValueError: unreadable JSON, a record that is not a valid D.3 deal of the game, records
            of different games or flags, or an empty file; the message names the line.
        OSError: the file cannot be read.
    """
    path = Path(path)
    entries = _load_entries(path)
    if not entries:
        raise ValueError(f"{path}: no deals in the file")
    if game is None:
        game = _game_of(entries[0][1], f"{path}, {entries[0][0]}")
    spec = get_game(game)
    rules = rules_from_flags(game, flags) if flags is not None else None
    deals = []
    for where, record in entries:
        try:
            rec_rules, deal = spec.read_deal(record, rules)
        except ValueError as e:
            raise ValueError(f"{path}, {where}: {e}") from None
        rules = rec_rules
        deals.append(deal)
    return DealSet(game, rules, tuple(deals), str(path))


def _load_entries(path: Path) -> list[tuple[str, Any]]:
    text = path.read_text()
    if text.lstrip().startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not valid JSON: {e}") from None
        if not isinstance(items, list):
            raise ValueError(f"{path}: expected a JSON list of deal records")
        return [(f"record {i + 1}", item) for i, item in enumerate(items)]
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            entries.append((f"line {number}", json.loads(line)))
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}, line {number}: not valid JSON: {e}") from None
    return entries


def _game_of(record: Any, where: str) -> str:
    fmt = record.get("format") if isinstance(record, dict) else None
    try:
        return game_for_format(fmt).name
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None

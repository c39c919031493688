"""Deal sets and deal files: the fixed deals the arena plays, generated from a seed or read from a
file, and the one reader of every file of D.3 records (``mazzo replay``, ``mazzo eval --deals``).

A deal file is one family of formats, detected on read and named in every message:

- a single record: one JSON object (pretty-printed or not);
- a JSON Lines deal set: one record per line (blank lines skipped); a file of one line is a
  single record as well (messages name its line too);
- a JSON list of records (what ``mazzo play`` wrote before; read, never written).

``mazzo dealset`` and ``mazzo play --save`` write JSON Lines: one compact RULES.md D.3 record per
line (``calabresella-deal/1``, ``minchiate-deal/1``). A deal set holds the format, the rule flags
that differ from the defaults, the dealer and the cards in dealing order, and no actions (a
played record's actions are ignored when its deal is played afresh). JSON Lines streams, appends
and diffs line by line, and an error names its line. Every record of a set must be of the same
game and carry the same flags.

Generated deal ``i`` is shuffled by ``streams.deal_rng(seed, i)`` and dealt by seat
``i % n_players``, so the first ``n`` deals of a longer set from the same seed are the same
deals, and ``mazzo eval --seed S --n N`` plays the deals ``mazzo dealset --seed S --n N`` writes.
Files are written atomically (a temporary file, renamed) with the mode the user's umask gives.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.jsontext import loads
from mazzo.envs.deals import check_seed, deal_rng
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, game_for_format

__all__ = [
    "JSON_LINES",
    "JSON_LIST",
    "SINGLE",
    "DealSet",
    "RecordFile",
    "game_of_file",
    "game_of_record",
    "generate_deals",
    "read_deal_set",
    "read_records",
    "records_to_jsonl",
    "write_deal_set",
    "write_text_atomic",
]

SINGLE = "a single record"
JSON_LINES = "a JSON Lines deal set"
JSON_LIST = "a JSON list of records"


@dataclass(frozen=True)
class DealSet:
    """Deals of one game under one set of rules.

    Attributes:
        game: the game (``mazzo.envs.registry``).
        rules: the game's frozen ``Rules``.
        deals: the deals, in order (their index is their identity in results and seeds).
        source: where they came from, for reports (``seed=1`` or the file path).
    """

    game: AnyGame
    rules: RulesLike
    deals: tuple[Deal, ...]
    source: str

    def records(self) -> list[dict[str, Any]]:
        """The D.3 records of the deals (no actions), JSON-ready."""
        game = self.game
        out = []
        for deal in self.deals:
            rec = game.write_record(game.new_state(deal, self.rules))
            rec.pop("result", None)
            if not rec.get("actions"):
                rec.pop("actions", None)
            out.append(rec)
        return out

    def to_jsonl(self) -> str:
        """The deal set file's text (one compact record per line)."""
        return records_to_jsonl(self.records())

    def digest(self) -> str:
        """SHA-256 of :meth:`to_jsonl`: identifies the deals and rules whatever the source."""
        return hashlib.sha256(self.to_jsonl().encode()).hexdigest()

    def head(self, n: int) -> DealSet:
        """The first ``n`` deals. Raises ValueError if there are fewer."""
        if n > len(self.deals):
            raise ValueError(f"asked for {n} deals but {self.source} holds {len(self.deals)}")
        return DealSet(self.game, self.rules, self.deals[:n], self.source)


def generate_deals(game: AnyGame, rules: RulesLike, n: int, seed: int) -> DealSet:
    """``n`` uniformly shuffled deals of ``game`` from ``seed`` (see the module docstring).

    Raises:
        ValueError: ``n < 1`` or a bad seed.
        TypeError: ``rules`` are not ``game``'s.
    """
    _check_count(n)
    check_seed(seed)
    players = game.seats(rules)
    deals = tuple(game.deal_random(deal_rng(seed, i), rules, i % players) for i in range(n))
    return DealSet(game, rules, deals, f"seed={seed}")


def _check_count(n: object) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"the number of deals must be a positive integer, got {n!r}")


def records_to_jsonl(records: list[dict[str, Any]]) -> str:
    """JSON Lines of ``records``: one compact record per line."""
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)


def write_deal_set(deal_set: DealSet, path: str | Path) -> None:
    """Write ``deal_set`` as JSON Lines to ``path`` atomically (see :func:`write_text_atomic`)."""
    write_text_atomic(Path(path), deal_set.to_jsonl(), make_parents=True)


def write_text_atomic(path: Path, text: str, make_parents: bool = False) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, renamed over it:
    a reader never sees half a file. The file gets the mode a new file gets (0666 less the
    user's umask), not the temporary file's 0600."""
    if make_parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's umask (read by setting it, then putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def read_deal_set(
    path: str | Path, game: AnyGame | None = None, rules: RulesLike | None = None
) -> DealSet:
    """Read the deals of a deal file (see the module docstring), to be dealt afresh.

    Args:
        path: the file.
        game: the expected game; by default taken from the first record's ``format``.
        rules: the rules in force (from ``--flag``); every record that names flags must name
            the same. By default the first record's flags (or the defaults) are used and every
            other record must carry the same.

    Raises:
        ValueError: an unreadable or missing file, unreadable JSON, a record that is not a
            valid D.3 deal of the game, records of different games or flags, or no record; the
            message names the file, its kind and the line.
    """
    file = read_records(path)
    if game is None:
        game = game_of_file(file)
    deals = []
    for i, (_, record) in enumerate(file.entries):
        try:
            rules, deal = game.read_deal(record, rules)
        except ValueError as e:
            raise ValueError(f"{file.where(i)}: {e}") from None
        deals.append(deal)
    assert rules is not None  # a deal file holds at least one record
    return DealSet(game, rules, tuple(deals), str(path))


def game_of_file(file: RecordFile) -> AnyGame:
    """The game of a deal file's records (its first record's ``format``). Raises ValueError."""
    return game_of_record(file.entries[0][1], file.where(0))


@dataclass(frozen=True)
class RecordFile:
    """The records of a deal file, in order, not yet checked as records.

    Attributes:
        path: the file.
        kind: which format of the family it is (``SINGLE``, ``JSON_LINES``, ``JSON_LIST``).
        entries: (where in the file, the parsed JSON) per record: ``line 3``, ``record 2``.
    """

    path: Path
    kind: str
    entries: tuple[tuple[str, Any], ...]

    def where(self, i: int) -> str:
        """``F: a JSON Lines deal set, line 3``: the file, its kind and record ``i``'s place."""
        place = self.entries[i][0]
        return f"{self.path}: {self.kind}" + (f", {place}" if place else "")


def read_records(path: str | Path) -> RecordFile:
    """Read a deal file of any format of the family (see the module docstring).

    Raises:
        ValueError: a missing or unreadable file, text that is none of the formats, invalid
            JSON (naming the line of a JSON Lines file), or no record at all.
    """
    path = Path(path)
    text = _read_text(path)
    if not text.strip():
        raise ValueError(f"{path}: no deals in the file (expected {SINGLE}, {JSON_LINES})")
    if text.lstrip().startswith("["):
        return RecordFile(path, JSON_LIST, _list_entries(path, text))
    try:
        whole = loads(text)
    except json.JSONDecodeError as e:
        if _looks_like_lines(text, e):
            return RecordFile(path, JSON_LINES, _line_entries(path, text))
        raise ValueError(
            f"{path}: not valid JSON ({SINGLE} is a JSON object, {JSON_LINES} one object a "
            f"line): {e}"
        ) from None
    if not isinstance(whole, dict):
        raise ValueError(
            f"{path}: expected {SINGLE} (a JSON object) or {JSON_LINES}, "
            f"got a JSON {type(whole).__name__}"
        )
    lines = [n for n, line in enumerate(_lines(text), 1) if line.strip()]
    return RecordFile(path, SINGLE, ((f"line {lines[0]}" if len(lines) == 1 else "", whole),))


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{path}: No such file or directory") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a folder, not a deal file") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file (a deal file is JSON)") from None
    except OSError as e:
        raise ValueError(f"{path}: cannot be read: {e.strerror or e}") from None


def _looks_like_lines(text: str, error: json.JSONDecodeError) -> bool:
    """Whether text that is not one JSON value is JSON Lines: a first value followed by more
    (``Extra data``), or several lines of which the first is JSON on its own."""
    if error.msg == "Extra data":
        return True
    lines = [line for line in _lines(text) if line.strip()]
    if len(lines) < 2:
        return False
    try:
        loads(lines[0])
    except json.JSONDecodeError:
        return False
    return True


def _list_entries(path: Path, text: str) -> tuple[tuple[str, Any], ...]:
    try:
        items = loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: {JSON_LIST}: not valid JSON: {e}") from None
    if not isinstance(items, list):
        raise ValueError(f"{path}: expected {JSON_LIST}")
    if not items:
        raise ValueError(f"{path}: {JSON_LIST}: no deals in the file")
    return tuple((f"record {i + 1}", item) for i, item in enumerate(items))


def _line_entries(path: Path, text: str) -> tuple[tuple[str, Any], ...]:
    entries = []
    for number, line in enumerate(_lines(text), 1):
        if not line.strip():
            continue
        try:
            entries.append((f"line {number}", loads(line)))
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: {JSON_LINES}, line {number}: not valid JSON: {e}") from None
    return tuple(entries)


def game_of_record(record: Any, where: str) -> AnyGame:
    """The game whose ``format`` ``record`` names. Raises ValueError naming ``where`` and the
    known formats."""
    fmt = record.get("format") if isinstance(record, dict) else None
    try:
        return game_for_format(fmt)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def _lines(text: str) -> list[str]:
    """The lines of a JSON Lines text: split at line feeds alone (``str.splitlines`` would also
    split inside a record at U+2028 and other separators JSON allows in a string)."""
    lines = text.split("\n")
    return [line.removesuffix("\r") for line in lines]

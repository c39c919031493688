"""The arena's journal: every finished deal's games appended to a file as the run goes, so that
a long evaluation stopped by a crash, a Ctrl-C or the end of a session resumes where it
stopped (``mazzo eval --out DIR --resume``) with the results of an uninterrupted run.

Owns the file format (``mazzo-arena-journal/1``, JSON Lines) and ``Journal``. The first line
is the header: the format and the plan's fingerprint (game, rules flags, the deal set's digest
and size, the entrants' labels, specs and built names, which spell out every parameter with
its default, the seating scheme, its lineups and the agents' seed). A change of code that keeps
every name (a fixed bug in a heuristic) is not seen: resume only with the code that began.
Each further line is one deal: ``{"deal": i, "t": seconds, "games": [...]}``, its
games (one per lineup, ``GameOutcome``'s fields) and the run's play time when it was booked,
summed over the sessions. A game's result depends only on its deal, lineup, agents and seed
(``runner``'s guarantee), so the deals already in the journal are not played again: a resumed
run continues after the longest finished prefix of the deals (a deal after a gap, finished by
another worker, is played again and gives the same games). A last line cut short by a crash
is dropped. A journal written for another plan is refused with the field that differs.
Entrants built by a factory (not a spec string) cannot be fingerprinted: no journal for them.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mazzo.arena.plan import ArenaPlan
from mazzo.arena.table import GameOutcome, build_agent
from mazzo.arena.workers import Done
from mazzo.envs.cards.jsontext import loads

__all__ = ["FORMAT", "JOURNAL", "Journal", "JournalMismatch", "JournaledDone", "fingerprint"]

FORMAT = "mazzo-arena-journal/1"
JOURNAL = "journal.jsonl"  # its name in ``mazzo eval --out DIR``


class JournalMismatch(ValueError):
    """The journal was written for another plan (the message names the differing field)."""


def fingerprint(plan: ArenaPlan) -> dict[str, Any]:
    """What identifies a plan's games. Raises ValueError for an entrant built by a factory."""
    specs = []
    for e in plan.entrants:
        if not isinstance(e.source, str):
            raise ValueError(
                f"entrant {e.label!r} is built by a factory, not a spec: a run with it cannot "
                "be journaled or resumed"
            )
        specs.append(
            [e.label, e.source, build_agent(e, plan.deal_set.game, plan.deal_set.rules).name]
        )
    ds = plan.deal_set
    return {
        "game": ds.game.name,
        "flags": json.loads(json.dumps(ds.rules.to_flags(), default=list)),
        "deals": len(ds.deals),
        "deals_sha256": ds.digest(),
        "entrants": specs,
        "scheme": plan.scheme,
        "lineups": [list(x) for x in plan.lineups],
        "seed": plan.seed,
    }


def _outcome_json(o: GameOutcome) -> dict[str, Any]:
    return {
        "payoffs": list(o.payoffs), "void": o.void, "contract": o.contract, "soloist": o.soloist,
        "success": o.success, "decisions": list(o.decisions), "seconds": list(o.seconds),
        "latency": [[list(b) for b in seat] for seat in o.latency],
    }  # fmt: skip


def _outcome(d: dict[str, Any]) -> GameOutcome:
    return GameOutcome(
        payoffs=tuple(d["payoffs"]), void=d["void"], contract=d["contract"],
        soloist=d["soloist"], success=d["success"], decisions=tuple(d["decisions"]),
        seconds=tuple(d["seconds"]),
        latency=tuple(tuple((b[0], b[1]) for b in seat) for seat in d["latency"]),
    )  # fmt: skip


class Journal:
    """A plan's journal at ``path`` (see the module docstring).

    ``open(resume)`` starts it: a new file (refused if one is there and ``resume`` is false:
    it holds an unfinished run's deals), or, with ``resume``, the deals already booked, kept
    as ``done`` with their play time as ``seconds``. ``book(items)`` appends finished deals.
    """

    def __init__(self, path: Path, plan: ArenaPlan) -> None:
        self.path = path
        self.plan = plan
        self.fingerprint = fingerprint(plan)
        self.header = {"format": FORMAT, "plan": self.fingerprint}
        self.done: Done = {}
        self.seconds = 0.0

    def open(self, resume: bool) -> None:
        """Create the journal, or read it back to resume. Raises FileExistsError (a journal
        is there and ``resume`` is false), FileNotFoundError (``resume`` without one),
        JournalMismatch, or ValueError (not a journal)."""
        if not self.path.exists():
            if resume:
                raise FileNotFoundError(
                    f"nothing to resume: {self.path} does not exist (run without --resume)"
                )
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.header) + "\n")
            return
        if not resume:
            raise FileExistsError(
                f"{self.path} holds the deals of an unfinished run: pass --resume to continue "
                "it, or choose another --out"
            )
        self._read()

    def _read(self) -> None:
        raw = self.path.read_bytes()
        lines = raw.split(b"\n")
        good = 0  # bytes of whole lines read
        for k, line in enumerate(lines):
            if not line.strip():
                good += len(line) + 1
                continue
            try:
                entry = loads(line)
            except json.JSONDecodeError:
                if k >= len(lines) - 2:  # the last line, cut short by a crash: dropped
                    break
                raise ValueError(f"{self.path}: line {k + 1} is not JSON") from None
            if k == 0:
                self._check_header(entry)
            else:
                self.done[entry["deal"]] = tuple(_outcome(g) for g in entry["games"])
                self.seconds = max(self.seconds, float(entry["t"]))
            good += len(line) + 1
        if good < len(raw):
            with self.path.open("r+b") as f:
                f.truncate(good)
        prefix = 0
        while prefix in self.done:
            prefix += 1
        if len(self.done) > prefix:  # deals booked after a gap are played again: drop them
            self._keep(lines, prefix)
        self.done = {i: self.done[i] for i in range(prefix)}

    def _keep(self, lines: list[bytes], prefix: int) -> None:
        """Rewrite the journal with its header and the deals below ``prefix`` alone (a new
        file moved over the old one), so a deal played again is never booked twice."""
        kept = [lines[0]]
        for line in lines[1:]:
            if line.strip():
                try:
                    deal = loads(line)["deal"]
                except (json.JSONDecodeError, KeyError, TypeError):
                    continue  # the line a crash cut short
                if deal < prefix:
                    kept.append(line)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_bytes(b"\n".join(kept) + b"\n")
        tmp.replace(self.path)

    def _check_header(self, entry: Any) -> None:
        if not isinstance(entry, dict) or entry.get("format") != FORMAT:
            raise ValueError(f"{self.path} is not a {FORMAT} file")
        theirs, ours = entry.get("plan", {}), self.fingerprint
        for key, value in ours.items():
            if theirs.get(key) != value:
                raise JournalMismatch(
                    f"{self.path} was written for another run: its {key} is "
                    f"{_short(theirs.get(key))}, this run's {_short(value)} (resume with the "
                    "same arguments, or choose another --out)"
                )

    def book(self, items: Iterable[tuple[int, tuple[GameOutcome, ...]]], seconds: float) -> None:
        """Append finished deals, with the run's play time so far (this session's plus the
        journal's earlier ``seconds``)."""
        lines = [
            json.dumps(
                {
                    "deal": i,
                    "t": round(self.seconds + seconds, 3),
                    "games": [_outcome_json(o) for o in games],
                }
            )
            for i, games in items
        ]
        if lines:
            with self.path.open("a") as f:
                f.write("\n".join(lines) + "\n")
                f.flush()
                os.fsync(f.fileno())

    def remove(self) -> None:
        """Delete the journal (the run's outputs are written)."""
        self.path.unlink(missing_ok=True)


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


class JournaledDone(dict[int, tuple[GameOutcome, ...]]):
    """The runner's ``done`` (deal index -> games) for a journaled run: it starts with the
    journal's deals and books every deal it is given (``update``, which is how the players
    keep their results) in the journal before keeping it."""

    def __init__(self, journal: Journal) -> None:
        super().__init__(journal.done)
        self.journal = journal
        self.started = time.perf_counter()

    def restart_clock(self) -> None:
        """Count this session's play time from now (after the workers started)."""
        self.started = time.perf_counter()

    def update(self, items: Iterable[tuple[int, tuple[GameOutcome, ...]]]) -> None:  # type: ignore[override]
        items = list(items)
        self.journal.book(items, time.perf_counter() - self.started)
        super().update(items)

"""Search labels for distillation: a search agent's decisions on a deal set, written as JSON
Lines in the ``mazzo-search-labels/1`` format (docs/training.md, "Search labels").

The games are the arena's (``mazzo.arena``): every lineup of the seating scheme that seats the
searcher (with two or more opponents the scheme's games between them label nothing and are left
out), on every deal, each seat's agent drawing from ``streams.agent_rng(seed, deal, lineup,
seat)``, so a labelled game is the game ``mazzo eval`` plays with the same agents, deals and
seed. The first agent is
the *searcher*: an agent with ``search(view, rng) -> (action, {action: value})`` (``pimc``);
every decision of a seat it holds becomes one line: the action, the search's value of every
candidate it searched, the legal actions, the position as a D.3 record (the deal and every
action before the decision) with the seat, and the seat's final return in that game. With no
other agent the searcher holds every seat (one lineup).

Deals are played over the arena's worker processes (``mazzo.arena.workers``), or its workers
on Ray (``mazzo.arena.ray_workers``: ``--ray``, ``--ray-address``), and written in
deal order as they finish, each deal's lines in one write, the last marked ``deal_end``. An
existing file is continued: its header must be this run's, lines after its last complete deal
are dropped, and play resumes at the next deal, so an interrupted run finished later is
byte-for-byte the file of an uninterrupted one, whatever the number of workers (the search's
budget must then be in worlds, not milliseconds: ``ms=0``, or never reached).

Nothing here imports torch or names a game.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mazzo.agents.base import AnyAgent, act_each
from mazzo.agents.distributed import check_address, import_ray, ray_session
from mazzo.arena.plan import ArenaPlan, Entrant, parse_entrant
from mazzo.arena.ray_workers import play_ray
from mazzo.arena.runner import make_plan
from mazzo.arena.streams import agent_rng
from mazzo.arena.table import GameOutcome, Played, build_agent
from mazzo.arena.workers import Done, Progress, play_parallel, play_serial
from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.jsontext import loads
from mazzo.envs.deal_sets import DealSet
from mazzo.envs.deals import check_seed

__all__ = [
    "FORMAT",
    "LabelRun",
    "LabelTable",
    "LabelledGame",
    "LabelsInterrupted",
    "header_of",
    "label_games",
    "read_labels",
    "write_search_labels",
]

FORMAT = "mazzo-search-labels/1"
SOLO_SCHEME = "solo"  # the scheme name of a run with the searcher alone (it holds every seat)


@dataclass(frozen=True, slots=True)
class LabelledGame(GameOutcome):
    """A game's outcome with the JSON lines of its searcher's decisions (``end`` not set)."""

    lines: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class LabelRun:
    """What ``write_search_labels`` did.

    Attributes:
        path: the labels file.
        deals: deals the file holds now (complete ones).
        planned: deals of the deal set.
        resumed_at: the deal it continued from (0: a new file).
        decisions: decision lines written by this call.
    """

    path: Path
    deals: int
    planned: int
    resumed_at: int
    decisions: int


class LabelsInterrupted(KeyboardInterrupt):
    """Ctrl-C during ``write_search_labels``; ``run`` says what the file holds."""

    def __init__(self, run: LabelRun) -> None:
        super().__init__(f"interrupted after {run.deals} of {run.planned} deals")
        self.run = run


def _check_searcher(agent: AnyAgent, label: str) -> None:
    if not callable(getattr(agent, "search", None)):
        raise ValueError(
            f"agent {label!r} cannot be the searcher: labels need an agent with search values "
            "(search(view, rng) -> (action, values)), such as pimc"
        )


class LabelTable:
    """Plays chunks of a plan's deals like ``mazzo.arena.table.Table`` (the same games: the
    same generators, opponents answering as their ``act_each`` would), one game at a time,
    recording the decisions of entrant 0 (the searcher). ``first`` is the index of the plan's
    first deal in the whole deal set (a resumed run's plan starts there)."""

    def __init__(
        self, plan: ArenaPlan, should_stop: Callable[[], bool] | None = None, first: int = 0
    ) -> None:
        self.plan, self.should_stop, self.first = plan, should_stop, first
        self.game = plan.deal_set.game
        self.rules = plan.deal_set.rules
        self.n_seats = len(plan.lineups[0])
        self.agents = [
            [build_agent(e, plan.deal_set.game) for _ in range(self.n_seats)] for e in plan.entrants
        ]
        _check_searcher(self.agents[0][0], plan.entrants[0].label)

    def play_deals(self, start: int, deals: Sequence[Deal]) -> Played:
        """Every lineup on deals ``start``, ``start + 1``, ... of the plan, in order."""
        outcomes: list[tuple[GameOutcome, ...]] = []
        for j, deal in enumerate(deals):
            games: list[GameOutcome] = []
            for r, lineup in enumerate(self.plan.lineups):
                game = self._play(self.first + start + j, r, lineup, deal)
                if isinstance(game, str):
                    return Played(outcomes, game, False)
                if game is None:
                    return Played(outcomes, None, True)
                games.append(game)
            outcomes.append(tuple(games))
        return Played(outcomes, None, False)

    def _play(self, index: int, r: int, lineup: Sequence[int], deal: Deal) -> Any:
        """One game: a LabelledGame, an error message, or None when stopped."""
        state = self.game.new_state(deal, self.rules)
        rngs = [agent_rng(self.plan.seed, index, r, s) for s in range(self.n_seats)]
        lines: list[dict[str, Any]] = []
        decisions, seconds = [0] * self.n_seats, [0.0] * self.n_seats
        while not state.is_terminal():
            if self.should_stop is not None and self.should_stop():
                return None
            seat = state.to_play
            agent = self.agents[lineup[seat]][seat]
            view = state.info_view(seat)
            if lineup[seat] == 0:
                record = self.game.write_record(state)
                action, values = agent.search(view, rngs[seat])
                lines.append({
                    "deal": index, "lineup": r, "seat": seat, "step": _steps(record),
                    "action": int(action), "label": state.action_label(int(action)),
                    "values": {str(a): float(v) for a, v in sorted(values.items())},
                    "legal": [a for a in range(self.game.info.num_actions)
                              if view.legal_mask >> a & 1],
                    "record": record,
                })  # fmt: skip
            else:
                action = act_each(agent, [view], [rngs[seat]])[0]
            decisions[seat] += 1
            try:
                state.apply(int(action))
            except (ValueError, TypeError) as e:
                label = self.plan.entrants[lineup[seat]].label
                where = f"seat S{seat} (deal {index}, lineup {r})"
                return f"agent {label!r} in {where} chose {action!r}: {e}"
        returns = state.returns()
        for line in lines:
            line["outcome"] = float(returns[line["seat"]])
        result = state.result()
        contract = result.get("contract")
        return LabelledGame(
            payoffs=tuple(returns), void=bool(result.get("void", False)),
            contract=str(contract) if contract is not None else None,
            soloist=result.get("soloist") if contract is not None else None,
            success=result.get("success") if contract is not None else None,
            decisions=tuple(decisions), seconds=tuple(seconds), lines=tuple(lines),
        )  # fmt: skip


def _steps(record: dict[str, Any]) -> int:
    """Decisions taken before the position of ``record``."""
    return len(record.get("actions") or ())


@dataclass(frozen=True)
class _TableAt:
    """A picklable ``TableFactory``: ``LabelTable`` with the plan's first deal index."""

    first: int

    def __call__(self, plan: ArenaPlan, should_stop: Callable[[], bool] | None) -> LabelTable:
        return LabelTable(plan, should_stop, self.first)


# ---------------------------------------------------------------- the file
_LINE_KEYS = ("deal", "lineup", "seat", "step", "action", "label", "values", "legal", "outcome")


def _line_text(line: dict[str, Any], end: bool) -> str:
    ordered = {k: line[k] for k in _LINE_KEYS} | {"deal_end": end, "record": line["record"]}
    return json.dumps(ordered, separators=(",", ":"), allow_nan=False) + "\n"


def _deal_text(outcomes: tuple[GameOutcome, ...]) -> str:
    lines = [line for game in outcomes for line in getattr(game, "lines", ())]
    return "".join(_line_text(line, i == len(lines) - 1) for i, line in enumerate(lines))


def header_of(plan: ArenaPlan) -> dict[str, Any]:
    """The header line of ``plan``'s labels file: what determines its lines."""
    ds = plan.deal_set
    return {
        "format": FORMAT,
        "game": ds.game.name,
        "flags": ds.rules.to_flags(),
        "deals": len(ds.deals),
        "deals_sha256": ds.digest(),
        "searcher": _source(plan.entrants[0]),
        "opponents": [_source(e) for e in plan.entrants[1:]],
        "scheme": plan.scheme,
        "seed": plan.seed,
        "lineups": [list(lu) for lu in plan.lineups],
    }


def _source(entrant: Entrant) -> str:
    if not isinstance(entrant.source, str):
        raise ValueError(f"entrant {entrant.label!r}: labels need agents given by spec")
    return entrant.source


def _resume_point(path: Path, header: dict[str, Any]) -> tuple[int, int]:
    """(byte offset after the last complete deal, the next deal) of an existing labels file
    whose header must be ``header``. Raises ValueError naming what does not fit."""
    with path.open("rb") as f:
        first = f.readline()
        try:
            theirs = loads(first)
        except (json.JSONDecodeError, UnicodeDecodeError):
            theirs = None
        if not isinstance(theirs, dict) or theirs.get("format") != FORMAT:
            raise ValueError(
                f"{path} exists and is not a {FORMAT} file; choose another --out or remove it"
            )
        diff = [k for k in header if theirs.get(k) != header[k]]
        if diff:
            said = "; ".join(f"{k}: file {theirs.get(k)!r}, asked {header[k]!r}" for k in diff)
            raise ValueError(
                f"{path} holds the labels of another run ({said}); choose another --out"
            )
        offset, next_deal = f.tell(), 0
        while raw := f.readline():
            if not raw.endswith(b"\n"):
                break  # a line cut by a crash
            try:
                line = loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                break
            if not isinstance(line, dict):
                break
            if line.get("deal_end"):
                next_deal, offset = int(line["deal"]) + 1, f.tell()
    return offset, next_deal


class _Writer:
    """The runner's progress sink: writes each finished deal once every deal before it is
    written (the runner reports after filling ``done``), then forwards to ``progress``."""

    def __init__(self, f: Any, done: Done, progress: Progress | None) -> None:
        self.f, self.done, self.progress = f, done, progress
        self.next = 0  # the plan's next deal to write
        self.decisions = 0

    def start(self, total: int) -> None:
        if self.progress is not None:
            self.progress.start(total)

    def advance(self, n: int) -> None:
        self.flush()
        if self.progress is not None:
            self.progress.advance(n)

    def flush(self) -> None:
        while self.next in self.done:
            text = _deal_text(self.done[self.next])
            self.done[self.next] = ()  # written: free the lines (the runner counts the keys)
            self.decisions += text.count("\n")
            self.f.write(text)
            self.next += 1
        self.f.flush()


def write_search_labels(
    deal_set: DealSet, agents: Sequence[str], path: str | Path, seed: int = 0,
    scheme: str = "pairs", workers: int | None = 1, progress: Progress | None = None,
    ray: str | None = None,
) -> LabelRun:  # fmt: skip
    """Write the search labels of ``agents[0]`` (the searcher; the rest are its opponents,
    seated by ``scheme``) on ``deal_set`` into ``path``, continuing the file if it exists (see
    the module docstring). ``progress`` hears the deals left to play. The deals are played
    over ``workers`` processes (None: one per core) or, with ``ray`` (an address:
    ``mazzo.agents.distributed``), on ``workers`` Ray actors (None: one per CPU of the cluster);
    the file is the same.

    Raises:
        ValueError: a bad agent spec, a searcher without search values, a bad scheme, seed or
            worker count, or an existing file that is not this run's labels.
        OSError: the file cannot be read or written.
        LabelsInterrupted: Ctrl-C; the file holds every deal finished in order by then.
    """
    if not agents:
        raise ValueError("labels need a searcher agent (e.g. pimc)")
    bad = isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    if workers is not None and bad:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if ray is not None:
        check_address(ray)
        import_ray()  # without the extra: say how to install it before any work
    plan = _plan(deal_set, agents, scheme, seed)
    header = header_of(plan)
    path = Path(path)
    n = len(deal_set.deals)
    if path.exists():
        offset, first = _resume_point(path, header)
        with path.open("r+b") as f:
            f.truncate(offset)
    else:
        first = 0
        with path.open("x") as f:
            f.write(json.dumps(header, separators=(",", ":")) + "\n")
    rest = dataclasses.replace(
        plan, deal_set=dataclasses.replace(deal_set, deals=deal_set.deals[first:])
    )
    done: Done = {}
    with path.open("a") as f:
        writer = _Writer(f, done, progress)
        if first < n:
            writer.start(n - first)
            try:
                _play(rest, workers, done, writer, _TableAt(first), ray)
            except KeyboardInterrupt:
                writer.flush()
                run = LabelRun(path, first + writer.next, n, first, writer.decisions)
                raise LabelsInterrupted(run) from None
            finally:
                writer.flush()
    return LabelRun(path, first + writer.next, n, first, writer.decisions)


def _play(
    plan: ArenaPlan, workers: int | None, done: Done, writer: _Writer, table: _TableAt,
    ray: str | None,
) -> None:  # fmt: skip
    """Play the plan's deals here, over processes or on Ray (see ``write_search_labels``)."""
    n = len(plan.deal_set.deals)
    if ray is not None:
        with ray_session(ray) as cluster:
            play_ray(plan, min(workers or cluster.cpus, n), done, writer, table)
        return
    k = min(workers or os.cpu_count() or 1, n)
    if k == 1:
        play_serial(plan, done, writer, table)
    else:
        play_parallel(plan, k, done, writer, table)


def _plan(deal_set: DealSet, agents: Sequence[str], scheme: str, seed: int) -> ArenaPlan:
    """The arena plan of a labels run: the scheme's lineups that seat the searcher (two or more
    opponents also meet each other there, which labels nothing), or with the searcher alone one
    lineup, every seat its own."""
    searcher = parse_entrant(agents[0])
    _check_searcher(build_agent(searcher, deal_set.game), searcher.label)
    if len(agents) > 1:  # only the lineups the searcher sits in: the others teach nothing
        plan = make_plan(deal_set, [searcher, *agents[1:]], scheme, seed)
        return dataclasses.replace(plan, lineups=tuple(lu for lu in plan.lineups if 0 in lu))
    check_seed(seed)
    seats = deal_set.game.seats(deal_set.rules)
    return ArenaPlan(deal_set, (searcher,), SOLO_SCHEME, ((0,) * seats,), seed)


def label_games(path: str | Path) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """(header, the decision lines of one game) of a labels file, game by game, complete deals
    only, read as a stream (a file never sits in memory whole; ``read_labels`` reads it whole).

    Raises:
        ValueError: not a labels file.
    """
    path = Path(path)
    with path.open() as f:
        first = f.readline()
        try:
            header = json.loads(first)
        except json.JSONDecodeError:
            header = None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ValueError(f"{path} is not a {FORMAT} file")
        game: list[dict[str, Any]] = []
        deal: list[list[dict[str, Any]]] = []
        for raw in f:
            if not raw.endswith("\n"):
                break  # cut by a crash: the deal is incomplete
            line = json.loads(raw)
            if game and (line["deal"], line["lineup"]) != (game[0]["deal"], game[0]["lineup"]):
                deal.append(game)
                game = []
            game.append(line)
            if line["deal_end"]:
                deal.append(game)
                for g in deal:
                    yield header, g
                game, deal = [], []


def read_labels(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the decision lines of a labels file (complete deals only).

    Raises:
        ValueError: not a labels file.
    """
    path = Path(path)
    lines = path.read_text().splitlines()
    if not lines:
        raise ValueError(f"{path} is empty, not a {FORMAT} file")
    header = loads(lines[0])
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"{path} is not a {FORMAT} file")
    out: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    for text in lines[1:]:
        line = loads(text)
        pending.append(line)
        if line["deal_end"]:
            out += pending
            pending = []
    return header, out

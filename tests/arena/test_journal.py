"""The arena's journal (``mazzo.arena.journal``): a run booked deal by deal and resumed from
its journal gives exactly the games of an uninterrupted run, with one worker or two; a last line
cut short by a crash is dropped, deals after a gap are played again, the play time adds up over
the sessions, and a journal is never overwritten or resumed by another run (the differing field
named)."""

import dataclasses
import json

import pytest

from mazzo.agents.base import RandomAgent
from mazzo.arena.journal import FORMAT, Journal, JournalMismatch
from mazzo.arena.plan import Entrant
from mazzo.arena.runner import make_plan, run_arena
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game


def _plan(n=10, seed=4, agents=("random", "heuristic", "random")):
    game = get_game("calabresella")
    return make_plan(generate_deals(game, game.rules(), n, 1), list(agents), "pairs", seed=seed)


def _strip(run):
    return [[dataclasses.replace(o, seconds=()) for o in deal] for deal in run.outcomes]


def _journaled(path, plan, workers=1, resume=False):
    journal = Journal(path, plan)
    journal.open(resume)
    return run_arena(plan, workers, journal=journal)


def _keep_lines(path, k):
    """The journal as a run stopped after its first ``k`` booked deals would have left it."""
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[: 1 + k]))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_resumed_run_has_the_games_of_an_uninterrupted_one(tmp_path, workers):
    plan = _plan()
    whole = run_arena(plan, 1)
    path = tmp_path / "journal.jsonl"
    first = _journaled(path, plan, workers)
    assert _strip(first) == _strip(whole)
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["format"] == FORMAT and len(lines) == 11
    assert sorted(json.loads(x)["deal"] for x in lines[1:]) == list(range(10))
    _keep_lines(path, 4)
    resumed = _journaled(path, plan, workers, resume=True)
    assert _strip(resumed) == _strip(whole)
    assert len(path.read_text().splitlines()) == 11  # the six missing deals booked again


def test_a_cut_line_is_dropped_and_deals_after_a_gap_are_played_again(tmp_path, monkeypatch):
    plan = _plan(8)
    whole = run_arena(plan, 1)
    path = tmp_path / "journal.jsonl"
    _journaled(path, plan)
    header, *deals = path.read_text().splitlines()
    by_index = {json.loads(x)["deal"]: x for x in deals}
    # deals 0, 1, 2 and 5 booked, then a line cut short by a crash
    path.write_text("\n".join([header, *(by_index[i] for i in (0, 1, 2, 5)), by_index[3][:40]]))
    journal = Journal(path, plan)
    journal.open(resume=True)
    assert sorted(journal.done) == [0, 1, 2]
    # the journal now holds those three alone: deal 5, played again, is never booked twice
    assert [json.loads(x)["deal"] for x in path.read_text().splitlines()[1:]] == [0, 1, 2]
    played = []
    from mazzo.arena import workers as pool

    real = pool.Table.play_deals

    def play_deals(self, start, chunk):
        played.extend(range(start, start + len(chunk)))
        return real(self, start, chunk)

    monkeypatch.setattr(pool.Table, "play_deals", play_deals)
    resumed = run_arena(plan, 1, journal=journal)
    assert played == [3, 4, 5, 6, 7] and _strip(resumed) == _strip(whole)
    assert all(json.loads(x) for x in path.read_text().splitlines())  # no cut line left


def test_the_play_time_adds_up_over_the_sessions(tmp_path):
    plan = _plan(6)
    path = tmp_path / "journal.jsonl"
    _journaled(path, plan)
    _keep_lines(path, 3)
    lines = path.read_text().splitlines()
    earlier = max(json.loads(x)["t"] for x in lines[1:])
    lines[-1] = lines[-1].replace(f'"t": {json.loads(lines[-1])["t"]}', '"t": 1000.0')
    path.write_text("\n".join(lines) + "\n")
    assert earlier < 1000.0
    resumed = _journaled(path, plan, resume=True)
    assert resumed.seconds >= 1000.0
    assert max(json.loads(x)["t"] for x in path.read_text().splitlines()[1:]) >= 1000.0


def test_a_journal_is_neither_overwritten_nor_resumed_by_another_run(tmp_path):
    plan = _plan(3)
    path = tmp_path / "journal.jsonl"
    _journaled(path, plan)
    kept = path.read_text()
    with pytest.raises(FileExistsError, match="--resume"):
        Journal(path, plan).open(resume=False)
    with pytest.raises(JournalMismatch, match="its seed is 4, this run's 5"):
        Journal(path, _plan(3, seed=5)).open(resume=True)
    with pytest.raises(JournalMismatch, match="its deals is 3, this run's 4"):
        Journal(path, _plan(4)).open(resume=True)
    with pytest.raises(JournalMismatch, match="its entrants"):
        Journal(path, _plan(3, agents=("random", "pimc", "random"))).open(resume=True)
    assert path.read_text() == kept
    with pytest.raises(FileNotFoundError, match="nothing to resume"):
        Journal(tmp_path / "none.jsonl", plan).open(resume=True)
    (tmp_path / "other.jsonl").write_text('{"format": "something else"}\n')
    with pytest.raises(ValueError, match="is not a mazzo-arena-journal/1 file"):
        Journal(tmp_path / "other.jsonl", plan).open(resume=True)


def test_an_entrant_built_by_a_factory_cannot_be_journaled(tmp_path):
    game = get_game("calabresella")
    deals = generate_deals(game, game.rules(), 2, 1)
    plan = make_plan(deals, [Entrant("mine", RandomAgent), "random"], "pairs", seed=0)
    with pytest.raises(ValueError, match="'mine' is built by a factory"):
        Journal(tmp_path / "j.jsonl", plan)


def test_an_agent_whose_defaults_changed_is_another_run(tmp_path):
    """The fingerprint holds each agent's built name (every parameter spelled out): the same
    spec string under other defaults does not resume the journal."""
    plan = _plan(2, agents=("pimc", "random"))
    path = tmp_path / "journal.jsonl"
    Journal(path, plan).open(resume=False)
    header = json.loads(path.read_text().splitlines()[0])
    label, spec, name = header["plan"]["entrants"][0]
    assert (label, spec) == ("pimc", "pimc") and name.startswith("pimc:samples=24,")
    header["plan"]["entrants"][0][2] = name.replace("samples=24", "samples=48")
    path.write_text(json.dumps(header) + "\n")
    with pytest.raises(JournalMismatch, match="its entrants"):
        Journal(path, plan).open(resume=True)

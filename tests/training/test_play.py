"""``mazzo play`` driven end to end through a pseudo-terminal (pexpect), wrong inputs included;
the save file (claimed before dealing, never overwritten silently, the unfinished deal saved on
quit, end of input and Ctrl-C); the end-of-deal summary; the input parser."""

import io
import json
import os
import re
import sys
from pathlib import Path

import numpy as np
import pexpect
import pytest

from mazzo.agents.base import RandomAgent
from mazzo.envs.deal_sets import read_deal_set, read_records
from mazzo.envs.registry import get_game
from mazzo.play import (
    HumanQuit,
    changed_lines,
    claim_save_path,
    deal_summary,
    option_lines,
    parse_choice,
    play_session,
)

ROOT = Path(__file__).resolve().parents[2]

CHOICES = [(40, "pass"), (41, "bid chiamo"), (42, "bid solo")]


def test_parse_choice():
    """A number is an action's id + 1 (a card keeps its number for the deal); a label or its
    argument names an action too."""
    assert parse_choice("41", CHOICES) == 40 and parse_choice("43", CHOICES) == 42
    assert parse_choice(" bid  solo ", CHOICES) == 42
    assert parse_choice("Solo", CHOICES) == 42
    assert parse_choice("pass", CHOICES) == 40
    assert parse_choice("1", CHOICES) is None and parse_choice("0", CHOICES) is None
    assert parse_choice("44", CHOICES) is None
    assert parse_choice("scegliete", CHOICES) is None and parse_choice("", CHOICES) is None
    cards = [(0, "play Ac"), (1, "play 2c")]
    assert parse_choice("ac", cards) == 0 and parse_choice("2C", cards) == 1
    assert parse_choice("1", cards) == 0 and parse_choice("2", cards) == 1


def spawn(tmp_path, *args, game="calabresella", save="deal.json", cwd=None):
    cmd = [sys.executable, "-m", "mazzo", "play", "--game", game, *args]
    if save is not None:
        cmd += ["--save", str(tmp_path / save)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = pexpect.spawn(cmd[0], cmd[1:], encoding="utf-8", timeout=60, cwd=cwd, env=env)
    child.delaybeforesend = None  # pexpect waits 50 ms before each send by default
    return child


SUMMARY = r"Deal 1 over: ([^\r\n]*)\r\n"


def first_option(text: str) -> str:
    """The number of the first option of the last options line in ``text``."""
    last = text.rsplit("Your options: ", 1)[1]
    return re.search(r"\[(\d+)\]", last).group(1)


# The input prompt: "> " at the start of a line (the trick lines' "-> S0" is no prompt; a
# line sent there would be echoed into the output the child is writing)
PROMPT = r"\n> "


@pytest.mark.parametrize(
    ("game", "args", "bad_number", "tricks"),
    [
        ("calabresella", ("--seed", "2"), "99", 12),  # S2 bids solo
        ("minchiate", ("--seed", "3", "--seat", "2"), "0", 21),
    ],
)
def test_play_a_whole_deal_with_wrong_inputs(tmp_path, game, args, bad_number, tricks):
    child = spawn(tmp_path, *args, "--opponents", "heuristic", game=game)
    child.expect("loading the opponents \\(heuristic\\)")  # said before the slow part
    child.expect("The deals are saved to ")
    child.expect("Your options: ")
    child.expect(PROMPT)
    opening = "Your options: " + child.before
    child.sendline("banana")
    child.expect("'banana' is not one of your options")
    child.sendline("help")
    child.expect(r"'quit'\s+ends\s+the\s+session")  # wrapped to the terminal's width
    child.sendline(bad_number)
    child.expect("not one of your options")
    moves, seen = 0, opening
    while True:
        i = child.expect([PROMPT, SUMMARY])
        seen += child.before
        if i == 1:
            summary = child.match.group(1)
            break
        child.sendline(first_option(seen))
        moves += 1
    child.expect("saved 1 deal to ")
    child.expect(pexpect.EOF)
    forced = seen.count("(your only legal move: played for you)")
    assert forced >= 1  # the last trick's card at least is played for the person
    assert moves + forced >= tricks  # at least one card per trick
    text = (tmp_path / "deal.json").read_text()
    assert text.count("\n") == 1  # JSON Lines: one compact record per line
    record = json.loads(text)
    state = get_game(game).replay(record)  # checks the stored result too
    assert state.result() == record["result"]
    scores = [int(x) for x in re.findall(r"S\d(?: \(you\))? ([+-]\d+)", summary)]
    assert scores == list(record["result"]["returns"])
    assert len(summary) < 200 and "{" not in summary  # a human line, not the JSON result


def _saved(path: Path) -> dict:
    file = read_records(path)
    assert len(file.entries) == 1
    return file.entries[0][1]


def test_quit_end_of_input_and_ctrl_c_save_the_unfinished_deal(tmp_path):
    for how, save in [("quit", "q.json"), ("eof", "e.json"), ("intr", "i.json")]:
        child = spawn(tmp_path, "--seed", "2", save=save)  # S2 bids solo: the deal goes on
        child.expect(PROMPT)
        child.sendline(first_option(child.before))  # one decision, then stop at the next one
        child.expect(PROMPT)
        if how == "quit":
            child.sendline("quit")
        elif how == "eof":
            child.sendeof()
        else:
            child.sendintr()
        child.expect(r"saved 1 deal to \S+ \(deal 1 unfinished, after (\d+) actions?")
        n = int(child.match.group(1))
        child.expect("interrupted; bye" if how == "intr" else "bye")
        child.expect(pexpect.EOF)
        assert "Traceback" not in child.before
        child.close()
        assert child.exitstatus == (130 if how == "intr" else 0)
        record = _saved(tmp_path / save)
        assert len(record["actions"]) == n >= 1 and "result" not in record
        state = get_game("calabresella").replay(record)
        assert not state.is_terminal() and len(state.history) == n


def test_a_bad_save_path_fails_before_dealing(tmp_path):
    for save, message in [
        ("missing/dir/deal.json", "cannot write there"),
        (".", "is a folder"),
    ]:
        child = spawn(tmp_path, save=save)
        i = child.expect([message, "=== deal"])
        assert i == 0
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 2
    taken = tmp_path / "taken.json"
    taken.write_text("keep me")
    child = spawn(tmp_path, save="taken.json")
    child.expect(r"the file exists; pass --force")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and taken.read_text() == "keep me"
    child = spawn(tmp_path, "--force", save="taken.json")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert _saved(taken)["format"] == "calabresella-deal/1"


def test_the_default_save_file_is_never_overwritten(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = claim_save_path(None)
    assert first == Path("mazzo_deal.json") and first.read_text() == ""
    first.write_text("an earlier deal")
    assert claim_save_path(None) == Path("mazzo_deal-2.json")
    assert claim_save_path(None) == Path("mazzo_deal-3.json")
    assert first.read_text() == "an earlier deal"
    with pytest.raises(ValueError, match=r"mazzo_deal\.json: the file exists; pass --force"):
        claim_save_path("mazzo_deal.json")
    assert claim_save_path("mazzo_deal.json", force=True) == first
    assert first.read_text() == "an earlier deal"  # kept until the first deal is saved
    help_text = spawn(tmp_path, "--help", save=None, cwd=str(tmp_path))
    help_text.expect(pexpect.EOF)
    assert "mazzo_deal.json" in " ".join(help_text.before.split())


@pytest.mark.parametrize("game", ["calabresella", "minchiate"])
def test_two_deals_save_json_lines_that_replay_and_eval_read(tmp_path, game):
    spec = get_game(game)
    rules = spec.rules()
    agents = [RandomAgent() for _ in range(spec.seats(rules))]
    save = tmp_path / "two.json"
    out = io.StringIO()
    records = play_session(
        spec, rules, 0, agents, 4, 2, save, lambda: first_option(out.getvalue()), out
    )
    assert "saved 1 deal to" in out.getvalue() and "saved 2 deals to" in out.getvalue()
    lines = save.read_text().splitlines()
    assert [json.loads(line) for line in lines] == json.loads(json.dumps(records))
    deal_set = read_deal_set(save)
    assert len(deal_set.deals) == 2 and deal_set.game.name == game
    file = read_records(save)
    assert file.kind == "a JSON Lines deal set" and file.where(1) == f"{save}: {file.kind}, line 2"


def test_input_ending_mid_session_keeps_the_finished_deals(tmp_path):
    spec = get_game("calabresella")
    rules = spec.rules()
    agents = [RandomAgent() for _ in range(3)]
    answers = iter(range(40))
    out = io.StringIO()

    def read() -> str:
        try:
            next(answers)
        except StopIteration:
            raise HumanQuit from None
        return first_option(out.getvalue())

    save = tmp_path / "s.json"
    with pytest.raises(HumanQuit):
        play_session(spec, rules, 0, agents, 0, 5, save, read, out)
    records = [json.loads(line) for line in save.read_text().splitlines()]
    assert len(records) >= 2 and all("result" in r for r in records[:-1])
    assert "result" not in records[-1]
    assert f"deal {len(records)} unfinished" in out.getvalue()
    assert f"--index {len(records)}" in out.getvalue()
    for record in records:
        spec.replay(record, None)


def test_deal_summary_names_the_winners_and_the_scores():
    class Finished:
        def __init__(self, returns):
            self._returns = returns

        def returns(self):
            return self._returns

    cala, minc = get_game("calabresella"), get_game("minchiate")
    line = deal_summary(cala, cala.rules(), Finished((-2, 4, -2)), 1, 0)
    assert line == "Deal 1 over: S1 wins +4 game points; S0 (you) -2, S1 +4, S2 -2"
    line = deal_summary(minc, minc.rules(), Finished((-3, 3, -3, 3)), 2, 1)
    assert line == "Deal 2 over: S1 (you)+S3 win +3 resti; S0 -3, S1 (you) +3, S2 -3, S3 +3"
    line = deal_summary(cala, cala.rules(), Finished((0, 0, 0)), 3, 2)
    assert line == "Deal 3 over: nobody wins; S0 +0, S1 +0, S2 (you) +0 (game points)"


def test_bad_seat_is_an_error(tmp_path):
    child = spawn(tmp_path, "--seat", "7")
    child.expect("--seat must be 0..2")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


def test_the_tables_play_prints_name_counts_and_finished_hands():
    from mazzo.envs.cards.bits import bit_list as bits

    minc = get_game("minchiate")
    rules = minc.rules()
    rng = np.random.default_rng(5)
    state = minc.new_state(minc.deal_random(rng, rules), rules)
    while not state.is_terminal():
        state.apply(int(rng.choice(bits(state.legal_mask()))))
    text = minc.render_state(state)
    if not state.void:
        assert "(empty)" not in text and text.count("): played ") == 4
    cala = get_game("calabresella")
    rules = cala.rules()
    for seed in range(50):
        rng = np.random.default_rng(seed)
        state = cala.new_state(cala.deal_random(rng, rules), rules)
        while not state.is_terminal() and len(state.tricks) < 1:
            state.apply(int(rng.choice(bits(state.legal_mask()))))
        if len(state.tricks) == 1:
            text = cala.render_state(state)
            assert re.search(r"Won so far: soloist [01] tricks? ", text)
            assert "1 tricks" not in text and "0 trick " not in text
            return
    pytest.fail("no deal of 50 reached a first trick")


def test_help_explains_the_notation_and_an_illegal_card_gets_its_reason():
    """``help`` shows the game's card notation; a card that may not be played now is answered
    with the rule (``must follow suit``), and a single option is asked for as ``type 1``."""
    from mazzo.envs.cards.bits import bit_list
    from mazzo.play import ask, illegal_reason, legal_choices

    game = get_game("calabresella")
    rules = game.rules()
    rng = np.random.default_rng(0)
    for seed in range(50):
        state = game.new_state(game.deal_random(np.random.default_rng(seed), rules), rules)
        while not state.is_terminal():
            view = state.info_view(state.to_play)
            legal = sorted(state.legal_actions())
            barred = [c for c in bit_list(view.hand) if c not in legal]
            if barred and state.action_label(legal[0]).startswith("play"):
                break
            state.apply(int(rng.choice(legal)))
        else:
            continue
        break
    code = game.info.deck.format(barred[0])
    assert "must follow suit" in illegal_reason(state, code, legal_choices(state))
    answers = iter(["help", code, str(legal_choices(state)[0][0] + 1)])
    out = io.StringIO()
    ask(state, "(the table)", lambda: next(answers), out, game.info.notation)
    text = out.getvalue()
    assert "c coppe" in text and "N (cavallo" in text and "A0 is the eldest" in text
    assert f"'{code}' is not allowed now: " in text and "must follow suit" in text
    assert "1-1" not in text


def test_options_wrap_between_options_never_inside_one():
    """21 cards of Minchiate at 160 columns (and 60): every line fits, every option is whole on
    one line, in order, the first line led by ``Your options:``."""
    choices = [(a, f"play T{a}") for a in range(30, 41)] + [(a, f"play {a}c") for a in range(2, 12)]
    for width in (160, 60):
        lines = option_lines(choices, width)
        assert len(lines) > 1 and lines[0].startswith("Your options: [31] play T30")
        assert all(len(line) <= width for line in lines), lines
        found = [m for line in lines for m in re.findall(r"\[\d+\] play \w+", line)]
        assert found == [f"[{a + 1}] {label}" for a, label in choices]
        assert all(line.startswith(" " * 14) for line in lines[1:])


def test_changed_lines_show_what_changed():
    before = "You are S0\nHand: Ac 2c\nScore: 0"
    assert changed_lines(before, None) == before
    assert changed_lines("You are S0\nHand: 2c\nTrick 1: S1 3c\nScore: 0", before) == (
        "Hand: 2c\nTrick 1: S1 3c"
    )


def test_a_list_shown_in_part_says_so():
    """Of a trick list only the new trick is shown: its header says these are the new ones (not
    "the last 4 of 10" over one line); a list with nothing new is left out, header and all."""
    before = "Tricks (the last 4 of 9):\n   6. a\n   7. b\n   8. c\n   9. d\nScore: 1"
    now = "Tricks (the last 4 of 10):\n   7. b\n   8. c\n   9. d\n  10. e\nScore: 2"
    assert changed_lines(now, before) == (
        "Tricks, new since your last turn ('table' shows them all):\n  10. e\nScore: 2"
    )
    assert changed_lines(before + "\nHand: x", before) == "Hand: x"
    whole = "Tricks:\n   1. a\nScore: 1"
    assert changed_lines("Tricks:\n   1. a\n   2. b\nScore: 1", whole) == (
        "Tricks, new since your last turn ('table' shows them all):\n   2. b"
    )


@pytest.mark.parametrize("game", ["calabresella", "minchiate"])
def test_a_session_shows_changes_forced_moves_and_the_trick_winner(game):
    """A whole deal in process: the table in full once, then only its changed lines (the
    header of a phase once per phase); forced moves played with a line saying so; the trick
    line names who is winning so far; the numbers typed are the options' stable numbers."""
    g = get_game(game)
    rules = g.rules()
    n = g.seats(rules)
    out = io.StringIO()

    def read() -> str:
        return first_option(out.getvalue())

    agents = [RandomAgent() for _ in range(n)]
    for seed in range(10):
        out.seek(0)
        out.truncate()
        records = play_session(g, rules, 0, agents, seed, 1, Path(os.devnull), read, out)
        if not records[0]["result"].get("void"):
            break
    text = out.getvalue()
    asked = text.count("Your options: ")
    assert asked > 5
    assert text.count("Your hand") <= asked + 1  # the hand changes at most once a decision
    header = "You are S0"
    assert text.count(header) <= 6 < asked, text.count(header)  # once per phase, not per turn
    assert "(your only legal move: played for you)" in text
    assert "(winning so far: " in text
    numbers = re.findall(r"\[(\d+)\] play (\S+)", text)
    by_card: dict[str, set[str]] = {}
    for number, card in numbers:
        by_card.setdefault(card, set()).add(number)
    assert all(len(v) == 1 for v in by_card.values())  # a card keeps its number


def test_help_and_the_table_fit_a_narrow_terminal():
    """At 80 columns (and at 40) no line of the help or the table is wider than the terminal,
    and no word is broken (the hand line wraps between cards)."""

    from mazzo.play import HELP, fit_lines, reflow

    cala = get_game("calabresella")
    for width in (80, 40):
        for text in (HELP, cala.info.notation):
            out = reflow(text, width)
            assert max(len(line) for line in out.splitlines()) <= width
            assert out.split() == text.split()  # the same words, none broken
        long_line = "Your hand: c: A N J 5 | d: 7 | s: 3 K J 7 6 | b: 2 N | denari bastoni spade"
        fitted = fit_lines(long_line, width).splitlines()
        assert all(len(line) <= width for line in fitted)
        assert " ".join(fitted).split() == long_line.split()

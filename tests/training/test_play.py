"""``mazzo play`` driven end to end through a pseudo-terminal (pexpect), wrong inputs included,
plus the input parser."""

import json
import sys

import pexpect
import pytest

from envs.registry import get_game
from training.play import parse_choice

CHOICES = [(40, "pass"), (41, "bid chiamo"), (42, "bid solo")]


def test_parse_choice():
    assert parse_choice("1", CHOICES) == 40
    assert parse_choice(" bid  solo ", CHOICES) == 42
    assert parse_choice("Solo", CHOICES) == 42
    assert parse_choice("pass", CHOICES) == 40
    assert parse_choice("4", CHOICES) is None and parse_choice("0", CHOICES) is None
    assert parse_choice("scegliete", CHOICES) is None and parse_choice("", CHOICES) is None
    cards = [(0, "play Ac"), (1, "play 2c")]
    assert parse_choice("ac", cards) == 0 and parse_choice("2C", cards) == 1


def spawn(tmp_path, *args, game="calabresella"):
    cmd = [sys.executable, "-m", "training.cli", "play", "--game", game,
           "--save", str(tmp_path / "deal.json"), *args]  # fmt: skip
    return pexpect.spawn(cmd[0], cmd[1:], encoding="utf-8", timeout=60)


@pytest.mark.parametrize(
    ("game", "args", "bad_number", "tricks"),
    [
        ("calabresella", ("--seed", "2"), "99", 12),  # S2 bids solo
        ("minchiate", ("--seed", "3", "--seat", "2"), "0", 21),
    ],
)
def test_play_a_whole_deal_with_wrong_inputs(tmp_path, game, args, bad_number, tricks):
    child = spawn(tmp_path, *args, "--opponents", "heuristic", game=game)
    child.expect("Your options: ")
    child.expect("> ")
    child.sendline("banana")
    child.expect("'banana' is not one of your options")
    child.sendline("help")
    child.expect("'quit' ends the session")
    child.sendline(bad_number)
    child.expect("not one of your options")
    moves = 0
    while True:
        i = child.expect(["> ", r"Final result \(JSON\): ([^\r\n]*)\r\n"])
        if i == 1:
            result = json.loads(child.match.group(1))
            break
        child.sendline("1")
        moves += 1
    child.expect("saved 1 deal")
    child.expect(pexpect.EOF)
    assert moves >= tricks  # at least one card per trick
    record = json.loads((tmp_path / "deal.json").read_text())
    assert get_game(game).replay(record).result() == result


def test_quit_and_end_of_input(tmp_path):
    child = spawn(tmp_path, "--seed", "1")
    child.expect("> ")
    child.sendline("quit")
    child.expect("bye")
    child.expect(pexpect.EOF)
    child = spawn(tmp_path, "--seed", "1")
    child.expect("> ")
    child.sendeof()
    child.expect("bye")
    child.expect(pexpect.EOF)


def test_bad_seat_is_an_error(tmp_path):
    child = spawn(tmp_path, "--seat", "7")
    child.expect("--seat must be 0..2")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2

"""Human play in the terminal (``mazzo play``): a person takes one seat, agents the others.

Each decision of the person shows the table from his seat (hand sorted by suit, the auction,
the current trick, who leads and who is winning it so far, the last tricks, the scores): in full
at the first decision, then only the lines that changed (``table`` shows it all again), and the
legal actions with their short labels, numbered for the whole deal (an action's number is its
id + 1, so a card keeps its number from turn to turn), wrapped to the terminal's width between
options, never inside one. A decision with one legal action is played for the person, with a
line saying so. Input: a number, a label (``play Ac``), the label's argument alone (``Ac``,
``solo``) when that is unambiguous, ``table``, ``help`` or ``quit``; anything else gets a clear
message and the question again. At the end of each deal the table and a one-line summary (who
won, the scores) are printed, and the deal is saved at once as a RULES.md D.3 record with its
full result: the save file is JSON Lines, one record per deal (replay it with ``mazzo
replay``). ``quit``, the end of the input and Ctrl-C save the unfinished deal too, with the
actions so far (it replays to the same point).

The save file is chosen before the first deal (:func:`claim_save_path`): an existing file is
never overwritten without ``--force``; the default name takes a number when taken.
"""

from __future__ import annotations

import itertools
import shutil
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from mazzo.agents.base import AnyAgent
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.errors import IllegalAction
from mazzo.envs.deal_sets import records_to_jsonl
from mazzo.envs.registry import AnyGame

__all__ = [
    "DEFAULT_SAVE",
    "HumanQuit",
    "claim_save_path",
    "count",
    "deal_summary",
    "play_session",
]

DEFAULT_SAVE = "mazzo_deal.json"

HELP = """Type the number of an action (a card keeps its number for the whole deal), its label
(e.g. 'play Ac'), or just its argument when it is unambiguous ('Ac', 'solo', 'pass'). 'table'
shows the whole table again, 'help' this text, 'quit' ends the session (the deal so far is
saved). A move that is the only legal one is played for you."""
MIN_WIDTH = 40  # the options are wrapped to the terminal's width, but never narrower than this


class HumanQuit(Exception):
    """The person typed ``quit`` (or the input ended)."""


def count(n: int, noun: str) -> str:
    """``1 deal``, ``2 deals``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def claim_save_path(save: str | None, force: bool = False) -> Path:
    """The file the deals will be saved to, created (empty) now, before any deal is dealt.

    Args:
        save: the ``--save`` path; None for the default, ``mazzo_deal.json`` in the current
            folder, or the first free ``mazzo_deal-2.json``, ``mazzo_deal-3.json``, ...
        force: overwrite ``save`` if it exists (without ``force`` an existing file is an error).

    Raises:
        ValueError: the file exists (without ``force``), is a folder, or cannot be written
            (a missing folder, no permission); the message names the path.
    """
    if save is None:
        base = Path(DEFAULT_SAVE)
        path, k = base, 1
        while path.exists() or not _claim(path, "x", str(path)):
            k += 1
            path = base.with_name(f"{base.stem}-{k}{base.suffix}")
        return path
    path = Path(save)
    if path.is_dir():
        raise ValueError(f"--save {save}: is a folder; give the path of a file")
    if path.exists() and not force:
        raise ValueError(
            f"--save {save}: the file exists; pass --force to overwrite it, or choose another path"
        )
    _claim(path, "a" if force else "x", f"--save {save}")
    return path


def _claim(path: Path, mode: str, what: str) -> bool:
    """Open ``path`` for writing in ``mode`` (``x`` creates it); False if it appeared meanwhile."""
    try:
        with path.open(mode):
            pass
    except FileExistsError:
        if what.startswith("--save"):
            raise ValueError(f"{what}: the file exists; pass --force to overwrite it") from None
        return False
    except OSError as e:
        raise ValueError(f"{what}: cannot write there: {e.strerror or e}") from None
    return True


def deal_summary(game: AnyGame, rules: Any, state: Any, number: int, seat: int) -> str:
    """One line on a finished deal: who won and every seat's score (the full result is in
    the saved record)."""
    returns = state.returns()
    unit = game.info.score_unit
    name = {s: f"S{s}" + (" (you)" if s == seat else "") for s in range(len(returns))}
    scores = ", ".join(f"{name[s]} {r:+g}" for s, r in enumerate(returns))
    teams = game.teams(rules)
    best = max(returns[t[0]] for t in teams)
    if best <= 0:
        return f"Deal {number} over: nobody wins; {scores} ({unit})"
    winners = [t for t in teams if returns[t[0]] == best]
    who = " and ".join("+".join(name[s] for s in t) for t in winners)
    verb = "wins" if len(winners) == 1 and len(winners[0]) == 1 else "win"
    return f"Deal {number} over: {who} {verb} {best:+g} {unit}; {scores}"


def legal_choices(state: Any) -> list[tuple[int, str]]:
    """(action id, label) of each legal action, in id order."""
    return [(a, state.action_label(a)) for a in bit_list(state.legal_mask())]


def parse_choice(text: str, choices: list[tuple[int, str]]) -> int | None:
    """The action the person meant (a number is an action's id + 1), or None if the input
    matches no legal action (or several)."""
    text = " ".join(text.split()).lower()
    if text.isdigit():
        k = int(text) - 1
        return k if any(a == k for a, _ in choices) else None
    exact = [a for a, label in choices if label.lower() == text]
    if exact:
        return exact[0]
    short = [a for a, label in choices if label.lower().split()[-1] == text]
    return short[0] if len(short) == 1 else None


def illegal_reason(state: Any, text: str, choices: list[tuple[int, str]]) -> str | None:
    """Why the action ``text`` names (a label, or its argument with a verb of this turn) is not
    legal now, in the engine's words (``must follow suit ...``); None if it names no action."""
    text = " ".join(text.split())
    verbs = dict.fromkeys(label.split()[0] for _, label in choices if " " in label)
    for candidate in (text, *(f"{verb} {text}" for verb in verbs)):
        try:
            action = state.parse_action(candidate)
        except ValueError:
            continue
        try:
            state.clone().apply(action)
        except IllegalAction as e:
            return e.reason
        return None  # legal after all (a choice ``parse_choice`` could not single out)
    return None


def option_lines(choices: list[tuple[int, str]], width: int) -> list[str]:
    """``Your options: [1] pass  [42] bid solo ...`` wrapped to ``width`` columns between
    options, never inside one (a continuation line is indented under the first option)."""
    head = "Your options: "
    items = [f"[{a + 1}] {label}" for a, label in choices]
    lines, line = [], head
    for item in items:
        if line.strip() and line != head and len(line) + 2 + len(item) > width:
            lines.append(line)
            line = " " * len(head) + item
        else:
            line += ("  " if line != head else "") + item
    lines.append(line)
    return lines


def reflow(text: str, width: int) -> str:
    """``text``'s paragraphs (blank-line separated) wrapped to ``width`` columns between words,
    never inside one (a help text written for a wide terminal, read on a narrow one)."""
    paragraphs = [" ".join(p.split()) for p in text.split("\n\n")]
    return "\n\n".join(
        textwrap.fill(p, width, break_long_words=False, break_on_hyphens=False) for p in paragraphs
    )


def fit_lines(text: str, width: int) -> str:
    """Each line of the table that is wider than ``width`` wrapped between words, its
    continuation indented under the line's own indent plus two (a hand never breaks inside a
    card or a suit's name)."""
    out = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        out.extend(
            textwrap.wrap(
                line,
                width,
                subsequent_indent=indent,
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    return "\n".join(out)


def changed_lines(text: str, before: str | None) -> str:
    """The lines of the table ``text`` that were not in the table shown ``before`` (all of
    them the first time), so that a turn shows what changed, not the whole table again."""
    if before is None:
        return text
    seen = set(before.splitlines())
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        if line in seen and not _is_header(line):
            continue
        if _is_header(line):
            block = list(itertools.takewhile(lambda x: x[:1].isspace(), lines[i + 1 :]))
            new = [x for x in block if x not in seen]
            if not new and line in seen:
                continue  # the block and its header as shown before
            if len(new) < len(block):  # part of the list: say so, not "the last 4" over one
                name = line.split(" (")[0].rstrip(":")
                line = f"{name}, new since your last turn ('table' shows them all):"
        out.append(line)
    return "\n".join(out)


def _is_header(line: str) -> bool:
    """A list's header line (``Tricks (the last 4 of 10):``): not indented, ends with a colon."""
    return bool(line) and not line[:1].isspace() and line.endswith(":")


def ask(
    state: Any, view_text: str, read: Callable[[], str], out: TextIO, notation: str = "",
    shown: str | None = None, width: int | None = None,
) -> int:  # fmt: skip
    """Show the view (only the lines not in ``shown``, the table shown at the person's last
    decision) and the legal actions; read until a legal choice is made (``help`` shows how to
    answer and the game's ``notation``, ``table`` the whole view)."""
    choices = legal_choices(state)
    cols = width or shutil.get_terminal_size().columns
    print(fit_lines(changed_lines(view_text, shown), max(MIN_WIDTH, cols)), file=out)
    print("\n".join(option_lines(choices, max(MIN_WIDTH, cols))), file=out)
    while True:
        out.write("> ")
        out.flush()
        text = read().strip()
        if text.lower() in ("quit", "exit"):
            raise HumanQuit
        if text.lower() == "table":
            print(fit_lines(view_text, max(MIN_WIDTH, cols)), file=out)
            continue
        if text.lower() in ("help", "?", "h"):
            print(reflow(HELP, max(MIN_WIDTH, cols)), file=out)
            if notation:
                print(reflow(notation, max(MIN_WIDTH, cols)), file=out)
            continue
        action = parse_choice(text, choices)
        if action is not None:
            return action
        numbers = ", ".join(str(a + 1) for a, _ in choices[:3]) + (
            ", ..." if len(choices) > 3 else ""
        )
        hint = f"type the number of an option ({numbers}), a label, or 'help'"
        why = illegal_reason(state, text, choices)
        said = f"not allowed now: {why}" if why else "not one of your options"
        print(f"'{text}' is {said}; {hint}.", file=out)


def play_session(
    game: AnyGame,
    rules: Any,
    seat: int,
    agents: list[AnyAgent],
    seed: int,
    deals: int,
    save: Path,
    read: Callable[[], str],
    out: TextIO,
) -> list[dict[str, Any]]:
    """Play ``deals`` deals with the person at ``seat``; returns the records written to ``save``
    (JSON Lines, rewritten after every deal).

    Raises:
        HumanQuit: the person quit (or the input ended); KeyboardInterrupt: Ctrl-C. Either way
            the deals finished so far and the unfinished one (its actions so far) are saved
            first, and the message says so.
    """
    rng = np.random.default_rng(seed)
    records: list[dict[str, Any]] = []
    state: Any = None
    print("Type 'help' at any prompt for how to answer and what the cards' letters mean.", file=out)
    try:
        for number in range(1, deals + 1):
            state = game.new_state(game.deal_random(rng, rules), rules)
            dealer = state.deal.dealer
            print(f"\n=== deal {number}: you are S{seat}, dealer S{dealer} ===", file=out)
            _play_deal(game, state, seat, agents, rng, read, out)
            print(game.render_state(state), file=out)
            print(deal_summary(game, rules, state, number, seat), file=out)
            records.append(game.write_record(state))
            state = None
            _save(save, records, out)
    except (HumanQuit, KeyboardInterrupt):
        if state is not None:
            records.append(game.write_record(state))
            _save(save, records, out, len(state.history))
        raise
    return records


def _save(save: Path, records: list[dict[str, Any]], out: TextIO, unfinished: int = -1) -> None:
    """Write every record to ``save`` and say so; ``unfinished``: the last one's action count
    when it is an unfinished deal."""
    save.write_text(records_to_jsonl(records))
    note = ""
    if unfinished >= 0:
        n = len(records)
        index = f" --index {n}" if n > 1 else ""
        note = (
            f" (deal {n} unfinished, after {count(unfinished, 'action')}: "
            f"'mazzo replay {save}{index}' shows it)"
        )
    print(f"saved {count(len(records), 'deal')} to {save}{note}", file=out)


def _play_deal(
    game: AnyGame, state: Any, seat: int, agents: list[AnyAgent], rng: np.random.Generator,
    read: Callable[[], str], out: TextIO,
) -> None:  # fmt: skip
    shown: str | None = None  # the table as the person last saw it
    while not state.is_terminal():
        actor = state.to_play
        forced = False
        if actor == seat:
            choices = legal_choices(state)
            forced = len(choices) == 1
            if forced:
                action = choices[0][0]
            else:
                view = game.render_view(state.info_view(seat))
                action = ask(state, view, read, out, game.info.notation, shown)
                shown = view
        else:
            action = agents[actor].act(state.info_view(actor), rng)
        label = state.action_label(action)
        if not game.action_is_visible(state, action, seat):
            label = label.split()[0] + " a card"  # a private card: only the verb is seen
        done = len(state.tricks)
        state.apply(action)
        who = "you" if actor == seat else f"S{actor}"
        note = " (your only legal move: played for you)" if forced else ""
        print(f"  {who}: {label}{note}", file=out)
        tricks = state.tricks
        if len(tricks) > done:
            print(f"  -> trick {len(tricks)} to S{tricks[-1][2]}", file=out)  # the winner seat

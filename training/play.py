"""Human play in the terminal (``mazzo play``): a person takes one seat, agents the others.

Each decision of the person shows the table from his seat (hand sorted by suit, the auction,
the current trick and who leads, the last tricks, the scores) and the legal actions, numbered,
with their short labels. Input: a number, a label (``play Ac``), the label's argument alone
(``Ac``, ``solo``) when that is unambiguous, ``help`` or ``quit``; anything else gets a clear
message and the question again. At the end of each deal the full scoring breakdown is printed
and the deal is saved as a RULES.md D.3 record (replay it with ``mazzo replay``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from agents.base import AnyAgent
from envs.cards.bits import bit_list
from envs.registry import Game

__all__ = ["HumanQuit", "play_session"]

HELP = """Type the number of an action, its label (e.g. 'play Ac'), or just its argument when it
is unambiguous ('Ac', 'solo', 'pass'). 'help' shows this text, 'quit' ends the session."""


class HumanQuit(Exception):
    """The person typed ``quit`` (or the input ended)."""


def legal_choices(state: Any) -> list[tuple[int, str]]:
    """(action id, label) of each legal action, in id order."""
    return [(a, state.action_label(a)) for a in bit_list(state.legal_mask())]


def parse_choice(text: str, choices: list[tuple[int, str]]) -> int | None:
    """The action the person meant, or None if the input matches no legal action (or several)."""
    text = " ".join(text.split()).lower()
    if text.isdigit():
        k = int(text)
        return choices[k - 1][0] if 1 <= k <= len(choices) else None
    exact = [a for a, label in choices if label.lower() == text]
    if exact:
        return exact[0]
    short = [a for a, label in choices if label.lower().split()[-1] == text]
    return short[0] if len(short) == 1 else None


def ask(state: Any, view_text: str, read: Callable[[], str], out: TextIO) -> int:
    """Show the view and the legal actions; read until a legal choice is made."""
    choices = legal_choices(state)
    print(view_text, file=out)
    print(
        "Your options: " + "  ".join(f"[{i}] {label}" for i, (_, label) in enumerate(choices, 1)),
        file=out,
    )
    while True:
        out.write("> ")
        out.flush()
        text = read().strip()
        if text.lower() in ("quit", "exit"):
            raise HumanQuit
        if text.lower() in ("help", "?", "h"):
            print(HELP, file=out)
            continue
        action = parse_choice(text, choices)
        if action is not None:
            return action
        hint = f"type a number 1-{len(choices)}, a label, or 'help'"
        print(f"'{text}' is not one of your options; {hint}.", file=out)


def play_session(
    spec: Game,
    rules: Any,
    seat: int,
    agents: list[AnyAgent],
    seed: int,
    deals: int,
    save: Path,
    read: Callable[[], str],
    out: TextIO,
) -> list[dict[str, Any]]:
    """Play ``deals`` deals with the person at ``seat``; returns the records written to ``save``.

    Raises:
        HumanQuit: the person quit (the deals finished so far are saved).
    """
    rng = np.random.default_rng(seed)
    records: list[dict[str, Any]] = []
    try:
        for number in range(1, deals + 1):
            state = spec.new_state(spec.deal_random(rng, rules), rules)
            dealer = state.deal.dealer
            print(f"\n=== deal {number}: you are S{seat}, dealer S{dealer} ===", file=out)
            _play_deal(spec, state, seat, agents, rng, read, out)
            print(spec.render_state(state), file=out)
            print("Final result (JSON): " + json.dumps(state.result()), file=out)
            records.append(spec.write_record(state))
    finally:
        if records:
            save.write_text(json.dumps(records if len(records) > 1 else records[0], indent=1))
            print(f"saved {len(records)} deal(s) to {save}", file=out)
    return records


def _play_deal(
    spec: Game, state: Any, seat: int, agents: list[AnyAgent], rng: np.random.Generator,
    read: Callable[[], str], out: TextIO,
) -> None:  # fmt: skip
    while not state.is_terminal():
        actor = state.to_play
        if actor == seat:
            action = ask(state, spec.render_view(state.info_view(seat)), read, out)
        else:
            action = agents[actor].act(state.info_view(actor), rng)
        label = state.action_label(action)
        if not spec.action_is_visible(state, action, seat):
            label = label.split()[0] + " a card"  # a private card: only the verb is seen
        done = len(state.tricks)
        state.apply(action)
        who = "you" if actor == seat else f"S{actor}"
        print(f"  {who}: {label}", file=out)
        tricks = state.tricks
        if len(tricks) > done:
            print(f"  -> trick {len(tricks)} to S{_winner_seat(state, tricks[-1][2])}", file=out)


def _winner_seat(state: Any, winner: int) -> int:
    """Trick winners are positions in Calabresella (``seat_of`` maps them), seats in Minchiate."""
    seat_of = getattr(state, "seat_of", None)
    return int(seat_of[winner]) if seat_of is not None else winner

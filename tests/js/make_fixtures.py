"""Fixtures for the JavaScript runtime of exported bundles (``js/``, package ``mazzo-bot``).

For each game whose bundle folder is given (Calabresella, Minchiate), this writes
``<out>/<game>.json``:

- ``vectors``: one case per line of the bundle's ``test_vectors.jsonl``: the protocol messages
  (``mazzo-bot/1`` seat sessions: ``deal``, ``event``, ``reveal``; docs/protocol.md) the
  vector's seat receives from the start of the deal up to the vector's step, built by mazzo's
  own referee helpers (``mazzo.serve.trackers.registry.tracker_for(game)``: ``private_of``,
  ``reveal_of``; the event args hidden exactly where ``game.action_is_visible`` says the seat
  may not see them, as the table sessions hide them), with the vector's ``obs``, ``mask`` and
  ``probs``.
- ``variants``: whole random deals under other rule flags (``VARIANTS``: Calabresella's player
  counts, exposure and auction variants; Minchiate's declaration, discard, Fola, play, Matto and
  scoring variants, and two deals void under M-8.5), one case per (deal, seat) with the seat's
  messages and, after every action, the seat on turn and the seat's observation (sparse) and
  mask from this mazzo's encoder.
- ``sessions``: a few whole deals for the protocol cross-check against ``mazzo serve --stdio``
  (the JS test opens a seat session per seat, feeds the same messages to the server and to
  its own tracker, and compares every ``go`` of the server's ``onnx`` bot with its own choice,
  and the error codes of inputs the seat must refuse).
  Half of them are played by the bundle's own policy (``onnx:``, greedy), half by random moves.
- ``foreign``: rule flags other than the bundle's, with the message ``Bundle.check`` raises.

Usage: ``python tests/js/make_fixtures.py --out DIR calabresella=BUNDLE_DIR minchiate=DIR``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from mazzo.agents.bundle import BundleAgent, load_bundle
from mazzo.envs.registry import get_game
from mazzo.serve.trackers.registry import tracker_for

GAME_ID = "g1"
TRACKED = ("calabresella", "minchiate")  # the games js/ has a seat tracker for
# Games whose seat knows every field of its view at the end too (a Calabresella seat does not
# know the set-aside cards that go to a pile at the end; a Minchiate seat knows every pile).
EXACT_AT_END = ("minchiate",)
CHIAMO_BID = 41  # Calabresella's "bid chiamo" (encoding.md 2.2)

# Rule variants the JS tracker and encoder are checked on (beyond the bundle's own rules).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "calabresella": [
        {"players": 2},
        {"players": 4, "first_lead": "dealer_left"},
        {"aperta": True, "chiamo_monte_exposed": True, "chiamo_return_public": True},
        {"allow_call_own_card": True, "solissimo_view_monte": True, "first_lead": "soloist"},
        {"auction": "until_two_passes", "all_pass": "forced_chiamo_eldest",
         "scegliete_splits": "only_2_2", "first_lead": "dealer_left"},
        {"players": 4, "all_pass": "next_deal_no_chiamo", "aperta": True},
        {"players": 2, "aperta": True, "solissimo_view_monte": True,
         "allowed_contracts": ["chiamo", "solissimo", "scegliete"]},
    ],
    "minchiate": [
        {"declarations": "auto_all", "fola_exposure": "never", "matto_payment": "agent"},
        {"declare_timing": "with_first_card", "must_overtrump": True, "king_rule": False},
        {"discard_rule": "any", "faceup_21st": "dealer_only", "dealer_takes": "counters_only",
         "score_taken_cards": True, "matto_payment": "agent"},
        {"impossible_discard": "relax", "diecine": "any_three", "matto_bonus_in_own_combo": True,
         "declaration_score_timing": "end", "must_overtrump": True},
        {"declare_timing": "with_first_card", "declarations": "auto_all", "matto_payment": "agent",
         "matto_last_trick_lost": True, "matto_death_bonus": True, "fola_exposure": "never"},
        {"rob_cap": 3, "resti_unit": 20, "capture_bonus": False, "end_recount_combos": False,
         "matto_bonus_at_end": False, "diecine": "two_triples", "surplus_base": 40,
         "last_trick_bonus": 0, "king_rule": False},
    ],
}  # fmt: skip
FOREIGN: dict[str, list[dict[str, Any]]] = {
    "calabresella": [{"aperta": True}, {"players": 4, "target": 31}],
    "minchiate": [{"faceup_21st": "dealer_only"}, {"resti_unit": 50, "king_rule": False}],
}


def _jsonable(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    return x


def start_state(game: Any, record: dict[str, Any]) -> Any:
    """The state of ``record``'s deal before its first action."""
    return game.replay({k: v for k, v in record.items() if k not in ("actions", "result")}
                       | {"actions": []})  # fmt: skip


def action_of(game: Any, state: Any, triple: list[Any]) -> int:
    _, verb, arg = triple
    return int(state.parse_action(game.vocabulary.to_label(verb, str(arg) if type(arg) is int
                                                            else arg)))  # fmt: skip


def seat_messages(game: Any, states: list[Any], actions: list[int], seat: int
                  ) -> tuple[list[dict[str, Any]], list[int]]:  # fmt: skip
    """The messages ``seat`` receives over ``states`` (the state before each action, then the
    last), and the index of the last message of the deal's start and then of each action."""
    entry = tracker_for(game)
    first = states[0]
    msgs: list[dict[str, Any]] = [{"type": "deal", "game": GAME_ID, "dealer": first.dealer,
                                   "private": entry.private_of(first, seat)}]  # fmt: skip
    reveal = entry.reveal_of(None, None, first, seat)
    if reveal:
        msgs.append({"type": "reveal", "game": GAME_ID, **reveal})
    marks = [len(msgs) - 1]
    for k, action in enumerate(actions):
        before, after = states[k], states[k + 1]
        verb, arg = game.vocabulary.to_triple(before.action_label(action))
        shown = game.action_is_visible(before, action, seat)
        msgs.append({"type": "event", "game": GAME_ID, "seat": int(before.to_play), "verb": verb,
                     "arg": arg if shown else None})  # fmt: skip
        reveal = entry.reveal_of(before, action, after, seat)
        if reveal:
            msgs.append({"type": "reveal", "game": GAME_ID, **reveal})
        marks.append(len(msgs) - 1)
    return _jsonable(msgs), marks


def replay_states(game: Any, record: dict[str, Any]) -> tuple[list[Any], list[int]]:
    state = start_state(game, record)
    states, actions = [state.clone()], []
    for triple in record.get("actions") or []:
        a = action_of(game, state, triple)
        state.apply(a)
        actions.append(a)
        states.append(state.clone())
    return states, actions


def vector_cases(game: Any, bundle_dir: Path) -> list[dict[str, Any]]:
    cases = []
    lines = (bundle_dir / "test_vectors.jsonl").read_text().splitlines()
    for i, line in enumerate(lines, 1):
        vec = json.loads(line)
        states, actions = replay_states(game, vec["record"])
        msgs, _ = seat_messages(game, states, actions, vec["seat"])
        cases.append({"name": f"vector {i} ({vec['phase']}, S{vec['seat']}, step {vec['step']})",
                      "seat": vec["seat"], "flags": vec["record"].get("rules", {}).get("flags", {}),
                      "messages": msgs, "to_play": int(states[-1].to_play),
                      "obs": vec["obs"], "mask": vec["mask"], "probs": vec["probs"]})  # fmt: skip
    return cases


def sparse(obs: np.ndarray) -> list[list[float]]:
    return [[int(i), float(obs[i])] for i in np.flatnonzero(obs)]


def play_deal(game: Any, rules: Any, rng: np.random.Generator, agent: Any = None,
              deal: Any = None, **options: Any) -> tuple[list[Any], list[int]]:  # fmt: skip
    deal = deal if deal is not None else game.deal_random(rng, rules)
    state = game.new_state(deal, rules, **options)
    states, actions = [state.clone()], []
    while not state.is_terminal():
        if agent is not None:
            a = int(agent.act(state.info_view(state.to_play), rng))
        else:
            legal = state.legal_actions()
            a = int(legal[rng.integers(len(legal))])
            if game.name == "calabresella" and CHIAMO_BID in legal and rng.random() < 0.3:
                a = CHIAMO_BID  # random bids rarely stop at Chiamo: call and return need it
        state.apply(a)
        actions.append(a)
        states.append(state.clone())
    return states, actions


def seat_cases(game: Any, rules: Any, name: str, flags: dict[str, Any], states: list[Any],
               actions: list[int]) -> list[dict[str, Any]]:  # fmt: skip
    """One case per seat of a deal: its messages and, after every action, the seat on turn and
    the seat's observation (sparse) and mask from this mazzo's encoder."""
    encoder = game.encoder(rules)
    cases = []
    for seat in range(game.seats(rules)):
        msgs, marks = seat_messages(game, states, actions, seat)
        views = [s.info_view(seat) for s in states]
        obs = np.zeros((len(views), encoder.obs_size), np.float32)
        mask = np.zeros((len(views), encoder.num_actions), np.int8)
        encoder.encode_batch(views, obs, mask)
        # At the end of a Calabresella deal the piles hold the set-aside cards (discards, a
        # Solissimo monte), which a seat's own view of the deal does not know: no observation is
        # asked of a finished deal there (nobody acts then), only the mask (all zero) and the
        # seat on turn. A Minchiate seat knows its whole view at the end too (EXACT_AT_END).
        exact_end = game.name in EXACT_AT_END
        checks = [{"after": marks[k], "to_play": int(states[k].to_play),
                   "obs": None if states[k].is_terminal() and not exact_end else sparse(obs[k]),
                   "mask": [int(i) for i in np.flatnonzero(mask[k])]}
                  for k in range(len(views))]  # fmt: skip
        cases.append({"name": f"{name} S{seat}", "seat": seat, "flags": flags, "messages": msgs,
                      "checks": checks})  # fmt: skip
    return cases


def minchiate_void_deals() -> list[Any]:
    """Two Minchiate deals void under ``impossible_discard = redeal`` (M-8.5), which random deals
    almost never are: the cutter robs 13 counters and is dealt 13 more cards he may not discard
    (void at once); the cutter robs one counter, the dealer robs the 11 Fola cards above the stop
    card, all counters, and is dealt the other 14 such cards (void after the cutter's discard)."""
    from mazzo.envs.cards.deal import Deal
    from mazzo.envs.minchiate.tables import COUNTERS, T29

    keep = [c for c in range(97) if COUNTERS >> c & 1 or c == T29]  # the 26 non-discards
    others = [c for c in range(97) if c not in keep]
    stop = others[0]  # T6: it does not qualify, so it stops the robbing (M-5.2)
    free = others[1:]

    def stream(robbed: list[int], fola: list[int], slots: range | list[int]) -> Deal:
        # pack: the 97 - r cards after the stop, the stop last (M-5.4); pack[84:] is the Fola
        mine = [c for c in keep if c not in robbed and c not in fola]
        rest = iter(free)
        size = 97 - len(robbed) - 1 - len(fola)  # pack cards before the Fola, less the stop
        pack = [mine.pop() if i in slots and mine else next(rest) for i in range(size)]
        return Deal(1, (*robbed, stop, *pack, *fola))

    cutter_slots = [*range(20, 30), *range(62, 73)]  # dealer S1: the cutter S0 is dealt 3rd
    dealer_slots = [*range(30, 40), *range(73, 84)]
    return [stream(keep[:13], [], cutter_slots), stream(keep[:1], keep[1:12], dealer_slots)]


def variant_cases(game: Any, deals: int, seed: int) -> list[dict[str, Any]]:
    cases = []
    rng = np.random.default_rng(seed)
    for v, flags in enumerate(VARIANTS[game.name]):
        rules = game.rules(flags)
        for d in range(deals):
            options = {}
            if flags.get("all_pass") == "next_deal_no_chiamo" and d % 2 == 0:
                options["no_chiamo"] = True
            states, actions = play_deal(game, rules, rng, **options)
            name = f"variant {v} {json.dumps(flags)} deal {d}"
            cases += seat_cases(game, rules, name, flags, states, actions)
    if game.name == "minchiate":  # the void deals of M-8.5 (under the default rules)
        rules = game.rules({})
        for d, deal in enumerate(minchiate_void_deals()):
            states, actions = play_deal(game, rules, rng, deal=deal)
            assert states[-1].void, "minchiate_void_deals: the deal is not void"
            cases += seat_cases(game, rules, f"void deal {d}", {}, states, actions)
    return cases


def session_cases(game: Any, bundle_dir: Path, deals: int, seed: int) -> list[dict[str, Any]]:
    bundle = load_bundle(bundle_dir)
    rules = bundle.rules()
    agent = BundleAgent(bundle)
    rng = np.random.default_rng(seed)
    out = []
    for d in range(deals):
        states, actions = play_deal(game, rules, rng, agent if d % 2 == 0 else None)
        seats = []
        for seat in range(game.seats(rules)):
            msgs, _ = seat_messages(game, states, actions, seat)
            seats.append({"seat": seat, "messages": msgs})
        out.append({"name": f"deal {d} ({'bot' if d % 2 == 0 else 'random'} moves)",
                    "record": _jsonable(game.write_record(states[-1])),
                    "seats": seats})  # fmt: skip
    return out


def foreign_cases(game: Any, bundle_dir: Path, path_text: str) -> list[dict[str, Any]]:
    bundle = load_bundle(path_text)
    out = []
    for flags in FOREIGN[game.name]:
        try:
            bundle.check(game, game.rules(flags))
            message = None
        except ValueError as e:
            message = str(e)
        out.append({"flags": flags, "message": message})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the folder the fixtures go to")
    parser.add_argument("--deals", type=int, default=6, help="random deals per rule variant")
    parser.add_argument("--sessions", type=int, default=4, help="whole deals for the session test")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("bundles", nargs="+", metavar="GAME=DIR")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for item in args.bundles:
        name, _, where = item.partition("=")
        game, bundle_dir = get_game(name), Path(where)
        manifest = json.loads((bundle_dir / "manifest.json").read_text())
        fixture: dict[str, Any] = {
            "game": name,
            "bundle": str(bundle_dir.resolve()),
            "flags": manifest["flags"],
            "foreign": foreign_cases(game, bundle_dir, str(bundle_dir.resolve())),
        }
        if name not in TRACKED:
            raise SystemExit(f"js/ has no seat tracker for {name}")
        fixture["vectors"] = vector_cases(game, bundle_dir)
        fixture["variants"] = variant_cases(game, args.deals, args.seed)
        fixture["sessions"] = session_cases(game, bundle_dir, args.sessions, args.seed + 1)
        path = out / f"{name}.json"
        path.write_text(json.dumps(fixture))
        counts = ", ".join(
            f"{len(fixture[k])} {k}" for k in ("vectors", "variants", "sessions") if k in fixture
        )
        print(f"{path}: {counts}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

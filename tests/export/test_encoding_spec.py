"""docs/encoding.md is exact: the independent implementation written from it
(``tests.export.encoding_spec``) equals the engines' encoders bit for bit, and the document's
slice tables and worked examples agree with the registry and the engines.

Random deals of every rule variant (``TEST_VARIANTS``) are played with random legal actions; at
every step (and at the end) each seat's view is encoded both ways and compared with
``np.array_equal`` (float32), and the masks are compared with the encoder's batch masks and
with the state's legal actions.
"""

from __future__ import annotations

import importlib
import json
import random
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mazzo.envs.registry import Game, get_game
from tests.export import encoding_spec as spec
from tests.export.conftest import DECISION_PHASES

DOC = Path(__file__).resolve().parents[2] / "docs" / "encoding.md"
GAME_NAMES = ("calabresella", "minchiate")
DEALS = {"calabresella": 5, "minchiate": 2}  # random deals per rule variant
PHASES = {"calabresella": 9, "minchiate": 6}


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _variants(name: str) -> tuple[Mapping[str, Any], ...]:
    variants: tuple[Mapping[str, Any], ...] = importlib.import_module(
        f"mazzo.envs.{name}.game"
    ).TEST_VARIANTS
    return variants


def _seed(*parts: object) -> int:
    return zlib.crc32(json.dumps(parts, sort_keys=True).encode())


def _spec_obs(game: Game) -> Callable[[Any], np.ndarray]:
    if game.name == "calabresella":
        labels = game.info.deck.labels
        return lambda v: spec.calabresella_obs(v, labels)
    return spec.minchiate_obs


def _spec_mask(game: Game) -> Callable[[Any], np.ndarray]:
    return spec.calabresella_mask if game.name == "calabresella" else spec.minchiate_mask


def _standing(game: Game, view: Any, rng: random.Random) -> Any:
    """Half the views get a random match / series standing (the scalars the deal leaves 0)."""
    if rng.random() < 0.5:
        return view
    if game.name == "calabresella":
        totals = tuple(rng.choice((0.0, 0.5, 3.0, 4.75, 17.25, 25.0)) for _ in view.totals)
        return view._replace(totals=totals)
    return view._replace(series_resti=rng.randint(-12, 12))


def _positions(game: Game, flags: Mapping[str, Any], k: int) -> Iterator[Any]:
    """The state at every step of a random deal, the final state included."""
    rules = game.rules(flags)
    rng = np.random.default_rng(_seed(game.name, dict(flags), k))
    options = {"no_chiamo": True} if game.name == "calabresella" and k % 3 == 2 else {}
    state = game.new_state(game.deal_random(rng, rules), rules, **options)
    pick = random.Random(_seed("actions", game.name, dict(flags), k))
    while not state.is_terminal():
        yield state
        state.apply(_choose(game, state, pick))
    yield state


def _choose(game: Game, state: Any, pick: random.Random) -> int:
    """A random legal action; in Calabresella biased towards the lowest contract (most random
    auctions pass out or end in Scegliete otherwise) and, when it is legal, towards calling
    one's own card."""
    legal: list[int] = state.legal_actions()
    if game.name == "calabresella" and pick.random() < 0.8:
        if int(state.phase) == 0 and len(legal) > 1:  # BID: the lowest open bid, then passes
            bid = any(a != 40 for _, a in state.bids)
            return 40 if bid else min(a for a in legal if a != 40)
        own = [a for a in legal if int(state.phase) == 1 and (state.hands[state.pos] >> a) & 1]
        if own:  # CALL under allow_call_own_card
            return pick.choice(own)
    return pick.choice(legal)


def _check_position(game: Game, state: Any, rng: random.Random, seen: Counter[str]) -> None:
    encoder = game.encoder(state.rules)
    n = game.seats(state.rules)
    views = [_standing(game, state.info_view(seat), rng) for seat in range(n)]
    obs = np.full((n, encoder.obs_size), np.nan, np.float32)
    masks = np.full((n, encoder.num_actions), -1, np.int8)
    encoder.encode_batch(views, obs, masks)
    spec_obs, spec_mask = _spec_obs(game), _spec_mask(game)
    legal = set(state.legal_actions()) if not state.is_terminal() else set()
    for seat, view in enumerate(views):
        mine = spec_obs(view)
        assert mine.dtype == np.float32
        assert np.array_equal(mine, encoder.encode(view)), _diff(game, mine, encoder.encode(view))
        assert np.array_equal(mine, obs[seat])
        mask = spec_mask(view)
        assert mask.dtype == np.int8 and np.array_equal(mask, masks[seat])
        on_turn = seat == state.to_play and not state.is_terminal()
        assert set(np.flatnonzero(mask).tolist()) == (legal if on_turn else set())
        seen[f"phase {int(view.phase)}"] += 1
        if not state.is_terminal():
            seen[f"phase {int(view.phase)} {'on' if on_turn else 'off'} turn"] += 1
        _note(game, view, seen)


def _note(game: Game, view: Any, seen: Counter[str]) -> None:
    """Count the rarer cases, so the test can show it met them."""
    if game.name == "calabresella":
        seen["idle dealer"] += view.position < 0
        seen["no_chiamo"] += view.no_chiamo
        seen["own card called"] += view.giver == -2
        seen["called from the monte"] += view.called >= 0 and view.giver == -1
        seen["partner hand"] += view.partner_hand != 0
        seen["returned"] += view.returned >= 0
        seen["void"] += any(view.void)
        seen["split"] += view.split_d1 != 0
        seen["totals"] += any(view.totals)
    else:
        seen["offered"] += view.offered is not None
        seen["matto owner"] += view.matto_owner >= 0
        seen["matto debt"] += view.matto_debt
        seen["fola exposed"] += view.fola_exposed
        seen["no face-up card"] += min(view.faceup) < 0
        seen["led trumps"] += view.led == 4
        seen["D < 0"] += view.D < 0
        seen["series"] += view.series_resti != 0


def _diff(game: Game, mine: np.ndarray, theirs: np.ndarray) -> str:
    where = np.flatnonzero(mine != theirs)
    names = [
        f"{i} ({name} +{i - a}): spec {mine[i]} encoder {theirs[i]}"
        for i in where[:8]
        for name, (a, b) in game.info.obs_slices.items()
        if a <= i < b
    ]
    return "; ".join(names)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_spec_equals_the_encoder_on_random_deals(name: str) -> None:
    game = get_game(name)
    seen: Counter[str] = Counter()
    rng = random.Random(_seed("standing", name))
    for flags in _variants(name):
        for k in range(DEALS[name]):
            for state in _positions(game, flags, k):
                _check_position(game, state, rng, seen)
    assert sum(seen[f"phase {p}"] for p in range(PHASES[name])) >= 2000
    missing = [key for key, n in seen.items() if n == 0]
    missing += [f"phase {p}" for p in range(PHASES[name]) if not seen[f"phase {p}"]]
    missing += [
        f"phase {p} {turn} turn"
        for p in range(PHASES[name] - 1)  # every decision phase (DONE is the last)
        for turn in ("on", "off")
        if not seen[f"phase {p} {turn} turn"]
    ]
    assert not missing, f"never met: {missing} ({dict(seen)})"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_spec_reproduces_the_bundles_test_vectors(
    name: str, shipped_bundles: dict[str, Path], tiny_bundles: dict[str, tuple[Path, Path]]
) -> None:
    """What a front end does with a bundle: replay each vector's record, encode the view of its
    seat from this document, and compare with the stored ``obs`` and ``mask``: every decision
    phase of the game is among them, on turn and off turn (export.md)."""
    game = get_game(name)
    for folder in (shipped_bundles[name], tiny_bundles[name][1]):
        lines = (folder / "test_vectors.jsonl").read_text().splitlines()
        vectors = [json.loads(line) for line in lines]
        met: set[tuple[str, bool]] = set()
        for v in vectors:
            state = game.replay(v["record"], None)
            view = state.info_view(v["seat"])
            obs = np.asarray(v["obs"], np.float32)
            assert np.array_equal(_spec_obs(game)(view), obs), (folder, v["step"])
            assert np.array_equal(_spec_mask(game)(view), np.asarray(v["mask"], np.int8))
            assert v["phase"] == type(view.phase)(view.phase).name
            met.add((v["phase"], state.to_play == v["seat"]))
        assert {p for p, _ in met} == DECISION_PHASES[name], folder
        assert {on for _, on in met} == {True, False}, folder


def _slice_table(name: str) -> list[tuple[str, int, int]]:
    text = _doc()
    start = text.index(f"<!-- slices:{name} ")
    rows: list[tuple[str, int, int]] = []
    for line in text[start:].splitlines()[1:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0].isdigit():
            rows.append((cells[1], int(cells[2]), int(cells[3])))
    return rows


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_slice_table_agrees_with_the_registry(name: str) -> None:
    info = get_game(name).info
    table = _slice_table(name)
    assert {b: (a, a + n) for b, a, n in table} == dict(info.obs_slices)
    assert [b for b, _, _ in table] == list(info.obs_slices)  # same order, laid end to end
    assert all(a + n == table[i + 1][1] for i, (_, a, n) in enumerate(table[:-1]))
    assert table[0][1] == 0 and table[-1][1] + table[-1][2] == info.obs_size
    layout = spec.CALABRESELLA_LAYOUT if name == "calabresella" else spec.MINCHIATE_LAYOUT
    assert list(layout) == table
    title = {"calabresella": "Calabresella", "minchiate": "Minchiate"}[name]
    section = _doc().split(f"## {2 if name == 'calabresella' else 3}. {title}")[1]
    head = re.search(r"Version (\d+)\. `obs_size = (\d+)` \((\d+) binary", section)
    assert head is not None
    n_binary = get_game(name).encoder(get_game(name).rules()).n_binary  # type: ignore[attr-defined]
    assert (int(head[1]), int(head[2]), int(head[3])) == (
        info.encoding_version,
        info.obs_size,
        n_binary,
    )
    assert f"`num_actions = {info.num_actions}`" in section.strip().split("\n\n")[0]


def _examples(name: str) -> tuple[dict[str, Any], list[tuple[int, list[int], dict[int, float]]]]:
    text = _doc()
    block = text.split(f"<!-- example:{name} -->")[1].split("```json")[1].split("```")[0]
    record = json.loads(block)
    listings = []
    for m in re.finditer(rf"<!-- nonzero:{name} seat=(\d+) mask=([\d,]*) -->", text):
        body = text[m.end() :].split("```text")[1].split("```")[0]
        values: dict[int, float] = {}
        for line in body.strip().splitlines():
            where, value = line.split()[:2]
            lo, _, hi = where.partition("..")
            num, _, den = value.partition("/")
            x = float(np.float32(float(num) / float(den or 1)))
            for i in range(int(lo), int(hi or lo) + 1):
                values[i] = x
        mask = [int(a) for a in m[2].split(",") if a]
        listings.append((int(m[1]), mask, values))
    return record, listings


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_worked_examples(name: str) -> None:
    game = get_game(name)
    record, listings = _examples(name)
    assert listings
    state = game.replay(record, None)
    for seat, mask, values in listings:
        view = state.info_view(seat)
        obs = game.encoder(state.rules).encode(view)
        nonzero = {int(i): float(obs[i]) for i in np.flatnonzero(obs)}
        assert nonzero == values
        assert np.array_equal(_spec_obs(game)(view), obs)
        assert np.flatnonzero(_spec_mask(game)(view)).tolist() == mask


def _env_variants(name: str) -> tuple[Mapping[str, Any], ...]:
    variants: tuple[Mapping[str, Any], ...] = importlib.import_module(
        f"mazzo.envs.{name}.game"
    ).TEST_ENV_VARIANTS
    return variants


@pytest.mark.parametrize("name", GAME_NAMES)
def test_spec_equals_the_env_observations(name: str) -> None:
    """The PettingZoo env's ``observe`` (matches and series included: real match totals and
    series standings) is what the spec builds from the env's current view, for every agent."""
    game = get_game(name)
    spec_obs, spec_mask = _spec_obs(game), _spec_mask(game)
    standing = 0
    for kwargs in _env_variants(name):
        env = game.raw_env(**kwargs)
        env.reset(seed=_seed("env", name, dict(kwargs)))
        pick = random.Random(_seed("env actions", name, dict(kwargs)))
        for _ in range({"calabresella": 160, "minchiate": 230}[name]):
            if not env.agents:
                break
            for seat, agent in enumerate(env.possible_agents):
                seen = env.observe(agent)
                view = env.game.info_view(seat)
                assert np.array_equal(spec_obs(view), seen["observation"])
                assert np.array_equal(spec_mask(view), seen["action_mask"])
                standing += any(view.totals) if name == "calabresella" else view.series_resti != 0
            agent = env.agent_selection
            legal = np.flatnonzero(env.observe(agent)["action_mask"]).tolist()
            done = env.terminations[agent] or env.truncations[agent]
            env.step(None if done else pick.choice(legal))
    assert standing > 0, "no view had a match or series standing"


def _played(game: Game, flags: Mapping[str, Any], seed: int, stop: Callable[[Any], bool]) -> Any:
    """A random deal under ``flags`` played until ``stop(state)`` (None if it never holds)."""
    rules = game.rules(dict(flags))
    rng = np.random.default_rng(seed)
    state = game.new_state(game.deal_random(rng, rules), rules)
    while not stop(state):
        if state.is_terminal():
            return None
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return state


def test_what_section_2_9_says_of_calabresella() -> None:
    """encoding.md 2.9: no_chiamo from the record's key, who receives which monte cards in
    Dividete, partner_hand a due during the auction."""
    game = get_game("calabresella")
    rules = game.rules()
    deal = game.deal_random(np.random.default_rng(0), rules)
    redeal = game.new_state(deal, rules, no_chiamo=True)
    redeal.apply(redeal.parse_action("pass"))
    record = game.write_record(redeal)
    assert record["no_chiamo"] is True
    assert game.replay(record, None).info_view(0).no_chiamo
    plain = {k: v for k, v in record.items() if k != "no_chiamo"}
    assert not any(game.replay(plain, None).info_view(s).no_chiamo for s in range(3))

    labels = game.info.deck.labels
    met = 0
    for flags in ({}, {"players": 2}):
        for seed in range(300):
            state = _played(game, flags, seed, lambda s: s.phase.name == "DIV_DISCARD")
            if state is None:
                continue
            met += 1
            deck = game.write_record(state)["deck"]
            d1, d2 = (state.soloist + 1) % 3, (state.soloist + 2) % 3
            views = {p: state.info_view(state.seat_of[p]) for p in (d1, d2)}
            if flags:  # a due the dealer decides for both defenders when A0 is the soloist
                if state.soloist == 0:
                    assert views[d1].known_monte == views[d2].known_monte
                    assert {labels[c] for c in _bits(views[d1].known_monte)} == set(deck[36:])
                continue
            assert {labels[c] for c in _bits(views[d1].known_monte)} == set(deck[36:38])
            assert {labels[c] for c in _bits(views[d2].known_monte)} == set(deck[38:])
    assert met >= 10

    flags = {"players": 2}
    for seed in range(20):
        rules = game.rules(flags)
        state = game.new_state(game.deal_random(np.random.default_rng(seed), rules), rules)
        dealer = state.dealer
        while state.phase.name == "BID":
            view = state.info_view(dealer)
            assert view.partner_hand == 0 and view.soloist == -1
            on_turn = state.pos if state.pos in (1, 2) else 1
            assert view.position == on_turn and view.hand == state.hands[on_turn]
            legal = state.legal_actions()
            state.apply(legal[seed % len(legal)])


def _bits(mask: int) -> list[int]:
    """The card indices of a bitmask."""
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def test_what_section_3_9_says_of_minchiate() -> None:
    """encoding.md 3.9 on the record of 3.7: D and R move after a player's last decision, and
    the dealer's fola_known is the Fola he saw, his discards, not the cutter's."""
    game = get_game("minchiate")
    record, _ = _examples("minchiate")
    labels = game.info.deck.labels

    def at(k: int) -> Any:
        return game.replay({**record, "actions": record["actions"][:k]}, None)

    assert [(at(k).info_view(0).D, at(k).info_view(0).R) for k in (0, 6, 7, 8)] == [
        (-17, 0), (-17, 0), (-17, 0), (-24, -1),
    ]  # fmt: skip
    seven = at(7).info_view(0)
    assert [s for s, _ in seven.declared] == [3] and seven.phase.name == "DECLARE"
    assert [e.cause for e in at(8).info_view(0).events] == ["cutter_rob", "declare"]
    state = at(8)
    known = {labels[c] for c in _bits(state.info_view(0).fola_known)}
    assert known == {"T6", "8b", "9b", "10b", "Jb", "Nb", "Qb", "Ac"}
    cutter = {labels[c] for c in _bits(state.info_view(3).discards)}
    assert cutter == {"T27", "As", "2s", "3s", "4s"} and not cutter & known
    assert {labels[c] for c in _bits(state.setup.fola)} == known - {"Ac"}
    assert len(record["stream"]) == 97
    robbed, taken = len(state.setup.robbed), state.setup.dealer_taken.bit_count()
    assert robbed + len(state.setup.dealer_robbed) + taken + state.setup.fola.bit_count() == 13

"""The turns a plain deal seldom reaches, driven through the page in a real browser.

Each case is a table (game, flags, seats) and a click policy; ``tests.web.scenarios`` finds a
seed (from a known one) whose deal brings the person's seat to the special turns, playing the
server's own table session in process. The page then plays that seed: at every turn its legal
labels are the in-process ones, the highlighted moves on the page are exactly them (and
visible), and the policy's move is clicked. Each special turn is photographed into
``$MAZZO_ARTIFACTS`` (``web_<case>_<verb>.png``); a case stops once its last special turn is
answered, except the ones that must reach the end. (Minchiate's Matto payment comes at the very
end of a deal: ``test_table``'s full Minchiate deal plays it.)
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from mazzo.serve.table import open_table
from tests.web.conftest import artifacts_dir
from tests.web.page import (
    check_highlighted,
    click,
    fill_setup,
    legal_of,
    next_turn,
    open_setup,
    state,
    wait,
)  # fmt: skip
from tests.web.scenarios import Scenario, bots, find_seed, has_verb, pick, play

C, H, R = "client", "heuristic", "random"


def _a_due(legal: list[str], view: dict[str, Any]) -> bool:
    """The person's seat holds both defenders' positions (2 players, the dealer's seat)."""
    seat_of: list[int] = view["seat_of"]
    return seat_of.count(view["seat"]) == 2


def _active(legal: list[str], view: dict[str, Any]) -> bool:
    return bool(view["dealer"] != view["seat"])


# case: (scenario, the seed the search starts from, the verbs photographed at their first turn)
CASES: dict[str, tuple[Scenario, int, tuple[str, ...]]] = {
    "cal_split": (
        Scenario("calabresella", (C, R, R), prefer=("pass", "split 3"),
                 targets=(has_verb("split"), has_verb("discard"))),
        0, ("split", "discard"),
    ),
    "cal_call": (
        Scenario("calabresella", (C, H, H), prefer=("bid chiamo",),
                 targets=(has_verb("call"), has_verb("return"), has_verb("discard"))),
        0, ("call", "return", "discard"),
    ),
    "cal_void": (
        Scenario("calabresella", (C, H, H), prefer=("pass",), end="void"), 1, ("end",),
    ),
    "cal_2p": (
        Scenario("calabresella", (C, H), {"players": 2}, prefer=("pass",),
                 targets=(_a_due, has_verb("play"))),
        0, ("play",),
    ),
    "cal_4p": (
        Scenario("calabresella", (C, H, H, H), {"players": 4}, prefer=("pass",),
                 targets=(_active, has_verb("play"))),
        0, ("bid", "play"),
    ),
    "min_declare": (
        Scenario("minchiate", (C, H, H, H), targets=(has_verb("declare"),)), 10, ("declare",),
    ),
}  # fmt: skip


def discard_together(browser: Any, labels: list[str]) -> str:
    """Pick the discards ``labels`` on the page (nothing is sent: the turn stays, the picks are
    marked, and Discard is enabled only once all are picked), take one back and pick it again,
    then press Discard; returns the turn counter of the first discard once the page has sent
    them all (the next turn is the one after the discards)."""
    turn = state(browser)["turn"]
    cards = [label.split(" ")[1] for label in labels]
    for k, code in enumerate(cards):
        confirm = browser.find_element(By.ID, "discard-confirm")
        assert not confirm.is_enabled(), f"Discard enabled with {k} of {len(cards)} picked"
        click(browser, f"discard {code}")
    picked = [
        e.get_attribute("data-code")
        for e in browser.find_elements(By.CSS_SELECTOR, "#hand .card.picked")
    ]
    assert sorted(picked) == sorted(cards)
    assert state(browser)["turn"] == turn  # nothing was sent
    click(browser, f"discard {cards[0]}")  # taken back: the undo
    assert not browser.find_element(By.ID, "discard-confirm").is_enabled()
    click(browser, f"discard {cards[0]}")
    browser.find_element(By.ID, "discard-confirm").click()

    def sent(d: Any) -> bool:  # past the discards: another turn, the others' turns, or the end
        st = state(d)
        if st["state"] == "myturn":
            return st["turn"] != turn and not any(
                label.startswith("discard ") for label in legal_of(st)
            )
        return bool(st["state"] in ("playing", "end"))

    wait(browser, sent, "the discards sent")
    return turn


def _verb(legal: list[str]) -> str:
    first = legal[0]
    return "bid" if first == "pass" else first.split(" ")[0]


@pytest.mark.parametrize("case", list(CASES))
def test_special_turn_through_the_page(web_server: str, browser: Any, case: str) -> None:
    sc, hint, verbs = CASES[case]
    seed = find_seed(sc, hint)
    turns, end = play(sc, seed)
    open_setup(browser, web_server)
    flags = json.dumps(sc.flags) if sc.flags else ""
    fill_setup(browser, sc.game, seed, flags, sc.seat, tuple(s for s in sc.seats if s != C))
    browser.find_element(By.ID, "setup-deal").click()

    todo = [v for v in verbs if v != "end"]
    shots = artifacts_dir()
    last = "0"
    i = 0
    while i < len(turns):
        legal = turns[i]
        st = next_turn(browser, last)
        assert st["state"] == "myturn", f"{case}: the page ended before a turn of {legal}"
        last = st["turn"]
        assert legal_of(st) == legal
        check_highlighted(st)
        verb = _verb(legal)
        if verb in todo:
            browser.save_screenshot(str(shots / f"web_{case}_{verb}.png"))
            todo.remove(verb)
        if verb == "discard":  # the run of discards: picked, then sent together
            run = [pick(t, sc.prefer) for t in turns[i:] if _verb(t) == "discard"]
            run = run[
                : next((j for j, t in enumerate(turns[i:]) if _verb(t) != "discard"), len(run))
            ]
            # the cards taken from the monte are marked in the hand: as many as are discarded
            marked = browser.find_elements(By.CSS_SELECTOR, "#hand .card.monte")
            assert len(marked) == len(run), (len(marked), run)
            last = discard_together(browser, run)
            i += len(run)
        else:
            click(browser, pick(legal, sc.prefer))
            i += 1
        if not todo and sc.end is None:
            break
    assert not todo, f"{case}: the page never offered {todo}"
    st = next_turn(browser, last)  # the click was taken: the next turn came, or the end
    if "end" in verbs:
        assert st["state"] == "end"
        assert browser.find_element(By.ID, "end").is_displayed()
        browser.save_screenshot(str(shots / f"web_{case}_end.png"))
        assert end["result"]["void"]
    assert state(browser)["state"] in ("myturn", "end", "playing")
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"the page logged errors: {errors}"


def test_idle_dealer_watches_a_four_player_deal(web_server: str, browser: Any) -> None:
    """With 4 players the dealer sits out: a person in the dealer's seat never gets a turn, is
    told so, and watches the deal (a contract played, not a void one) to its end. The deal
    starts slow; the header's speed set to instant mid-deal takes effect at once (the rest of the
    deal comes in seconds; slow, it would take about a minute)."""
    sc = Scenario("calabresella", (C, H, H, H), {"players": 4})
    seed = next(s for s in range(200) if _idle_dealer_deal(sc, s))
    turns, end = play(sc, seed)
    assert turns == [] and not end["result"]["void"]
    open_setup(browser, web_server)
    fill_setup(browser, sc.game, seed, '{"players": 4}', 0, (H, H, H))
    browser.execute_script(_SPEED, "slow")  # slow enough to see the first trick
    browser.find_element(By.ID, "setup-deal").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#trick .slot"), "a card played")
    prompt = browser.find_element(By.CSS_SELECTOR, "#action-bar .prompt").text
    assert "sit out" in prompt, prompt
    browser.save_screenshot(str(artifacts_dir() / "web_cal_4p_idle.png"))
    assert state(browser)["state"] == "playing"
    Select(browser.find_element(By.ID, "speed")).select_by_value("instant")
    WebDriverWait(browser, 20, poll_frequency=0.05).until(
        lambda d: state(d)["state"] == "end", message="the instant speed took no effect"
    )
    browser.save_screenshot(str(artifacts_dir() / "web_cal_4p_idle_end.png"))
    seats = [row.text for row in browser.find_elements(By.CSS_SELECTOR, ".seat .seat-return")]
    assert [int(s) for s in seats] == end["returns"]


_SPEED = "document.getElementById('setup-speed').value = arguments[0];"


def _idle_dealer_deal(sc: Scenario, seed: int) -> bool:
    """The person (S0) deals (and so sits out) and the deal is played, not voided."""
    message = {
        "type": "open", "mode": "table", "game": sc.game, "flags": sc.flags,
        "seats": list(sc.seats), "seed": seed,
    }  # fmt: skip
    pushes = open_table("g", message, bots())[1]
    return bool(pushes[0]["dealer"] == 0 and not pushes[-1]["result"]["void"])

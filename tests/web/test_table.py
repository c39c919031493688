"""The web table in a real browser: a full deal of each game played through the page.

The person's seat clicks a highlighted legal move at every turn (deterministically, the policy of
``tests.web.scenarios``: ``bid chiamo`` when the auction offers it, so the exchanges are played
too, else the first legal label); every turn's legal labels are those of the same deal played in
process, and each must be on the page as a highlighted, visible element, and nothing else. The
Minchiate deal lets the Matto's owner choose its payment, and its seed gives the person that
turn. At the end the page shows the returns, and its download link gives a D.3 record that
``game.replay`` accepts and that reproduces the result. Screenshots (mid-deal, the payment and
the end) go to ``$MAZZO_ARTIFACTS`` (default ``test-artifacts/``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from selenium.webdriver.common.by import By

from mazzo.envs.registry import get_game
from mazzo.serve.views import view_json
from tests.web.conftest import artifacts_dir
from tests.web.page import (
    answer,
    check_highlighted,
    fill_setup,
    legal_of,
    next_turn,
    open_setup,
    wait,
)  # fmt: skip
from tests.web.scenarios import Scenario, find_seed, has_verb, pick, play

C, H = "client", "heuristic"
# the person's seat S0 against heuristic bots; Calabresella's policy bids Chiamo when it may (so
# the call and the exchanges are played too); Minchiate lets the Matto's owner choose the card it
# pays (matto_payment=agent), and its seed gives the person that turn at the end of the deal
DEALS = {
    "calabresella": (Scenario("calabresella", (C, H, H), prefer=("bid chiamo",)), 11),
    "minchiate": (
        Scenario("minchiate", (C, H, H, H), {"matto_payment": "agent"}, targets=(has_verb("pay"),)),
        9,
    ),
}
MID_TURN = {"calabresella": 10, "minchiate": 8}


def _start(driver: Any, url: str, sc: Scenario, seed: int) -> None:
    open_setup(driver, url)
    fill_setup(driver, sc.game, seed, json.dumps(sc.flags) if sc.flags else "", 0, sc.seats[1:])
    driver.find_element(By.ID, "setup-deal").click()


def _play_deal(driver: Any, sc: Scenario, expected: list[list[str]], shots: Path) -> int:
    """Click through the deal, each turn's legal labels those of the in-process deal
    (``expected``); returns the number of turns played."""
    turns = 0
    last = "0"
    while True:
        st = next_turn(driver, last)
        if st["state"] == "end":
            return turns
        assert turns < len(expected), f"more turns on the page than in process: {legal_of(st)}"
        assert legal_of(st) == expected[turns]
        turns += 1
        last = st["turn"]
        check_highlighted(st)
        if turns == MID_TURN[sc.game]:
            driver.save_screenshot(str(shots / f"web_{sc.game}_mid.png"))
        if legal_of(st)[0].startswith("pay "):
            driver.save_screenshot(str(shots / f"web_{sc.game}_pay.png"))
        choices = [pick(e, sc.prefer) for e in expected]
        turns += answer(driver, choices, turns - 1) - 1


def _download(driver: Any, game: str) -> dict[str, Any]:
    target = driver.downloads / f"{game}-deal.json"
    target.unlink(missing_ok=True)
    driver.find_element(By.ID, "download-record").click()
    wait(driver, lambda d: target.exists() and target.stat().st_size > 0, "a downloaded record")
    record: dict[str, Any] = json.loads(target.read_text())
    return record


@pytest.mark.parametrize("game_name", ["calabresella", "minchiate"])
def test_full_deal_through_the_page(web_server: str, browser: Any, game_name: str) -> None:
    shots = artifacts_dir()
    sc, hint = DEALS[game_name]
    seed = find_seed(sc, hint)
    expected = play(sc, seed)[0]
    _start(browser, web_server, sc, seed)
    turns = _play_deal(browser, sc, expected, shots)
    assert turns == len(expected) >= MID_TURN[game_name], f"{turns} turns: the deal ended early"

    end = browser.find_element(By.ID, "end")
    assert end.is_displayed()
    returns_on_page = [
        int(td.text) for td in end.find_elements(By.CSS_SELECTOR, "table.returns td:last-child")
    ]
    browser.save_screenshot(str(shots / f"web_{game_name}_end.png"))

    record = _download(browser, game_name)
    game = get_game(game_name)
    assert record["format"] == game.info.record_format
    state = game.replay(record, None)
    assert state.is_terminal()
    assert state.result() == record["result"]
    assert list(state.returns()) == record["result"]["returns"] == returns_on_page
    seats = [row.text for row in browser.find_elements(By.CSS_SELECTOR, ".seat .seat-return")]
    assert [int(s) for s in seats] == returns_on_page

    # the page names the winner of a trick as soon as its last card falls: its rule must be the
    # engine's, trick by trick
    tricks = view_json(game, state.info_view(0), state.action_label)["tricks"]
    named = browser.execute_script(
        "return arguments[1].map(t => Games[arguments[0]].trickWinner(App.M, t.cards));",
        game_name,
        tricks,
    )
    assert named == [t["winner"] for t in tricks]

    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"the page logged errors: {errors}"


@pytest.mark.parametrize("game_name", ["calabresella", "minchiate"])
def test_page_trick_winner_is_the_engines(web_server: str, browser: Any, game_name: str) -> None:
    """The page's trick rule (it names the winner when the last card falls) agrees with the
    engine on every trick of 30 random deals."""
    game = get_game(game_name)
    rules = game.rules()
    rng = np.random.default_rng(2026)
    tricks: list[dict[str, Any]] = []
    for _ in range(30):
        state = game.new_state(game.deal_random(rng, rules), rules)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        tricks += view_json(game, state.info_view(0), state.action_label)["tricks"]
    assert len(tricks) > 200
    open_setup(browser, web_server)
    named = browser.execute_script(
        "return arguments[1].map(t => Games[arguments[0]].trickWinner(null, t.cards));",
        game_name,
        tricks,
    )
    assert named == [t["winner"] for t in tricks]

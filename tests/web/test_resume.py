"""A reload loses nothing (issue 27, point 5): the page keeps the deal in progress in the
browser's storage (its open message, always with a seed, and the person's moves), so a reload in
the middle of a deal takes it up at the same turn, with the same hand, and it plays on to the end
the same deal plays in process; the last settings (the game, the bots, the flags, the speed) fill
the setup form after a reload. Screenshots go to ``$MAZZO_ARTIFACTS`` (``web_resume_*.png``).
"""

from __future__ import annotations

import json
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.web.conftest import artifacts_dir
from tests.web.page import (
    answer,
    check_highlighted,
    fill_setup,
    legal_of,
    next_turn,
    open_setup,
    state,
    wait,
)  # fmt: skip
from tests.web.scenarios import Scenario, pick, play

C, H, R = "client", "heuristic", "random"
CAL = Scenario("calabresella", (C, H, R), prefer=("bid chiamo",))
RELOAD_AT = 6  # the person's turns played before the reload


def _hand(driver: Any) -> list[str]:
    return sorted(
        e.get_attribute("data-code") for e in driver.find_elements(By.CSS_SELECTOR, "#hand .card")
    )


def _notice(driver: Any) -> str:
    el = driver.find_element(By.ID, "notice")
    return str(el.text) if el.is_displayed() else ""


def test_reload_mid_deal_resumes_it(web_server: str, browser: Any) -> None:
    """A deal dealt without a seed (the page picks one and keeps it), reloaded at the person's
    seventh turn: the same turn comes back with the same hand and the same tricks, the page says
    so, and the deal plays on to the end of the same deal played in process."""
    open_setup(browser, web_server)
    fill_setup(browser, CAL.game, None, "", 0, CAL.seats[1:])
    browser.find_element(By.ID, "setup-deal").click()
    st = next_turn(browser, "0")
    kept = browser.execute_script("return JSON.parse(localStorage.getItem('mazzo.deal'));")
    seed = kept["open"]["seed"]
    assert isinstance(seed, int) and kept["open"]["seats"] == list(CAL.seats)
    turns, end = play(CAL, seed)
    assert legal_of(st) == turns[0]
    choices = [pick(t, CAL.prefer) for t in turns]
    k = 0
    while k < RELOAD_AT:
        k += answer(browser, choices, k)
        st = next_turn(browser, st["turn"])
        assert legal_of(st) == turns[k]
    before = (_hand(browser), browser.find_element(By.ID, "trick").text, legal_of(st))
    tricks = browser.find_element(By.CSS_SELECTOR, "section.tricks h3").text
    browser.refresh()
    wait(browser, lambda d: "back as you left it" in _notice(d), "the deal taken up again")
    st = next_turn(browser, "0")
    assert (_hand(browser), browser.find_element(By.ID, "trick").text, legal_of(st)) == before
    assert browser.find_element(By.CSS_SELECTOR, "section.tricks h3").text == tricks
    assert f"{k} moves of yours replayed" in _notice(browser)
    check_highlighted(st)
    browser.save_screenshot(str(artifacts_dir() / "web_resume_reloaded.png"))
    while k < len(turns):
        assert legal_of(st) == turns[k]
        k += answer(browser, choices, k)
        st = next_turn(browser, st["turn"])
    assert st["state"] == "end"
    got = [int(e.text) for e in browser.find_elements(By.CSS_SELECTOR, ".seat .seat-return")]
    assert got == end["returns"]
    # the finished deal is not kept: a reload shows the setup form
    assert browser.execute_script("return localStorage.getItem('mazzo.deal');") is None
    browser.refresh()
    wait(browser, lambda d: state(d)["state"] == "setup", "the setup form")


def test_settings_survive_a_reload(web_server: str, browser: Any) -> None:
    """The game, the bots, the flags and the speed chosen for the last deal fill the form after
    a reload (the address asks for nothing)."""
    open_setup(browser, web_server)
    fill_setup(browser, "calabresella", 4, '{"players": 4}', 1, (R, H, R))
    Select(browser.find_element(By.ID, "setup-speed")).select_by_value("fast")
    browser.find_element(By.ID, "setup-deal").click()
    wait(browser, lambda d: state(d)["state"] in ("playing", "myturn", "end"), "the deal")
    browser.execute_script("localStorage.removeItem('mazzo.deal');")  # the deal is left
    browser.get(web_server + "/")
    wait(browser, lambda d: state(d)["state"] == "setup", "the setup form")

    def value(field: str) -> str:
        return str(browser.find_element(By.ID, field).get_attribute("value"))

    assert value("setup-game") == "calabresella"
    assert json.loads(value("setup-flags")) == {"players": 4}
    assert value("setup-seat") == "1"
    bots = [
        e.get_attribute("value")
        for e in browser.find_elements(By.CSS_SELECTOR, "#setup-seats select[data-seat]")
    ]
    assert bots == [R, H, R]
    assert value("setup-speed") == "fast" and value("speed") == "fast"
    assert value("setup-seed") == ""  # a new deal each time
    browser.save_screenshot(str(artifacts_dir() / "web_resume_settings.png"))

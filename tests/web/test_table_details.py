"""Details of the web table a player meets (issue 27): the auction shows the high bid, never a
soloist, until every player has spoken; the bid buttons say what each contract means; rule flags
typed into the setup form deal at the first click on Deal (or show the server's ``bad_flags``),
and the form's help follows the number of players. Screenshots go to ``$MAZZO_ARTIFACTS``.
"""

from __future__ import annotations

from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.web.conftest import artifacts_dir
from tests.web.page import check_highlighted, click, legal_of, next_turn, open_setup, state, wait
from tests.web.scenarios import Scenario, find_seed, play_views

C, H = "client", "heuristic"


def _first_to_bid(legal: list[str], view: dict[str, Any]) -> bool:
    return bool(view["phase"] == "bid" and not view["bids"])


def _seat_text(driver: Any, seat: int) -> str:
    return str(driver.find_element(By.CSS_SELECTOR, f'.seat[data-seat="{seat}"]').text)


def test_auction_shows_the_high_bid_until_it_is_over(web_server: str, browser: Any) -> None:
    """The person bids first (Chiamo, at the slow speed): while the others have not spoken the
    table says "high bid", not "You play" nor "Soloist"; the bid buttons carry what each contract
    means. Switched to instant mid-deal, the auction ends at once and the soloist is named."""
    sc = Scenario("calabresella", (C, H, H), prefer=("bid chiamo",), targets=(_first_to_bid,))
    seed = find_seed(sc, 0)
    turns, _ = play_views(sc, seed)
    open_setup(browser, web_server)
    Select(browser.find_element(By.ID, "setup-game")).select_by_value("calabresella")
    browser.find_element(By.ID, "setup-seed").send_keys(str(seed))
    Select(browser.find_element(By.ID, "setup-speed")).select_by_value("slow")
    browser.find_element(By.ID, "setup-deal").click()
    st = next_turn(browser, "0")
    assert legal_of(st) == turns[0][0] and "bid chiamo" in legal_of(st)
    check_highlighted(st)
    for label in legal_of(st):
        tip = browser.find_element(By.CSS_SELECTOR, f'button[data-label="{label}"]').get_attribute(
            "title"
        )
        name = "Pass" if label == "pass" else label[4:]
        assert tip and name.lower() in tip.lower(), (label, tip)
    assert "Solissimo scegliete (value 16)" in browser.find_element(
        By.CSS_SELECTOR, 'button[data-label="bid scegliete"]').get_attribute("title")  # fmt: skip
    click(browser, "bid chiamo")
    # the next player's bid is on show (slow: 0.9 s); the auction is not over
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.seat[data-seat="1"] .bubble'),
         "the next player's bid")  # fmt: skip
    me, felt = _seat_text(browser, 0), browser.find_element(By.ID, "felt").text
    assert "High bid · chiamo" in me and "Soloist" not in me, me
    assert "You play" not in felt and "high bid" in felt.lower(), felt
    panel = browser.find_element(By.ID, "panels").text
    assert "High bid" in panel and "Tricks won" not in panel, panel
    prompt = browser.find_element(By.CSS_SELECTOR, "#action-bar .prompt").text
    assert prompt.startswith("Waiting for the other players"), prompt
    browser.save_screenshot(str(artifacts_dir() / "web_auction_high_bid.png"))
    Select(browser.find_element(By.ID, "speed")).select_by_value("instant")
    st = next_turn(browser, st["turn"])
    assert st["state"] == "myturn" and legal_of(st) == turns[1][0]
    sol = turns[1][1]["soloist"]
    assert "Soloist" in _seat_text(browser, sol) and "High bid" not in _seat_text(browser, sol)
    # the setup form's speed, changed mid-deal and the form left, takes effect too
    browser.find_element(By.ID, "new-deal").click()
    Select(browser.find_element(By.ID, "setup-speed")).select_by_value("fast")
    browser.find_element(By.ID, "setup-cancel").click()
    assert browser.find_element(By.ID, "speed").get_attribute("value") == "fast"
    assert browser.execute_script("return speed();") == "fast"


def _type(driver: Any, field: str, text: str) -> None:
    box = driver.find_element(By.ID, field)
    box.clear()
    box.send_keys(text)


def test_typed_flags_deal_at_the_first_click(web_server: str, browser: Any) -> None:
    """Flags typed (as a person types them) then a click on Deal: the form already shows the
    seats the flags make, so the first click deals ({"players": 4}: four seats, the help says
    four players) or shows the server's bad_flags ({"players": 5})."""
    open_setup(browser, web_server)
    Select(browser.find_element(By.ID, "setup-game")).select_by_value("calabresella")
    assert browser.find_element(By.ID, "setup-help").text.startswith("Three players")
    _type(browser, "setup-flags", '{"players": 4}')
    assert browser.find_element(By.ID, "setup-help").text.startswith("Four players")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#setup-seats select")) == 3
    browser.find_element(By.ID, "setup-deal").click()  # once
    wait(browser, lambda d: state(d)["state"] in ("playing", "myturn", "end"), "the deal")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#felt .seat")) == 4

    browser.find_element(By.ID, "new-deal").click()
    _type(browser, "setup-flags", '{"players": 5}')
    browser.find_element(By.ID, "setup-deal").click()  # once
    wait(browser, lambda d: "bad_flags" in d.find_element(By.ID, "setup-error").text,
         "the server's bad_flags message")  # fmt: skip
    assert browser.find_element(By.ID, "setup").is_displayed()
    browser.save_screenshot(str(artifacts_dir() / "web_typed_bad_flags.png"))

"""The setup form's opponents (issue 45): a newcomer meets the trained bot by default where its
rules are the table's, the heuristic where they are not (it is trained for its rules only),
and every bot on offer is explained in a line the page shows (a phone has no hover)."""

from __future__ import annotations

from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.web.conftest import free_port, serve_web
from tests.web.page import _SET_FIELD, open_setup, wait


def _defaults(driver: Any) -> list[str]:
    return [
        Select(el).first_selected_option.text
        for el in driver.find_elements(By.CSS_SELECTOR, "#setup-seats select[data-seat]")
    ]


def test_the_trained_bot_is_the_default_where_its_rules_are_the_tables(browser: Any) -> None:
    with serve_web(free_port(), ("random", "heuristic", "bot")) as url:
        open_setup(browser, url)
        Select(browser.find_element(By.ID, "setup-game")).select_by_value("calabresella")
        wait(browser, lambda d: "strongest" in d.find_element(By.ID, "setup-bots-help").text,
             "the bots explained")  # fmt: skip
        legend = browser.find_element(By.ID, "setup-bots-help").text
        for line in ("random: plays any legal card", "heuristic: a card player's simple rules",
                     "bot: the trained network"):  # fmt: skip
            assert line in legend, legend
        assert _defaults(browser) == ["bot", "bot"]
        browser.execute_script(_SET_FIELD, "setup-flags", '{"players": 4}')
        wait(browser, lambda d: _defaults(d) == ["heuristic"] * 3, "the heuristic for 4 players")
        browser.execute_script(_SET_FIELD, "setup-flags", "")
        wait(browser, lambda d: _defaults(d) == ["bot", "bot"], "the bot again for 3 players")

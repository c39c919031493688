"""The table for a screen reader (issue 45): each new line of the log (the bots' plays, the
tricks' winners) is read out through a polite live region, without being shown twice."""

from __future__ import annotations

from typing import Any

from selenium.webdriver.common.by import By

from tests.web.page import fill_setup, open_setup, wait


def test_the_bots_plays_are_announced(web_server: str, browser: Any) -> None:
    open_setup(browser, web_server)
    fill_setup(browser, "minchiate", 3, bots=("random",) * 3)
    browser.find_element(By.ID, "setup-deal").click()
    region = browser.find_element(By.ID, "announce")
    assert region.get_attribute("aria-live") == "polite"
    wait(browser, lambda d: d.find_element(By.ID, "announce").get_attribute("textContent").strip(),
         "an announcement")  # fmt: skip
    said = region.get_attribute("textContent")
    log = browser.find_element(By.ID, "log-lines").text.splitlines()
    assert said.strip() == log[-1].strip(), (said, log[-1:])
    assert region.size["width"] <= 1 and region.size["height"] <= 1  # read, not shown

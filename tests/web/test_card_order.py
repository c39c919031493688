"""The hand in the game's order (issue 45): the web table shows a hand as the terminal does,
high to low as the cards take tricks: Minchiate's trumps from 40 down, the Matto, then cups,
coins, swords and batons (the round suits run K Q N J A 2 ... 10: M-2.2, so a 9 lies below a 5
there); Calabresella's suits 3 2 A K N J 7 6 5 4 (C-2.2)."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.web.page import fill_setup, open_setup, wait

ROUND = ["K", "Q", "N", "J", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
LONG = ["K", "Q", "N", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"]
CALABRESELLA = ["3", "2", "A", "K", "N", "J", "7", "6", "5", "4"]


def _key(game: str, code: str) -> tuple[int, int]:
    if game == "minchiate":
        if code == "M":
            return (1, 0)
        if code.startswith("T"):
            return (0, -int(code[1:]))
        rank, suit = code[:-1], code[-1]
        order = ROUND if suit in "cd" else LONG
        return (2 + "cdsb".index(suit), order.index(rank))
    rank, suit = code[:-1], code[-1]
    return ("cdsb".index(suit), CALABRESELLA.index(rank))


@pytest.mark.parametrize(("game", "bots"), [("minchiate", ("random",) * 3),
                                            ("calabresella", ("random",) * 2)])  # fmt: skip
def test_the_hand_is_in_the_games_order(web_server: str, browser: Any, game, bots) -> None:
    open_setup(browser, web_server)
    fill_setup(browser, game, 7, bots=bots)
    browser.find_element(By.ID, "setup-deal").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#hand [data-code]")) >= 8,
         "the hand")  # fmt: skip
    codes = [el.get_attribute("data-code")
             for el in browser.find_elements(By.CSS_SELECTOR, "#hand [data-code]")]  # fmt: skip
    assert codes == sorted(codes, key=lambda c: _key(game, c)), codes

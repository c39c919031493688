"""Clicks a player makes (issue 27, points 6 and 7), in Chromium: a card clicked while the page
waits for the server is queued for the next turn, marked in the hand and named in the prompt,
and played when the turn comes (never dropped in silence); on the person's turn a card that may
not be played gets the engine's reason; the prompt names the led suit (and, in Minchiate, that a
void hand must trump); the trick on the felt marks who led it and who is winning it so far.
Screenshots go to ``$MAZZO_ARTIFACTS`` (``web_clicks_*.png``).
"""

from __future__ import annotations

from typing import Any

from selenium.webdriver.common.by import By

from tests.web.conftest import artifacts_dir
from tests.web.page import click, click_card, fill_setup, legal_of, next_turn, open_setup, wait
from tests.web.scenarios import Scenario, pick, play_views

C, H = "client", "heuristic"
CAL = Scenario("calabresella", (C, H, H), prefer=("bid chiamo",))
CAL_SEED = 0  # the person bids Chiamo, calls, takes the monte and discards four cards in a row
MIN = Scenario("minchiate", (C, H, H, H))
MIN_SEED = 1
SUITS = {"c": "Coppe", "d": "Denari", "s": "Spade", "b": "Bastoni"}
# M-2.2: high to low within a suit (the pips run opposite ways in cups and coins)
ROUND = ["K", "Q", "N", "J", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
LONG = ["K", "Q", "N", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"]

# hold back the page's messages to the server for a while: a slow server, as a person meets it
_SLOW_SEND = """
const ws = App.ws, send = ws.send.bind(ws);
ws.send = (data) => setTimeout(() => send(data), arguments[0]);
"""


def _start(driver: Any, url: str, sc: Scenario, seed: int) -> None:
    open_setup(driver, url)
    fill_setup(driver, sc.game, seed, "", 0, sc.seats[1:])
    driver.find_element(By.ID, "setup-deal").click()


def _prompt(driver: Any) -> str:
    return str(driver.find_element(By.CSS_SELECTOR, "#action-bar .prompt").text)


def _hand(driver: Any) -> list[str]:
    got: list[str] = driver.execute_script(
        "return Array.from(document.querySelectorAll('#hand .card')).map(e => e.dataset.code);"
    )
    return got


def test_clicks_while_the_server_is_slow_are_queued(web_server: str, browser: Any) -> None:
    """Four discards in a row with a server that answers late: picked and sent together, the
    first goes and the others wait for their turns, marked and named as queued; a click takes
    one back while the first is on its way, and the queued cards are discarded in turn without
    another click."""
    turns, _ = play_views(CAL, CAL_SEED)
    first = next(k for k, (legal, _) in enumerate(turns) if legal[0].startswith("discard "))
    _start(browser, web_server, CAL, CAL_SEED)
    st = next_turn(browser, "0")
    for legal, _ in turns[:first]:
        assert legal_of(st) == legal
        click(browser, pick(legal, CAL.prefer))
        st = next_turn(browser, st["turn"])
    cards = [lb.split(" ")[1] for lb in legal_of(st)[:4]]
    for k in range(1, 3):  # each stays a legal discard at the next turns
        assert all(f"discard {c}" in turns[first + k][0] for c in cards[k:]), turns[first + k][0]
    browser.execute_script(_SLOW_SEND, 1500)
    for code in cards:  # the four discards picked (discards.js), then sent together
        click(browser, f"discard {code}")
    browser.find_element(By.ID, "discard-confirm").click()  # the first goes, three are queued
    click_card(browser, cards[3])  # taken back while the first is on its way
    queued = browser.find_elements(By.CSS_SELECTOR, "#hand .card.queued")
    assert [e.get_attribute("data-code") for e in queued] == sorted(
        cards[1:3], key=lambda c: _hand(browser).index(c)
    )
    assert "Queued for your turn" in _prompt(browser), _prompt(browser)
    browser.save_screenshot(str(artifacts_dir() / "web_clicks_queued.png"))
    # the first discard's answer, then the queued ones, each sent at its turn: three are gone
    wait(browser, lambda d: not set(cards[:3]) & set(_hand(d)), "the queued discards made")
    st = next_turn(browser, st["turn"])
    assert legal_of(st) == turns[first + 3][0] and cards[3] in _hand(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, "#hand .card.queued")
    log = browser.find_element(By.ID, "log-lines").text
    assert log.count("You discard") == 3, log


def _winning(trick: list[dict[str, Any]]) -> int:
    """M-11.4: the highest trump, else the highest card of the led suit; never the Matto."""
    cards = [(p["seat"], p["card"]) for p in trick if p["card"] != "M"]
    trumps = [(int(c[1:]), s) for s, c in cards if c.startswith("T")]
    if trumps:
        return max(trumps)[1]
    led = cards[0][1][-1]
    order = ROUND if led in "cd" else LONG
    return min((order.index(c[:-1]), s) for s, c in cards if c[-1] == led)[1]


def _follow_turn(legal: list[str], view: dict[str, Any]) -> bool:
    """A play turn after a plain suit was led, the person holding that suit and other cards."""
    trick = [p for p in view.get("trick", []) if p["card"] != "M"]
    if view["phase"] != "play" or not trick or trick[0]["card"].startswith("T"):
        return False
    return len(legal) < len(view["hand"])


def test_illegal_click_explained_and_trick_marked(web_server: str, browser: Any) -> None:
    """Minchiate: at a turn where the person must follow suit the prompt names the suit and
    says a void hand must trump; the trick marks the leader and the card winning so far; a
    click on a card that may not be played gets the engine's reason, and the turn goes on."""
    turns, _ = play_views(MIN, MIN_SEED)
    at = next(k for k, (legal, view) in enumerate(turns) if _follow_turn(legal, view))
    _start(browser, web_server, MIN, MIN_SEED)
    st = next_turn(browser, "0")
    for legal, _ in turns[:at]:
        click(browser, pick(legal, MIN.prefer))
        st = next_turn(browser, st["turn"])
    legal, view = turns[at]
    assert legal_of(st) == legal
    trick = view["trick"]
    suit = SUITS[next(p["card"] for p in trick if p["card"] != "M")[-1]]
    prompt = _prompt(browser)
    assert f"{suit} led: follow {suit}" in prompt and "must play a trump" in prompt, prompt
    led = browser.find_elements(By.CSS_SELECTOR, "#trick .slot .tag.led")
    assert len(led) == 1
    assert led[0].find_element(By.XPATH, "..").get_attribute("data-seat") == str(trick[0]["seat"])
    ahead = browser.find_elements(By.CSS_SELECTOR, "#trick .slot .tag.ahead")
    assert len(ahead) == 1
    assert ahead[0].find_element(By.XPATH, "..").get_attribute("data-seat") == str(_winning(trick))
    wrong = next(c for c in view["hand"] if f"play {c}" not in legal)
    click_card(browser, wrong)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#action-bar .why"), "the reason")
    wait(
        browser,
        lambda d: "must follow suit" in d.find_element(By.CSS_SELECTOR, "#action-bar .why").text,
        "the engine's reason",
    )
    why = browser.find_element(By.CSS_SELECTOR, "#action-bar .why").text
    assert why.startswith(wrong) and "cannot be played now: must follow suit" in why, why
    browser.save_screenshot(str(artifacts_dir() / "web_clicks_why.png"))
    assert browser.find_element(By.ID, "notice").is_displayed() is False
    click(browser, pick(legal, MIN.prefer))  # the turn is still the person's
    st = next_turn(browser, st["turn"])
    assert legal_of(st) == turns[at + 1][0]
    assert not browser.find_elements(By.CSS_SELECTOR, "#action-bar .why")

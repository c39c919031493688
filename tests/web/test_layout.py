"""The web table at the sizes people use (issue 27): a wide window (1366x900), a small one
(1024x700) and a phone (390x844, and 360 px wide), with what a player sees checked at each turn
(``page.check_layout``: no horizontal overflow, nothing past the window's edges, no seat over
another or over the trick, New deal reachable, the prompt in a few full lines); whole deals of
both games on the phone. Also Calabresella's running card points (they must be the engine's
piles, turn by turn), the last trick kept on the felt at the instant speed, the auction's high
bid (never a soloist before the auction is over), the bid buttons' tooltips, the setup form's
typed rule flags (the first Deal click deals, or shows ``bad_flags``) and the speed changed
mid-deal. Screenshots go to ``$MAZZO_ARTIFACTS`` (``web_layout_*.png``).
"""

from __future__ import annotations

import json
from collections.abc import Generator
from typing import Any

from selenium.webdriver.common.by import By

from tests.web.conftest import VIEWPORT, artifacts_dir, set_viewport
from tests.web.page import (
    answer,
    check_highlighted,
    check_layout,
    fill_setup,
    legal_of,
    next_turn,
    open_setup,
    state,
    wait,
)  # fmt: skip
from tests.web.scenarios import Scenario, find_seed, pick, play_views

C, H = "client", "heuristic"
CAL = Scenario("calabresella", (C, H, H), prefer=("bid chiamo",))
MIN = Scenario("minchiate", (C, H, H, H))
# two players: the person deals and so defends with both hands (two cards of each trick)
CAL_2P = Scenario("calabresella", (H, C), {"players": 2}, prefer=("pass",))
CAL_2P_SEED = 5
MIN_SEED = 1
PHONE, SMALL, WIDE = (390, 844), (1024, 700), (1366, 900)


# the setup form's title, fields and Deal button that are off the window or under something else
_FORM_COVERED = """
return Array.from(document.querySelectorAll('#setup-form h2, #setup-form label, #setup-deal')).filter(e => {
  const r = e.getBoundingClientRect();
  if (r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight) return true;
  return !e.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)) &&
    !e.contains(document.elementFromPoint(r.left + 4, r.top + 4));
}).map(e => e.id || e.textContent.slice(0, 30));
"""


def _thirds(cards: list[str]) -> int:
    """Card thirds (RULES.md C-2.3): an ace 3, each 3, 2, K, N, J 1, the rest 0."""
    return sum(
        3 if c[:-1] == "A" else 1 if c[:-1] in ("3", "2", "K", "N", "J") else 0 for c in cards
    )


def _start(driver: Any, url: str, sc: Scenario, seed: int) -> None:
    open_setup(driver, url)
    flags = json.dumps(sc.flags) if sc.flags else ""
    fill_setup(driver, sc.game, seed, flags, sc.seat, tuple(s for s in sc.seats if s != C))
    driver.find_element(By.ID, "setup-deal").click()


def _codes(driver: Any, selector: str) -> list[str]:
    return [e.get_attribute("data-code") for e in driver.find_elements(By.CSS_SELECTOR, selector)]


def _check_points(driver: Any, view: dict[str, Any]) -> None:
    """The felt's running count is the engine's: the thirds of each side's pile."""
    piles = view["piles"]
    want = (_thirds(piles["soloist"]), _thirds(piles["defenders"]))
    el = driver.find_element(By.CSS_SELECTOR, "#scoreline .points")
    assert el.is_displayed()
    got = (int(el.get_attribute("data-sol")), int(el.get_attribute("data-def")))
    assert got == want, (got, want, piles)
    text = driver.find_element(By.ID, "scoreline").text
    assert "Soloist" in text and "Defenders" in text and "needs 6 of 11" in text, text
    whole = [("" if 0 < t < 3 else str(t // 3)) + ("", "⅓", "⅔")[t % 3] for t in want]
    assert all(w in text for w in whole), (whole, text)


def _check_trick_shown(driver: Any, view: dict[str, Any]) -> None:
    """The bots' cards show at the instant speed: a trick just finished stays in the middle until
    the next card; once a new trick has begun, the finished one shows in the corner."""
    if not view["tricks"]:
        return
    last = [p["card"] for p in view["tricks"][-1]["cards"]]
    if not view["trick"]:
        assert _codes(driver, "#trick .slot .card") == last
        assert "took the trick" in driver.find_element(By.CSS_SELECTOR, "#trick .trick-note").text
    else:
        assert _codes(driver, "#trick .slot .card") == [p["card"] for p in view["trick"]]
        assert _codes(driver, "#last-trick .card") == last


def _page_turns(
    driver: Any, turns: list[tuple[list[str], dict[str, Any]]], prefer: tuple[str, ...], name: str
) -> Generator[tuple[int, dict[str, Any], dict[str, Any]], None, None]:
    """Each of the person's turns as the page offers it, ``(k, view, page state)``, its legal
    labels checked; once the caller's checks are done, the turn is answered by the policy (a
    run of discards picked and sent at once: ``answer``)."""
    last = "0"
    choices = [pick(legal, prefer) for legal, _ in turns]
    k = 0
    while k < len(turns):
        legal, view = turns[k]
        st = next_turn(driver, last)
        assert st["state"] == "myturn", f"{name}: the page ended before turn {k}"
        last = st["turn"]
        assert legal_of(st) == legal
        yield k, view, st
        k += answer(driver, choices, k)


def _play_through(
    driver: Any, sc: Scenario, seed: int, name: str, shots_at: tuple[int, ...]
) -> dict[str, Any]:
    """Play the deal through the page, checking the layout (and Calabresella's points and the
    tricks on the felt) at every turn; returns the ``end`` message."""
    turns, end = play_views(sc, seed)
    shots = artifacts_dir()
    for k, view, st in _page_turns(driver, turns, sc.prefer, name):
        check_highlighted(st)
        lay = check_layout(driver, f"{name} turn {k}")
        if lay["W"] < 900:  # the panel below the table, the table the window's width
            assert lay["panels"]["t"] >= lay["hand"]["b"] - 1, (lay["panels"], lay["hand"])
            assert lay["felt"]["w"] >= lay["W"] - 30
        if lay["strip"] is not None:
            assert lay["strip"] >= 40, f"{name} turn {k}: {lay['strip']} px of a hand card"
        if view["phase"] == "play":
            # every finished trick is listed (the section scrolls), at every size
            rows = driver.find_elements(By.CSS_SELECTOR, "section.tricks .trick-row")
            assert len(rows) == len(view["tricks"]), (name, len(rows), len(view["tricks"]))
            if sc.game == "calabresella":
                _check_points(driver, view)
            _check_trick_shown(driver, view)
            if not view["tricks"] and not view["trick"]:
                assert lay["bubbles"] == [], f"{name}: bubbles at the first lead: {lay['bubbles']}"
        if k in shots_at:
            driver.save_screenshot(str(shots / f"web_layout_{name}_{k}.png"))
    wait(driver, lambda d: state(d)["state"] == "end", f"{name}: the end of the deal")
    return end


def test_phone_plays_whole_deals(web_server: str, browser: Any) -> None:
    """At 390x844 a whole deal of each game (and of two-player Calabresella, where the person
    plays two cards a trick) is played through the page, the layout checked at every turn; the
    end fits, and so does a 360 px window."""
    shots = artifacts_dir()
    set_viewport(browser, *PHONE)
    try:
        seed = find_seed(CAL, 11)
        open_setup(browser, web_server)  # the setup form fits the phone, nothing covers it
        covered = browser.execute_script(_FORM_COVERED)
        assert not covered, f"the setup form is covered or cut: {covered}"
        browser.save_screenshot(str(shots / "web_layout_phone_setup.png"))
        _start(browser, web_server, CAL, seed)
        end = _play_through(browser, CAL, seed, "phone_cal", (0, 1, 8))
        check_layout(browser, "phone calabresella end")
        el = browser.find_element(By.CSS_SELECTOR, "#scoreline .points")
        r = end["result"]
        assert int(el.get_attribute("data-sol-points")) == r["points"]["soloist"]
        assert int(el.get_attribute("data-def-points")) == r["points"]["defenders"]
        assert browser.find_element(By.ID, "end").is_displayed()
        browser.save_screenshot(str(shots / "web_layout_phone_cal_end.png"))

        _start(browser, web_server, CAL_2P, CAL_2P_SEED)
        _play_through(browser, CAL_2P, CAL_2P_SEED, "phone_cal2p", (6,))

        _start(browser, web_server, MIN, MIN_SEED)
        _play_through(browser, MIN, MIN_SEED, "phone_min", (0, 10))
        check_layout(browser, "phone minchiate end")
        browser.save_screenshot(str(shots / "web_layout_phone_min_end.png"))
        set_viewport(browser, 360, 740)
        check_layout(browser, "360 px minchiate end")
        browser.save_screenshot(str(shots / "web_layout_360_min_end.png"))
    finally:
        set_viewport(browser, *VIEWPORT)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"the page logged errors: {errors}"


def _play_turns(driver: Any, sc: Scenario, seed: int) -> Generator[dict[str, Any], None, None]:
    """Play the deal by the policy, yielding the view of each of the person's card plays
    before the card is clicked."""
    turns, _ = play_views(sc, seed)
    for _k, view, _st in _page_turns(driver, turns, sc.prefer, sc.game):
        if view["phase"] == "play":
            yield view


def test_wide_and_small_windows(web_server: str, browser: Any) -> None:
    """At 1366x900 and 1024x700: Minchiate's 21-card hand shows at least 40 px of each card (two
    rows at 1024) and the side panel needs no scrolling (the log shows its last lines);
    Calabresella's running points sit on the felt, clear of the seats and the trick."""
    cal_seed = find_seed(CAL, 11)
    for size in (WIDE, SMALL):
        set_viewport(browser, *size)
        try:
            _start(browser, web_server, MIN, MIN_SEED)
            plays = _play_turns(browser, MIN, MIN_SEED)
            next(plays)
            st = state(browser)
            check_highlighted(st)
            lay = check_layout(browser, f"minchiate {size}")
            assert lay["strip"] >= 40, lay["strip"]
            assert lay["handRows"] == (1 if size == WIDE else 2)
            assert lay["hand"]["b"] <= size[1]
            assert not lay["panelScrolls"], "the side panel needs scrolling"
            browser.save_screenshot(str(artifacts_dir() / f"web_layout_min_{size[0]}.png"))
            for _ in range(7):  # mid-deal: declarations, the score's events, tricks in the panel
                next(plays)
            lay = check_layout(browser, f"minchiate {size}, mid-deal")
            assert not lay["panelScrolls"], "the side panel needs scrolling"
            log = browser.find_element(By.ID, "log-lines")
            assert log.size["height"] >= 60, log.size  # a few lines of the log, the last ones
            browser.save_screenshot(str(artifacts_dir() / f"web_layout_min_{size[0]}_mid.png"))
            plays.close()

            _start(browser, web_server, CAL, cal_seed)
            plays = _play_turns(browser, CAL, cal_seed)
            for _ in range(4):
                view = next(plays)
            check_highlighted(state(browser))
            check_layout(browser, f"calabresella {size}")
            _check_points(browser, view)
            _check_trick_shown(browser, view)
            browser.save_screenshot(str(artifacts_dir() / f"web_layout_cal_{size[0]}.png"))
            plays.close()
        finally:
            set_viewport(browser, *VIEWPORT)


def _rect(driver: Any, el: Any) -> dict[str, float]:
    r: dict[str, float] = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return {l: r.left, t: r.top, r: r.right, b: r.bottom};", el
    )  # fmt: skip
    return r


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["l"] < b["r"] and b["l"] < a["r"] and a["t"] < b["b"] and b["t"] < a["b"]


def _at_the_end(
    driver: Any, url: str, sc: Scenario, seed: int, name: str
) -> Generator[tuple[int, int], None, None]:
    """Play the deal to its end at 1366x900, then at 1024x700, yielding each size there."""
    for size in (WIDE, SMALL):
        set_viewport(driver, *size)
        try:
            _start(driver, url, sc, seed)
            _play_through(driver, sc, seed, f"{name}_{size[0]}", ())
            yield size
        finally:
            set_viewport(driver, *VIEWPORT)


def test_the_end_of_a_calabresella_deal_hides_no_seat(web_server: str, browser: Any) -> None:
    """At 1366x900 and 1024x700 the end of a deal shows every seat and its result: nothing that
    the end shows (the running count, the end box) lies over a seat."""
    seed = find_seed(CAL, 11)
    for size in _at_the_end(browser, web_server, CAL, seed, "cal_end"):
        seats = browser.find_elements(By.CSS_SELECTOR, ".seat[data-seat]")
        assert len(seats) == 3
        covers = [
            el for sel in ("#felt .points", "#end")
            for el in browser.find_elements(By.CSS_SELECTOR, sel) if el.is_displayed()
        ]  # fmt: skip
        for seat in seats:
            for box in covers:
                assert not _overlap(_rect(browser, seat), _rect(browser, box)), (
                    size,
                    seat.get_attribute("data-seat"),
                    box.get_attribute("outerHTML")[:80],
                )
        browser.save_screenshot(str(artifacts_dir() / f"web_layout_cal_end_{size[0]}.png"))


def test_the_end_of_a_minchiate_deal_shows_your_seat_and_one_scroll(
    web_server: str, browser: Any
) -> None:
    """At 1366x900 and 1024x700 the end box of a Minchiate deal lies over no seat, yours
    included, and scrolls as one box (no scrolling box inside it)."""
    for size in _at_the_end(browser, web_server, MIN, MIN_SEED, "min_end"):
        end = browser.find_element(By.ID, "end")
        for seat in browser.find_elements(By.CSS_SELECTOR, ".seat[data-seat]"):
            assert not _overlap(_rect(browser, seat), _rect(browser, end)), (
                size,
                seat.get_attribute("data-seat"),
            )
        inner = browser.execute_script(
            "return [...document.querySelectorAll('#end *')].filter(e => {"
            "const s = getComputedStyle(e); return /(auto|scroll)/.test(s.overflowY)"
            " && e.scrollHeight > e.clientHeight + 1;}).length;"
        )
        assert inner == 0, f"{size}: {inner} scrolling box(es) inside the end box"
        browser.save_screenshot(str(artifacts_dir() / f"web_layout_min_end_{size[0]}.png"))

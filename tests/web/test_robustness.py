"""The web table as a person meets it when things go wrong: the server stops or restarts in the
middle of a deal, the server answers an ``error``, the setup form gets bad rule flags, and a
smaller window (1024x700). Screenshots go to ``$MAZZO_ARTIFACTS``.
"""

from __future__ import annotations

from typing import Any

from selenium.webdriver.common.by import By

from tests.web.conftest import VIEWPORT, artifacts_dir, free_port, serve_web, set_viewport
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
from tests.web.scenarios import Scenario, find_seed, has_verb, pick, play

C, R = "client", "random"


_COVERS = """
const n = document.getElementById('notice').getBoundingClientRect();
return Array.from(document.querySelectorAll('.seat-name')).filter(e => {
  const r = e.getBoundingClientRect();
  return Math.min(r.right, n.right) > Math.max(r.left, n.left) && Math.min(r.bottom, n.bottom) > Math.max(r.top, n.top);
}).map(e => e.textContent);
"""


def _notice(driver: Any) -> str:
    el = driver.find_element(By.ID, "notice")
    return str(el.text) if el.is_displayed() else ""


def _setup_error(driver: Any) -> str:
    el = driver.find_element(By.ID, "setup-error")
    return str(el.text) if el.is_displayed() else ""


def _deal(
    driver: Any, game: str = "calabresella", seed: int = 3, flags: str = "", others: int = 2
) -> None:
    fill_setup(driver, game, seed, flags, 0, (R,) * others)
    driver.find_element(By.ID, "setup-deal").click()


def test_server_gone_mid_deal_then_back(browser: Any) -> None:
    """The server stops in the middle of a deal: the page says so, offers no stale move and a
    Reconnect button (which, while nobody answers, says the server cannot be reached); once a
    server answers again on that port, Reconnect takes the deal up at the same turn (the page
    kept it: a restarted server deals it again from its seed and the moves are replayed) and it
    plays on; a deal the new server cannot open (a bot it lacks) brings the setup form back,
    saying so."""
    port = free_port()
    with serve_web(port, bots=("random",)) as url:
        open_setup(browser, url)
        _deal(browser)
        st = next_turn(browser, "0")
        assert st["state"] == "myturn"
        click(browser, legal_of(st)[0])
        st = next_turn(browser, st["turn"])
        assert st["state"] == "myturn"
    # the server is gone
    wait(browser, lambda d: state(d)["state"] == "closed", "that the server went away")
    text = _notice(browser)
    assert "connection to the server was lost" in text and "Reconnect" in text, text
    assert "take the deal up where it stopped" in text, text
    assert browser.find_elements(By.CSS_SELECTOR, ".legal[data-label]") == []
    # the banner pushes the table down: it covers no seat's name
    covered = browser.execute_script(_COVERS)
    assert not covered, f"the notice covers {covered}"
    browser.save_screenshot(str(artifacts_dir() / "web_server_gone.png"))
    browser.find_element(By.ID, "reconnect").click()  # nobody answers yet: the page says so
    wait(browser, lambda d: "Cannot reach the mazzo server" in _notice(d), "the server unreachable")
    with serve_web(port, bots=("random",)):
        browser.find_element(By.ID, "reconnect").click()
        wait(browser, lambda d: "back as you left it" in _notice(d), "the deal taken up again")
        again = next_turn(browser, "0")
        assert again["state"] == "myturn" and legal_of(again) == legal_of(st)
        check_highlighted(again)
        browser.save_screenshot(str(artifacts_dir() / "web_server_back.png"))
        click(browser, legal_of(again)[0])
        assert next_turn(browser, again["turn"])["state"] in ("myturn", "end")
    # a server without the deal's bot: the deal cannot be taken up, the form says why
    wait(browser, lambda d: state(d)["state"] == "closed", "that the server went away again")
    with serve_web(port, bots=("heuristic",)):
        browser.find_element(By.ID, "reconnect").click()
        wait(browser, lambda d: state(d)["state"] == "setup", "the setup form again")
        assert "could not be taken up again" in _setup_error(browser), _setup_error(browser)
        assert "unknown_bot" in _setup_error(browser)
        fill_setup(browser, "calabresella", 3, "", 0, ("heuristic",) * 2)
        browser.find_element(By.ID, "setup-deal").click()
        st = next_turn(browser, "0")
        assert st["state"] == "myturn"
        check_highlighted(st)
    # the browser reports the refused connections; nothing else went wrong on the page
    errors = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert all("ERR_CONNECTION_REFUSED" in e for e in errors), errors


def test_error_reply_is_readable(web_server: str, browser: Any) -> None:
    """An ``error`` reply (here ``illegal``, from a move the page would never send) is shown in
    full, and the turn stays playable."""
    open_setup(browser, web_server)
    _deal(browser)
    st = next_turn(browser, "0")
    browser.execute_script("send({type: 'move', game: App.M.gid, action: 'bid zebra'});")
    wait(browser, lambda d: "illegal" in _notice(d), "the server's error")
    text = _notice(browser)
    assert "The server refused (illegal): move 'bid zebra'" in text
    assert "legal: pass" in text  # the server's whole message, not cut off
    browser.save_screenshot(str(artifacts_dir() / "web_error_reply.png"))
    browser.find_element(By.ID, "notice-close").click()
    assert _notice(browser) == ""
    again = state(browser)
    assert again["turn"] == st["turn"] and legal_of(again) == legal_of(st)
    check_highlighted(again)
    click(browser, legal_of(st)[0])
    assert next_turn(browser, st["turn"])["state"] in ("myturn", "end")


def test_bad_flags_are_refused_in_the_form(web_server: str, browser: Any) -> None:
    """Flags that are not a JSON object are refused by the page; a flag the rules do not have
    comes back as the server's ``bad_flags`` message, in the form, which stays open."""
    open_setup(browser, web_server)
    _deal(browser, flags="{players: 4")
    assert "Rule flags must be a JSON object" in _setup_error(browser)
    assert state(browser)["state"] == "setup"
    _deal(browser, flags="[4]")
    assert "got [4]" in _setup_error(browser)
    _deal(browser, flags='{"zebra": 1}')
    wait(browser, lambda d: "bad_flags" in _setup_error(d), "the server's bad_flags message")
    text = _setup_error(browser)
    assert "zebra" in text, text
    assert browser.find_element(By.ID, "setup").is_displayed()
    browser.save_screenshot(str(artifacts_dir() / "web_bad_flags.png"))
    _deal(browser, flags='{"players": 2}', others=1)
    st = next_turn(browser, "0")
    assert st["state"] == "myturn"


def test_small_window_is_usable(web_server: str, browser: Any) -> None:
    """At 1024x700 every legal move is still on screen: Minchiate's 21-card hand and the 16
    buttons of Calabresella's split turn."""
    set_viewport(browser, 1024, 700)
    try:
        open_setup(browser, web_server)
        _deal(browser, game="minchiate", seed=1, others=3)
        last = "0"
        for _ in range(3):
            st = next_turn(browser, last)
            last = st["turn"]
            check_highlighted(st)
            if _ == 0:
                browser.save_screenshot(str(artifacts_dir() / "web_small_minchiate.png"))
            click(browser, legal_of(st)[0])
        sc = Scenario("calabresella", (C, R, R), prefer=("pass", "split 3"),
                      targets=(has_verb("split"),))  # fmt: skip
        seed = find_seed(sc, 0)
        open_setup(browser, web_server)
        fill_setup(browser, sc.game, seed, "", 0, (R, R))
        browser.find_element(By.ID, "setup-deal").click()
        last = "0"
        for legal in play(sc, seed)[0]:
            st = next_turn(browser, last)
            last = st["turn"]
            assert legal_of(st) == legal
            check_highlighted(st)
            if legal[0].startswith("split"):
                browser.save_screenshot(str(artifacts_dir() / "web_small_split.png"))
                break
            click(browser, pick(legal, sc.prefer))
    finally:
        set_viewport(browser, *VIEWPORT)

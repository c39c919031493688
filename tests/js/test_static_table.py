"""The static web table (``js/table/build.py``) in headless Chromium: no mazzo server anywhere.

The table is built into a temporary folder (the shipped Calabresella and Minchiate bots exported
there) and served by a plain static HTTP server (``http.server`` in a thread) that logs every
request. The page plays a whole Calabresella deal against two copies of the trained bot, and a
whole Minchiate deal against three, which run in the page (mazzo-bot, onnxruntime-web), through
the table's own controls (``tests/web/page.py``), to the result on the page. Then mazzo's own engine replays the deal's record the page offers
for download and must agree with the result and the returns shown, and no request may have
gone to a mazzo server's endpoint (``/ws``, ``/api/...``).

Like the tests of ``tests/web``, it fails (never skips) where Chromium or its driver is missing.
"""

from __future__ import annotations

import functools
import http.server
import json
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from selenium.webdriver.common.by import By

from mazzo.envs.registry import get_game
from tests.web.conftest import headless_chromium
from tests.web.page import (
    answer,
    click,
    fill_setup,
    legal_of,
    next_turn,
    open_setup,
    state,
    wait,
)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "js" / "table"))
from build import build  # noqa: E402

SERVER_PATHS = ("/ws", "/api/")  # what only a mazzo server answers


class _Handler(http.server.SimpleHTTPRequestHandler):
    requests: ClassVar[list[str]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_head(self) -> Any:
        type(self).requests.append(self.path)
        return super().send_head()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    """The built static table served on a free loopback port: (its URL, the request log)."""
    out = build(tmp_path_factory.mktemp("static") / "table")
    log: list[str] = []
    handler = type("Handler", (_Handler,), {"requests": log})
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(out))
    )
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", log
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    drv = headless_chromium(1280, 800)
    try:
        yield drv
    finally:
        drv.quit()


def _choose(legal: list[str]) -> str:
    """The person's move: the lowest contract at the auction (so that the deal is played), else
    the first legal one."""
    bids = [lb for lb in legal if lb.startswith("bid ")]
    return bids[0] if bids else legal[0]


def _play_deal(driver: Any, choose: Callable[[list[str]], str], most: int) -> set[str]:
    """The person's turns to the end of the deal (at most ``most``): the discards due at once,
    else ``choose``'s label of the legal ones; returns the verbs played."""
    last, turns, verbs = "0", 0, set()
    while True:
        st = next_turn(driver, last)
        if st["state"] == "end":
            return verbs
        last = st["turn"]
        legal = legal_of(st)
        due = driver.execute_script("return App.M ? Discards.due(App.M) : 0;")
        if due >= 2:
            turns += answer(driver, legal[:due], 0)
            verbs.add("discard")
        else:
            label = choose(legal)
            verbs.add(label.split()[0])
            click(driver, label)
            turns += 1
        assert turns < most, "the deal does not end"


def _end_of_deal(driver: Any, game_name: str) -> dict[str, Any]:
    """The returns shown at the end of the deal, checked against mazzo's replay of the record
    the page kept; returns the page's ``end`` message."""
    end = driver.find_element(By.ID, "end")
    assert end.is_displayed() and end.find_element(By.TAG_NAME, "h2").text
    cells = end.find_elements(By.CSS_SELECTOR, "table.returns td:last-child")
    shown = [int(td.text) for td in cells]
    got: dict[str, Any] = driver.execute_script("return App.M.end;")
    assert shown == got["returns"]
    replayed = get_game(game_name).replay(got["record"], None)
    assert replayed.is_terminal()
    assert json.loads(json.dumps(replayed.result())) == got["result"] == got["record"]["result"]
    assert list(replayed.returns()) == shown
    return got


def test_static_table_plays_a_calabresella_deal(site: tuple[str, list[str]], driver: Any) -> None:
    url, requests = site
    driver.get(f"{url}/?speed=instant")
    wait(driver, lambda d: state(d)["state"] == "setup", "the setup form")
    assert driver.execute_script("return App.ws.url") == "local:"
    assert driver.find_element(By.ID, "setup-game").get_attribute("value") == "calabresella"
    fill_setup(driver, "calabresella", 11, seat=0, bots=("bot", "bot"))
    driver.find_element(By.ID, "setup-deal").click()

    verbs = _play_deal(driver, _choose, 60)

    # mazzo's engine replays the deal the page kept: the same result and returns
    got = _end_of_deal(driver, "calabresella")
    assert not got["result"]["void"], "the deal was not played (all passed)"
    assert {"bid", "play"} <= verbs, verbs
    players = [a[0] for a in got["record"]["actions"] if a[1] == "play"]
    assert len(players) == 36 and {"S1", "S2"} <= set(players)  # the bots played their cards

    assert requests, "the static server saw no request"
    assert not [p for p in requests if p.startswith(SERVER_PATHS)], requests
    assert any(p.endswith("policy.onnx") for p in requests)
    assert any(p.endswith(".wasm") for p in requests)
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"the page logged errors: {errors}"


def test_static_table_plays_a_minchiate_deal(site: tuple[str, list[str]], driver: Any) -> None:
    url, requests = site
    open_setup(driver, url)
    assert driver.execute_script("return App.ws.url") == "local:"
    options = driver.find_elements(By.CSS_SELECTOR, "#setup-game option")
    assert {o.get_attribute("value") for o in options} >= {"calabresella", "minchiate"}
    fill_setup(driver, "minchiate", 4, seat=0, bots=("bot", "bot", "bot"))
    driver.find_element(By.ID, "setup-deal").click()

    verbs = _play_deal(driver, lambda legal: "declare" if "declare" in legal else legal[0], 80)

    got = _end_of_deal(driver, "minchiate")
    assert not got["result"]["void"]
    assert "play" in verbs, verbs
    players = [a[0] for a in got["record"]["actions"] if a[1] == "play"]
    assert len(players) == 84 and {"S1", "S2", "S3"} <= set(players)  # the bots played theirs

    assert not [p for p in requests if p.startswith(SERVER_PATHS)], requests
    assert any(p.endswith("bundles/minchiate/policy.onnx") for p in requests)
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"the page logged errors: {errors}"

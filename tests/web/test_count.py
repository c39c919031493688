"""The Minchiate end table reconciles with the deal (issue 27, point 4): played through the page
in Chromium, the end table lists every scoring event of the deal (the engine's, in order, each
with D and R after it), the sums by cause and per team, the resti banked as the deal went, the
lead carried to the end, the end count T_A - T_B, the end rounding and the net resti, and each
line adds up to the next as RULES.md M-12 to M-14 settle it, down to the returns.
Screenshots go to ``$MAZZO_ARTIFACTS`` (``web_count_*.png``).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.web.conftest import VIEWPORT, artifacts_dir, set_viewport
from tests.web.page import click, fill_setup, legal_of, next_turn, open_setup
from tests.web.scenarios import Scenario, pick, play

C, H = "client", "heuristic"
MIN = Scenario("minchiate", (C, H, H, H))
UNIT = 60  # the default resti_unit
# seed 58: team A (the person's) declares and banks a resto during the deal and wins 2 resti;
# seed 11: both teams declare, team B banks a resto and wins 6
CASES = [(58, (1366, 900)), (11, (390, 844))]

# the end table's numbers: the event rows, the groups by cause, the sums, the settlement's lines
# and the end count's rows
_READ = """
const num = (e, k) => Number(e.dataset[k]);
const end = document.getElementById('end');
return {
  events: Array.from(end.querySelectorAll('.ledger tr.event')).map(e => ({team: e.dataset.team,
    points: num(e, 'points'), D: num(e, 'd'), R: num(e, 'r')})),
  groups: Array.from(end.querySelectorAll('.ledger tr.group')).map(e => [num(e, 'a'), num(e, 'b')]),
  sum: (e => [num(e, 'a'), num(e, 'b')])(end.querySelector('.ledger tr.sum')),
  settle: Object.fromEntries(Array.from(end.querySelectorAll('.settle tr[data-k]')).map(e =>
    [e.dataset.k, num(e, 'v')])),
  counts: Object.fromEntries(Array.from(end.querySelectorAll('.counts tr[data-k]')).map(e =>
    [e.dataset.k, [e.dataset.a, e.dataset.b]])),
  text: end.innerText,
};
"""


def _play_to_end(driver: Any, url: str, seed: int) -> dict[str, Any]:
    """Play ``MIN`` with ``seed`` through the page by the scenarios' policy; returns the
    in-process ``end`` message of the same deal."""
    turns, end = play(MIN, seed)
    open_setup(driver, url)
    fill_setup(driver, "minchiate", seed, "", 0, MIN.seats[1:])
    driver.find_element(By.ID, "setup-deal").click()
    last = "0"
    for legal in turns:
        st = next_turn(driver, last)
        last = st["turn"]
        assert legal_of(st) == legal
        click(driver, pick(legal, MIN.prefer))
    assert next_turn(driver, last)["state"] == "end"
    return end


@pytest.mark.parametrize(("seed", "size"), CASES)
def test_minchiate_end_table_adds_up(
    web_server: str, browser: Any, seed: int, size: tuple[int, int]
) -> None:
    """Every line of the end table adds up, from the events to the returns."""
    set_viewport(browser, *size)
    try:
        end = _play_to_end(browser, web_server, seed)
        got = browser.execute_script(_READ)
        browser.save_screenshot(str(artifacts_dir() / f"web_count_{size[0]}.png"))
    finally:
        set_viewport(browser, *VIEWPORT)
    r = end["result"]
    engine = [e for e in r["events"] if e["cause"] != "final"]
    # every event of the deal, as the engine scored it, in order (not only the last few)
    assert [(e["team"], e["points"], e["D"], e["R"]) for e in got["events"]] == [
        (e["team"], e["points"], e["D"], e["R"]) for e in engine
    ]
    assert any(e["cause"] == "declare" and e["team"] == "A" for e in engine)
    # the running score: A's points minus B's, less a unit for each resto, after every event
    lead = 0
    for e in got["events"]:
        lead += e["points"] if e["team"] == "A" else -e["points"]
        assert e["R"] * UNIT + e["D"] == lead, e
    a = sum(e["points"] for e in got["events"] if e["team"] == "A")
    b = sum(e["points"] for e in got["events"] if e["team"] == "B")
    assert got["sum"] == [a, b]
    assert [sum(g[0] for g in got["groups"]), sum(g[1] for g in got["groups"])] == [a, b]
    s = got["settle"]
    assert s["lead"] == a - b
    assert s["banked"] == r["r_play"] and s["banked"] != 0
    assert s["carried"] == s["lead"] - UNIT * s["banked"]
    assert s["carried"] == (got["events"][-1]["D"] if got["events"] else 0)
    # the end count: each team's total is the sum of its rows
    counts = {k: (int(v[0]), int(v[1])) for k, v in got["counts"].items() if v[0] != ""}
    parts = ("card_points", "combo_points", "surplus", "last_trick")
    for t in (0, 1):
        assert counts["total"][t] == sum(counts[k][t] for k in parts), counts
    assert counts["card_points"][0] + counts["card_points"][1] == 142  # M-13.2
    assert s["net"] == counts["total"][0] - counts["total"][1]
    assert s["d"] == s["carried"] + s["net"] == r["d_final"]
    d = s["d"]
    assert s["rounding"] == ((1 if d > 0 else -1) * math.ceil(abs(d) / UNIT) if d else 0)
    assert s["resti"] == s["banked"] + s["rounding"] == r["resti"] == end["returns"][0]
    assert f"wins {abs(r['resti'])} resti" in got["text"]
    # declarations scored in play are named as such, not shown as "Declared 0"
    assert "Declarations scored when they were made" in got["text"]

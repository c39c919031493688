"""Driving the web table's page in the browser tests: its state (``body[data-state]``, the
turn counter and the turn's legal labels), waiting for a turn, the highlighted moves on the page
and the setup form.
"""

from __future__ import annotations

import json
from typing import Any

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

WAIT_S = 60  # a safety stop for each wait on the page, not a timing check
POLL_S = 0.05  # how often a wait looks at the page

# the page's state, and the highlighted moves with whether each lies inside the window
_STATE = """
const b = document.body.dataset;
const shown = Array.from(document.querySelectorAll('.legal[data-label]')).map(e => {
  const r = e.getBoundingClientRect();
  return [e.dataset.label, r.width > 0 && r.height > 0 && r.bottom <= innerHeight && r.right <= innerWidth];
});
return {state: b.state, turn: b.turn || '0', legal: b.legal || '[]', shown: shown};
"""

# the element of a move, and the width of its uncovered left strip (an overlapped card in a long
# hand shows that much of itself): the x offsets from its left edge where it is the topmost one
_TARGET = """
const el = document.querySelector(arguments[0]);
if (!el) return [null, 0, 0];
const r = el.getBoundingClientRect();
// the part of the card a person sees: from its top down its left edge (a later row may cover
// its lower part), then across at the middle of that part
let h = 0;
while (h < r.height && el.contains(document.elementFromPoint(r.left + 3, r.top + h + 1))) h++;
const y = r.top + Math.max(h, 1) / 2;
let w = 0;
while (w < r.width && el.contains(document.elementFromPoint(r.left + w + 1, y))) w++;
return [el, w, r.width, y - r.top];
"""
MIN_STRIP_PX = 20  # the least of a card a person must see to click it

_SET_FIELD = """
const el = document.getElementById(arguments[0]);
el.value = arguments[1];
el.dispatchEvent(new Event('change', {bubbles: true}));
"""


def state(driver: Any) -> dict[str, Any]:
    """``{state, turn, legal, shown}`` of the page: ``legal`` the turn's labels as JSON text,
    ``shown`` the highlighted moves as ``[label, inside the window]`` pairs."""
    got: dict[str, Any] = driver.execute_script(_STATE)
    return got


def wait(driver: Any, cond: Any, what: str) -> Any:
    """Wait until ``cond(driver)`` is truthy; fail naming ``what`` the page never showed."""
    waiter = WebDriverWait(driver, WAIT_S, poll_frequency=POLL_S)
    return waiter.until(cond, message=f"the page never showed {what}")


def next_turn(driver: Any, last: str) -> dict[str, Any]:
    """Wait for a turn other than ``last`` (a turn counter), or the end; returns ``state``."""

    def ready(d: Any) -> dict[str, Any] | None:
        st = state(d)
        if st["state"] == "end" or (st["state"] == "myturn" and st["turn"] != last):
            return st
        return None

    got: dict[str, Any] = wait(driver, ready, "the person's next turn or the end")
    return got


def check_highlighted(st: dict[str, Any]) -> None:
    """The highlighted moves of page state ``st`` are exactly its turn's legal labels, each
    visible in the window."""
    shown, legal = st["shown"], legal_of(st)
    assert sorted(label for label, _ in shown) == sorted(legal), (shown, legal)
    assert all(visible for _, visible in shown), f"a legal move is off screen: {shown}"


def click(driver: Any, label: str) -> None:
    """Click the highlighted element of move ``label`` where a person would: its middle, or the
    visible left strip of a card the next card overlaps (at least ``MIN_STRIP_PX`` wide)."""
    _click(driver, f'.legal[data-label="{label}"]', f"no highlighted element for {label!r}")


def answer(driver: Any, choices: list[str], k: int) -> int:
    """Answer the person's turn ``k`` with ``choices[k]`` as a person does. A turn that begins
    several discards (the page has them picked, then sent together: discards.js) takes the
    next ones of ``choices`` too: each picked, then Discard pressed; the page then sends them
    one a turn by itself. Returns the number of the person's turns answered."""
    due: int = driver.execute_script("return App.M ? Discards.due(App.M) : 0;")
    if due < 2:
        click(driver, choices[k])
        return 1
    run = choices[k : k + due]
    assert len(run) == due and all(c.startswith("discard ") for c in run), run
    turn = state(driver)["turn"]
    for label in run:
        click(driver, label)
    driver.find_element(By.ID, "discard-confirm").click()

    def sent(d: Any) -> bool:  # past the discards: another turn, the others' turns, or the end
        st = state(d)
        if st["state"] == "myturn":
            return st["turn"] != turn and not legal_of(st)[0].startswith("discard ")
        return bool(st["state"] in ("playing", "end"))

    wait(driver, sent, "the picked discards sent")
    return due


def click_card(driver: Any, code: str) -> None:
    """Click card ``code`` of the person's hand, highlighted or not, as ``click`` does."""
    _click(driver, f'#hand .card[data-code="{code}"]', f"no card {code!r} in the hand")


def _click(driver: Any, selector: str, missing: str) -> None:
    el, strip, width, y = driver.execute_script(_TARGET, selector)
    assert el is not None, missing
    assert strip >= MIN_STRIP_PX, f"only {strip} px of {selector!r} can be clicked"
    height = el.size["height"]
    if strip >= width and abs(y - height / 2) < 1:
        el.click()
        return
    # duration=0: the pointer jumps to the strip (Selenium animates each move for 250 ms)
    dx = 0 if strip >= width else -width / 2 + strip / 2
    ActionChains(driver, duration=0).move_to_element_with_offset(
        el, dx, y - height / 2
    ).click().perform()


def forget(driver: Any, url: str) -> None:
    """Clear what the page keeps in the browser's storage for ``url`` (the last settings, a
    deal in progress)."""
    driver.execute_cdp_cmd(
        "Storage.clearDataForOrigin", {"origin": url, "storageTypes": "local_storage"}
    )


def open_setup(driver: Any, url: str) -> None:
    """Load the page (instant speed), nothing kept from an earlier test, and wait for its setup
    form."""
    forget(driver, url)
    driver.get(f"{url}/?speed=instant")
    wait(driver, lambda d: state(d)["state"] == "setup", "the setup form")


def fill_setup(
    driver: Any, game: str, seed: int | None, flags: str = "", seat: int = 0,
    bots: tuple[str, ...] = (),
) -> None:  # fmt: skip
    """Fill the setup form (the game, the flags, the person's seat, a bot per other seat in
    ``bots`` order, the seed); the Deal button is left to the caller."""
    Select(driver.find_element(By.ID, "setup-game")).select_by_value(game)
    driver.execute_script(_SET_FIELD, "setup-flags", flags)
    driver.execute_script(_SET_FIELD, "setup-seat", str(seat))
    others = driver.find_elements(By.CSS_SELECTOR, "#setup-seats select[data-seat]")
    assert len(others) == len(bots), (len(others), bots)
    for el, bot in zip(others, bots, strict=True):
        Select(el).select_by_visible_text(bot)
    box = driver.find_element(By.ID, "setup-seed")
    box.clear()
    if seed is not None:
        box.send_keys(str(seed))


def legal_of(st: dict[str, Any]) -> list[str]:
    """The legal labels of a page state."""
    got: list[str] = json.loads(st["legal"])
    return got


# what a person sees of the table's layout: the page's width against the window's, anything
# drawn past the window's edges, the seats, the trick, the score and the last trick (which must
# not overlap), the New deal button (in the window and not covered), the prompt's size in lines,
# the least of a hand card that shows, and whether the side panel needs scrolling
_LAYOUT = """
const W = innerWidth, H = innerHeight;
const box = (e) => { const r = e.getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom,
  w: r.width, h: r.height}; };
const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
  getComputedStyle(e).visibility !== 'hidden'; };
const outside = [];
for (const e of document.querySelectorAll('header *, #notice, #felt *, #action-bar *, #hand *, #panels')) {
  if (!shown(e)) continue;
  const r = box(e);
  if (r.l < -0.5 || r.r > W + 0.5) outside.push(`${e.tagName}#${e.id}.${e.className.baseVal ?? e.className} ${r.l}..${r.r}`);
}
const named = (sel) => Array.from(document.querySelectorAll(sel)).filter(shown).map(e => [sel, box(e)]);
const blocks = [...named('#felt .seat'), ...named('#trick .slot .card'), ...named('#trick .trick-note'),
  ...named('#scoreline'), ...named('#last-trick')];
const overlaps = [];
for (let i = 0; i < blocks.length; i++) for (let j = i + 1; j < blocks.length; j++) {
  const [a, A] = blocks[i], [b, B] = blocks[j];
  if (a === b && a !== '#felt .seat') continue;  // the trick's own cards may overlap (a due)
  const x = Math.min(A.r, B.r) - Math.max(A.l, B.l), y = Math.min(A.b, B.b) - Math.max(A.t, B.t);
  if (x > 1 && y > 1) overlaps.push(`${a} ${JSON.stringify(A)} / ${b} ${JSON.stringify(B)}`);
}
const nd = document.getElementById('new-deal'), ndr = box(nd);
const top = document.elementFromPoint(ndr.l + ndr.w / 2, ndr.t + ndr.h / 2);
const prompt = document.querySelector('#action-bar .prompt');
const pr = prompt && shown(prompt) ? box(prompt) : null;
const lh = prompt ? parseFloat(getComputedStyle(prompt).lineHeight) || 20 : 20;
let strip = null;
for (const row of document.querySelectorAll('#hand .hand-row')) {
  const cards = Array.from(row.querySelectorAll('.card'));
  for (let i = 0; i + 1 < cards.length; i++) {
    const s = cards[i + 1].getBoundingClientRect().left - cards[i].getBoundingClientRect().left;
    strip = strip === null ? s : Math.min(strip, s);
  }
}
const hand = document.getElementById('hand'), panels = document.getElementById('panels');
return {W, H, scrollWidth: document.documentElement.scrollWidth, outside, overlaps,
  newDeal: ndr, newDealFree: nd.contains(top), prompt: pr, promptLines: pr ? Math.round(pr.h / lh) : 0,
  promptText: prompt ? prompt.innerText : '', strip, handRows: Number(hand.dataset.rows || 0),
  hand: box(hand), felt: box(document.getElementById('felt')), panels: box(panels),
  panelScrolls: getComputedStyle(panels).overflowY !== 'visible' && panels.scrollHeight > panels.clientHeight + 1,
  bubbles: Array.from(document.querySelectorAll('.seat .bubble')).filter(shown).map(e => e.textContent)};
"""


def layout(driver: Any) -> dict[str, Any]:
    """The page's layout as a person sees it (see ``_LAYOUT``)."""
    got: dict[str, Any] = driver.execute_script(_LAYOUT)
    return got


def check_layout(driver: Any, where: str) -> dict[str, Any]:
    """The table fits the window: no horizontal overflow, nothing past the edges, no seat over
    another or over the trick, New deal in the window and clickable, the prompt in a few full
    lines (never a word a line); returns ``layout``."""
    lay = layout(driver)
    assert lay["scrollWidth"] <= lay["W"], f"{where}: the page is {lay['scrollWidth']} px wide"
    assert not lay["outside"], f"{where}: drawn past the window's edges: {lay['outside']}"
    assert not lay["overlaps"], f"{where}: overlapping: {lay['overlaps']}"
    nd = lay["newDeal"]
    assert nd["l"] >= 0 and nd["r"] <= lay["W"] and nd["t"] >= 0 and nd["b"] <= lay["H"], nd
    assert lay["newDealFree"], f"{where}: New deal is covered"
    pr = lay["prompt"]
    if pr is not None:
        assert lay["promptLines"] <= 4, f"{where}: the prompt takes {lay['promptLines']} lines"
        assert pr["w"] >= min(260, lay["W"] - 40) or lay["promptLines"] == 1, f"{where}: {pr}"
    return lay

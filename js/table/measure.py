"""Measure the static web table (js/README.md, "Static table"): the build's size, what the page
transfers, and the time from the page's load to the first bot move, in headless Chromium under
network and CPU profiles (Chrome DevTools emulation through Selenium).

    python js/table/measure.py                         # builds the table into a temporary folder
    python js/table/measure.py --site DIR --profiles phone-fast3g

Each profile loads the page afresh (cache disabled, nothing kept), deals Calabresella with the
person at S0 and two trained bots (seed 1: S0 deals, so S1, a bot, bids first), the Deal button
pressed as soon as the setup form shows, and reports from the navigation's start: the setup form
shown (the page usable), the first bot move received, and the bytes the page transferred by
then (the resources' ``transferSize``).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from build import build  # noqa: E402

# DevTools' throttling presets (bytes/s, ms): "Fast 3G" (Chrome's "Slow 4G" today) and "Fast 4G"
PROFILES: dict[str, dict[str, Any]] = {
    "phone-fast3g": {"mobile": True, "cpu": 4,
                     "net": {"latency": 562.5, "down": 180_000, "up": 84_375}},
    "phone-fast4g": {"mobile": True, "cpu": 4,
                     "net": {"latency": 165, "down": 1_012_500, "up": 168_750}},
    "desktop": {"mobile": False, "cpu": 1, "net": None},
}  # fmt: skip
PHONE = {
    "deviceMetrics": {"width": 412, "height": 915, "pixelRatio": 2.625},
    "userAgent": "Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/120.0.0.0 Mobile Safari/537.36",
}
SEED = 1

# the time (performance.now(), from the navigation's start) of the first bot move the page gets
_HOOK = """
window.__firstBot = null;
const orig = window.onMessage;
window.onMessage = function (msg) {
  if (window.__firstBot === null && msg.type === 'event' && App.M && msg.seat !== App.M.me) {
    window.__firstBot = performance.now();
  }
  return orig(msg);
};
window.__setup = performance.now();
"""
_BYTES = """
const all = performance.getEntriesByType('navigation')
  .concat(performance.getEntriesByType('resource'));
return all.map(e => [e.name, e.transferSize, e.encodedBodySize]);
"""


def sizes(site: Path) -> dict[str, int]:
    """The build's total size, gzipped size, and the part that is onnxruntime's .wasm."""
    files = [f for f in site.rglob("*") if f.is_file()]
    total = sum(f.stat().st_size for f in files)
    zipped = sum(len(gzip.compress(f.read_bytes(), 6)) for f in files)
    wasm = sum(f.stat().st_size for f in files if f.suffix == ".wasm")
    onnx = sum(f.stat().st_size for f in files if f.suffix == ".onnx")
    return {"files": len(files), "bytes": total, "gzip_bytes": zipped, "wasm_bytes": wasm,
            "onnx_bytes": onnx}  # fmt: skip


def serve(site: Path) -> tuple[str, Any]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(site))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{httpd.server_address[1]}", httpd


def measure(url: str, profile: dict[str, Any]) -> dict[str, Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    from tests.web.conftest import browser_paths
    from tests.web.page import fill_setup, state

    chromium, driver_path = browser_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--no-sandbox", "--headless=new", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    if profile["mobile"]:
        options.add_experimental_option("mobileEmulation", PHONE)
    driver: Any = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        net = profile["net"]
        if net:
            driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
                "offline": False, "latency": net["latency"], "downloadThroughput": net["down"],
                "uploadThroughput": net["up"]})  # fmt: skip
        driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": profile["cpu"]})
        driver.set_page_load_timeout(600)
        driver.get(f"{url}/?speed=instant")
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(driver, 600, poll_frequency=0.05).until(
            lambda d: state(d)["state"] == "setup", "the setup form"
        )
        driver.execute_script(_HOOK)
        fill_setup(driver, "calabresella", SEED, seat=0, bots=("bot", "bot"))
        driver.find_element(By.ID, "setup-deal").click()
        WebDriverWait(driver, 600, poll_frequency=0.05).until(
            lambda d: d.execute_script("return window.__firstBot"), "the first bot move"
        )
        setup_ms = driver.execute_script("return window.__setup")
        first_ms = driver.execute_script("return window.__firstBot")
        entries = driver.execute_script(_BYTES)
    finally:
        driver.quit()
    return {
        "setup_form_s": round(setup_ms / 1000, 2),
        "first_bot_move_s": round(first_ms / 1000, 2),
        "transferred_bytes": sum(e[1] for e in entries),
        "requests": len(entries),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built static table (default: build one)")
    parser.add_argument("--bundle", action="append", default=[], metavar="GAME=DIR",
                        help="for the build: a bundle exported already")  # fmt: skip
    parser.add_argument("--profiles", default=",".join(PROFILES),
                        help=f"comma-separated, of {', '.join(PROFILES)}")  # fmt: skip
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            bundles = {g: Path(p) for g, _, p in (b.partition("=") for b in args.bundle)}
            site = build(Path(tmp) / "table", bundles)
        report: dict[str, Any] = {"build": sizes(site)}
        url, httpd = serve(site)
        try:
            for name in args.profiles.split(","):
                t0 = time.monotonic()
                report[name] = measure(url, PROFILES[name])
                report[name]["wall_s"] = round(time.monotonic() - t0, 1)
                print(name, json.dumps(report[name]), flush=True)
        finally:
            httpd.shutdown()
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

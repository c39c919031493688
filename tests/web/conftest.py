"""Fixtures of the browser tests: a ``mazzo serve --web`` server on a free loopback port, and a
headless Chromium driven by Selenium (Debian's ``chromium`` and ``chromedriver``).

A machine without the browser fails these tests (it does not skip them), with the command that
installs it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = "apt-get install -y chromium chromium-driver"
FALLBACK_DIR = "/usr/bin"
VIEWPORT = (1280, 800)
START_LIMIT_S = 120.0  # the server's start (it builds its bots); a safety stop, not a timing check


def _find(names: tuple[str, ...]) -> str | None:
    """The first of ``names`` on PATH, else in ``/usr/bin`` (where Debian puts them)."""
    for name in names:
        found = shutil.which(name) or shutil.which(name, path=FALLBACK_DIR)
        if found:
            return found
    return None


def browser_paths() -> tuple[str, str]:
    """Chromium and chromedriver; the test fails (never skips) when one is missing."""
    chromium = _find(("chromium", "chromium-browser"))
    driver = _find(("chromedriver",))
    missing = [name for name, p in (("chromium", chromium), ("chromedriver", driver)) if not p]
    if chromium is None or driver is None:
        pytest.fail(
            f"the browser tests need Chromium and its driver; {' and '.join(missing)} not found "
            f"(PATH or {FALLBACK_DIR}). Install them: {INSTALL} (Debian/Ubuntu, as root or with "
            "sudo)",
            pytrace=False,
        )
    return chromium, driver


def artifacts_dir() -> Path:
    """Where the screenshots go: ``$MAZZO_ARTIFACTS``, else ``test-artifacts/`` at the root."""
    path = Path(os.environ.get("MAZZO_ARTIFACTS") or ROOT / "test-artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serve_web(port: int, bots: tuple[str, ...] = ("heuristic", "random")) -> Iterator[str]:
    """A ``mazzo serve --web`` on ``port`` (bots named after their agents) while the block
    runs; yields its base URL. The server is stopped on leaving the block."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "mazzo", "serve", "--web", "--port", str(port)]
    for bot in bots:
        cmd += ["--bot", f"{bot}={bot}"]
    cmd += ["--log-level", "warning"]
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_until_up(proc, url, log)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="session")
def web_server() -> Iterator[str]:
    """The base URL of a running ``mazzo serve --web`` (heuristic and random bots)."""
    with serve_web(free_port()) as url:
        yield url


def _wait_until_up(proc: subprocess.Popen[bytes], url: str, log: Any) -> None:
    stop = time.monotonic() + START_LIMIT_S
    while True:
        if proc.poll() is not None:
            log.seek(0)
            pytest.fail(f"mazzo serve exited with {proc.returncode}:\n{log.read().decode()}")
        try:
            with urllib.request.urlopen(url + "/api/hello", timeout=2) as r:
                if json.load(r).get("type") == "hello":
                    return
        except OSError:
            pass
        if time.monotonic() > stop:
            pytest.fail(f"mazzo serve did not answer on {url} within {START_LIMIT_S:.0f} s")
        time.sleep(0.2)


def set_viewport(driver: Any, width: int, height: int) -> None:
    """Make the page's window ``width`` x ``height`` CSS pixels."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


def headless_chromium(width: int, height: int) -> Any:
    """Debian's Chromium, headless, at ``width`` x ``height``, its console log kept (the
    caller quits it)."""
    chromium, driver_path = browser_paths()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--no-sandbox", "--headless=new", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}"):  # fmt: skip
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver_path), options=options)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium with a 1280x800 viewport that downloads into ``browser.downloads``."""
    downloads = tempfile.TemporaryDirectory()
    driver = headless_chromium(*VIEWPORT)
    try:
        set_viewport(driver, *VIEWPORT)
        driver.execute_cdp_cmd(
            "Browser.setDownloadBehavior",
            {"behavior": "allow", "downloadPath": downloads.name, "eventsEnabled": True},
        )
        driver.downloads = Path(downloads.name)
        yield driver
    finally:
        driver.quit()
        downloads.cleanup()

"""The JavaScript runtime of exported bundles (``js/``, package ``mazzo-bot``), run by Node.

Exports the shipped Calabresella and Minchiate bots into a temporary folder (``mazzo export
bot``), writes the fixtures (``tests/js/make_fixtures.py``: for both games each test vector as the
protocol messages its seat received, whole deals under other rule flags (Minchiate's void deals
too), whole deals for the seat sessions, foreign rules), installs the package's locked
dependencies when ``js/node_modules`` is missing (``npm ci``) and runs ``node --test`` in ``js/``,
which also plays seat sessions of both games against ``mazzo serve --stdio`` (its ``onnx`` bot
for the moves, the shipped ``bot`` for the probabilities; refused inputs get the server's error
codes). Node (20 or later) and npm are required: without them this test fails, it does not skip
(the CI installs Node).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "js"
GAMES = ("calabresella", "minchiate")  # both tracked and encoded


def _run(cmd: list[str], cwd: Path, timeout: int, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(cmd)} failed ({done.returncode}):\n{output[-6000:]}"
    return output


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path]]:
    root = tmp_path_factory.mktemp("js")
    bundles = {}
    for game in GAMES:
        bundles[game] = root / "bundles" / game
        _run([sys.executable, "-m", "mazzo", "export", "bot", "--game", game,
              "--out", str(bundles[game])], ROOT, 300)  # fmt: skip
    out = root / "fixtures"
    _run([sys.executable, str(ROOT / "tests" / "js" / "make_fixtures.py"), "--out", str(out),
          *(f"{g}={d}" for g, d in bundles.items())], ROOT, 300)  # fmt: skip
    return out, bundles


def test_node_is_installed() -> None:
    node = shutil.which("node")
    assert node, "node (20 or later) is needed to test js/ (the CI installs it)"
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout
    major = int(re.match(r"v(\d+)", version.strip()).group(1))  # type: ignore[union-attr]
    assert major >= 20, f"js/ needs node 20 or later, found {version.strip()}"


def test_js_package(fixtures: tuple[Path, dict[str, Path]]) -> None:
    out, bundles = fixtures
    node, npm = shutil.which("node"), shutil.which("npm")
    assert node and npm, "node and npm are needed to test js/ (the CI installs them)"
    serve = [sys.executable, "-m", "mazzo", "serve", "--stdio", "--log-level", "warning",
             "--bot", f"calabresella/onnx=onnx:{bundles['calabresella']}",
             "--bot", "calabresella/bot=bot",
             "--bot", f"minchiate/onnx=onnx:{bundles['minchiate']}", "--bot", "minchiate/bot=bot"]  # fmt: skip
    env = dict(os.environ, MAZZO_JS_FIXTURES=str(out), MAZZO_SERVE=json.dumps(serve),
               MAZZO_SERVE_PROBS_BOT="bot")  # fmt: skip
    output = _run([node, "--test"], JS, 300, env)
    assert re.search(r"# fail 0\b", output) and not re.search(r"# skipped [1-9]", output), output
    for game in GAMES:
        assert f"{game}: 64/64 test vectors matched" in output, output
        assert re.search(rf"{game}: \d+ variant deal-seats, \d+ positions matched", output), output
        assert re.search(rf"{game}: \d+ seat sessions, \d+ decisions equal", output), output
        assert re.search(rf"{game}: \d+ refused inputs refused alike", output), output

"""A non-editable install ships the web table: pyproject's package-data patterns of
``mazzo.serve`` cover every file under ``mazzo/serve/static`` (the games' renderers in
``static/games/`` included). The patterns are expanded as setuptools expands them (``glob`` with
``**`` recursive, relative to the package's directory); no wheel is built here.
"""

from __future__ import annotations

import glob
import tomllib
from pathlib import Path

from tests.web.conftest import ROOT

PACKAGE = "mazzo.serve"
STATIC = "static"


def _patterns() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data: dict[str, list[str]] = config["tool"]["setuptools"]["package-data"]
    return data.get(PACKAGE, []) + data.get("*", [])


def _shipped(package_dir: Path, patterns: list[str]) -> set[str]:
    found: set[str] = set()
    for pattern in patterns:
        for name in glob.glob(pattern, root_dir=package_dir, recursive=True):
            if (package_dir / name).is_file():
                found.add(Path(name).as_posix())
    return found


def test_package_data_covers_every_static_file() -> None:
    package_dir = ROOT / Path(*PACKAGE.split("."))
    files = {
        p.relative_to(package_dir).as_posix()
        for p in (package_dir / STATIC).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert "static/index.html" in files and any(f.startswith("static/games/") for f in files)
    missing = sorted(files - _shipped(package_dir, _patterns()))
    assert not missing, f"pyproject's package-data for {PACKAGE} misses {missing}"


def test_the_check_sees_a_pattern_that_misses_files() -> None:
    """The expansion is not vacuous: ``static/*`` alone leaves the games' renderers out."""
    package_dir = ROOT / Path(*PACKAGE.split("."))
    shipped = _shipped(package_dir, ["static/*"])
    assert "static/app.js" in shipped
    assert not any(f.startswith("static/games/") for f in shipped)

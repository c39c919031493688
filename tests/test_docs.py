"""The front page and the documentation site: the README is a front page (at most 250 lines)
whose links all resolve, and the site builds strictly (``mkdocs build --strict``: a warning,
a broken link or anchor fails it), with its home and changelog pages drawn from the README and
CHANGELOG.md and RULES.md's citations shown as written."""

import re
import subprocess
import sys

from tests.cli_runner import ROOT

README = ROOT / "README.md"
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def test_the_readme_is_a_front_page():
    assert len(README.read_text().splitlines()) <= 250


def test_every_link_of_the_readme_resolves():
    for target in LINK.findall(README.read_text()):
        if re.match(r"^[a-z]+://", target):
            continue
        path, _, anchor = target.partition("#")
        assert (ROOT / path).exists(), target
        if anchor and path.endswith(".md"):
            headings = _anchors((ROOT / path).read_text())
            assert anchor in headings, f"{target}: no heading with that anchor"


def _anchors(markdown: str) -> set[str]:
    """The anchors Python-Markdown's toc gives the headings (lower case, punctuation dropped,
    spaces to hyphens)."""
    out = set()
    for line in markdown.splitlines():
        if line.startswith("#"):
            text = line.lstrip("#").strip().lower()
            text = re.sub(r"[^\w\s-]", "", text)
            out.add(re.sub(r"[\s]+", "-", text).strip("-"))
    return out


def test_the_site_builds_strictly(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    home = (tmp_path / "index.html").read_text()
    assert "Train AI opponents" in home and 'href="install/#install-by-job"' in home
    assert "expert iteration as one recipe" in (tmp_path / "changelog" / "index.html").read_text()
    rules = (tmp_path / "RULES" / "index.html").read_text()
    assert "[CD][C3]" in rules  # the citations as written, not links
    reference = (tmp_path / "reference" / "envs" / "index.html").read_text()
    assert 'id="mazzo.envs.registry.get_game"' in reference

"""MkDocs hooks of the documentation site (mkdocs.yml).

The home page is the repository's README.md and the changelog page its CHANGELOG.md, their
links made relative to docs/ (``index.md`` and ``changelog.md`` hold only a comment saying so),
so the repository's front page and the site never drift apart.

RULES.md cites its sources in brackets, ``[CD][C3]``, which Markdown would read as reference
links (and mkdocs-autorefs as cross-references). The file is the contract and stays as it is;
only its rendering escapes the second bracket, so the page shows the citations as written.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FROM_THE_ROOT = {"index.md": ROOT / "README.md", "changelog.md": ROOT / "CHANGELOG.md"}

CITATIONS = re.compile(r"\](\s*)\[")


def from_the_root(markdown: str) -> str:
    """A page of the repository's root as a page of the site: links into ``docs/`` made
    relative to it, the changelog linked as the site's page."""
    return markdown.replace("](docs/", "](").replace("](CHANGELOG.md)", "](changelog.md)")


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """The home and changelog pages from the repository's root; RULES.md with its citations'
    brackets escaped; other pages unchanged."""
    if page.file.src_path in FROM_THE_ROOT:
        return from_the_root(FROM_THE_ROOT[page.file.src_path].read_text())
    if page.file.src_path == "RULES.md":
        return CITATIONS.sub(r"]\1\\[", markdown)
    return markdown

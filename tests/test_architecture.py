"""The dependency rules of DESIGN.md, checked: engines import only the stdlib and envs.cards;
nothing in envs/ or agents/ touches global random state; nothing imports training/."""

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
# Every engine module: everything in a game package but the encoder and the env (numpy /
# PettingZoo layer), plus the shared card core.
PURE = ["envs/cards"] + sorted(
    str(p.relative_to(ROOT))
    for game in ("calabresella", "minchiate")
    for p in (ROOT / "envs" / game).glob("*.py")
    if p.stem not in ("encode", "env")
)
FORBIDDEN = {"numpy", "torch", "gymnasium", "pettingzoo", "random", "time", "logging"}


def _files(paths):
    for p in paths:
        path = ROOT / p
        if path.is_dir():
            yield from sorted(path.rglob("*.py"))
        elif path.exists():
            yield path


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module


@pytest.mark.parametrize("path", list(_files(PURE)), ids=lambda p: str(p.relative_to(ROOT)))
def test_engines_are_pure(path):
    bad = {m for m in _imports(path) if m.split(".")[0] in FORBIDDEN}
    assert not bad, f"{path.name} imports {bad}"
    text = path.read_text()
    assert not re.search(r"\bprint\(", text), f"{path.name} prints"


GLOBAL_RNG = re.compile(
    r"\b(np\.random\.(?!Generator|SeedSequence|default_rng|PCG64)\w+\(|random\.(random|randint|choice|shuffle|seed|sample|randrange)\(|torch\.(rand\w*|manual_seed)\()"
)


@pytest.mark.parametrize(
    "path", list(_files(["envs", "agents"])), ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_global_random_state(path):
    assert not GLOBAL_RNG.search(path.read_text()), f"{path} uses global random state"


def test_nothing_imports_training():
    for path in _files(["envs", "agents"]):
        assert not any(m.split(".")[0] == "training" for m in _imports(path)), path


def test_every_module_has_a_docstring():
    for path in _files(["envs", "agents", "training"]):
        tree = ast.parse(path.read_text())
        assert ast.get_docstring(tree), f"{path} has no module docstring"

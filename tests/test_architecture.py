"""The dependency rules of DESIGN.md, checked: engines import only the stdlib and
``mazzo.envs.cards``; nothing in envs/ or agents/ touches global random state; everything is
imported under the one ``mazzo`` namespace (never as a top-level ``envs``, ``agents`` or
``training``); the layers import one way, ``mazzo.envs <- mazzo.agents <- mazzo.training <-``
the application (``mazzo.cli``, the commands, ``mazzo.serve``), each only those to its left, and
nothing imports the application; the serving path (``mazzo.serve``) needs neither torch nor the
trainers; no module outside a game's own packages names a game (the layers above iterate
``mazzo.envs.registry``)."""

import ast
import pathlib
import re

import pytest

from mazzo.envs.registry import game_names

ROOT = pathlib.Path(__file__).resolve().parents[1]
GAMES = game_names()
# Every engine module: everything in a game package but the encoder, the env (numpy /
# PettingZoo layer) and the registration, plus the shared card core.
PURE = ["envs/cards"] + sorted(
    str(p.relative_to(ROOT))
    for game in GAMES
    for p in (ROOT / "envs" / game).glob("*.py")
    if p.stem not in ("encode", "env", "game")
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
            if node.module == "mazzo":  # from mazzo import envs
                yield from (f"mazzo.{a.name}" for a in node.names)


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
    "path", list(_files(["envs", "agents", "arena"])), ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_global_random_state(path):
    assert not GLOBAL_RNG.search(path.read_text()), f"{path} uses global random state"


# The one-way arrows between the project's layers: each may import only those listed. A layer
# is a folder of the repository; ``mazzo/envs``, ``mazzo/agents``, ``mazzo/arena`` and ``mazzo/training`` are
# links to the top-level folders, so ``mazzo`` (the application) is mazzo/ without them.
LAYER_IMPORTS = {
    "envs": {"envs"},
    "agents": {"envs", "agents"},
    "arena": {"envs", "agents", "arena"},
    "training": {"envs", "agents", "arena", "training"},
    "mazzo": {"envs", "agents", "arena", "training", "mazzo"},
    "benchmarks": {"envs", "agents", "arena", "training", "mazzo", "benchmarks"},
}
SUBPACKAGES = ("envs", "agents", "arena", "training")
# Folders of code that import mazzo: every one must use the namespace.
CODE = [
    "envs",
    "agents",
    "arena",
    "training",
    "mazzo",
    "benchmarks",
    "tests",
    "examples",
    "notebooks",
]


def _layer_of(module):
    """The layer a dotted module name belongs to, or None outside the project."""
    parts = module.split(".")
    if parts[0] == "benchmarks":
        return "benchmarks"
    if parts[0] != "mazzo":
        return None
    if len(parts) > 1 and parts[1] in SUBPACKAGES:
        return parts[1]
    return "mazzo"


def _application_files():
    """mazzo/ itself: the links to the subpackages are not walked (``Path.rglob`` does not
    follow them, and they are skipped here by name where it would)."""
    for path in _files(["mazzo"]):
        relative = path.relative_to(ROOT / "mazzo")
        if relative.parts[0] not in SUBPACKAGES:
            yield path


def test_the_subpackages_are_linked_into_the_namespace():
    for name in SUBPACKAGES:
        link = ROOT / "mazzo" / name
        assert link.is_symlink() and link.resolve() == ROOT / name, f"mazzo/{name}"


@pytest.mark.parametrize("folder", CODE)
def test_everything_is_imported_under_the_mazzo_namespace(folder):
    """A top-level ``envs``/``agents``/``training`` import would load a second copy of the
    module (or, installed, a user's own folder of that name)."""
    bad = [
        (str(path.relative_to(ROOT)), module)
        for path in (_application_files() if folder == "mazzo" else _files([folder]))
        for module in _imports(path)
        if module.split(".")[0] in SUBPACKAGES
    ]
    assert not bad, bad


@pytest.mark.parametrize("layer", sorted(LAYER_IMPORTS))
def test_packages_import_one_way(layer):
    allowed = LAYER_IMPORTS[layer]
    files = _application_files() if layer == "mazzo" else _files([layer])
    bad = [
        (str(path.relative_to(ROOT)), module)
        for path in files
        for module in _imports(path)
        if _layer_of(module) not in (None, *allowed)
    ]
    assert not bad, f"{layer}/ may import only {sorted(allowed)}: {bad}"


def test_the_serving_path_needs_neither_torch_nor_the_trainers():
    """``mazzo.serve`` (bots, protocol, server, web table) serves ``onnx:`` bundles on a
    machine without torch: it imports neither torch nor ``training`` (the neural agents that
    need torch are built through the agent registry, only when asked for).
    ``tests/export/test_runtime.py`` runs it with both refused."""
    bad = [
        (str(path.relative_to(ROOT)), module)
        for path in _files(["mazzo/serve"])
        for module in _imports(path)
        if module.split(".")[0] == "torch" or _layer_of(module) == "training"
    ]
    assert not bad, bad


def test_every_module_has_a_docstring():
    for path in _files(["envs", "agents", "arena", "training", "mazzo"]):
        tree = ast.parse(path.read_text())
        assert ast.get_docstring(tree), f"{path} has no module docstring"


def _own_packages(game):
    """The places allowed to name ``game``: its packages in every layer, its env module, its seat
    tracker (``mazzo/serve/trackers/<game>.py`` and ``<game>_*.py``) and its own benchmarks
    and studies (``benchmarks/bench_<game>.py``, ``bench_<game>_*.py`` and
    ``study_<game>_*.py``)."""
    return (
        ROOT / "envs" / game,
        ROOT / "envs" / f"{game}_v0.py",
        ROOT / "agents" / game,
        ROOT / "mazzo" / "serve" / "trackers" / f"{game}.py",
        *sorted((ROOT / "mazzo" / "serve" / "trackers").glob(f"{game}_*.py")),
        ROOT / "benchmarks" / f"bench_{game}.py",
        *sorted((ROOT / "benchmarks").glob(f"bench_{game}_*.py")),
        *sorted((ROOT / "benchmarks").glob(f"study_{game}_*.py")),
    )


def _names_in_code(tree):
    """Every identifier and every non-docstring string constant of a module, with its line."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                yield node.lineno, node.value
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.alias):
            yield node.lineno, node.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module


LAYERS = ["envs", "agents", "arena", "training", "mazzo", "benchmarks"]


@pytest.mark.parametrize("path", list(_files(LAYERS)), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_game_is_named_outside_its_own_packages(path):
    """Code outside a game's packages (strings, names, imports; docstrings and comments may
    mention games) never names a game: it asks the registry."""
    allowed = {g for g in GAMES if any(path.is_relative_to(p) for p in _own_packages(g))}
    tree = ast.parse(path.read_text())
    found = [
        (line, text)
        for line, text in _names_in_code(tree)
        for game in GAMES
        if game not in allowed and game in text.lower()
    ]
    assert not found, f"{path.relative_to(ROOT)} names a game: {found}"


def test_the_game_name_check_catches_a_branch():
    tree = ast.parse('"""Docs may say minchiate."""\nif name == "minchiate":\n    pass\n')
    assert [t for _, t in _names_in_code(tree)] == ["name", "minchiate"]

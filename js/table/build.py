"""Build the static web table: mazzo's web table that plays the shipped bots in the browser, with
no mazzo server (js/README.md, "Static table").

    python js/table/build.py --out site/table             # exports the shipped bots itself
    python js/table/build.py --out DIR --bundle calabresella=bundles/cal \
        --bundle minchiate=bundles/min                     # exported already

The folder it writes works from any static file server (``python -m http.server -d DIR``):

- the web table's files (``mazzo/serve/static/``), its ``index.html`` with an import map for
  onnxruntime-web and the module ``mazzo-bot/table/setup.js``, which gives ``app.js`` a local
  transport (``window.MazzoTransport``) in place of the WebSocket ``/ws``;
- ``mazzo-bot/src/`` (the package) and ``mazzo-bot/table/`` (the local table server and the
  referees of Calabresella and Minchiate);
- ``ort/``: onnxruntime-web's WebAssembly build (``ort.wasm.min.mjs``, its ``.mjs`` loader and
  ``.wasm``) from ``js/node_modules``;
- ``bundles/<game>/``: each shipped bot (``mazzo export bot``), its ``manifest.json`` and
  ``policy.onnx`` only (what the browser reads);
- ``table.json``: the games' bots and where their bundles lie.

Needs ``js/node_modules`` (``cd js && npm ci``) and the shipped bots' checkpoints.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

JS = Path(__file__).resolve().parents[1]
ROOT = JS.parent
STATIC = ROOT / "mazzo" / "serve" / "static"
ORT = JS / "node_modules" / "onnxruntime-web" / "dist"
ORT_FILES = ("ort.wasm.min.mjs", "ort-wasm-simd-threaded.mjs", "ort-wasm-simd-threaded.wasm")
TABLE_FILES = ("setup.js", "local_server.js", "calabresella_referee.js", "minchiate_referee.js")
BUNDLE_FILES = ("manifest.json", "policy.onnx")
GAMES = ("calabresella", "minchiate")  # the games the local referees play
HEAD = (
    '<script type="importmap">{"imports": {"onnxruntime-web": "./ort/ort.wasm.min.mjs"}}</script>\n'
    '<script type="module" src="mazzo-bot/table/setup.js"></script>\n'
)
BOT_HELP = "the trained network (the shipped bot, run in this page): the strongest opponent here"
RANDOM_HELP = "uniformly random legal actions"


def export_bundle(game: str, out: Path) -> None:
    """``mazzo export bot --game game --out out`` (the shipped bot)."""
    cmd = [sys.executable, "-m", "mazzo", "export", "bot", "--game", game, "--out", str(out)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")


def build(out: Path, bundles: dict[str, Path] | None = None) -> Path:
    """Write the static table into ``out`` (emptied first); returns ``out``."""
    bundles = dict(bundles or {})
    missing = [f for f in ORT_FILES if not (ORT / f).is_file()]
    if missing:
        raise SystemExit(f"{ORT} lacks {', '.join(missing)}: run npm ci in {JS}")
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(STATIC, out, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    index = out / "index.html"
    html = index.read_text(encoding="utf-8")
    anchor = '<script src="cards.js"></script>'
    assert anchor in html, "mazzo/serve/static/index.html changed: no cards.js script"
    index.write_text(html.replace(anchor, HEAD + anchor, 1), encoding="utf-8")
    shutil.copytree(JS / "src", out / "mazzo-bot" / "src")
    shutil.copy2(JS / "package.json", out / "mazzo-bot" / "package.json")
    (out / "mazzo-bot" / "table").mkdir()
    for name in TABLE_FILES:
        shutil.copy2(JS / "table" / name, out / "mazzo-bot" / "table" / name)
    (out / "ort").mkdir()
    for name in ORT_FILES:
        shutil.copy2(ORT / name, out / "ort" / name)
    config: dict[str, object] = {"version": "mazzo static table", "bots": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            src = bundles.get(game)
            if src is None:
                src = Path(tmp) / game
                export_bundle(game, src)
            dest = out / "bundles" / game
            dest.mkdir(parents=True)
            for name in BUNDLE_FILES:
                shutil.copy2(src / name, dest / name)
            manifest = json.loads((src / "manifest.json").read_text(encoding="utf-8"))
            config["bots"][game] = [  # type: ignore[index]
                {"name": "bot", "help": BOT_HELP, "rules": manifest["flags"],
                 "bundle": f"bundles/{game}/"},
                {"name": "random", "help": RANDOM_HELP, "rules": None},
            ]  # fmt: skip
    (out / "table.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, type=Path, help="the folder to write (replaced)")
    parser.add_argument("--bundle", action="append", default=[], metavar="GAME=DIR",
                        help="a bundle exported already (default: mazzo export bot)")  # fmt: skip
    args = parser.parse_args(argv)
    bundles = {}
    for item in args.bundle:
        game, _, path = item.partition("=")
        bundles[game] = Path(path)
    out = build(args.out, bundles)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"wrote the static table to {out} ({size / 1e6:.1f} MB); serve it: "
          f"python -m http.server -d {out}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

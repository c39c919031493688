"""The bundle format of an exported bot, read without torch: ``load_bundle`` verifies the
format and every checksum before it opens the model; ``Bundle.check`` refuses a game, encoding
version, size or rules flag that differ from the ones given, naming the difference;
``Bundle.run`` evaluates the ONNX policy. The format is described in ``mazzo.agents.bundle``.

Imports numpy and onnxruntime (when a bundle is loaded); must not import torch or training/.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from mazzo.envs.cards.flags import flag_differences, resolved_flags
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame, get_game

__all__ = ["BUNDLE_FORMAT", "MANIFEST", "Bundle", "action_labels", "load_bundle", "sha256"]

BUNDLE_FORMAT = "mazzo-bundle/1"
MANIFEST = "manifest.json"
REQUIRED = {
    "format": str, "game": str, "encoding_version": int, "obs_size": int, "num_actions": int,
    "flags": dict, "onnx": dict, "files": dict,
}  # fmt: skip
KINDS = {str: "a string", int: "an integer", dict: "a JSON object"}


def action_labels(game: AnyGame, rules: RulesLike) -> list[str]:
    """The label of every action id outside any phase (card actions as ``card Xx``): those of a
    finished deal's state, where no verb applies."""
    state = game.new_state(game.deal_random(np.random.default_rng(0), rules), rules)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return [state.action_label(a) for a in range(game.info.num_actions)]


def sha256(path: Path) -> str:
    """The hex sha256 of the file at ``path``."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass(frozen=True)
class Bundle:
    """A loaded bundle: its folder, manifest and ONNX session.

    Attributes:
        path: the bundle folder.
        manifest: ``manifest.json``, as read.
        session: the ``onnxruntime.InferenceSession`` of ``policy.onnx``.
    """

    path: Path
    manifest: dict[str, Any]
    session: Any

    @property
    def game_name(self) -> str:
        return str(self.manifest["game"])

    @property
    def flags(self) -> dict[str, Any]:
        """The rules flags the policy was trained for (every flag, resolved)."""
        return dict(self.manifest["flags"])

    def game(self) -> AnyGame:
        """This mazzo's registration of the bundle's game. Raises ValueError if it has none."""
        try:
            return get_game(self.game_name)
        except ValueError as e:
            raise ValueError(f"{self.path}: {e}") from None

    def rules(self) -> RulesLike:
        """The game's ``Rules`` from the bundle's flags. Raises ValueError on a bad flag."""
        try:
            rules: RulesLike = self.game().rules(self.flags)
            return rules
        except ValueError as e:
            raise ValueError(f"{self.path}: the manifest's flags: {e}") from None

    def check(self, game: AnyGame | str, rules: RulesLike | None = None) -> None:
        """Refuse unless the bundle fits ``game`` (and, when given, ``rules``) of this mazzo.

        Raises:
            ValueError: the game, encoding version, observation size, action count or a rules
                flag differs; the message names each difference (bundle vs here).
        """
        game = get_game(game) if isinstance(game, str) else game
        m, info = self.manifest, game.info
        if m["game"] != game.name:
            raise ValueError(f"{self.path} is a bundle for {m['game']}, not for {game.name}")
        diffs = [
            f"{key} {m[key]} (here {mine})"
            for key, mine in (
                ("encoding_version", info.encoding_version),
                ("obs_size", info.obs_size),
                ("num_actions", info.num_actions),
            )
            if m[key] != mine
        ]
        if rules is not None:
            game.check_rules(rules)
            here = resolved_flags(rules)
            diffs += [
                f"flag {k!r} {m['flags'].get(k, 'absent')!r} (here {here.get(k, 'absent')!r})"
                for k, _, _ in flag_differences(m["flags"], here)
            ]
        if diffs:
            raise ValueError(f"{self.path} does not fit this {game.name}: " + "; ".join(diffs))

    def run(
        self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """(probs, masked logits), each ``(B, num_actions)``, for ``obs`` ``(B, obs_size)`` and
        ``mask`` ``(B, num_actions)`` (nonzero: legal)."""
        feed = {
            "obs": np.ascontiguousarray(obs, np.float32),
            "mask": np.ascontiguousarray(mask, np.int8),
        }
        probs, logits = self.session.run(["probs", "logits"], feed)
        return probs, logits

    def probs(
        self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]
    ) -> npt.NDArray[np.float32]:
        """The policy's action probabilities ``(B, num_actions)``, 0 on illegal actions."""
        return self.run(obs, mask)[0]


def load_bundle(path: str | Path, threads: int = 1) -> Bundle:
    """Read the bundle in folder ``path``: its manifest's format and fields, every file's sha256,
    then the ONNX model (on ``threads`` CPU threads) and its input and output names.

    Raises:
        ValueError: no such folder or manifest, another format, a missing field, a missing
            file or one whose checksum differs from the manifest's, a model that onnxruntime
            cannot open or whose inputs and outputs are not the manifest's.
    """
    path = Path(path)
    manifest = _read_manifest(path)
    for name, digest in manifest["files"].items():
        if not isinstance(name, str) or Path(name).name != name or name in (".", ".."):
            raise ValueError(f"{path}: {MANIFEST} lists {name!r}, not a file name of the bundle")
        file = path / name
        if not file.is_file():
            raise ValueError(f"{path}: missing {name} (listed in {MANIFEST})")
        if sha256(file) != digest:
            raise ValueError(f"{file}: sha256 differs from {MANIFEST}'s: the file was changed")
    onnx_file = manifest["onnx"].get("file")
    if onnx_file not in manifest["files"]:
        raise ValueError(f"{path}: {MANIFEST} names no checksummed ONNX file ({onnx_file!r})")
    return Bundle(path, manifest, _session(path / onnx_file, manifest, threads))


def _read_manifest(path: Path) -> dict[str, Any]:
    if not path.is_dir():
        raise ValueError(f"{str(path)!r} is not a bundle folder (no such directory)")
    try:
        manifest = json.loads((path / MANIFEST).read_text())
    except FileNotFoundError:
        raise ValueError(f"{path}: no {MANIFEST} (not a mazzo bundle)") from None
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: unreadable {MANIFEST} ({e})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != BUNDLE_FORMAT:
        got = manifest.get("format") if isinstance(manifest, dict) else manifest
        raise ValueError(f"{path}: {MANIFEST} format {got!r}, expected {BUNDLE_FORMAT!r}")
    for key, kind in REQUIRED.items():
        if not isinstance(manifest.get(key), kind) or isinstance(manifest.get(key), bool):
            raise ValueError(
                f"{path}: {MANIFEST} field {key!r} must be {KINDS[kind]}, got {manifest.get(key)!r}"
            )
    return manifest


def _session(file: Path, manifest: Mapping[str, Any], threads: int) -> Any:
    import onnxruntime as ort  # only here: the manifest checks need no runtime

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    try:
        session = ort.InferenceSession(str(file), options, providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own exception types for a bad model
        raise ValueError(f"{file}: onnxruntime cannot open it ({e})") from None
    got = (
        [i.name for i in session.get_inputs()],
        [o.name for o in session.get_outputs()],
    )
    want = (
        [i["name"] for i in manifest["onnx"].get("inputs", [])],
        [o["name"] for o in manifest["onnx"].get("outputs", [])],
    )
    if got != want or sorted(got[0]) != ["mask", "obs"] or sorted(got[1]) != ["logits", "probs"]:
        raise ValueError(f"{file}: inputs and outputs {got}, the manifest says {want}")
    return session

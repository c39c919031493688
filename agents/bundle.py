"""The torch-free runtime of an exported bot (``mazzo export``, ``mazzo.training.export``): load a
bundle folder, check it against this mazzo's game, and act with it.

A bundle holds ``manifest.json`` (format ``mazzo-bundle/1``: the game, its encoding version,
observation and action sizes, the rules flags the policy was trained for, the network, the ONNX
inputs and outputs, and the sha256 of every other file), ``policy.onnx`` (inputs ``obs``
float32 ``(B, obs_size)`` and ``mask`` int8 ``(B, num_actions)``; outputs ``probs``, the
masked softmax, exactly 0 on illegal actions, and ``logits``, masked with the float32
minimum), ``policy.pt`` (the same as TorchScript) and ``test_vectors.jsonl`` (see
``mazzo.agents.bundle_check``). ``load_bundle`` verifies the format and every checksum before it
opens the model; ``Bundle.check`` refuses a game, encoding version, size or rules flag that
differ from the ones given, naming the difference. ``BundleAgent`` acts like
``mazzo.agents.neural.NeuralAgent``: the most probable legal action by default, sampled on request.

``python -m mazzo.agents.bundle check DIR`` replays the bundle's test vectors with this mazzo
(``mazzo.agents.bundle_check``).

Imports numpy and onnxruntime; must not import torch or training/.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from mazzo.envs.cards.flags import flag_differences, resolved_flags
from mazzo.envs.protocols import AnyEncoder, RulesLike
from mazzo.envs.registry import AnyGame, get_game

__all__ = [
    "BUNDLE_FORMAT",
    "MANIFEST",
    "Bundle",
    "BundleAgent",
    "action_labels",
    "load_bundle",
    "sample_rows",
]

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


def sample_rows(probs: npt.NDArray[np.float32], rng: np.random.Generator) -> list[int]:
    """One action per row of ``probs``, drawn from ``rng`` (as ``NeuralAgent`` samples)."""
    cum = np.cumsum(probs.astype(np.float64), axis=1)
    u = rng.random(len(probs)) * cum[:, -1]
    picks = np.minimum((cum < u[:, None]).sum(axis=1), probs.shape[1] - 1)
    return [int(a) for a in picks]


class BundleAgent:
    """Acts with a bundle's policy on views encoded by this mazzo's encoder for the bundle's
    rules (checked against the bundle on construction).

    Args:
        bundle: the loaded bundle.
        sample: sample from the policy instead of taking its most probable legal action.

    Raises:
        ValueError: the bundle does not fit this mazzo's game (``Bundle.check``).
    """

    name = "onnx"
    foreign_rules = False  # set by the ``foreign_rules=true`` spec parameter

    def __init__(self, bundle: Bundle, sample: bool = False) -> None:
        game, rules = bundle.game(), bundle.rules()
        bundle.check(game, rules)
        self.bundle, self.sample = bundle, sample
        self.encoder: AnyEncoder = game.encoder(rules)
        self.trained_rules = rules  # the manifest's: mazzo.agents.trained_rules refuses others

    def act(self, view: Any, rng: np.random.Generator) -> int:
        return self.act_batch([view], rng)[0]

    def act_batch(self, views: Sequence[Any], rng: np.random.Generator) -> list[int]:
        n = len(views)
        obs = np.zeros((n, self.encoder.obs_size), np.float32)
        mask = np.zeros((n, self.encoder.num_actions), np.int8)
        self.encoder.encode_batch(views, obs, mask)
        probs, logits = self.bundle.run(obs, mask)
        if self.sample:
            return sample_rows(probs, rng)
        return [int(a) for a in logits.argmax(axis=1)]


if __name__ == "__main__":
    from mazzo.agents.bundle_check import main

    sys.exit(main())

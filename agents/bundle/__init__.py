"""The torch-free runtime of an exported bot (``mazzo export``, ``mazzo.training.export``): load
a bundle folder, check it against this mazzo's game, and act with it.

A bundle holds ``manifest.json`` (format ``mazzo-bundle/1``: the game, its encoding version,
observation and action sizes, the rules flags the policy was trained for, the network, the ONNX
inputs and outputs, and the sha256 of every other file), ``policy.onnx`` (inputs ``obs``
float32 ``(B, obs_size)`` and ``mask`` int8 ``(B, num_actions)``; outputs ``probs``, the
masked softmax, exactly 0 on illegal actions, and ``logits``, masked with the float32
minimum), ``policy.pt`` (the same as TorchScript) and ``test_vectors.jsonl`` (see
``mazzo.agents.bundle.check``). ``load_bundle`` verifies the format and every checksum before it
opens the model; ``Bundle.check`` refuses a game, encoding version, size or rules flag that
differ from the ones given, naming the difference. ``BundleAgent`` acts like
``mazzo.agents.neural.NeuralAgent``: the most probable legal action by default, sampled on request.

The runtime's modules: ``format`` (the manifest, ``load_bundle``, ``Bundle``), ``agent``
(``BundleAgent``, the ``onnx:`` agent), ``check`` (the self-check:
``python -m mazzo.agents.bundle check DIR`` replays the bundle's test vectors with this mazzo).
``mazzo export`` (``mazzo.training.export``) writes bundles in this format.

Imports numpy and onnxruntime; must not import torch or training/.
"""

from mazzo.agents.bundle.agent import BundleAgent, sample_rows
from mazzo.agents.bundle.format import (
    BUNDLE_FORMAT,
    MANIFEST,
    Bundle,
    action_labels,
    load_bundle,
    sha256,
)

__all__ = [
    "BUNDLE_FORMAT",
    "MANIFEST",
    "Bundle",
    "BundleAgent",
    "action_labels",
    "load_bundle",
    "sample_rows",
    "sha256",
]

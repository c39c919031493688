"""The shared bases' hooks (``raise NotImplementedError`` in ``CardGameAEC``,
``LayeredCardGameAEC`` and ``BitsEncoder``) are supplied by every registered game, and a class
that forgets one is told which hook and who supplies it."""

from __future__ import annotations

import ast
import importlib
import inspect

import pytest

from mazzo.envs.common import aec, encoder, layered
from mazzo.envs.registry import all_games


def hooks(module) -> dict[str, set[str]]:
    """Per class of ``module``: its methods whose body raises NotImplementedError."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.ClassDef):
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and any(
                    isinstance(s, ast.Raise)
                    and "NotImplementedError" in ast.unparse(s.exc or ast.Constant(None))
                    for s in ast.walk(fn)
                ):
                    out.setdefault(node.name, set()).add(fn.name)
    return out


BASES = {
    (aec, "CardGameAEC"): aec.CardGameAEC,
    (layered, "LayeredCardGameAEC"): layered.LayeredCardGameAEC,
    (encoder, "BitsEncoder"): encoder.BitsEncoder,
}


def test_the_bases_have_hooks_to_check():
    found = {(m, c): hooks(m).get(c, set()) for m, c in BASES}
    assert found[(layered, "LayeredCardGameAEC")] == {"_layered", "_start"}
    assert "obs_high" in found[(encoder, "BitsEncoder")]
    assert {"_finished_deals", "_teams"} <= found[(aec, "CardGameAEC")]


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_game_supplies_every_hook(game):
    env_cls = type(importlib.import_module(game.info.env_module).raw_env())
    enc_cls = type(game.encoder(game.rules()))
    for (module, name), base in BASES.items():
        cls = enc_cls if base is encoder.BitsEncoder else env_cls
        assert issubclass(cls, base), (game.name, name)
        for hook in hooks(module)[name]:
            assert getattr(cls, hook) is not getattr(base, hook), (game.name, name, hook)


def test_a_layered_env_without_its_hooks_names_them():
    class Bare(layered.LayeredCardGameAEC):  # type: ignore[type-arg]
        pass

    bare = object.__new__(Bare)
    with pytest.raises(
        NotImplementedError, match=r"Bare must supply the layered-env hook _layered"
    ):
        bare._layered()
    with pytest.raises(NotImplementedError, match=r"Bare must supply the layered-env hook _start"):
        bare._start(None, {})  # type: ignore[arg-type]
    with pytest.raises(NotImplementedError, match=r"Bare must supply the CardGameAEC hook _teams"):
        bare._teams()


def test_an_encoder_without_obs_high_names_it():
    class Bare(encoder.BitsEncoder):  # type: ignore[type-arg]
        pass

    with pytest.raises(NotImplementedError, match=r"Bare must supply obs_high"):
        Bare().obs_high()

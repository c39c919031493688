"""The games' compiled encoders (``envs/<game>/_cencode.c``): built and in use in this install,
equal to the Python reference on long random runs of the vector runner (observations and masks,
every seat's view, matches and series included through test_encoder.py's frozen comparisons),
never writing outside the rows they are given, rejecting malformed views with a clear error, and
switched off by ``MAZZO_PURE_PYTHON``."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from mazzo.envs.common.compiled import load_compiled, pure_python_requested
from mazzo.envs.registry import all_games
from mazzo.envs.vector import VectorRunner

from .variants import cases, random_views, variant_id

GAMES = all_games()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_compiled_encoder_is_built_and_used(game):
    """``pip install -e .`` builds it (setup.py); a failed build would fall back silently, so
    the suite says so here, unless MAZZO_PURE_PYTHON asks for the Python code."""
    enc = game.encoder(game.rules())
    if pure_python_requested():
        assert not enc.accelerated
    else:
        assert enc.accelerated, (
            f"envs/{game.name}/_cencode.c is not built: reinstall with a C compiler and the "
            "Python headers (pip install -e .), or set MAZZO_PURE_PYTHON=1 to test the Python "
            "encoders alone"
        )
    ref = enc.reference()
    assert not ref.accelerated and ref.obs_size == enc.obs_size
    assert enc.accelerated == (not pure_python_requested())  # reference() left enc as it was


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_compiled_rows_equal_the_reference_along_random_runs(game):
    """Every step of 64 engines under random legal actions for 400 steps (about 25,000 views,
    deals redealt as they end): the compiled batch and the Python batch are byte-equal, and
    the rows around the batch are left as they were."""
    runner = VectorRunner(game, 64, seed=11)
    enc, ref = runner.encoder, runner.encoder.reference()
    rng = np.random.default_rng(11)
    batch = runner.reset()
    for _ in range(400):
        views = runner.views()
        want_obs = np.empty((66, enc.obs_size), np.float32)
        want_mask = np.empty((66, enc.num_actions), np.int8)
        ref.encode_batch(views, want_obs, want_mask)
        obs = np.full((66, enc.obs_size), -3.0, np.float32)
        mask = np.full((66, enc.num_actions), 9, np.int8)
        enc.encode_batch(views, obs, mask)
        assert obs[:64].tobytes() == want_obs[:64].tobytes()
        assert np.array_equal(mask[:64], want_mask[:64])
        assert (obs[64:] == -3.0).all() and (mask[64:] == 9).all()
        noise = rng.random(batch.mask.shape, np.float32) + 1
        batch = runner.step((noise * batch.mask).argmax(axis=1))


@pytest.mark.parametrize(
    ("name", "flags"), cases(), ids=lambda c: variant_id(c) if isinstance(c, dict) else c
)
def test_compiled_rows_equal_the_reference_in_every_variant(name, flags):
    game = next(g for g in GAMES if g.name == name)
    rules = game.rules(flags)
    enc = game.encoder(rules)
    views = list(random_views(game, rules, 2, seed=len(variant_id(flags)) * 31 + 5))
    want = np.empty((len(views), enc.obs_size), np.float32)
    enc.reference().encode_batch(views, want)
    got = np.empty_like(want)
    enc.encode_batch(views, got)
    assert got.tobytes() == want.tobytes()
    row = np.empty(enc.obs_size, np.float32)
    for v, w in zip(views[::7], want[::7], strict=True):
        enc.encode_into(v, row)
        assert row.tobytes() == w.tobytes()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_outputs_the_compiled_encoder_cannot_write_take_the_python_path(game):
    """A strided (non-contiguous) array, a row of a Fortran-order array and a float64 row are
    written by the Python code, with the same entries."""
    rules = game.rules()
    enc = game.encoder(rules)
    views = list(random_views(game, rules, 1, seed=3))[:6]
    want = np.empty((6, enc.obs_size), np.float32)
    enc.reference().encode_batch(views, want)
    strided = np.zeros((12, enc.obs_size), np.float32)[::2]
    enc.encode_batch(views, strided)
    assert np.array_equal(strided, want)
    fortran = np.zeros((6, enc.obs_size), np.float32, order="F")
    enc.encode_batch(views, fortran)
    assert np.array_equal(fortran, want)
    row64 = np.zeros(enc.obs_size, np.float64)
    enc.encode_into(views[0], row64)
    assert np.array_equal(row64, want[0])


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_malformed_views_raise_instead_of_writing_out_of_the_row(game):
    """The compiled encoder's errors name the field. (The Python code, which runs under
    MAZZO_PURE_PYTHON, fails on the last three in its own words; a too-wide hand spills into
    the next blocks there, as ``hand << offset`` does.)"""
    rules = game.rules()
    enc = game.encoder(rules)
    view = next(iter(random_views(game, rules, 1, seed=2)))
    obs = np.zeros((2, enc.obs_size), np.float32)
    guard = obs[1].copy()
    cases = {
        "hand": (1 << 300, OverflowError, False),  # wider than any mask
        "played_by": (view.played_by[:1], TypeError, True),  # too few seats
        "phase": (10**6, ValueError, True),  # a bit far past the binary part
        "trick": (("x",), TypeError, True),
    }
    for field, (bad, error, python_raises) in cases.items():
        broken = view._replace(**{field: bad})
        if enc.accelerated:
            with pytest.raises(error, match=field):
                enc.encode_batch([broken], obs)
        elif python_raises:
            with pytest.raises((TypeError, ValueError, IndexError, OverflowError)):
                enc.encode_batch([broken], obs)
        assert np.array_equal(obs[1], guard)
    if enc.accelerated:
        with pytest.raises(TypeError, match="InfoView"):
            enc.encode_batch([tuple(view)[:-1]], obs)


def test_load_compiled_names_a_layout_value_the_module_needs(monkeypatch):
    monkeypatch.delenv("MAZZO_PURE_PYTHON", raising=False)
    game = GAMES[0]
    with pytest.raises(KeyError, match="N_BINARY"):
        load_compiled(f"mazzo.envs.{game.name}._cencode", {"OBS_SIZE": 1})
    assert load_compiled("envs.no_such_game._cencode", {}) is None


def test_mazzo_pure_python_switches_the_compiled_encoders_off():
    code = (
        "from mazzo.envs.registry import all_games\n"
        "print(sorted((g.name, g.encoder(g.rules()).accelerated) for g in all_games()))"
    )
    env = {**os.environ, "MAZZO_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == str(sorted((g.name, False) for g in GAMES))

"""The games' ``Encoder`` classes: bit-for-bit equal to the frozen encoder of version 1 (scale
passed by hand) on random views of every flag variant, in matches and series too, both the
compiled encoder and the Python reference (``enc.reference()``); batch encoding equal to row
encoding and ``encode_into``; masks equal to the views' legal masks; clear errors for badly
shaped outputs."""

from __future__ import annotations

import numpy as np
import pytest

from mazzo.envs import calabresella_v0, minchiate_v0
from mazzo.envs.calabresella import encode as calabresella_encode
from mazzo.envs.common.arrays import bits_to_rows, mask_to_int8
from mazzo.envs.minchiate import encode as minchiate_encode
from mazzo.envs.protocols import Encoder
from mazzo.envs.registry import all_games, get_game

from . import _frozen_calabresella_v1 as frozen_c
from . import _frozen_minchiate_v1 as frozen_m
from .variants import cases, random_views, variant_id

DEALS = {"calabresella": 12, "minchiate": 3}


def frozen(name: str, view) -> np.ndarray:
    if name == "calabresella":
        return frozen_c.encode(view, view.rules.target)
    return frozen_m.encode(view, view.rules.resti_unit)


@pytest.mark.parametrize(
    ("name", "flags"), cases(), ids=lambda c: variant_id(c) if isinstance(c, dict) else c
)
def test_equal_to_the_frozen_version_1_and_batch_equals_rows(name, flags):
    game = get_game(name)
    rules = game.rules(flags)
    views = list(random_views(game, rules, DEALS[name], seed=len(variant_id(flags)) * 7919))
    for enc in (game.encoder(rules), game.encoder(rules).reference()):
        assert_rows_and_batches_equal_frozen(name, enc, views)


def assert_rows_and_batches_equal_frozen(name: str, enc: Encoder, views: list) -> None:
    rows = np.stack([enc.encode(v) for v in views])
    want = np.stack([frozen(name, v) for v in views])
    assert rows.dtype == np.float32 and rows.tobytes() == want.tobytes()
    obs = np.full((len(views) + 3, enc.obs_size), -7.0, np.float32)
    masks = np.full((len(views) + 3, enc.num_actions), 5, np.int8)
    enc.encode_batch(views, obs, masks)
    assert obs[: len(views)].tobytes() == want.tobytes() and (obs[len(views) :] == -7).all()
    want_masks = np.stack([mask_to_int8(v.legal_mask, enc.num_actions) for v in views])
    assert np.array_equal(masks[: len(views)], want_masks) and (masks[len(views) :] == 5).all()
    row = np.empty(enc.obs_size, np.float32)
    for v, w in zip(views[::17], want[::17], strict=True):
        enc.encode_into(v, row)
        assert row.tobytes() == w.tobytes()


def test_calabresella_match_totals_are_scaled_by_the_views_target():
    for target in (13, 21):
        env = calabresella_v0.raw_env(match=True, target=target)
        env.reset(seed=target)
        rng = np.random.default_rng(target)
        seen, views = 0, []
        while True:
            for seat in range(env.rules.players):
                v = env.game.info_view(seat)
                got = calabresella_encode.encode(v)
                assert got.tobytes() == frozen_c.encode(v, target).tobytes()
                seen += any(v.totals)
                views.append(v)
            if all(env.terminations.values()):
                break
            env.step(int(rng.choice(env.game.legal_actions())))
        assert seen  # some views carried nonzero totals
        assert_batch_equals_frozen(calabresella_encode.ENCODER, views, target)
        assert_batch_equals_frozen(calabresella_encode.ENCODER.reference(), views, target)


def test_minchiate_series_and_resti_unit_scale_like_the_frozen_encoder():
    env = minchiate_v0.raw_env(deals=3, resti_unit=20)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    series_seen, seen = 0, []
    while not all(env.terminations.values()):
        views = [env.game.info_view(seat) for seat in range(4)]
        for v in views:
            assert minchiate_encode.encode(v).tobytes() == frozen_m.encode(v, 20).tobytes()
            series_seen += v.series_resti != 0
        seen += views
        env.step(int(rng.choice(env.game.legal_actions())))
    assert series_seen
    assert_batch_equals_frozen(minchiate_encode.ENCODER, seen, 20)
    assert_batch_equals_frozen(minchiate_encode.ENCODER.reference(), seen, 20)


def assert_batch_equals_frozen(enc: Encoder, views: list, scale: int) -> None:
    """Batch encoding (its scalars joined as remembered float32 bytes) equals the frozen rows,
    also on a second pass that reads every remembered value back."""
    calabresella = enc.obs_size == calabresella_encode.OBS_SIZE
    encode = frozen_c.encode if calabresella else frozen_m.encode
    want = np.stack([encode(v, scale) for v in views])
    for _ in range(2):
        obs = np.zeros((len(views), enc.obs_size), np.float32)
        enc.encode_batch(views, obs)
        assert obs.tobytes() == want.tobytes()


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_encoder_describes_the_registered_layout(game):
    enc = game.encoder(game.rules())
    assert (enc.version, enc.obs_size, enc.num_actions) == (
        game.info.encoding_version,
        game.info.obs_size,
        game.info.num_actions,
    )
    high = enc.obs_high()
    assert high.shape == (enc.obs_size,) and high.dtype == np.float32
    high[0] = -1  # a copy each time
    assert enc.obs_high()[0] == 1
    enc.encode_batch([], np.empty((0, enc.obs_size), np.float32))  # an empty batch is fine


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_encode_batch_rejects_badly_shaped_outputs(game):
    rules = game.rules()
    enc = game.encoder(rules)
    views = list(random_views(game, rules, 1, seed=1))[:5]
    with pytest.raises(ValueError, match=r"obs must be an array of shape \(>= 5, "):
        enc.encode_batch(views, np.empty((4, enc.obs_size), np.float32))
    with pytest.raises(ValueError, match="obs must be"):
        enc.encode_batch(views, np.empty((5, enc.obs_size + 1), np.float32))
    with pytest.raises(ValueError, match="masks must be"):
        enc.encode_batch(views, np.empty((5, enc.obs_size), np.float32), np.empty((5, 3), np.int8))


def test_bits_to_rows_unpacks_each_int_into_its_row():
    ints = [0, 1, (1 << 70) | 5, (1 << 71) - 1]
    rows = bits_to_rows(ints, 71)
    assert rows.shape == (4, 71)
    for i, b in enumerate(ints):
        assert [int(x) for x in rows[i]] == [b >> j & 1 for j in range(71)]
    assert bits_to_rows([], 9).shape == (0, 9)

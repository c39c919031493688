"""mazzo's data found by name (``mazzo.recipes``): the recipes under ``configs/`` for ``mazzo
train NAME`` and the committed deal sets for ``--deals NAME``, from a clone here and from the
installed wheel in ``tests/extras``; and the wheel's package data declares them."""

import tomllib
from pathlib import Path

import pytest

from mazzo.recipes import CONFIGS, DEALS, find_config, find_deals
from tests.cli_runner import ROOT, run_cli


def test_the_data_folders_are_the_repositorys():
    assert CONFIGS.resolve() == ROOT / "configs" and DEALS.resolve() == ROOT / "configs" / "deals"


@pytest.mark.parametrize("name", ["calabresella_quick", "calabresella_quick.toml"])
def test_a_recipe_is_found_by_name_from_any_folder(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert find_config(name).resolve() == ROOT / "configs" / "calabresella_quick.toml"


@pytest.mark.parametrize(
    "name", ["history/minchiate_expert_round2", "history/minchiate_distill.toml"]
)
def test_a_run_of_the_history_is_found_by_its_folder_and_name(name, tmp_path, monkeypatch):
    """The one-off runs behind earlier bots stay reachable from any folder (their cards name
    them), under ``history/``; a bare name finds the recipes only."""
    monkeypatch.chdir(tmp_path)
    expected = ROOT / "configs" / "history" / (Path(name).stem + ".toml")
    assert find_config(name).resolve() == expected
    with pytest.raises(ValueError, match="neither a file nor a recipe"):
        find_config("minchiate_expert_round2")


def test_a_file_wins_over_a_recipe_of_the_same_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    own = tmp_path / "calabresella_quick.toml"
    own.write_text('algorithm = "ppo"\ngame = "calabresella"\n')
    assert find_config("calabresella_quick.toml") == Path("calabresella_quick.toml")


def test_an_unknown_recipe_is_refused_with_the_names_there_are(tmp_path):
    out = run_cli("train", "calabresella_quik", cwd=tmp_path)
    assert out.returncode == 2
    assert "config 'calabresella_quik' is neither a file nor a recipe" in out.stderr
    assert "did you mean 'calabresella_quick'?" in out.stderr
    assert "minchiate_exit" in out.stderr and "Traceback" not in out.stderr


def test_a_committed_deal_set_is_found_by_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    found = Path(find_deals("minchiate-2000-s1"))
    assert found.resolve() == ROOT / "configs" / "deals" / "minchiate-2000-s1.jsonl"
    assert find_deals("no-such-set") == "no-such-set"  # the reader refuses it, naming it
    out = run_cli("eval", "random", "random", "--deals", "calabresella-2000-s1", "--n", "2",
                  "--workers", "1", cwd=tmp_path)  # fmt: skip
    assert out.returncode == 0, out.stderr


def test_the_wheel_declares_what_the_jobs_need():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    declared = data["package-data"]["mazzo"]
    for pattern in ("checkpoints/*/model.pt", "checkpoints/*/belief/*", "checkpoints/*/v1/*",
                    "checkpoints/*/rules/*/*",
                    "configs/*.toml", "configs/deals/*.jsonl"):  # fmt: skip
        assert pattern in declared
    assert "docs/encoding.md" in declared  # copied into every exported bundle
    for link in ("checkpoints", "configs", "docs", "envs", "agents", "training"):
        assert (ROOT / "mazzo" / link).resolve() == ROOT / link

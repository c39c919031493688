"""``mazzo.agents.processes.torch_safe_context``: a forkserver that preloads the modules asked for,
and ``spawn`` where the platform has no forkserver; a worker from it runs with torch loaded."""

import multiprocessing
import multiprocessing.forkserver as forkserver

import pytest

from mazzo.agents.processes import torch_safe_context


def _torch_threads() -> int:
    import torch

    return torch.get_num_threads()


def test_a_forkserver_that_preloads_the_modules(monkeypatch):
    monkeypatch.setattr(forkserver._forkserver, "_preload_modules", ["__main__"])
    ctx = torch_safe_context(["torch", "mazzo.training.rl.actors"])
    assert ctx.get_start_method() == "forkserver"
    assert forkserver._forkserver._preload_modules == ["torch", "mazzo.training.rl.actors"]


def test_spawn_where_there_is_no_forkserver(monkeypatch):
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    assert torch_safe_context(["torch"]).get_start_method() == "spawn"


@pytest.mark.parametrize("preload", [["torch"], []])
def test_workers_from_it_run(preload):
    with torch_safe_context(preload).Pool(1) as pool:
        assert pool.apply(_torch_threads) >= 1

"""The notebooks (``notebooks/*.py``, jupytext's py:percent) run top to bottom in a real Jupyter
kernel (nbclient) at CI's budget (``MAZZO_NOTEBOOK_SCALE=ci``): every cell executes without an
error (each notebook asserts what it shows), the plots are rendered as images, and each
notebook reads its budget from one cell tagged ``parameters``."""

from __future__ import annotations

from pathlib import Path

import jupytext
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
EXPECTED = ["01_quickstart.py", "02_train_and_evaluate.py", "03_strategy.py"]


def test_the_three_notebooks_are_there():
    assert [p.name for p in NOTEBOOKS] == EXPECTED


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_one_parameters_cell_reads_the_scale(path):
    nb = jupytext.read(path)
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1
    assert "MAZZO_NOTEBOOK_SCALE" in tagged[0].source
    assert nb.metadata["kernelspec"]["name"] == "python3"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_notebook_runs_top_to_bottom(path, monkeypatch):
    monkeypatch.setenv("MAZZO_NOTEBOOK_SCALE", "ci")
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel's inline backend
    nb = jupytext.read(path)
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()  # raises CellExecutionError naming the cell and the error
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code)
    images = sum(
        1 for c in code for out in c.get("outputs", []) if "image/png" in out.get("data", {})
    )
    assert images >= 1, "the notebook's plots were not rendered"

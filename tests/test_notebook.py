"""reports/quickstart.ipynb runs top to bottom (small N) and shows tables and figures."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "reports" / "quickstart.ipynb"


def test_quickstart_notebook_runs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # the kernel runs in the repository root, so it imports this checkout's montecards (as a
    # user opening the notebook from a clone would); the notebook writes no files
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    html = [o for o in outputs if "text/html" in o.get("data", {})]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert html, "results should display as tables"
    assert len(images) >= 5, "figures should display inline"


def test_your_strategy_notebook_runs():
    """reports/your_strategy.ipynb: a strategy written in the notebook, run against greedy, a
    matchup with intervals and a weight sweep (scripts/make_strategy_notebook.py writes it)."""
    nb = nbformat.read(ROOT / "reports" / "your_strategy.ipynb", as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(str(o.get("data", {}).get("text/plain", "")) + o.get("text", "") for o in outputs)
    assert "fewest" in text and "greedy" in text
    assert [o for o in outputs if "image/png" in o.get("data", {})], "the sweep should plot inline"

"""docs/tuning.md: every example runs as written (only smaller budgets) and finds what it says."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs_examples import (
    SMALLER,
    command_lines,
    python_blocks,
    run_command,
    smaller_code,
    smaller_command,
    workspace,
)

DOC = Path(__file__).resolve().parent.parent / "docs" / "tuning.md"
TEXT = DOC.read_text()


def test_the_python_example_runs():
    code = [c for c in python_blocks(TEXT) if 'backend="dask"' not in c]
    assert len(code) == 1
    scope: dict = {}
    exec(compile(smaller_code(code[0]), str(DOC), "exec"), scope)
    res = scope["res"]
    assert res.method == "cma" and res.holdout["deals"] == int(SMALLER["holdout=2_000"].split("=")[1])
    assert res.label.startswith("weighted[")
    assert scope["mc"].simulate("parade", n=200, strategies=[res.label, "greedy"], seed=2).n_games == 200


def test_every_command_runs(tmp_path):
    folder = workspace(tmp_path, {})
    lines = command_lines(TEXT)
    assert len(lines) >= 4
    outputs = []
    for line in lines:
        out = run_command(smaller_command(line), folder)
        assert out.returncode == 0, (line, out.stderr[-2000:])
        assert "held out" in out.stdout, line
        outputs.append(out.stdout)
    assert (folder / "tulips-tune.png").stat().st_size > 10_000
    # the checkpoint the third line asked for: the same command again resumes from it, to the
    # same numbers (all but the first line, which has the time taken)
    with_checkpoint = next(k for k, line in enumerate(lines) if "--checkpoint" in line)
    assert (folder / "run.npz").exists()
    again = run_command(smaller_command(lines[with_checkpoint]), folder)
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stdout.split("\n", 1)[1] == outputs[with_checkpoint].split("\n", 1)[1]


@pytest.mark.skipif(os.cpu_count() is None or os.cpu_count() < 2, reason="a 2-worker cluster")
def test_the_dask_example_runs_as_a_script(tmp_path):
    pytest.importorskip("distributed")
    code = [c for c in python_blocks(TEXT) if 'backend="dask"' in c]
    assert len(code) == 1 and 'if __name__ == "__main__":' in code[0]
    (tmp_path / "run.py").write_text(smaller_code(code[0]))
    env = {**os.environ, "MONTECARDS_NO_PROGRESS": "1", "PYTHONPATH": str(DOC.parent.parent)}
    out = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=1800)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "held out" in out.stdout and "Nanny failed" not in out.stderr


def test_the_shipped_tuned_weights_are_the_records():
    """Every ``tuned`` built-in plays exactly the winner its tuning record names."""
    import montecards as mc

    for record in sorted((DOC.parent / "tuning").glob("*.json")):
        data = json.loads(record.read_text())
        spec = mc.get_game(data["game"])
        assert spec.seat_params["tuned"].default == tuple(data["best"]), record.name
        assert data["holdout"]["low"] > 1 / data["players"], record.name


def test_parades_page_quotes_tuned_as_measured():
    """docs/strategies/parade.md's figures for ``tuned`` against greedy: the tuning record's
    held-out share, and the documented simulate line's share with its interval."""
    import montecards as mc

    page = " ".join((DOC.parent / "strategies" / "parade.md").read_text().split())
    record = json.loads((DOC.parent / "tuning" / "parade.json").read_text())["holdout"]
    held = f"{100 * record['share']:.2f} % [{100 * record['low']:.2f} %, {100 * record['high']:.2f} %]"
    assert held in page
    assert "montecards simulate parade -s tuned -s greedy -n 20000 --seed 1" in page
    res = mc.simulate("parade", n=20_000, strategies=["tuned", "greedy"], seed=1)
    share, (low, high) = res.win_share[0], res.win_share_ci95[0]
    assert f"{100 * share:.2f} % [{100 * low:.2f} %, {100 * high:.2f} %]" in page
    assert "for now the same" not in page

"""docs/strategies.md: every example runs as written (only fewer games), and its sizes are the
games' own."""

import os
import sys
from importlib import import_module
from pathlib import Path

import pytest

from tests.docs_examples import (
    command_lines,
    python_blocks,
    run_command,
    smaller_code,
    smaller_command,
    workspace,
)

DOC = Path(__file__).resolve().parent.parent / "docs" / "strategies.md"
TEXT = DOC.read_text()


def _my_parade() -> str:
    found = [c for c in python_blocks(TEXT) if c.startswith("# my_parade.py")]
    assert len(found) == 1
    return found[0]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """The reader's folder: my_parade.py from the page, the same as an importable package
    (``mypackage.strategies``), and the repository's examples/."""
    code = _my_parade()
    path = workspace(tmp_path, {"my_parade.py": code, "mypackage/__init__.py": "",
                                "mypackage/strategies.py": code})
    monkeypatch.chdir(path)
    monkeypatch.syspath_prepend(str(path))
    yield path
    sys.modules.pop("my_parade", None)


def test_every_python_example_runs(folder):
    """The blocks in page order, in one namespace as a reader's session (the how-to's file is
    written, not run; the Dask example is a script: next test)."""
    scope: dict = {"__name__": "docs"}
    ran = 0
    for code in python_blocks(TEXT):
        if code.startswith("# my_parade.py") or 'backend="dask"' in code:
            continue
        exec(compile(smaller_code(code), str(DOC), "exec"), scope)
        ran += 1
    assert ran >= 4
    res = scope["res"]  # the how-to's last run: my strategy against greedy
    assert res.to_dict()["strategies"][0].endswith(":choose")
    assert abs(sum(res.to_dict()["win_share"]) - 1) < 1e-9


def test_every_command_runs(folder):
    lines = command_lines(TEXT)
    assert len(lines) >= 6
    for line in lines:
        out = run_command(smaller_command(line), folder)
        assert out.returncode == 0, (line, out.stderr[-2000:])
        assert out.stdout.strip(), line


@pytest.mark.skipif(os.cpu_count() is None or os.cpu_count() < 2, reason="a 2-worker cluster")
def test_the_dask_example_runs_as_a_script(folder):
    """Run as ``python run.py``: the guard keeps the workers (which import the script again)
    from starting the run themselves."""
    pytest.importorskip("distributed")
    code = [c for c in python_blocks(TEXT) if 'backend="dask"' in c]
    assert len(code) == 1 and 'if __name__ == "__main__":' in code[0]
    (folder / "run.py").write_text(smaller_code(code[0]))
    env = {**os.environ, "MONTECARDS_NO_PROGRESS": "1",
           "PYTHONPATH": os.pathsep.join([str(DOC.parent.parent), str(folder)])}
    import subprocess

    out = subprocess.run([sys.executable, "run.py"], cwd=folder, env=env, capture_output=True,
                         text=True, timeout=1800)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "my_parade.py:choose" in out.stdout and "Nanny failed" not in out.stderr


def test_the_sizes_are_the_games_own():
    for game, title in (("parade", "Parade"), ("tulips", "Gift of Tulips"), ("marbles", "Joker Marbles"),
                        ("wigout", "Wig Out!")):
        section = TEXT.split(f"### {title}")[1].split("### ")[0]
        view = import_module(f"montecards.games.{game}.view")
        assert f"OBS_SIZE = {view.OBS_SIZE}" in section, game
        assert f"MAX_LEGAL = {view.MAX_LEGAL}" in section, game


def test_the_speed_table_is_the_recorded_benchmark():
    """The figures quoted under "What to expect" are those of the newest
    benchmarks/history/user-strategies entry (rounded as printed)."""
    import json

    folder = DOC.parent.parent / "benchmarks" / "history" / "user-strategies"
    newest = sorted(folder.glob("*.json"))[-1]
    results = {r["game"]: r for r in json.loads(newest.read_text())["results"]}
    assert newest.name[:10] in TEXT
    for game, title in (("parade", "Parade"), ("tulips", "Gift of Tulips"), ("marbles", "Joker Marbles"),
                        ("wigout", "Wig Out!")):
        row = next(line for line in TEXT.splitlines() if line.startswith(f"  | {title} ("))
        assert f"| {results[game]['ratio']:.2f} |" in row, (game, row)

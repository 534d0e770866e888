"""The analysis commands as a user runs them: report --quick, seats/compare/sweep --json,
and bad inputs (one line on stderr, exit status 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from montecards.report.verdicts import unsupported_verdicts
from tests.inprocess import run_main

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run(*args: str) -> subprocess.CompletedProcess:
    """The command in this process — a subprocess per command would reload numba's cache each time."""
    return run_main(*args)


def run_subprocess(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "montecards", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env={"MONTECARDS_NO_PROGRESS": "1", "PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg",
             **{k: os.environ[k] for k in ("PYTHONPATH", "HOME") if k in os.environ}},
    )


def test_report_quick_writes_readme_and_figures(tmp_path):
    out = run_subprocess("report", "parade", "-o", str(tmp_path), "--quick", "-j", "2")
    assert out.returncode == 0, out.stderr
    readme = (tmp_path / "README.md").read_text()
    assert "montecards report parade" in readme and "seed 20240607" in readme and "montecards 0.1.0" in readme
    assert "## Run sizes" in readme and "## Answers at every strength" in readme
    assert "### Seat advantage" in readme
    assert "## In short" in readme and "Top rung against bottom rung" in readme
    assert readme.count("## Findings") == 0  # each finding printed once, in its section
    record = json.loads((tmp_path / "provenance.json").read_text())  # the command as typed
    assert record["command"] == f"montecards report parade -o {tmp_path} --quick -j 2"
    assert unsupported_verdicts(readme) == []  # every verdict word backed by its interval
    # the designer section (report/designer.py): each imbalance named with its numbers, the search's
    # table, the held-out check and a verdict, for every player count 3-6
    designer = readme[readme.index("## Rules a designer could change"):]
    for p in (3, 4, 5, 6):
        assert f"### {p - 2}. The first seat at {p} players" in designer
        assert f"**Verdict (the first seat at {p} players" in designer
    assert designer.count("**Found:** in the seat runs above") == 4 and "% ± " in designer
    assert designer.count("Official rules: on 200 held-out deals") == 4
    assert "montecards balance parade -p 3 --vary opening_parade=0/1/2/3" in designer
    data = json.loads((tmp_path / "data.json").read_text())
    assert [d["players"] for d in data["facts"]["designer"]] == [[3], [4], [5], [6]]
    assert sum(r["analysis"].startswith("rules search: the first seat at") for r in data["run_sizes"]) >= 4
    assert record["wall_seconds"] > 0 and record["cpu_seconds"] > 0 and len(record["kernel_hash"]) == 64
    pngs = sorted(tmp_path.glob("*.png"))
    assert len(pngs) >= 5
    for png in pngs:
        assert png.read_bytes()[:8] == PNG_MAGIC
        assert f"]({png.name})" in readme


def test_seats_json_and_precision():
    out = run("seats", "parade", "-p", "2", "-p", "3", "-n", "1000", "--seed", "3", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["analysis"] == "seats" and set(d["players"]) == {"2", "3"}
    assert d["players"]["3"]["n_games"] == 1000 and len(d["players"]["3"]["win_share_ci95"]) == 3
    out = run("seats", "parade", "-p", "2", "--precision", "0.03", "--seed", "3")
    assert out.returncode == 0, out.stderr
    assert "precision ±0.03 reached after" in out.stdout


def test_compare_matchups_and_variants_json(tmp_path):
    out = run(
        "compare",
        "parade",
        "-s",
        "random",
        "-s",
        "greedy",
        "-n",
        "300",
        "--seed",
        "1",
        "--json",
        "--plot",
        str(tmp_path / "m.png"),
    )
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["analysis"] == "matchups" and d["transitive"] and len(d["matchups"]) == 2
    assert (tmp_path / "m.png").read_bytes()[:8] == PNG_MAGIC
    out = run(
        "compare",
        "parade",
        "--variant",
        "two_player_margin=2",
        "--variant",
        "two_player_margin=1",
        "-n",
        "300",
        "--seed",
        "1",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["analysis"] == "variants" and d["baseline"] == "two_player_margin=2"
    assert {r["quantity"] for r in d["differences"]} >= {"win_0", "score_0", "turns", "six_colours"}
    out = run("compare", "parade", "-s", "random", "-s", "greedy", "-n", "200", "--seed", "1")
    assert out.returncode == 0 and "win share of row strategy" in out.stdout


def test_sweep_json_and_table():
    out = run("sweep", "parade", "two_player_margin", "0", "1", "2", "-n", "300", "--seed", "2", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["analysis"] == "sweep" and d["x"] == [0.0, 1.0, 2.0]
    out = run("sweep", "parade", "two_player_margin", "0", "2", "-n", "200", "--seed", "2")
    assert out.returncode == 0 and "seat 1 win share" in out.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("sweep", "parade", "bogus", "1", "2"), "unknown parameter 'bogus'"),
        (("sweep", "parade", "two_player_margin"), "at least one value"),
        (("sweep", "parade", "two_player_margin", "9"), "must be one of"),
        (("compare", "parade", "-s", "greedy"), "at least 2 different"),
        (("compare", "parade", "--variant", "two_player_margin=1"), "at least 2 --variant"),
        (("compare", "parade", "-s", "greedy", "-s", "nope"), "unknown strategy"),
        (("compare", "parade", "-s", "greedy", "-s", "random", "--n-for", "rollout"), "--n-for"),
        (("seats", "parade", "-p", "8"), "2 to 6 players"),
        (("seats", "parade", "--precision", "0"), "precision"),
        (("report", "nosuchgame", "--quick"), "unknown game"),
        (("report", "parade", "--html"), "--html builds the site from the existing reports"),
        (("report",), "missing GAME"),
        (("seats", "parade", "--plot", "x.txt", "-n", "10"), "--plot must end in .png"),
    ],
)
def test_bad_inputs_one_line_exit_2(args, message):
    click_output = args[:1] != ("report",)  # (one of them as a real process below)
    out = run(*args) if click_output else run_subprocess(*args)
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in out.stderr

"""The maintenance scripts in scripts/: the commands they run, their errors, their exit status."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from montecards.games import names

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
sys.path.insert(0, str(SCRIPTS))

from _steps import run_steps  # noqa: E402


def script(name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPTS / name), *args], capture_output=True, text=True, cwd=ROOT
    )


def test_regenerate_reports_runs_one_report_per_registered_game(tmp_path):
    # into an empty folder: every game's report is due (the committed ones are current, and a
    # regeneration into reports/ skips them: "up to date")
    done = script("regenerate_reports.py", "--dry-run", "-j", "2", "-o", str(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(names())
    for line, game in zip(lines, names(), strict=True):
        assert line.endswith(f"-m montecards report {game} -o {tmp_path}/{game} -j 2")


def test_regenerate_reports_passes_quick_and_keeps_the_order_given():
    done = script("regenerate_reports.py", "--dry-run", "--quick", "tulips", "parade")
    assert [line.split()[4] for line in done.stdout.splitlines()] == ["tulips", "parade"]
    assert all(line.endswith("--quick") for line in done.stdout.splitlines())


def test_record_benchmarks_records_then_plots():
    done = script("record_benchmarks.py", "--dry-run", "--games", "parade")
    assert done.returncode == 0, done.stderr
    record, plot = done.stdout.splitlines()
    assert record.endswith("benchmarks/run.py --record --games parade")
    assert plot.endswith("benchmarks/plot.py")


@pytest.mark.parametrize(
    "name,args,message",
    [
        ("regenerate_reports.py", ["chess"], "unknown game 'chess'"),
        ("regenerate_reports.py", ["-j", "0"], "--jobs must be at least 1"),
        ("record_benchmarks.py", ["--games", "chess"], "unknown game 'chess'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(name, args, message):
    done = script(name, *args, "--dry-run")
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_run_steps_stops_at_the_first_failure_with_its_status(capsys):
    steps = [
        [sys.executable, "-c", "print('first')"],
        [sys.executable, "-c", "raise SystemExit(3)"],
        [sys.executable, "-c", "print('never')"],
    ]
    assert run_steps(steps, dry_run=False) == 3
    out, err = capsys.readouterr()
    assert "never" not in out and "failed (exit 3)" in err
    assert run_steps(steps[:1], dry_run=False) == 0

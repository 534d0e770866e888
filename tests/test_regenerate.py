"""scripts/regenerate_reports.py: resumable (a killed regeneration continues), within a budget,
on a Dask scheduler when given; the reports it skips are current by their provenance."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import regenerate_reports as regen  # noqa: E402

from montecards.report import DEFAULT_SEED  # noqa: E402
from montecards.report.base import Report  # noqa: E402

GAMES = ["parade", "wigout", "anomia"]


def _write(folder: Path, game: str, quick: bool = False, wall: float = 30.0) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    rep = Report(game, folder, quick, DEFAULT_SEED, 1, f"montecards report {game}")
    rep.section("S", "text")
    rep.write(wall)


class FakeSteps:
    """Stands for run_steps: 'plays' a report by writing one; can be killed at a game."""

    def __init__(self, kill_at: str | None = None):
        self.ran: list[str] = []
        self.kill_at = kill_at

    def __call__(self, steps, dry_run):
        (step,) = steps
        game, out = step[4], Path(step[6])
        self.ran.append(game)
        if game == self.kill_at:
            raise KeyboardInterrupt
        _write(out if out.is_absolute() else regen.ROOT / out, game, "--quick" in step)
        return 0


def test_a_killed_regeneration_continues_where_it_stopped(tmp_path, monkeypatch):
    out = str(tmp_path / "reports")
    first = FakeSteps(kill_at="wigout")
    monkeypatch.setattr(regen, "run_steps", first)
    with pytest.raises(KeyboardInterrupt):
        regen.regenerate(GAMES, out, 1, False, None, None, False)
    assert first.ran == ["parade", "wigout"]
    state = json.loads((tmp_path / "reports" / regen.STATE).read_text())
    assert state == {"parade": "done", "wigout": "started"}
    again = FakeSteps()
    monkeypatch.setattr(regen, "run_steps", again)
    assert regen.regenerate(GAMES, out, 1, False, None, None, False) == 0
    assert again.ran == ["wigout", "anomia"]  # parade is current; the killed game runs again
    assert (tmp_path / "reports" / "SUMMARY.md").exists()
    # everything current now: nothing runs; a report of another size or from other kernels runs
    third = FakeSteps()
    monkeypatch.setattr(regen, "run_steps", third)
    regen.regenerate(GAMES, out, 1, False, None, None, False)
    assert third.ran == []
    regen.regenerate(GAMES, out, 1, True, None, None, False)
    assert third.ran == GAMES
    record = tmp_path / "reports" / "anomia" / "provenance.json"
    record.write_text(json.dumps({**json.loads(record.read_text()), "kernel_hash": "0" * 64}))
    fourth = FakeSteps()
    monkeypatch.setattr(regen, "run_steps", fourth)
    regen.regenerate(GAMES, out, 1, True, None, None, False)
    assert fourth.ran == ["anomia"]


def test_the_budget_stops_before_a_game_that_would_overrun(tmp_path, monkeypatch, capsys):
    out = tmp_path / "reports"
    _write(out / "wigout", "wigout", wall=600.0)  # stale below: its estimate is its last run's
    record = out / "wigout" / "provenance.json"
    record.write_text(json.dumps({**json.loads(record.read_text()), "kernel_hash": "0" * 64}))
    steps = FakeSteps()
    monkeypatch.setattr(regen, "run_steps", steps)
    now = iter(range(0, 10_000, 60))  # every clock reading a minute later
    assert regen.regenerate(["anomia", "wigout", "parade"], str(out), 1, False, 8, None, False,
                            clock=lambda: next(now)) == 0
    assert steps.ran == ["anomia"]
    said = capsys.readouterr().out
    assert "budget: wigout needs about 10 min" in said and "stopped before wigout, parade" in said


def test_the_commands_play_on_a_dask_scheduler_when_given():
    step = regen.report_step("parade", "reports", 2, False, "tcp://10.0.0.1:8786")
    assert step[-4:] == ["--backend", "dask", "--scheduler", "tcp://10.0.0.1:8786"]
    assert step[3:7] == ["report", "parade", "-o", "reports/parade"]

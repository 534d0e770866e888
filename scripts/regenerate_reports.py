"""Regenerate the committed reports (``reports/<game>/``), one ``montecards report`` per game,
then ``reports/SUMMARY.md``; resumable, within a time budget, locally or on a Dask cluster.

    python scripts/regenerate_reports.py                   # every registered game, all cores
    python scripts/regenerate_reports.py parade tulips -j 2
    python scripts/regenerate_reports.py --budget 60       # stop before a game that would overrun
    python scripts/regenerate_reports.py --scheduler tcp://host:8786   # play on a Dask cluster
    python scripts/regenerate_reports.py --quick --dry-run

Resuming: a game is skipped when its folder already holds a report of the same size and seed
built from today's kernel sources (its provenance.json, ``montecards/report/provenance.py``)
and the state file ``<out>/.regenerate.json`` does not show it as started and unfinished. So a
regeneration that was killed, or stopped by its budget, continues where it stopped when the
same command is run again. A report interrupted inside its own run resumes too: its finished
analyses are kept in ``<out>/<game>/.checkpoint/`` and loaded again (``montecards/report/checkpoint.py``).

Budget (``--budget MINUTES``): before each game the script compares the time left with that
game's estimate (its previous run's wall-clock time from provenance.json when it was of the same
size, else ``ESTIMATE_SECONDS``) and stops, naming the games left, when it would overrun. A full
regeneration on 2 cores takes about ``sum(ESTIMATE_SECONDS.values())`` seconds (about 60 minutes).

Each report runs in its own process, in order; the first failure stops the rest (exit status
of the failing command).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from _steps import ROOT, check_games, run_steps, script_parser

from montecards.games import names
from montecards.report import DEFAULT_SEED
from montecards.report.provenance import read_provenance, staleness

ESTIMATE_SECONDS = {"parade": 700, "wigout": 150, "tulips": 1700, "anomia": 40, "marbles": 900}
"""Full-size wall-clock seconds per report on 2 cores (the committed reports' recorded times,
plus the runs added since); a game not listed counts 600."""

STATE = ".regenerate.json"


def report_step(game: str, out: str, jobs: int, quick: bool, scheduler: str | None) -> list[str]:
    """The ``montecards report`` command of ``game``, writing into ``out/<game>``."""
    step = [sys.executable, "-m", "montecards", "report", game, "-o", f"{out}/{game}"]
    step += ["-j", str(jobs)] + (["--quick"] if quick else [])
    if scheduler:
        step += ["--backend", "dask", "--scheduler", scheduler]
    return step


def report_steps(games: list[str], jobs: int, quick: bool, out: str = "reports",
                 scheduler: str | None = None) -> list[list[str]]:
    return [report_step(game, out, jobs, quick, scheduler) for game in games]


def _state(out: Path) -> dict[str, str]:
    path = out / STATE
    return json.loads(path.read_text()) if path.exists() else {}


def _save_state(out: Path, state: dict[str, str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / STATE).write_text(json.dumps(state, indent=2) + "\n")


def is_current(folder: Path, game: str, quick: bool, state: dict[str, str]) -> bool:
    """Whether ``folder`` already holds this run's report: finished (not left started by a
    killed run), same size and seed, built from today's kernel sources."""
    record = read_provenance(folder)
    if record is None or state.get(game) == "started":
        return False
    same_run = record.get("size") == ("quick" if quick else "full") and record.get("seed") == DEFAULT_SEED
    return same_run and staleness(folder, game) == []


def estimate(folder: Path, game: str, quick: bool) -> float:
    """Seconds the report of ``game`` should take (see the module docstring)."""
    record = read_provenance(folder)
    if record is not None and record.get("size") == ("quick" if quick else "full"):
        return float(record.get("wall_seconds", 0.0))
    return 60.0 if quick else float(ESTIMATE_SECONDS.get(game, 600))


def plan(games: list[str], out: Path, quick: bool) -> tuple[list[str], list[str]]:
    """(games to run, games already current) in the order given."""
    state = _state(out)
    todo, current = [], []
    for game in games:
        (current if is_current(out / game, game, quick, state) else todo).append(game)
    return todo, current


def regenerate(games: list[str], out_arg: str, jobs: int, quick: bool, budget_minutes: float | None,
               scheduler: str | None, dry_run: bool, clock=time.monotonic) -> int:
    """Run the reports of ``games`` not yet current under ``out_arg`` (relative to the
    repository root, as the commands get it), within the budget; then the summary."""
    out = Path(out_arg) if Path(out_arg).is_absolute() else ROOT / out_arg
    todo, current = plan(games, out, quick)
    for game in current:
        print(f"up to date: {out}/{game} (same size and seed, today's kernel sources)")
    start = clock()
    state = _state(out)
    for k, game in enumerate(todo):
        step = report_step(game, out_arg, jobs, quick, scheduler)
        need = estimate(out / game, game, quick)
        if budget_minutes is not None and clock() - start + need > 60 * budget_minutes:
            left = budget_minutes - (clock() - start) / 60
            print(f"budget: {game} needs about {need / 60:.0f} min, {left:.0f} min left; stopped before "
                  f"{', '.join(todo[k:])}. Run the same command again to continue.")
            return 0
        if dry_run:
            run_steps([step], True)
            continue
        state[game] = "started"
        _save_state(out, state)
        status = run_steps([step], False)
        if status != 0:
            return status
        state[game] = "done"
        _save_state(out, state)
    if not dry_run and all(read_provenance(out / g) is not None for g in games):
        from montecards.report.summary import write_summary

        print(f"wrote {write_summary(out)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("games", nargs="*", help="games to report (default: every registered game)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="threads per report")
    parser.add_argument("--quick", action="store_true", help="small runs (previews; wide intervals)")
    parser.add_argument("--budget", type=float, default=None, metavar="MINUTES",
                        help="stop before a game that would overrun this many minutes (resume later)")
    parser.add_argument("--scheduler", default=None, metavar="ADDR",
                        help="a Dask scheduler (tcp://host:port): every report plays its games there")
    parser.add_argument("-o", "--out", default="reports",
                        help="folder of the report folders (default: reports)")
    args = parser.parse_args(argv)
    check_games(parser, args.games)
    if args.jobs < 1:
        parser.exit(2, f"error: --jobs must be at least 1, got {args.jobs}\n")
    if args.budget is not None and args.budget <= 0:
        parser.exit(2, f"error: --budget must be positive (minutes), got {args.budget:g}\n")
    return regenerate(args.games or names(), args.out, args.jobs, args.quick, args.budget, args.scheduler,
                      args.dry_run)


if __name__ == "__main__":
    sys.exit(main())

"""Reports: ``montecards report GAME`` writes README.md + PNG figures answering the questions
of the game's rules page.

The builder is generic: a recipe module ``montecards.report.<game>`` (falling back to
``montecards.report.generic``) defines ``build(rep)`` and calls the :class:`Report` methods —
``rep.n(full, quick)`` for run sizes, ``rep.section``, ``rep.text``, ``rep.finding``,
``rep.figure``, ``rep.table`` and ``rep.run_size`` — and the builder writes the page with the
command, seed, library version and run sizes that made it.
"""

from __future__ import annotations

import importlib
import time
from pathlib import Path

from montecards.analysis.runs import with_backend
from montecards.report.base import (  # noqa: F401  (the recipes' toolkit, re-exported)
    DEFAULT_SEED,
    Report,
    markdown_table,
    pct,
    pm,
    rate,
    seat_section,
    timed,
)
from montecards.report.checkpoint import AnalysisCheckpoint
from montecards.run.runner import check_jobs


def recipe(game: str):
    """The report recipe module of ``game`` (the generic one if it has none)."""
    try:
        return importlib.import_module(f"montecards.report.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"montecards.report.{game}":
            raise
        return importlib.import_module("montecards.report.generic")


@with_backend
def build_report(
    game: str,
    out_dir: str | Path | None = None,
    quick: bool = False,
    seed: int = DEFAULT_SEED,
    jobs: int | None = None,
    command: str | None = None,
) -> Path:
    """Run the game's analyses and write ``out_dir/README.md`` with its PNG figures. An
    interrupted report resumes: rerun the same command (``report/checkpoint.py``)."""
    from montecards import games

    spec = games.get(game)
    check_jobs(jobs)  # bad input stops here, before the report writes anything
    out = Path(out_dir) if out_dir is not None else Path("reports") / spec.name
    out.mkdir(parents=True, exist_ok=True)
    if command is None:
        parts = ["montecards", "report", spec.name, "-o", str(out)]
        if quick:
            parts.append("--quick")
        if seed != DEFAULT_SEED:
            parts += ["--seed", str(seed)]
        if jobs is not None:
            parts += ["-j", str(jobs)]
        command = " ".join(parts)
    rep = Report(spec.name, out, quick, seed, jobs, command)
    rep.checkpoint = AnalysisCheckpoint(out, spec.name, seed, quick)
    start, cpu = time.perf_counter(), time.process_time()
    recipe(spec.name).build(rep)
    rep.cpu_seconds = time.process_time() - cpu
    page = rep.write(time.perf_counter() - start)
    rep.checkpoint.finish()
    return page

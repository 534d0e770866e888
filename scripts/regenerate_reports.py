"""Regenerate the committed reports (``reports/<game>/``), one ``montecards report`` per game.

    python scripts/regenerate_reports.py                 # every registered game, all cores
    python scripts/regenerate_reports.py parade tulips -j 2
    python scripts/regenerate_reports.py --quick --dry-run

Each report runs in its own process, in order; the first failure stops the rest (exit status
of the failing command). A full report takes up to 10 minutes per game on 2 cores.
"""

from __future__ import annotations

import os
import sys

from _steps import check_games, run_steps, script_parser

from montecards.games import names


def report_steps(games: list[str], jobs: int, quick: bool) -> list[list[str]]:
    """The ``montecards report`` command of each game, writing into ``reports/<game>``."""
    steps = []
    for game in games:
        step = [sys.executable, "-m", "montecards", "report", game, "-o", f"reports/{game}"]
        step += ["-j", str(jobs)] + (["--quick"] if quick else [])
        steps.append(step)
    return steps


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("games", nargs="*", help="games to report (default: every registered game)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="threads per report")
    parser.add_argument("--quick", action="store_true", help="small runs (previews; wide intervals)")
    args = parser.parse_args(argv)
    check_games(parser, args.games)
    if args.jobs < 1:
        parser.exit(2, f"error: --jobs must be at least 1, got {args.jobs}\n")
    return run_steps(report_steps(args.games or names(), args.jobs, args.quick), args.dry_run)


if __name__ == "__main__":
    sys.exit(main())

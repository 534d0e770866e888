"""Record a benchmark entry for the current commit and redraw the history plot.

    python scripts/record_benchmarks.py                  # every game (~15 minutes)
    python scripts/record_benchmarks.py --games parade
    python scripts/record_benchmarks.py --dry-run

Runs ``benchmarks/run.py --record`` (writes ``benchmarks/history/<date>-<commit>.json``; see
``benchmarks/README.md``), then ``benchmarks/plot.py`` (``benchmarks/history.png``). Record
on a clean tree: an entry made from uncommitted code is marked dirty. Commit both files.
"""

from __future__ import annotations

import sys

from _steps import check_games, run_steps, script_parser


def benchmark_steps(games: list[str]) -> list[list[str]]:
    """Measure and record, then plot the history."""
    record = [sys.executable, "benchmarks/run.py", "--record"]
    if games:
        record += ["--games", *games]
    return [record, [sys.executable, "benchmarks/plot.py"]]


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("--games", nargs="+", default=[], help="games to measure (default: all)")
    args = parser.parse_args(argv)
    check_games(parser, args.games)
    return run_steps(benchmark_steps(args.games), args.dry_run)


if __name__ == "__main__":
    sys.exit(main())

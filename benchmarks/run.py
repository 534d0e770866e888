"""Benchmark every registered game (or some) and print, and optionally record, the figures.

    python benchmarks/run.py [--games parade wigout] [--quick] [--record]
    python benchmarks/run.py --strategies greedy random default --threads 1   # a subset of the cases

For each game, each strategy (on every seat) and two or three player configurations: games/s
and turns/s on 1 thread and on all numba threads (medians of repeated timings, each also
divided by the calibration kernel measured just before it); compile time in a fresh process
(empty numba cache, then warm cache); warm wall time and peak RSS of the CLI. ``--record``
writes ``benchmarks/history/<date>-<commit>.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import core, history, suite  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", nargs="+", help="games to measure (default: every registered game)")
    parser.add_argument("--quick", action="store_true", help="fewer and shorter timings (compile time: 1 warm repeat)")
    parser.add_argument("--record", action="store_true", help="save the entry in benchmarks/history/")
    parser.add_argument("--repeats", type=int, help="timings per figure (default 5, quick 3)")
    parser.add_argument("--target", type=float, help="seconds per timing (default 0.8, quick 0.3)")
    parser.add_argument("--strategies", nargs="+",
                        help="measure only these strategies (default: every built-in of each game)")
    parser.add_argument("--threads", nargs="+", choices=("1", "all"), default=["1", "all"],
                        help="thread counts to measure (default: 1 and all)")
    parser.add_argument("--no-compile", action="store_true", help="skip the compile-time subprocesses")
    parser.add_argument("--no-cli", action="store_true", help="skip the CLI wall-time subprocesses")
    parser.add_argument("--json", type=Path, help="also write the entry to this file")
    args = parser.parse_args(argv)

    from montecards import games as registry

    names = args.games or registry.names()
    unknown = [g for g in names if g not in registry.names()]
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)} (registered: {', '.join(registry.names())})")
    settings = core.Settings.quick_settings() if args.quick else core.Settings.full()
    if args.repeats:
        settings.repeats = args.repeats
    if args.target:
        settings.target = args.target
    cases = None
    if args.strategies or args.threads != ["1", "all"]:
        cases = [c for g in names for c in core.cases_for(g, tuple(args.threads))
                 if not args.strategies or c.strategy in args.strategies]
        if not cases:
            parser.error(f"no game of {', '.join(names)} has a built-in among {', '.join(args.strategies)}")
    entry = suite.run_suite(
        names, settings, compile_time=not args.no_compile, cli=not args.no_cli, cases=cases
    )
    entry["command"] = "python benchmarks/run.py " + " ".join(argv if argv is not None else sys.argv[1:])
    print(suite.format_entry(entry))
    if args.json:
        args.json.write_text(json.dumps(entry, indent=1) + "\n")
    if args.record:
        path = history.save_entry(entry, core.HISTORY_DIR)
        print(f"\nrecorded {path.relative_to(core.ROOT)}")
    return 1 if entry["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())

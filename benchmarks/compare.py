"""Compare the current tree with the recorded benchmark history.

    python benchmarks/compare.py [--games ...] [--full] [--threshold 0.3] [--baseline FILE]
                                 [--current FILE]

Measures the current tree (quick settings unless ``--full``; or reads ``--current FILE``, an
entry written by ``run.py --json``). The baseline is, for each case, the latest full entry of
``benchmarks/history/`` that measured it (or ``--baseline FILE``). For every case in both it
prints the raw change of games/s and the change of the calibrated ratio (games per CPU-second
/ calibration deals per CPU-second, measured interleaved in the same run, so machine noise
cancels). A case is flagged as a regression when ``baseline ratio / current ratio > 1 +
threshold`` ("slower" > "limit" in the table), the threshold being the larger of
``--threshold`` (default 30 %; at least 50 % for all-threads cases, whose ratio also moves with
the load) and the spread of that ratio observed in the history and in this run. Exit status
1 if any case regressed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import core, history, suite  # noqa: E402


def format_comparison(rows: list[dict], baseline: dict, current: dict) -> str:
    lines = [
        f"baseline: {baseline.get('_file', '?')} (commit {baseline.get('commit', '')[:10]}"
        f"{' dirty' if baseline.get('dirty') else ''}, {baseline.get('date', '')}, "
        f"load {baseline.get('load', {}).get('before')})",
        f"current:  commit {current.get('commit', '')[:10]}{' dirty' if current.get('dirty') else ''}, "
        f"{current.get('date', '')}, load {current.get('load', {}).get('before')}",
        "",
    ]
    if baseline.get("machine", {}).get("cpu") != current.get("machine", {}).get("cpu"):
        lines.append("note: different CPU models; only the calibrated ratio is meaningful\n")
    header = (f"{'case':<38} {'base games/s':>12} {'now games/s':>12} {'raw':>7} {'base ratio':>10} "
              f"{'now ratio':>10} {'ratio':>7} {'slower':>7} {'limit':>6}  verdict")
    lines += [header, "-" * len(header)]
    for r in rows:
        verdict = "REGRESSION" if r["regression"] else ("faster" if r["improvement"] else "ok")
        lines.append(
            f"{r['key']:<38} {r['base_games_per_s']:>12,.0f} {r['games_per_s']:>12,.0f} "
            f"{100 * r['raw_change']:>+6.0f}% {r['base_ratio']:>10.4g} {r['ratio']:>10.4g} "
            f"{100 * r['ratio_change']:>+6.0f}% {r['slowdown']:>6.2f}x {1 + r['threshold']:>5.2f}x  {verdict}"
        )
    missing = sorted(set(history.cases_by_key(current)) - {r["key"] for r in rows})
    if missing:
        lines.append(f"\nnot in the baseline (new cases, not compared): {', '.join(missing)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", nargs="+", help="games to measure (default: every registered game)")
    parser.add_argument("--full", action="store_true", help="full settings (default: quick)")
    parser.add_argument("--threshold", type=float, default=history.DEFAULT_THRESHOLD,
                        help="smallest slowdown flagged, as a fraction (default 0.30)")
    parser.add_argument("--baseline", type=Path,
                        help="entry to compare with (default: for each case, the latest entry having it)")
    parser.add_argument("--current", type=Path, help="compare this entry instead of measuring")
    parser.add_argument("--history", type=Path, default=core.HISTORY_DIR, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    entries = history.load_history(args.history)
    if args.baseline:
        baseline = json.loads(args.baseline.read_text())
        baseline.setdefault("_file", args.baseline.name)
    else:
        baseline = history.merged_baseline(entries)
    if baseline is None:
        print("no recorded entry to compare with: run `python benchmarks/run.py --record` first")
        return 2
    if args.current:
        current = json.loads(args.current.read_text())
    else:
        from montecards import games as registry

        names = args.games or registry.names()
        settings = core.Settings.full() if args.full else core.Settings.quick_settings()
        keys = {c["key"] for c in baseline.get("cases", [])}
        cases = [c for g in names for c in core.cases_for(g)]
        # measure what the baseline has (and any new case of these games)
        cases = [c for c in cases if c.key in keys] + [c for c in cases if c.key not in keys]
        current = suite.run_suite(names, settings, compile_time=False, cli=False, cases=cases)
        print(suite.format_entry(current))
        print()
    rows = history.compare_entries(current, baseline, entries, args.threshold)
    print(format_comparison(rows, baseline, current))
    bad = [r for r in rows if r["regression"]]
    if history.calibration_version(current) != history.calibration_version(baseline):
        print("\ncalibration kernel changed since the baseline: ratios not compared")
    if bad:
        print(f"\n{len(bad)} regression(s): {', '.join(r['key'] for r in bad)}")
        return 1
    print("\nno regression beyond the thresholds")
    return 0


if __name__ == "__main__":
    sys.exit(main())

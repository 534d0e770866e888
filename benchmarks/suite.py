"""The whole suite: every case of every game, compile times, CLI times; and its table."""

from __future__ import annotations

import os
import sys
import time
import traceback
from typing import Any

from benchmarks import core


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run_suite(
    games: list[str],
    settings: core.Settings,
    compile_time: bool = True,
    cli: bool = True,
    cases: list[core.Case] | None = None,
) -> dict[str, Any]:
    """Measure and return one history entry (not yet saved)."""
    import numba

    settings.threads_all = numba.config.NUMBA_NUM_THREADS
    slowdown = core.parse_slowdown(os.environ.get(core.SLOWDOWN_ENV))
    entry = core.new_entry(settings)
    if slowdown:
        entry["settings"]["slowdown"] = slowdown
    started = time.perf_counter()
    calibrator = core.Calibrator(settings)
    if cases is None:
        cases = []
        for game in games:
            try:
                cases.extend(core.cases_for(game))
            except Exception as exc:  # a game still being written must not stop the others
                entry["errors"].append({"game": game, "stage": "cases", "error": repr(exc)})
    for i, case in enumerate(cases, 1):
        _say(f"[{i}/{len(cases)}] {case.key} ...")
        try:
            result = core.measure_case(case, settings, calibrator, core.slowdown_for(case.game, slowdown))
        except Exception as exc:
            entry["errors"].append(
                {"case": case.key, "stage": "throughput", "error": repr(exc),
                 "traceback": traceback.format_exc(limit=3)}
            )
            _say(f"    error: {exc!r}")
            continue
        entry["cases"].append(result)
        _say(f"    n={result['n']:,}  {result['games_per_s']:,.0f} games/s  ratio {result['ratio']:.4g}")
    if entry["cases"]:  # the calibration always runs on 1 thread
        entry["calibration"]["1"] = {
            "deals_per_s": core.median([x for c in entry["cases"] for x in c["reps"]["calib_per_s"]]),
            "cpu_deals_per_s": core.median([x for c in entry["cases"] for x in c["reps"]["cpu_calib_per_s"]]),
        }
    if compile_time:
        for game in games:
            _say(f"compile time: {game} (fresh process, empty numba cache) ...")
            try:
                entry["compile"][game] = core.compile_times(game, warm_repeats=1 if settings.quick else 3)
            except Exception as exc:
                entry["errors"].append({"game": game, "stage": "compile", "error": repr(exc)})
    if cli:
        for args in core.cli_commands(settings.quick):
            _say(f"CLI: montecards {' '.join(args)} ...")
            try:
                entry["cli"].append(core.cli_times(list(args), repeats=3))
            except Exception as exc:
                entry["errors"].append({"command": " ".join(args), "stage": "cli", "error": repr(exc)})
    entry["load"]["after"] = core.load_average()
    entry["machine"]["threading_layer"] = core._threading_layer()
    entry["elapsed_s"] = round(time.perf_counter() - started, 1)
    return entry


def _si(x: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(x) >= scale:
            return f"{x / scale:.3g}{unit}"
    return f"{x:.3g}"


def format_entry(entry: dict[str, Any]) -> str:
    """The readable table of one entry."""
    m = entry.get("machine", {})
    lines = [
        f"montecards benchmarks  {entry.get('date', '')}  commit {entry.get('commit', '')[:10]}"
        f"{' (dirty)' if entry.get('dirty') else ''}{'  [quick]' if entry.get('quick') else ''}",
        f"machine: {m.get('cpu', '?')}, {m.get('cores', '?')} cores, "
        f"numba threads {m.get('numba_threads', '?')}; "
        f"python {m.get('python', '?')}, numba {m.get('numba', '?')}, numpy {m.get('numpy', '?')}",
        f"load average (1/5/15 min): before {entry.get('load', {}).get('before')}, "
        f"after {entry.get('load', {}).get('after')}",
        f"medians of {entry.get('settings', {}).get('repeats')} timings (wall clock); cpu games/s = per "
        f"process CPU-second; ratio = cpu games/s / calibration deals per CPU-second (1 thread), "
        f"interleaved in the same run (calibration: "
        + ", ".join(f"{_si(v['deals_per_s'])}/s wall, {_si(v['cpu_deals_per_s'])}/cpu-s "
                    for k, v in sorted(entry.get("calibration", {}).items()))
        + ")",
        "",
    ]
    header = f"{'game':<8} {'config':<16} {'strategy':<13} {'thr':>3} {'n':>9} {'games/s':>9} " \
             f"{'turns/s':>9} {'turns/game':>10} {'cpu games/s':>11} {'ratio':>9} {'spread':>7}"
    lines += [header, "-" * len(header)]
    for c in entry.get("cases", []):
        lines.append(
            f"{c['game']:<8} {c['label']:<16} {c['strategy']:<13} {c['thread_count']:>3} {c['n']:>9,} "
            f"{_si(c['games_per_s']):>9} {_si(c['turns_per_s']):>9} {c['turns_per_game']:>10.1f} "
            f"{_si(c['cpu_games_per_s']):>11} "
            f"{c['ratio']:>9.4g} {100 * c['ratio_spread']:>6.0f}%"
        )
    if entry.get("compile"):
        lines += ["", f"{'compile (fresh process)':<24} {'cold: to 1st game':>18} {'of which jit':>13} "
                      f"{'cold CPU':>9} {'compiled':>9} {'warm cache':>11} {'warm CPU':>9} "
                      f"{'wall cold':>10} {'wall warm':>10} {'load (cold)':>12}"]
        for game, c in entry["compile"].items():
            load = c.get("cold_load") or []
            lines.append(
                f"{game:<24} {c['cold_first_result_s']:>17.1f}s {c['cold_compile_s']:>12.1f}s "
                f"{c.get('cold_cpu_s', float('nan')):>8.1f}s {c.get('cold_specialisations') or 0:>9} "
                f"{c['warm_first_result_s']:>10.2f}s {c.get('warm_cpu_s', float('nan')):>8.2f}s "
                f"{c['cold_wall_s']:>9.1f}s {c['warm_wall_s']:>9.2f}s {load[0] if load else '':>12}"
            )
    if entry.get("cli"):
        lines += ["", f"{'warm CLI (median of 3)':<58} {'wall':>7} {'peak RSS':>9}"]
        for c in entry["cli"]:
            lines.append(f"{c['command']:<58} {c['wall_s']:>6.2f}s {c['max_rss_mb']:>6.0f} MB")
    for e in entry.get("errors", []):
        what = e.get("case") or e.get("game") or e.get("command")
        lines.append(f"ERROR {what} ({e['stage']}): {e['error']}")
    return "\n".join(lines)

"""The recorded history and the pure logic on it: saving, comparing, noise and smoke verdicts.

No timing and no numba here, so the logic is tested on synthetic entries
(``tests/test_benchmarks.py``).

Regressions are judged on the calibrated ratio ``games/s / calibration deals/s`` of the same
run, never on absolute times. A case regresses when ``baseline_ratio / current_ratio`` exceeds
``1 + threshold``, where ``threshold`` is the larger of the requested one (30 % by default)
and the noise observed for that case (so it is never tighter than the noise).
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DEFAULT_THRESHOLD = 0.30
ALL_THREADS_THRESHOLD = 0.50
"""The least threshold for all-threads cases: their CPU-time ratio also moves with the load
(waiting OpenMP threads spin while others are busy). Between runs at load ~10 and ~5 with no
kernel change, it moved by 25-35 % while the 1-thread ratio moved by under 6 %."""
SMOKE_FAIL_FRACTION = 0.65
"""The smoke fails a game whose ratio is below this fraction of its baseline (a slowdown of
more than 1/0.65 = 1.54x). Measured under load ~6 on 2 cores: a sound kernel gave 0.86-1.22
of its baseline (25 game-runs), a 2x slower one 0.46-0.60, so 2x is caught with room for
noise, and noise has to cost 35 % before a sound kernel fails (the smoke then re-measures
once, and keeps the better figure)."""
BASELINE_ENTRIES = 3
"""The smoke's baseline: the median ratio over the last few recorded entries with the case."""


# --- files -------------------------------------------------------------------------------------


def entry_filename(entry: dict[str, Any]) -> str:
    date = entry["date"][:10]
    commit = (entry.get("commit") or "unknown")[:10]
    return f"{date}-{commit}{'-dirty' if entry.get('dirty') else ''}"


def save_entry(entry: dict[str, Any], directory: Path) -> Path:
    """Write ``entry`` as ``<date>-<commit>[-dirty][-k].json`` (never overwriting)."""
    directory.mkdir(parents=True, exist_ok=True)
    stem = entry_filename(entry)
    path = directory / f"{stem}.json"
    k = 2
    while path.exists():
        path = directory / f"{stem}-{k}.json"
        k += 1
    path.write_text(json.dumps(entry, indent=1, sort_keys=False) + "\n")
    return path


def load_history(directory: Path) -> list[dict[str, Any]]:
    """Every recorded entry, oldest first (by the date inside, then file name)."""
    entries = []
    for path in sorted(directory.glob("*.json")):
        try:
            entry = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            continue
        entry.setdefault("_file", path.name)
        entries.append(entry)
    entries.sort(key=lambda e: (e.get("date", ""), e.get("_file", "")))
    return entries


# --- selection ---------------------------------------------------------------------------------


def calibration_version(entry: dict[str, Any]) -> Any:
    return entry.get("settings", {}).get("calibration_version")


def comparable(entries: Iterable[dict[str, Any]], reference: dict[str, Any]) -> list[dict[str, Any]]:
    """Entries whose calibration kernel is the one of ``reference`` (ratios are comparable)."""
    version = calibration_version(reference)
    return [e for e in entries if calibration_version(e) == version]


def cases_by_key(entry: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["key"]: c for c in entry.get("cases", [])}


def latest(entries: list[dict[str, Any]], full_only: bool = True) -> dict[str, Any] | None:
    chosen = [e for e in entries if not (full_only and e.get("quick"))]
    return chosen[-1] if chosen else None


def merged_baseline(entries: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A baseline with, for every case, its figures from the latest entry that measured it.

    Full entries are preferred; quick ones only fill cases no full entry has. Only entries of
    the latest entry's calibration kernel are used. Each case says which file it came from
    (``from``). The returned dict looks like an entry (its metadata is the latest entry's).
    """
    if not entries:
        return None
    newest = entries[-1]
    pool = comparable(entries, newest)
    cases: dict[str, dict[str, Any]] = {}
    for quick in (True, False):  # quick first, so that full entries overwrite them
        for entry in pool:
            if bool(entry.get("quick")) == quick:
                for key, case in cases_by_key(entry).items():
                    cases[key] = {**case, "from": entry.get("_file", entry.get("date", ""))}
    full = [e for e in pool if not e.get("quick")]
    merged = dict(full[-1] if full else pool[-1])
    merged["cases"] = list(cases.values())
    merged["_file"] = "latest entry of each case" if len({c["from"] for c in cases.values()}) > 1 \
        else merged.get("_file", "")
    return merged


# --- noise and comparison ---------------------------------------------------------------------


def _within_run_spread(case: dict[str, Any]) -> float:
    ratios = case.get("reps", {}).get("ratio") or []
    if len(ratios) < 2:
        return 0.0
    mid = statistics.median(ratios)
    return (max(ratios) - min(ratios)) / mid if mid > 0 else 0.0


def observed_noise(key: str, entries: Iterable[dict[str, Any]]) -> float:
    """How much this case's calibrated ratio moves when nothing changed, as a fraction.

    The largest of: the spread (max - min) / median of the repeats within any entry, and the
    largest factor by which any entry's ratio departs from the median over entries
    (``exp(|log(r / median)|) - 1``). Runs on different commits count too, so the figure is
    an upper bound on noise: it only ever loosens the threshold.
    """
    ratios, noise = [], 0.0
    for entry in entries:
        case = cases_by_key(entry).get(key)
        if case is None or not case.get("ratio"):
            continue
        ratios.append(case["ratio"])
        noise = max(noise, _within_run_spread(case))
    if len(ratios) >= 2:
        mid = statistics.median(ratios)
        noise = max(noise, max(math.exp(abs(math.log(r / mid))) - 1 for r in ratios))
    return noise


def threshold_for(key: str, entries: Iterable[dict[str, Any]], default: float = DEFAULT_THRESHOLD) -> float:
    """The larger of ``default`` (at least ``ALL_THREADS_THRESHOLD`` for all-threads cases)
    and the observed noise of the case."""
    if key.endswith("/tall"):
        default = max(default, ALL_THREADS_THRESHOLD)
    return max(default, observed_noise(key, entries))


def compare_entries(
    current: dict[str, Any],
    baseline: dict[str, Any],
    history: list[dict[str, Any]],
    default: float = DEFAULT_THRESHOLD,
) -> list[dict[str, Any]]:
    """One row per case present in both: raw and calibrated change, threshold, verdict."""
    pool = [e for e in comparable(history, current) if e is not current]
    base_cases = cases_by_key(baseline)
    same_kernel = calibration_version(current) == calibration_version(baseline)
    rows = []
    for key, cur in cases_by_key(current).items():
        base = base_cases.get(key)
        if base is None:
            continue
        slowdown = base["ratio"] / cur["ratio"] if cur["ratio"] > 0 else math.inf
        # the history's spread, and this run's own spread between its repeats (not its
        # distance from the history: that is what is being judged)
        threshold = max(threshold_for(key, pool, default), _within_run_spread(cur))
        rows.append(
            {
                "key": key,
                "game": cur["game"],
                "base_games_per_s": base["games_per_s"],
                "games_per_s": cur["games_per_s"],
                "raw_change": cur["games_per_s"] / base["games_per_s"] - 1,
                "base_ratio": base["ratio"],
                "ratio": cur["ratio"],
                "ratio_change": cur["ratio"] / base["ratio"] - 1,
                "slowdown": slowdown,
                "threshold": threshold,
                "regression": same_kernel and slowdown > 1 + threshold,
                "improvement": same_kernel and 1 / slowdown > 1 + threshold,
            }
        )
    return rows


# --- smoke -------------------------------------------------------------------------------------


def smoke_baseline(key: str, history: list[dict[str, Any]], reference: dict[str, Any]) -> float | None:
    """Median ratio of ``key`` over the last ``BASELINE_ENTRIES`` comparable entries having it."""
    ratios = [
        cases_by_key(e)[key]["ratio"]
        for e in comparable(history, reference)
        if key in cases_by_key(e) and cases_by_key(e)[key].get("ratio")
    ]
    if not ratios:
        return None
    return float(statistics.median(ratios[-BASELINE_ENTRIES:]))


def smoke_verdict(ratio: float, baseline: float | None, fail_fraction: float = SMOKE_FAIL_FRACTION) -> str:
    """``"ok"``, ``"fail"`` (below ``fail_fraction`` of the baseline) or ``"no baseline"``."""
    if baseline is None or baseline <= 0:
        return "no baseline"
    return "fail" if ratio < fail_fraction * baseline else "ok"

"""The tuner's unit of work: one candidate measured on 100,000 games, wall time on every core.

For each game with a weighted built-in, ``analysis.tune.measure_candidates`` (the very code a
tuning run calls) plays one candidate — the built-in's default weights — on ``--games``
games (``games / players`` deals, every seat rotation) against the tuner's default opponents,
on ``--jobs`` threads, ``--repeats`` times after a warm-up; the median wall time is reported
with the CPU time and the machine's load average (a shared machine: read the load with the
figure). The target (issue "Tuned players"): Parade <= 1 s for 100,000 games on 2 cores.

    python benchmarks/tune_speed.py [--game parade] [--games 100000] [--jobs 2] [--record]

``--record`` writes ``benchmarks/history/tune/<date>-<commit>[-<strategy>].json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from montecards import games  # noqa: E402
from montecards.analysis.tune import _opponents, measure_candidates, resolve_tuned  # noqa: E402

PLAYERS = {"parade": 2, "tulips": 4, "marbles": 4, "wigout": 4}
OPPONENTS = {"tulips": "majority"}
TARGET_SECONDS = {"parade": 1.0}


def measure(game: str, n_games: int, jobs: int, repeats: int, strategy: str) -> dict:
    spec = games.get(game)
    players = PLAYERS[game]
    tuned = resolve_tuned(spec, strategy, None, None)
    opponents = _opponents(spec, players, OPPONENTS.get(game))
    params = spec.resolve_params(players, None)
    deals = n_games // players
    measure_candidates(spec, tuned, opponents, params, jobs, [tuned.x0], 1, min(deals, 2_000))  # compile
    walls, cpus = [], []
    for k in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        measure_candidates(spec, tuned, opponents, params, jobs, [tuned.x0], 100 + k, deals)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    wall = statistics.median(walls)
    target = TARGET_SECONDS.get(game)
    return {"game": game, "players": players, "strategy": strategy,
            "opponents": [str(o) for o in opponents], "games": deals * players, "jobs": jobs,
            "wall_seconds": wall, "walls": walls, "cpu_seconds": statistics.median(cpus),
            "load_average": os.getloadavg()[0], "target_seconds": target,
            "meets_target": None if target is None else wall <= target}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", nargs="*", default=None)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--strategy", default="weighted")
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    chosen = args.game or [g for g in PLAYERS if args.strategy in games.get(g).seat_params]
    results = []
    for game in chosen:
        r = measure(game, args.games, args.jobs, args.repeats, args.strategy)
        results.append(r)
        verdict = "" if r["target_seconds"] is None else (
            f"  ({'meets' if r['meets_target'] else 'MISSES'} {r['target_seconds']:g} s)")
        print(f"{game:8} {r['games']:>9,} games on {args.jobs} threads: {r['wall_seconds']:.2f} s wall, "
              f"{r['cpu_seconds']:.2f} s CPU, load {r['load_average']:.1f}{verdict}", flush=True)
    if args.record:
        commit = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], capture_output=True, text=True,
                                cwd=ROOT).stdout.strip()
        folder = ROOT / "benchmarks" / "history" / "tune"
        folder.mkdir(parents=True, exist_ok=True)
        tail = "" if args.strategy == "weighted" else f"-{args.strategy}"
        path = folder / f"{datetime.date.today().isoformat()}-{commit}{tail}.json"
        path.write_text(json.dumps({"commit": commit, "date": datetime.datetime.now().isoformat(),
                                    "results": results}, indent=1))
        print(f"recorded {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

"""User strategies against the built-ins they copy: games per CPU-second, interleaved.

For each game with an interface twin of its built-in ``greedy``
(``montecards/strategies/<game>_greedy.py:choose``), the same run — seed, players, every seat —
is played once with the built-in and once with the twin, alternately, ``--repeats`` times, on
one thread (the ratio of two rates measured in the same process, in interleaved slices, is
what this shared machine can measure; see README.md). The target (issue "Your own strategy"):
the twin at >= 70 % of the built-in's games per second.

    python benchmarks/user_strategies.py [--games parade tulips] [--repeats 5] [--record]

``--record`` writes ``benchmarks/history/user-strategies/<date>-<commit>.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numba

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from montecards import games  # noqa: E402
from montecards.analysis.runs import prepare  # noqa: E402
from montecards.run.runner import play_chunk, warm_up  # noqa: E402

TWINS = {
    "parade": ("greedy", 2),
    "tulips": ("greedy", 4),
    "marbles": ("greedy", 4),
    "wigout": ("greedy", 4),
}
TARGET = 0.70


def cpu_rate(spec, config, games_per_slice: int, slices: int) -> float:
    """Games per CPU-second over ``slices`` chunks of ``games_per_slice``."""
    spent = 0.0
    for k in range(slices):
        cpu0 = time.process_time()
        play_chunk(spec, config, k * games_per_slice, games_per_slice)
        spent += time.process_time() - cpu0
    return games_per_slice * slices / spent


def measure(game: str, repeats: int, slice_seconds: float) -> dict:
    builtin_name, players = TWINS[game]
    twin = str(ROOT / "montecards" / "strategies" / f"{game}_greedy.py") + ":choose"
    spec, builtin, _, _ = prepare(game, players, builtin_name, None, 1)
    _, user, _, _ = prepare(game, players, twin, None, 1)
    warm_up(spec, builtin)
    warm_up(spec, user)
    # size a slice to about slice_seconds of the built-in
    probe = 2_000
    rate = cpu_rate(spec, builtin, probe, 1)
    size = max(1_000, int(rate * slice_seconds))
    pairs = []
    for _ in range(repeats):
        a = cpu_rate(spec, builtin, size, 2)
        b = cpu_rate(spec, user, size, 2)
        pairs.append((a, b, b / a))
    ratio = statistics.median(p[2] for p in pairs)
    return {
        "game": game,
        "players": players,
        "builtin": builtin_name,
        "twin": f"montecards/strategies/{game}_greedy.py:choose",
        "games_per_slice": size,
        "builtin_cpu_games_per_s": statistics.median(p[0] for p in pairs),
        "twin_cpu_games_per_s": statistics.median(p[1] for p in pairs),
        "ratio": ratio,
        "ratios": [p[2] for p in pairs],
        "meets_target": ratio >= TARGET,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="*", default=list(TWINS))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--slice-seconds", type=float, default=0.4)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    numba.set_num_threads(1)
    results = []
    for game in args.games:
        if game not in games.names() or game not in TWINS:
            raise SystemExit(f"no twin benchmark for {game!r} (have: {', '.join(TWINS)})")
        r = measure(game, args.repeats, args.slice_seconds)
        results.append(r)
        print(f"{game:8} {r['builtin']:>7} {r['builtin_cpu_games_per_s']:>10,.0f} games/cpu-s   twin "
              f"{r['twin_cpu_games_per_s']:>10,.0f}   ratio {r['ratio']:.2f} "
              f"({'meets' if r['meets_target'] else 'MISSES'} {TARGET:.0%})", flush=True)
    if args.record:
        commit = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], capture_output=True, text=True,
                                cwd=ROOT).stdout.strip()
        folder = ROOT / "benchmarks" / "history" / "user-strategies"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{datetime.date.today().isoformat()}-{commit}.json"
        path.write_text(json.dumps({"commit": commit, "date": datetime.datetime.now().isoformat(),
                                    "threads": 1, "repeats": args.repeats, "results": results}, indent=1))
        print(f"recorded {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

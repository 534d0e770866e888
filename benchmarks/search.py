"""The tree searches (``ismcts``, ``omniscient``) of Parade, Gift of Tulips and Joker Marbles:
games per second per thread.

The target (issue #19): Parade, 2 players, 1,000 iterations per decision, at least 20 games
per second per thread. Each configuration (strategy, iterations, play-out policy; one
searching seat against the rung below it, or every seat searching) plays the same ``--games``
games on one numba thread through the engine's ``play_chunk``, compile time excluded,
``--repeats`` times; the figures are the medians of games per process CPU-second (this machine
is shared: CPU time does not count the time it gave to others) and per wall-clock second.
Parade plays 2 players against ``greedy``, Gift of Tulips 4 against ``greedy`` (its report's
ladder), at the ladder's iteration counts.

Joker Marbles (``--game marbles``) plays 4 players (its report's ladder), one searching seat
against three ``tuned`` (the rung below it) or every seat searching, with the play-out
policies and cut-offs of ``docs/strategies/marbles.md`` (its default ``[k,0.7,2,40]``: tuned
play-outs cut off after 40 turns; ``[k,0.7,1,0]``: greedy play-outs to the end).

    python benchmarks/search.py [--game parade tulips marbles] [--iterations 100 1000]
                                [--games 40] [--repeats 3] [--record]

Defaults per game: Parade and Gift of Tulips ``--iterations 100 1000 --games 40``, Joker
Marbles ``--iterations 100 300 1000 --games 8``. ``--record`` writes
``benchmarks/history/search/<date>-<commit>[-<games>].json``.
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

import numba

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from montecards.analysis.runs import prepare  # noqa: E402
from montecards.run.runner import play_chunk, warm_up  # noqa: E402

SEED = 20240917
TARGET = 20.0
"""Games per second per thread at 1,000 iterations, 2 players (Parade)."""

PLAYERS = {"parade": 2, "tulips": 4, "marbles": 4}
"""The player count each game is measured at."""


def configurations(iterations: list[int], players: int = 2) -> list[tuple[str, list[str]]]:
    """Parade's and Gift of Tulips' configurations (against ``greedy``)."""
    out = []
    others = ["greedy"] * (players - 1)
    for it in iterations:
        for name, playout in (("ismcts", 0), ("ismcts", 1), ("omniscient", 0)):
            label = f"{name}[{it},0.7,{playout}]"
            out.append((label + " vs greedy", [label, *others]))
        for playout in (0, 1):
            label = f"ismcts[{it},0.7,{playout}]"
            out.append(("every seat " + label, [label] * players))
    return out


def marbles_configurations(iterations: list[int], players: int = 4) -> list[tuple[str, list[str]]]:
    """Joker Marbles' configurations (the rung below ``ismcts`` is ``tuned``)."""
    out = []
    others = ["tuned"] * (players - 1)
    for it in iterations:
        for label in (f"ismcts[{it},0.7,2,40]", f"omniscient[{it},0.7,2,40]"):
            out.append((label + " vs tuned", [label, *others]))
        if it <= 100:
            for label in (f"ismcts[{it},0.7,1,40]", f"ismcts[{it},0.7,1,0]"):
                out.append((label + " vs tuned", [label, *others]))
        if it <= 300:
            label = f"ismcts[{it},0.7,2,40]"
            out.append(("every seat " + label, [label] * players))
    return out


PLANS = {"parade": (configurations, [100, 1000], 40), "tulips": (configurations, [100, 1000], 40),
         "marbles": (marbles_configurations, [100, 300, 1000], 8)}
"""Per game: its configurations, default iteration counts and games."""


def measure(seats: list[str], games: int, repeats: int, game: str = "parade") -> dict:
    players = len(seats)
    spec, config, _, _ = prepare(game, players, seats, None, SEED)
    warm_up(spec, config)
    cpu_rates, wall_rates, turns = [], [], 0
    for _ in range(repeats):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        rows = play_chunk(spec, config, 0, games)
        cpu_rates.append(games / (time.process_time() - cpu0))
        wall_rates.append(games / (time.perf_counter() - wall0))
        turns = int(rows[:, spec.layout(players).column("turns")].sum())
    return {
        "game": game,
        "players": players,
        "seats": seats,
        "games": games,
        "turns_per_game": turns / games,
        "cpu_games_per_s": statistics.median(cpu_rates),
        "wall_games_per_s": statistics.median(wall_rates),
        "cpu_games_per_s_repeats": cpu_rates,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", nargs="+", default=["parade", "tulips"], choices=sorted(PLAYERS))
    parser.add_argument("--iterations", type=int, nargs="+", default=None,
                        help="default: 100 1000 (Parade, Gift of Tulips), 100 300 1000 (Joker Marbles)")
    parser.add_argument("--games", type=int, default=None,
                        help="default: 40 (Parade, Gift of Tulips), 8 (Joker Marbles)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args(argv)
    numba.set_num_threads(1)
    results = []
    print(f"{'game':7s} {'configuration':44s} {'cpu games/s':>12s} {'wall games/s':>13s} {'turns':>6s}")
    for game in args.game:
        make, iterations, games = PLANS[game]
        for name, seats in make(args.iterations or iterations, PLAYERS[game]):
            r = measure(seats, args.games or games, args.repeats, game)
            r["configuration"] = name
            results.append(r)
            print(f"{game:7s} {name:44s} {r['cpu_games_per_s']:12.1f} {r['wall_games_per_s']:13.1f} "
                  f"{r['turns_per_game']:6.1f}", flush=True)
    for playout, words in ((0, "random play-outs, the default"), (1, "greedy play-outs")):
        label = f"ismcts[1000,0.7,{playout}]"
        for seats, who in (([label, "greedy"], "vs greedy"), ([label, label], "both seats")):
            key = next((r for r in results if r["seats"] == seats and r["game"] == "parade"), None)
            if key is not None:
                verdict = "meets" if key["cpu_games_per_s"] >= TARGET else "misses"
                print(f"target {TARGET:g} games per CPU-second on one thread: ismcts (1,000 iterations, "
                      f"{words}) {who}: {key['cpu_games_per_s']:.1f}, {verdict} it")
    if args.record:
        commit = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True).stdout.strip()
        out = ROOT / "benchmarks" / "history" / "search"
        out.mkdir(parents=True, exist_ok=True)
        now = datetime.datetime.now(datetime.UTC)
        games = "" if args.game == ["parade"] else "-" + "-".join(args.game)
        path = out / f"{now:%Y-%m-%d}-{commit}{games}.json"
        load = os.getloadavg()[0]
        path.write_text(json.dumps({"date": now.isoformat(), "commit": commit, "threads": 1,
                                    "load_average_1min": load, "results": results}, indent=1))
        print(f"recorded {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Time to decide (issue #32): move analysis of typical mid-game positions taken from traces, and a
whole game reviewed.

    python benchmarks/positions.py                       # Parade 2p: 50 positions, 1 review
    python benchmarks/positions.py -n 10 --no-review     # quicker
    python benchmarks/positions.py --record              # also write benchmarks/history/positions/*.json
    python benchmarks/positions.py --game wigout --players 4 -n 20 --unforced   # decisions with a choice
    python benchmarks/positions.py --game tulips --players 4 --record           # Gift of Tulips 4p
    python benchmarks/positions.py --game tulips --players 4 --evaluator ismcts --no-review   # the IS-MCTS root

For each of ``n`` games (``greedy`` on every seat, seeds 0, 1, ...) the middle play decision of
the trace (Gift of Tulips: the middle action) is analysed with the defaults (``rollout``,
``greedy`` play-outs, 3 SE stop or 200,000 play-outs, seed 0), after one untimed analysis that
loads the kernel. Recorded per position: wall and CPU seconds, play-outs, decided. The review
plays one whole game (seed 0, index 0) reviewed for every seat with ``review``'s defaults. Targets (issue #32): Parade 2p
<= 10 s a position, Gift of Tulips 4p <= 20 s; a whole 2p game reviewed <= 5 min.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def positions(game: str, players: int, n: int, unforced: bool = False) -> list:
    """The middle play decision of each of ``n`` traced games; ``unforced``: the middle one with
    more than one legal move (in Wig Out! most decisions have a single play: docs/positions.md)."""
    import montecards as mc

    out = []
    for seed in range(n):
        found = mc.trace(game, seed=seed, index=0, players=players).positions()
        plays = [p for p in found if p.decision in ("play", "action")  # Gift of Tulips: an action
                 and (not unforced or len(p.legal_moves()) > 1)]
        out.append(plays[len(plays) // 2])
    return out


def time_analyses(game: str, found: list, evaluator: str = "rollout") -> list[dict]:
    import montecards as mc

    mc.analyse(game, found[0], budget=1_000, evaluator=evaluator)  # load (or compile) the kernel, untimed
    rows = []
    for pos in found:
        wall, cpu = time.perf_counter(), time.process_time()
        result = mc.analyse(game, pos, seed=0, evaluator=evaluator)
        rows.append({"position": pos.to_string(), "seconds": time.perf_counter() - wall,
                     "cpu_seconds": time.process_time() - cpu, "evaluations": result.evaluations,
                     "decided": bool(result.decided), "best": result.best, "moves": len(result.moves)})
        print(f"  {len(rows)}/{len(found)}: {rows[-1]['seconds']:.1f} s, {result.evaluations:,} play-outs, "
              f"{len(result.moves)} moves, decided {result.decided}", flush=True)
    return rows


def summary(values: list[float]) -> dict:
    arr = np.asarray(values)
    return {"median": float(np.median(arr)), "p90": float(np.percentile(arr, 90)), "max": float(arr.max()),
            "mean": float(arr.mean())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="parade")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("-n", type=int, default=50, help="positions (one per traced game)")
    parser.add_argument("--no-review", action="store_true")
    parser.add_argument("--unforced", action="store_true",
                        help="the middle decision with more than one legal move (Wig Out!: most are forced)")
    parser.add_argument("--evaluator", choices=("rollout", "ismcts"), default="rollout",
                        help="rollout (play-outs) or the IS-MCTS root (evaluations: its iterations)")
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("MONTECARDS_NO_PROGRESS", "1")
    import montecards as mc

    load_before = os.getloadavg()
    rows = time_analyses(args.game, positions(args.game, args.players, args.n, args.unforced), args.evaluator)
    wall = summary([r["seconds"] for r in rows])
    cpu = summary([r["cpu_seconds"] for r in rows])
    decided = sum(r["decided"] for r in rows)
    print(f"{args.game} {args.players}p, {len(rows)} mid-game positions: seconds to decide median "
          f"{wall['median']:.2f}, p90 {wall['p90']:.2f}, max {wall['max']:.2f} "
          f"(CPU median {cpu['median']:.2f}, max {cpu['max']:.2f}); decided {decided}/{len(rows)}; "
          "play-outs median "
          f"{int(np.median([r['evaluations'] for r in rows])):,}")
    entry = {"game": args.game, "players": args.players, "unforced": args.unforced, "evaluator": args.evaluator,
             "positions": rows, "seconds": wall,
             "cpu_seconds": cpu, "decided": decided}
    if not args.no_review:
        events = mc.trace(args.game, seed=0, index=0, players=args.players)
        wall0, cpu0 = time.perf_counter(), time.process_time()
        review = mc.review(args.game, events)
        entry["review"] = {"seconds": time.perf_counter() - wall0, "cpu_seconds": time.process_time() - cpu0,
                           "decisions": len(review.decisions), "seats": review.seats}
        print(f"whole {args.players}p game reviewed for every seat: {entry['review']['seconds']:.1f} s "
              f"({entry['review']['cpu_seconds']:.1f} s CPU), {len(review.decisions)} decisions")
    entry["load_average"] = [load_before, os.getloadavg()]
    if args.record:
        commit = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "montecards"], cwd=ROOT,
                                    capture_output=True, text=True).stdout.strip())
        entry.update({"commit": commit, "dirty": dirty, "date": datetime.now(UTC).isoformat(),
                      "machine": {"cpu_count": os.cpu_count(), "python": platform.python_version()}})
        day = datetime.now(UTC).strftime("%Y-%m-%d")
        folder = ROOT / "benchmarks" / "history" / "positions"  # apart: history.py reads history/*.json
        folder.mkdir(exist_ok=True)
        path = folder / (
            f"positions-{args.game}{args.players}p{'-unforced' if args.unforced else ''}"
            f"{'-ismcts' if args.evaluator == 'ismcts' else ''}-{day}-{commit}"
            f"{'-dirty' if dirty else ''}.json")
        path.write_text(json.dumps(entry, indent=1))
        print(f"recorded {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

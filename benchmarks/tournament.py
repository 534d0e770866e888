"""Issue 31's throughput target: a round robin of 6 Parade strategies at 4 players — every lineup
(C(6, 4) = 15) in every seat rotation (4), 20,000 deals each: 1.2 million games — rated with
200 bootstrap draws, in at most 5 minutes on 2 cores. Searching players (``rollout``,
``ismcts``, ``omniscient``) are left out.

    python benchmarks/tournament.py [--deals N] [--jobs J] [--checkpoint DIR]

Prints the wall time of the whole call (kernels warm: one small tournament first compiles
every entrant's kernel), the time spent rating (the fit and its bootstrap), the machine load
before and after, and the ratings table.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import montecards as mc  # noqa: E402

ENTRANTS = [
    "random",
    "greedy",
    "tuned",
    "weighted[-1,-0.3,0,0,0,0,0,0,0,0,0,0,0,-1,0]",  # greedy plus a price per card taken
    "weighted[-1,0.3,0,0,0,0,0,0,0,0,0,0,0,-1,0]",  # greedy plus a liking for cards
    "weighted[-1,0,0,0,0,0,0,0.2,0,0,0,0,0,-1,0]",  # greedy that plays high cards first
]
TARGET_SECONDS = 300.0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--checkpoint", default=None)
    args = parser.parse_args(argv)
    mc.tournament("parade", ENTRANTS, players=4, n=50, seed=1, jobs=args.jobs, bootstrap=2)  # compile
    load = os.getloadavg()
    start = time.perf_counter()
    res = mc.tournament("parade", ENTRANTS, players=4, n=args.deals, seed=31, jobs=args.jobs,
                        checkpoint=args.checkpoint)
    wall = time.perf_counter() - start
    fit_start = time.perf_counter()
    from montecards.analysis.ratings import fit

    fit(res.ratings.observations, bootstrap=200, seed=0)
    fit_wall = time.perf_counter() - fit_start
    print(res.text())
    print(f"\n{len(res.lineups)} lineups x 4 rotations x {args.deals:,} deals = {res.games_played:,} games "
          f"in {wall:.1f} s wall ({res.games_played / wall:,.0f} games/s; rating with 200 bootstrap draws "
          f"{fit_wall:.1f} s); load average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f}; "
          f"{os.cpu_count()} cores; target <= {TARGET_SECONDS:.0f} s: "
          f"{'met' if wall <= TARGET_SECONDS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

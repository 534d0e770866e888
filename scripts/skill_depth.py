"""Each game's skill depth at its default player count: a round robin of its non-searching
built-ins (Anomia: skill levels theta = 0, 0.5, 1), rated on the Elo scale with 200 bootstrap
draws over deals (docs/ratings.md, "Skill depth"). One JSON line per game.

    python scripts/skill_depth.py [DEALS]      # deals per lineup, default 3,000; seed 31
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import montecards as mc  # noqa: E402

RUNS = [
    ("parade", 2, ["random", "greedy", "tuned"]),
    ("wigout", 4, ["random", "greedy", "singles_first", "tuned"]),
    ("tulips", 4, ["random", "greedy", "majority", "tuned"]),
    ("marbles", 4, ["random", "greedy", "aggressive", "tuned"]),
    ("anomia", 4, ["theta=0", "theta=0.5", "theta=1"]),
]


def main(argv: list[str]) -> int:
    deals = int(argv[0]) if argv else 3_000
    for game, players, entrants in RUNS:
        start = time.time()
        res = mc.tournament(game, entrants, players=players, n=deals, seed=31, bootstrap=200, progress=False)
        print(json.dumps({"game": game, "players": players, "lineups": len(res.lineups),
                          "games": res.games_played, "ratings": res.to_dict()["ratings"],
                          "depth": res.depth(), "cycles": res.cycles(),
                          "seconds": round(time.time() - start, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

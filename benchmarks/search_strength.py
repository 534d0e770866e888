"""One searching seat against three of an opponent (Joker Marbles, 4 players), every seat
rotation: the win share of the first strategy with its 95 % interval, and games per CPU-second.

    python benchmarks/search_strength.py DEALS OPPONENT STRATEGY [STRATEGY ...]

e.g. ``python benchmarks/search_strength.py 25 tuned 'ismcts[300,0.7,2,40]'`` plays 25 deals
(seeds 100..103, one per rotation) x 4 seatings. The figures of docs/strategies/marbles.md
("The built-in searches") come from it. One numba thread.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import montecards as mc  # noqa: E402

PLAYERS = 4


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__)
        return 2
    deals, opponent = int(argv[0]), argv[1]
    numba.set_num_threads(1)
    for strategy in argv[2:]:
        cpu = time.process_time()
        shares = []
        for seat in range(PLAYERS):
            seats = [opponent] * PLAYERS
            seats[seat] = strategy
            res = mc.simulate("marbles", n=deals, seed=100 + seat, players=PLAYERS, strategies=seats,
                              jobs=1, keep_games=True)
            shares.append(res.games[f"win_{seat}"].to_numpy(float))
        s = np.concatenate(shares)
        half = 1.96 * s.std(ddof=1) / np.sqrt(s.size)
        rate = s.size / (time.process_time() - cpu)
        print(f"{strategy:28s} vs {opponent:8s} {s.mean():.3f} ± {half:.3f}  ({s.size} games, "
              f"{rate:.2f} games/cpu-s incl. compile)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

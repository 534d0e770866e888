"""What a coefficient on the luck would add (issue #30; docs/luck.md "When variance reduction pays").

``--luck`` estimates a win share by the mean of ``result − luck`` (the ledger's luck-adjusted
result). Any ``result − β · luck`` is unbiased too as long as β does not depend on the game it
multiplies (the luck has mean 0 given everything before it); the β of least variance is
``cov(result, luck) / var(luck)``, 1 only for a perfect V. **Cross-fitted**, β from the other
half of the games, the estimate stays exactly unbiased. This prints, for the first seat, the
variance ratio with β = 1 (what ``--luck`` gives) and with the cross-fitted β, on the same games.

    python benchmarks/luck_coefficient.py --case marbles:2:greedy:6000 --case parade:2:greedy:20000 [--record]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import montecards as mc  # noqa: E402

SEED = 11


def beta(result: np.ndarray, luck: np.ndarray) -> float:
    return float(np.cov(result, luck)[0, 1] / luck.var(ddof=1))


def case(game: str, players: int, lineup: str, n: int, jobs: int) -> dict:
    games = mc.simulate(game, n=n, players=players, strategies=lineup, seed=SEED, luck=True,
                        keep_games=True, jobs=jobs).games
    w, luck = games["win_0"].to_numpy(), games["luck_0"].to_numpy()
    h = n // 2
    b = (beta(w[:h], luck[:h]), beta(w[h:], luck[h:]))
    crossed = np.concatenate([w[:h] - b[1] * luck[:h], w[h:] - b[0] * luck[h:]])
    return {"game": game, "players": players, "lineup": lineup, "games": n, "seed": SEED,
            "ratio_beta_1": float(w.var() / (w - luck).var()), "beta_halves": b,
            "ratio_cross_fitted": float(w.var() / crossed.var()), "win_share": float(w.mean()),
            "adjusted_beta_1": float((w - luck).mean()), "adjusted_cross_fitted": float(crossed.mean())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", required=True, metavar="GAME:PLAYERS:LINEUP:GAMES")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    results = []
    for text in args.case:
        game, players, lineup, n = text.split(":")
        r = case(game, int(players), lineup, int(n), args.jobs)
        results.append(r)
        print(f"{game} {players}p {lineup}, {int(n):,} games: ratio {r['ratio_beta_1']:.3f} with beta = 1, "
              f"{r['ratio_cross_fitted']:.3f} cross-fitted (beta {r['beta_halves'][0]:.2f}, "
              f"{r['beta_halves'][1]:.2f})", flush=True)
    if args.record:
        from benchmarks.core import luck_recorder

        luck_recorder("luck-coefficient")({"command": " ".join(["python"] + sys.argv), "results": results})

if __name__ == "__main__":
    main()

"""The luck ledger's variance reduction and what it costs (issue #30; docs/luck.md).

For each lineup, the same games are played twice on one numba thread through the engine's
``play_chunk``, compile time excluded: plain, and with the luck ledger (``--luck``). Reported:

* ``variance_ratio``: on the first seat's win share, the variance of the plain per-game result
  over that of the luck-adjusted result, on the same games (how many times fewer games the
  adjusted estimate needs);
* games per process CPU-second, plain and with luck, and their quotient, the cost per game;
* ``effective_precision``: ``variance_ratio x (games/cpu-s with luck) / (games/cpu-s plain)``,
  precision per CPU-second against playing more plain games (above 1: ``--luck`` pays);
* the unbiasedness check: the mean luck of the first seat with its standard error (the
  adjusted and plain means differ by exactly it; it must be within ~2 standard errors of 0).

    python benchmarks/luck_ledger.py [--lineup greedy tuned "ismcts[1000]"] [--games N] [--record]
    python benchmarks/luck_ledger.py --lineup greedy --games 1000000   # the 10^6-game unbiasedness check

``--games`` applies to the cheap lineups; the searches play ``--search-games``. ``--record``
writes ``benchmarks/history/luck/<date>-<commit>.json``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from montecards.analysis.runs import prepare  # noqa: E402
from montecards.engine.spec import WIN_UNIT  # noqa: E402
from montecards.engine.value import LUCK_UNIT  # noqa: E402
from montecards.run.runner import config_layout, play_chunk  # noqa: E402

SEED = 20261202


def timed(spec, config, n: int) -> tuple[np.ndarray, float]:
    """The rows of games 0 .. n - 1 and the process CPU seconds they took (after a warm-up)."""
    play_chunk(spec, config, 0, 1)
    start = time.process_time()
    rows = play_chunk(spec, config, 0, n)
    return rows, time.process_time() - start


def measure(game: str, players: int, lineup: str, n: int) -> dict:
    spec, plain, labels, _ = prepare(game, players, lineup, None, SEED)
    _, lucky, _, _ = prepare(game, players, lineup, None, SEED, luck=True)
    rows_plain, cpu_plain = timed(spec, plain, n)
    rows_luck, cpu_luck = timed(spec, lucky, n)
    layout = config_layout(spec, lucky)
    base = spec.layout(players)
    assert (rows_luck[:, : base.width] == rows_plain).all(), "a run with luck must play the same games"
    win = rows_luck[:, layout.seat_slice("win")][:, 0] / WIN_UNIT
    adjusted = rows_luck[:, layout.seat_slice("adjusted")][:, 0] / LUCK_UNIT
    luck = rows_luck[:, layout.seat_slice("luck")][:, 0] / LUCK_UNIT
    ratio = float(win.var() / adjusted.var())
    gps_plain, gps_luck = n / cpu_plain, n / cpu_luck
    return {
        "game": game, "players": players, "lineup": labels, "games": n, "seed": SEED,
        "value": lucky.luck_source,
        "win_share": float(win.mean()), "win_share_adjusted": float(adjusted.mean()),
        "mean_luck": float(luck.mean()), "mean_luck_se": float(luck.std(ddof=1) / np.sqrt(n)),
        "variance_ratio": ratio,
        "cpu_games_per_s_plain": gps_plain, "cpu_games_per_s_luck": gps_luck,
        "cost_per_game": gps_plain / gps_luck,
        "effective_precision": ratio * gps_luck / gps_plain,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="parade")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--lineup", nargs="+", default=["greedy", "tuned", "ismcts[1000]"])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--search-games", type=int, default=300)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    numba.set_num_threads(1)
    results = []
    for lineup in args.lineup:
        n = args.search_games if lineup.startswith(("ismcts", "omniscient", "rollout")) else args.games
        r = measure(args.game, args.players, lineup, n)
        results.append(r)
        z = r["mean_luck"] / r["mean_luck_se"]
        print(f"{args.game} {args.players}p {lineup:>14}: {n:>8,} games  ratio {r['variance_ratio']:.3f}  "
              f"plain {r['cpu_games_per_s_plain']:,.0f} g/cpu-s  "
              f"luck {r['cpu_games_per_s_luck']:,.1f} g/cpu-s  "
              f"cost x{r['cost_per_game']:,.1f}  effective precision {r['effective_precision']:.3f}  "
              f"mean luck {r['mean_luck']:+.5f} (z {z:+.2f}): win {r['win_share']:.4f} "
              f"adjusted {r['win_share_adjusted']:.4f}", flush=True)
    if args.record:
        from benchmarks.core import luck_recorder

        luck_recorder(args.game)({"results": results})


if __name__ == "__main__":
    main()


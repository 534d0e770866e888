"""The luck-adjusted estimate's two statistical checks, on many games (issue #30; docs/luck.md).

* **Unbiasedness**: over ``--games`` games (10^6 in the issue) with the luck ledger, the mean
  luck of every seat, with its standard error and z score. The luck-adjusted and the plain mean
  differ by exactly the mean luck, so "the two means agree within their intervals" is "the mean
  luck is within about 2 standard errors of 0". Its standard error is that of the luck alone,
  smaller than either mean's, so this is a sharper check than comparing the two intervals.
* **Coverage**: ``--runs`` small runs of ``--run-games`` games each (the games of another seed,
  run r playing games ``r * m .. (r + 1) * m - 1``), each giving the first seat's luck-adjusted
  95 % interval as ``simulate --luck`` does (``analysis.results.luck_estimates``), against the
  truth: the plain first-seat win share of ``--truth-games`` games of a third seed (plain games
  are cheap; its own standard error is printed). About 95 % of the intervals should cover it;
  the plain intervals of the same runs are counted beside them. Each run's error over its
  standard error (its z score) is recorded too: their standard deviation is 1 when the
  intervals are as wide as they should be, a sharper reading than the count of covers.

    python benchmarks/luck_checks.py --game anomia --players 4 --lineup default [--record]
    python benchmarks/luck_checks.py --game tulips --players 4 --lineup greedy tuned --games 1000000
    python benchmarks/luck_checks.py --game anomia --players 4 --lineup default --param theta=0.5,0,0,0

``--record`` writes ``benchmarks/history/luck/<date>-<commit>-checks-<game>.json``. The games
run on ``--threads`` threads (the engine's block pool); each lineup's figures print as they come.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from montecards.analysis.intervals import mean_interval  # noqa: E402
from montecards.analysis.results import luck_estimates  # noqa: E402
from montecards.analysis.runs import prepare  # noqa: E402
from montecards.cli_common import parse_params  # noqa: E402
from montecards.engine.spec import WIN_UNIT  # noqa: E402
from montecards.engine.value import LUCK_UNIT  # noqa: E402
from montecards.run.runner import config_layout, play_chunk  # noqa: E402

SEED = 20261206
Z95 = 1.959964  # the normal 95 % quantile of the intervals
CHUNK = 50_000


def columns(rows: np.ndarray, layout, name: str, unit: int) -> np.ndarray:
    return rows[:, layout.seat_slice(name)] / unit


def unbiasedness(
    game: str, players: int, lineup: str, n: int, params: dict | None = None, seed: int = SEED
) -> dict:
    spec, config, labels, _ = prepare(game, players, lineup, params, seed, luck=True)
    layout = config_layout(spec, config)
    sums = np.zeros((3, players))  # win, adjusted, luck
    squares = np.zeros(players)
    start = time.time()
    for first in range(0, n, CHUNK):
        rows = play_chunk(spec, config, first, min(CHUNK, n - first))
        luck = columns(rows, layout, "luck", LUCK_UNIT)
        sums[0] += columns(rows, layout, "win", WIN_UNIT).sum(axis=0)
        sums[1] += columns(rows, layout, "adjusted", LUCK_UNIT).sum(axis=0)
        sums[2] += luck.sum(axis=0)
        squares += (luck**2).sum(axis=0)
    mean_luck = sums[2] / n
    se = np.sqrt((squares / n - mean_luck**2) * n / (n - 1) / n)
    return {
        "lineup": labels,
        "games": n,
        "seed": seed,
        "value": config.luck_source,
        "win_share": (sums[0] / n).tolist(),
        "win_share_adjusted": (sums[1] / n).tolist(),
        "mean_luck": mean_luck.tolist(),
        "mean_luck_se": se.tolist(),
        "z": (mean_luck / se).tolist(),
        "seconds": time.time() - start,
    }


def coverage(
    game: str,
    players: int,
    lineup: str,
    runs: int,
    m: int,
    truth_games: int,
    params: dict | None = None,
    seed: int = SEED,
) -> dict:
    spec, plain, _, _ = prepare(game, players, lineup, params, seed + 1)
    base = spec.layout(players)
    wins = []
    for first in range(0, truth_games, 20 * CHUNK):
        rows = play_chunk(spec, plain, first, min(20 * CHUNK, truth_games - first))
        wins.append(rows[:, base.seat_slice("win")][:, 0] / WIN_UNIT)
    win = np.concatenate(wins)
    truth, truth_se = float(win.mean()), float(win.std(ddof=1) / math.sqrt(win.shape[0]))
    spec, lucky, _, _ = prepare(game, players, lineup, params, seed + 2, luck=True)
    layout = config_layout(spec, lucky)
    covered_adjusted = covered_plain = 0
    half_adjusted, half_plain = [], []
    z_adjusted, z_plain = [], []  # (estimate - truth) / its standard error: about N(0, 1)
    for r in range(runs):
        rows = play_chunk(spec, lucky, r * m, m)
        w = columns(rows, layout, "win", WIN_UNIT)[:, 0]
        est = luck_estimates(w, columns(rows, layout, "adjusted", LUCK_UNIT)[:, 0])
        low, high = est["win_share_adjusted_low"], est["win_share_adjusted_high"]
        covered_adjusted += low <= truth <= high
        half_adjusted.append((high - low) / 2)
        z_adjusted.append((est["win_share_adjusted"] - truth) / ((high - low) / 2 / Z95))
        pmean, plow, phigh = mean_interval(w)
        covered_plain += plow <= truth <= phigh
        half_plain.append((phigh - plow) / 2)
        z_plain.append((pmean - truth) / ((phigh - plow) / 2 / Z95))
    return {
        "seed": seed,
        "truth": truth,
        "truth_se": truth_se,
        "truth_games": truth_games,
        "runs": runs,
        "run_games": m,
        "covered_adjusted": covered_adjusted,
        "covered_plain": covered_plain,
        "half_width_adjusted": float(np.mean(half_adjusted)),
        "half_width_plain": float(np.mean(half_plain)),
        # the spread of the runs' z scores: 1 when the intervals are as wide as they should be
        "z_mean_adjusted": float(np.mean(z_adjusted)),
        "z_sd_adjusted": float(np.std(z_adjusted, ddof=1)),
        "z_mean_plain": float(np.mean(z_plain)),
        "z_sd_plain": float(np.std(z_plain, ddof=1)),
    }


def binomial_interval(k: int, n: int) -> tuple[float, float]:
    """Wilson's 95 % interval of a proportion."""
    z = Z95
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="parade")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--lineup", nargs="+", default=["greedy"])
    parser.add_argument(
        "--games", type=int, default=1_000_000, help="games of the unbiasedness check (0: skip it)"
    )
    parser.add_argument("--runs", type=int, default=200, help="runs of the coverage check (0: skip it)")
    parser.add_argument("--run-games", type=int, default=2_000)
    parser.add_argument("--truth-games", type=int, default=10_000_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule parameter, as simulate's --param (e.g. Anomia's theta=1,0,0,0)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=SEED,
        help="the 10^6 games' seed; the truth's is seed + 1, the coverage runs' seed + 2",
    )
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    params = parse_params(tuple(args.param)) or None
    numba.set_num_threads(args.threads)
    results: list[dict] = []
    record = recorder(args) if args.record else None
    for lineup in args.lineup:
        # --games 0: the coverage alone (the 10^6 games already run, e.g. in an earlier session)
        u = (
            unbiasedness(args.game, args.players, lineup, args.games, params, args.seed)
            if args.games
            else None
        )
        results.append({"unbiasedness": u})
        if u is not None:
            print(
                f"{args.game} {args.players}p {lineup}: {args.games:,} games with luck "
                f"({u['seconds']:.0f} s); "
                "mean luck per seat (z): "
                + ", ".join(f"{m:+.5f} ({z:+.2f})" for m, z in zip(u["mean_luck"], u["z"], strict=True)),
                flush=True,
            )
            if record:  # written after each stage: a long run stopped later keeps what it measured
                record(results)
        if not args.runs:
            continue
        c = coverage(
            args.game, args.players, lineup, args.runs, args.run_games, args.truth_games, params, args.seed
        )
        lo, hi = binomial_interval(c["covered_adjusted"], c["runs"])
        plo, phi = binomial_interval(c["covered_plain"], c["runs"])
        print(
            f"  coverage of the first seat's truth {c['truth']:.4f} (se {c['truth_se']:.5f}, "
            f"{c['truth_games']:,} plain games) by {c['runs']} runs of {c['run_games']:,}: adjusted "
            f"{c['covered_adjusted']}/{c['runs']} [{100 * lo:.1f}, {100 * hi:.1f} %] "
            f"(half width {c['half_width_adjusted']:.4f}), plain {c['covered_plain']}/{c['runs']} "
            f"[{100 * plo:.1f}, {100 * phi:.1f} %] (half width {c['half_width_plain']:.4f}); "
            "the runs' z scores: "
            f"adjusted mean {c['z_mean_adjusted']:+.3f} sd {c['z_sd_adjusted']:.3f}, plain mean "
            f"{c['z_mean_plain']:+.3f} sd {c['z_sd_plain']:.3f} (sd 1: intervals as wide as they should be)",
            flush=True,
        )
        results[-1]["coverage"] = c
        if record:
            record(results)


def recorder(args):
    """A function writing the results so far to ``benchmarks/history/luck/<date>-<commit>-checks-
    <game>-<players>p[-param][-seedS].json`` (one file per invocation, rewritten after each stage)."""
    from benchmarks.core import luck_recorder

    variant = "".join("-" + p.split("=")[0] for p in args.param)  # e.g. -theta
    variant += f"-seed{args.seed}" if args.seed != SEED else ""
    write = luck_recorder(f"checks-{args.game}-{args.players}p{variant}")
    return lambda results: write(
        {"game": args.game, "players": args.players, "params": args.param, "results": results}
    )


if __name__ == "__main__":
    from montecards.errors import InputError

    try:
        main()
    except InputError as error:  # bad input: one line, exit 2
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)

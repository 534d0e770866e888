"""How much the deal decides, and whether duplicate deals pay (issue 30; docs/luck.md).

Two measurements, every registered game at its default player count, ``greedy`` in every seat:

* ``deal-share``: ``montecards luck GAME -n DEALS --replays K --json -j 2`` in a subprocess,
  once to compile (timed apart) and once timed: the deal's share with its interval, the
  interval's half-width and the wall time. Target: +-2 pp in <= 2 minutes on 2 cores.
Anomia has no ``greedy``: it plays its only strategy, ``default``.

* ``duplicate``: the variance ratio of the first seat's win share, plain against duplicate
  deals, on the same number of games N: plain plays games 0 .. N - 1; duplicate plays N / P
  deals in each of the P rotations of their hands (``deal=(-1, r)``). The ratio is
  ``(Var(win_0) / N) / (Var_d(mean over rotations of win_0) / (N / P))``, with a bootstrap
  interval over games and deals.

    python benchmarks/luck.py deal-share [--games parade ...] [--deals 4000] [--replays 8] [--record]
                                         [--plot shares.png]
    python benchmarks/luck.py duplicate [--games parade ...] [--n 48000] [--record]

``--record`` writes ``benchmarks/history/luck/<date>-<commit>-<what>.json`` (the command, the
machine's load and every figure).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def deal_share(games: list[str], deals: int, replays: int, seed: int, jobs: int) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), MONTECARDS_NO_PROGRESS="1")
    out = []
    for game in games:
        command = [sys.executable, "-m", "montecards", "luck", game, "-n", str(deals),
                   "--replays", str(replays), "--seed", str(seed), "-j", str(jobs), "--json"]
        start = time.perf_counter()
        subprocess.run(command[:5] + ["-n", "20", "--replays", "2", "--json"], env=env, check=True,
                       capture_output=True)
        compile_s = time.perf_counter() - start
        start = time.perf_counter()
        done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
        wall = time.perf_counter() - start
        res = json.loads(done.stdout)
        row = {
            "game": game, "players": res["players"], "strategies": res["strategies"],
            "command": " ".join(["montecards"] + command[3:]),
            "deals": deals, "replays": replays, "n_games": res["n_games"],
            "deal_share": res["deal_share"], "deal_share_low": res["deal_share_low"],
            "deal_share_high": res["deal_share_high"],
            "half_width": (res["deal_share_high"] - res["deal_share_low"]) / 2,
            "clipped": res["deal_share_clipped"],
            "span": res["deal_win_rate_span"], "null_span": res["null_win_rate_span"],
            "trimmed_span": res["deal_win_rate_trimmed_span"],
            "null_trimmed_span": res["null_win_rate_trimmed_span"],
            "entropy": res["deal_win_rate_entropy"], "null_entropy": res["null_win_rate_entropy"],
            "wall_seconds": wall, "first_run_seconds_with_compile": compile_s,
        }
        print(f"{game:8s} {row['players']}p deal share {100 * row['deal_share']:5.2f} % "
              f"[{100 * row['deal_share_low']:5.2f}, {100 * row['deal_share_high']:5.2f}] "
              f"(+-{100 * row['half_width']:.2f} pp) in {wall:5.1f} s (first run {compile_s:.0f} s)",
              flush=True)
        out.append(row)
    return out


def duplicate(games: list[str], n: int, seed: int, jobs: int) -> list[dict]:
    from montecards import games as registry
    from montecards.analysis.runs import setup
    from montecards.engine.spec import WIN_UNIT

    out = []
    rng = np.random.default_rng(0)
    for game in games:
        strategy = "greedy" if "greedy" in registry.get(game).strategies else None  # Anomia: its default
        base = setup(game, None, strategy, None, seed, jobs)
        players = base.players
        deals = n // players
        win = base.layout.seat_slice("win")
        start = time.perf_counter()
        _, rows = base.play(0, deals * players, keep=True)
        plain = rows[:, win][:, 0] / WIN_UNIT
        plain_s = time.perf_counter() - start
        start = time.perf_counter()
        per_deal = np.zeros(deals)
        for r in range(players):
            run = replace(base, config=replace(base.config, deal=(-1, r)), _warm=False)
            _, rows = run.play(0, deals, keep=True)
            per_deal += rows[:, win][:, 0] / WIN_UNIT / players
        dup_s = time.perf_counter() - start

        def ratio(a, b):
            return (a.var(ddof=1) / a.size) / (b.var(ddof=1) / b.size)

        boot = [ratio(plain[rng.integers(0, plain.size, plain.size)],
                      per_deal[rng.integers(0, deals, deals)]) for _ in range(400)]
        row = {
            "game": game, "players": players, "strategy": base.strategies[0], "n_games": deals * players,
            "deals": deals, "plain_win_share": float(plain.mean()),
            "duplicate_win_share": float(per_deal.mean()),
            "plain_se": float(np.sqrt(plain.var(ddof=1) / plain.size)),
            "duplicate_se": float(np.sqrt(per_deal.var(ddof=1) / deals)),
            "variance_ratio": float(ratio(plain, per_deal)),
            "variance_ratio_low": float(np.quantile(boot, 0.025)),
            "variance_ratio_high": float(np.quantile(boot, 0.975)),
            "plain_seconds": plain_s, "duplicate_seconds": dup_s,
        }
        print(f"{game:8s} {players}p variance ratio {row['variance_ratio']:.3f} "
              f"[{row['variance_ratio_low']:.3f}, {row['variance_ratio_high']:.3f}] "
              f"(first seat {row['plain_win_share']:.4f} +- {1.96 * row['plain_se']:.4f} plain, "
              f"{row['duplicate_win_share']:.4f} +- {1.96 * row['duplicate_se']:.4f} duplicate; "
              f"{deals * players:,} games each)", flush=True)
        out.append(row)
    return out


def main() -> None:
    from montecards import games as registry

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["deal-share", "duplicate"])
    parser.add_argument("--games", nargs="+", default=registry.names())
    parser.add_argument("--deals", type=int, default=4_000)
    parser.add_argument("--replays", type=int, default=8)
    parser.add_argument("--n", type=int, default=48_000, help="games per configuration (duplicate)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--plot", default=None,
                        help="deal-share: the games' shares side by side, to this PNG")
    args = parser.parse_args()
    load_before = os.getloadavg()
    if args.what == "deal-share":
        results = deal_share(args.games, args.deals, args.replays, args.seed, args.jobs)
        if args.plot:
            from types import SimpleNamespace

            from montecards.plots import deal_shares, save

            titles = {name: registry.get(name).title for name in args.games}
            save(deal_shares([SimpleNamespace(title=f"{titles[r['game']]} ({r['players']}p)", **r)
                              for r in results]), args.plot)
    else:
        results = duplicate(args.games, args.n, args.seed, args.jobs)
    if args.record:
        folder = ROOT / "benchmarks" / "history" / "luck"
        folder.mkdir(parents=True, exist_ok=True)
        now = datetime.datetime.now(datetime.UTC)
        path = folder / f"{now.date()}-{commit()}-{args.what}.json"
        path.write_text(json.dumps({
            "date": now.isoformat(), "commit": commit(),
            "command": "python benchmarks/luck.py " + " ".join(sys.argv[1:]),
            "cores": os.cpu_count(), "jobs": args.jobs, "load_before": load_before,
            "load_after": os.getloadavg(),
            "results": results,
        }, indent=1))
        print(f"recorded {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

"""How much of a search lineup's outcome is the searches' own random numbers (issue #30,
docs/luck.md "When variance reduction pays").

Every game of a run draws its cards from the streams of ``(seed, index)``, and each search
decision from the search key ``(seed, index)`` too (``engine.search.set_key``). This benchmark
plays ``--deals`` games ``--replays`` K times each with **every card the same** and the
searches' random numbers independent: replay k of game d is game ``d + k * 2**32``, whose card
streams read the index modulo 2**32. Nothing in the package does that (a replay of
``montecards luck`` keeps the deal and the searches' key, and redraws the rest), so the script
checks out the commit into a temporary worktree, changes the lines of the game's kernel that
seed its card and choice streams from ``(seed, index)`` (its ``seed_game``), and plays there (a
first run compiles the patched kernel, a few minutes). With ``greedy`` (no randomness of its
own) every replay is the same game: the script's own check.

The split (seat 0's win share y[d, k]): ``within`` = mean over d of the variance over k (what
the searches' numbers add with the cards fixed) against the total variance. A correction that
reads the cards alone (any function of them, subtracted with its mean) leaves at least
``within``: its variance ratio is at most ``total / within``, printed with a bootstrap
interval over deals.

    python benchmarks/search_noise.py --game parade --players 2 --lineup ismcts --deals 1000 --replays 4
    python benchmarks/search_noise.py --game tulips --players 4 --lineup ismcts --deals 400 --record
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SEED = 20261207

# a game's card and choice streams, seeded from the game's index in its kernel (its ``seed_game``)
STREAM = re.compile(r"seed_stream\((\w+(?:\[\d+\])?), seed, index, ")
CARD_ONLY = r"seed_stream(\1, seed, index & 0xFFFFFFFF, "

PLAY = textwrap.dedent("""
    import sys, numpy as np
    from montecards.analysis.runs import prepare
    from montecards.engine.spec import WIN_UNIT
    from montecards.run.runner import play_chunk
    game, players, lineup, deals, replays, seed, out = sys.argv[1:]
    spec, config, _, _ = prepare(game, int(players), lineup, None, int(seed))
    seats = spec.layout(int(players)).seat_slice("win")
    y = np.stack([play_chunk(spec, config, k << 32, int(deals))[:, seats] / WIN_UNIT
                  for k in range(int(replays))], axis=1)
    np.save(out, y)
""")


def split(y: np.ndarray) -> tuple[float, float]:
    """(total variance, mean within-deal variance) of y[deal, replay]."""
    return float(y.reshape(-1).var(ddof=1)), float(y.var(axis=1, ddof=1).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="parade")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--lineup", default="ismcts")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--replays", type=int, default=4)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    if not (ROOT / "montecards" / "games" / args.game / "kernel.py").is_file():
        parser.error(f"no game {args.game!r} (montecards/games/{args.game}/kernel.py)")
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(tree), commit], cwd=ROOT, check=True)
        try:
            kernel = tree / "montecards" / "games" / args.game / "kernel.py"
            text, count = STREAM.subn(CARD_ONLY, kernel.read_text())
            if not count:
                sys.exit(f"error: {kernel.relative_to(tree)} seeds no stream from (seed, index): see STREAM")
            kernel.write_text(text)
            out = Path(tmp) / "y.npy"
            start = time.time()
            subprocess.run(
                [
                    sys.executable,
                    "-c",
                    PLAY,
                    args.game,
                    str(args.players),
                    args.lineup,
                    str(args.deals),
                    str(args.replays),
                    str(SEED),
                    str(out),
                ],
                cwd=tree,
                env=dict(os.environ, PYTHONPATH=str(tree), MONTECARDS_NO_PROGRESS="1"),
                check=True,
            )
            seconds = time.time() - start
            y = np.load(out)[:, :, 0]
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    total, within = split(y)
    if within == 0:  # greedy and the other deterministic lineups: every replay the same game
        print(
            f"{args.game} {args.players}p {args.lineup}: every replay of each of {args.deals} deals is "
            f"the same game (total variance {total:.4f}, none with the cards fixed)"
        )
        return
    rng = np.random.default_rng(1)
    ratios = [np.divide(*split(y[rng.integers(0, len(y), len(y))])) for _ in range(2000)]
    low, high = np.percentile(ratios, [2.5, 97.5])
    print(
        f"{args.game} {args.players}p {args.lineup}: {args.deals} deals x {args.replays} replays "
        f"({seconds:.0f} s): seat 0 win share {y.mean():.4f}; total variance {total:.4f}, with the cards "
        f"fixed {within:.4f} ({100 * within / total:.1f} %); a correction reading the cards alone: "
        f"variance ratio at most {total / within:.3f} [{low:.3f}, {high:.3f}]"
    )
    if args.record:
        from benchmarks.core import luck_recorder

        lineup = re.sub(r"[^A-Za-z0-9]+", "-", args.lineup).strip("-")
        luck_recorder(f"search-noise-{args.game}-{args.players}p-{lineup}", dirty_counts=False)(
            {
                "command": " ".join(["python"] + sys.argv),
                "game": args.game,
                "players": args.players,
                "lineup": args.lineup,
                "seed": SEED,
                "deals": args.deals,
                "replays": args.replays,
                "seconds": seconds,
                "seat0_win_share": float(y.mean()),
                "total_variance": total,
                "within_variance": within,
                "within_share": within / total,
                "ratio_bound": total / within,
                "ratio_bound_low": float(low),
                "ratio_bound_high": float(high),
            }
        )

if __name__ == "__main__":
    main()

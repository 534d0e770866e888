"""Gift of Tulips' set-up split played on from its position: a measured sanity check (issue #32).

``greedy``'s own traced set-up splits (games 0 .. N-1 of the run with ``--seed``), each evaluated
from the seat's set-up position by the analysis' play-on (``position.evaluate``: the other seats'
hands and the undrawn cards dealt from the seat's unseen cards, the other seats splitting by
``greedy``, ``greedy`` everywhere after), averaged per seat, beside the traced games' own win
shares. The play-on plays the game the kernel plays, so both estimate greedy's per-seat win share.

    python benchmarks/tulips_setup.py --players 4 --games 1000 --determinizations 100 --seed 11
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--determinizations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 6 or args.games < 1 or args.determinizations < 1 or args.seed < 0:
        print("tulips_setup: --players 2..6, --games and --determinizations >= 1, --seed >= 0",
              file=sys.stderr)
        return 2

    import montecards as mc
    from montecards.analysis import moves
    from montecards.games.tulips import position as P

    players, n = args.players, args.games
    spec = mc.games.get("tulips")
    played = np.zeros((n, players))
    traced = np.zeros((n, players))
    for i in range(n):
        events = mc.trace("tulips", seed=args.seed, index=i, players=players)
        record = events.record()
        outcome = events.attrs["outcome"]
        for s, pos in enumerate(events.positions()[:players]):
            split = record["actions"][s].partition(":")[2]
            state = P.State.from_position(pos, seed=i)
            codes, params, options = moves._seat_codes(spec, players, s, "greedy", "greedy", pos.rules)
            played[i, s] = P.evaluate(state, s, [split], codes, params, options, i, 0, args.determinizations,
                                      True).mean()
            traced[i, s] = outcome[f"win_{s}"]
    for name, rows in (("play-on from the set-up position", played), ("the traced games", traced)):
        mean = rows.mean(axis=0)
        half = 1.96 * rows.std(axis=0, ddof=1) / np.sqrt(n)
        cells = ", ".join(f"seat {s} {100 * m:.1f} % ± {100 * h:.1f}"
                          for s, (m, h) in enumerate(zip(mean, half, strict=True)))
        print(f"{name}: {cells}")
    diff = played - traced
    half = 1.96 * diff.std(axis=0, ddof=1) / np.sqrt(n)
    print("difference (paired by game): " + ", ".join(
        f"seat {s} {100 * d:+.1f} pp ± {100 * h:.1f}"
        for s, (d, h) in enumerate(zip(diff.mean(axis=0), half, strict=True))))
    print(f"({n:,} games of seed {args.seed}, {players} players, {args.determinizations} determinizations "
          "each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

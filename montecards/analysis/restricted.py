"""What each card is worth: restricted play against the unrestricted strategy, on common random
numbers (Jaffe et al., AIIDE 2012; docs/metrics.md, "Restricted play").

:func:`restricted_play` plays, for each pattern, ``restrict(STRATEGY, never=PATTERN)`` (or
``first=``) in the first seat against STRATEGY in the others, and STRATEGY in every seat as the
baseline, all on the same deals; per pattern it gives the first seat's win share and its change
from the baseline, each with a 95 % interval (the change's from the paired per-game differences).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from montecards.analysis.intervals import mean_interval, share_interval
from montecards.analysis.runs import check_count, per_game, setup
from montecards.engine.spec import InputError


def restricted_play(game: str, patterns: Sequence[str], strategy: str = "greedy", players: int | None = None,
                    n: int = 20_000, seed: int | None = 1, key: str = "never",
                    jobs: int | None = None) -> pd.DataFrame:
    """One row per pattern (the baseline first, pattern ``-``): ``strategy``, ``win_share`` of
    the first seat with ``low``/``high``, and ``change`` (minus the baseline's, game by game on
    the same deals) with ``change_low``/``change_high``. ``key``: ``never`` or ``first``."""
    if key not in ("never", "first"):
        raise InputError(f"key must be never or first, got {key!r}")
    patterns = [patterns] if isinstance(patterns, str) else list(patterns)
    if not patterns:
        raise InputError("restricted_play needs at least one pattern")
    n = check_count("n", n)
    base = setup(game, players, [strategy], None, seed)
    seats = base.players
    _, rows = base.play(0, n, keep=True)
    baseline = per_game(rows, base.layout)["win_0"]
    out = [_row("-", strategy, baseline, np.zeros_like(baseline))]
    for pattern in patterns:
        label = f"restrict({strategy}, {key}={pattern})"
        run = setup(game, seats, [label] + [strategy] * (seats - 1), None, base.seed, jobs)
        _, rows = run.play(0, n, keep=True)
        win = per_game(rows, run.layout)["win_0"]
        out.append(_row(pattern, label, win, win - baseline))
    return pd.DataFrame(out).set_index("pattern")


def _row(pattern: str, label: str, win: np.ndarray, change: np.ndarray) -> dict:
    share, low, high = share_interval(win)
    diff, diff_low, diff_high = mean_interval(change)
    return {"pattern": pattern, "strategy": label, "win_share": share, "low": low, "high": high,
            "change": diff, "change_low": diff_low, "change_high": diff_high, "games": len(win)}

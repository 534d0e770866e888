"""Integer summaries of a run that merge associatively (so memory stays bounded for any n).

A summary holds, per output column, the count, sum and sum of squares over games (int64,
exact and independent of the order of merging), histograms of game length and scores, and
the number of games whose win was shared. Chunk summaries from any backend add up to the
same summary bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from montecards.engine.spec import WIN_UNIT, Layout


def _add_hist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.shape[0] < b.shape[0]:
        a, b = b, a
    out = a.copy()
    out[: b.shape[0]] += b
    return out


def _row_max(columns: np.ndarray) -> np.ndarray:
    """Each row's maximum, column by column (``max(axis=1)`` over a few columns is slow)."""
    best = columns[:, 0].copy()
    for col in range(1, columns.shape[1]):
        np.maximum(best, columns[:, col], out=best)
    return best


@dataclass
class Summary:
    n_games: int
    sums: np.ndarray
    sumsq: np.ndarray
    hists: dict[str, np.ndarray] = field(default_factory=dict)
    shared_wins: int = 0

    @classmethod
    def empty(cls, layout: Layout) -> Summary:
        width = layout.width
        return cls(0, np.zeros(width, np.int64), np.zeros(width, np.int64), {}, 0)

    @classmethod
    def of_rows(cls, rows: np.ndarray, layout: Layout) -> Summary:
        """Summarise a block of per-game rows (int64, one row per game)."""
        hists = {"turns": np.bincount(rows[:, 0])}
        score = layout.seat_slice("score")
        for seat, col in enumerate(range(score.start, score.stop)):
            values = rows[:, col]
            if values.min(initial=0) >= 0:
                hists[f"score_{seat}"] = np.bincount(values)
        finished = rows[:, 1] == 0
        shared = finished & (_row_max(rows[:, layout.seat_slice("win")]) < WIN_UNIT)
        return cls(
            rows.shape[0],
            rows.sum(axis=0, dtype=np.int64),
            np.einsum("ij,ij->j", rows, rows),  # column sums of squares, no temporary array
            hists,
            int(shared.sum()),
        )

    def merge(self, other: Summary) -> Summary:
        hists = dict(self.hists)
        for key, h in other.hists.items():
            hists[key] = _add_hist(hists[key], h) if key in hists else h.copy()
        return Summary(
            self.n_games + other.n_games,
            self.sums + other.sums,
            self.sumsq + other.sumsq,
            hists,
            self.shared_wins + other.shared_wins,
        )

    def mean(self, col: int) -> float:
        return float(self.sums[col]) / self.n_games

    def variance(self, col: int) -> float:
        """Unbiased sample variance of a column."""
        n = self.n_games
        if n < 2:
            return 0.0
        s = float(self.sums[col])
        return max(0.0, (float(self.sumsq[col]) - s * s / n) / (n - 1))

"""The result of a simulation run: shares, means and intervals, as tables and as JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from montecards.analysis.intervals import mean_interval, normal_mean, wilson
from montecards.engine.spec import WIN_UNIT, Layout
from montecards.engine.value import LUCK_OUTPUTS, LUCK_UNIT
from montecards.run.summary import Summary

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class SimulationResult:
    """A finished run. ``games`` holds the per-game rows when they were kept."""

    game: str
    title: str
    layout: Layout
    n_games: int
    players: int
    seed: int
    strategies: list[str]
    params: dict[str, Any]
    summary_data: Summary
    elapsed_seconds: float
    rate_metrics: tuple[str, ...] = ()
    score_name: str = "score"
    turns_name: str = "turns"
    games: pd.DataFrame | None = None
    backend: str = "local"
    jobs: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    # --- the numbers -------------------------------------------------------------------

    def _seat_means(self, name: str) -> list[float]:
        cols = range(self.layout.seat_slice(name).start, self.layout.seat_slice(name).stop)
        return [self.summary_data.mean(c) for c in cols]

    def _seat_intervals(self, name: str) -> list[list[float]]:
        cols = range(self.layout.seat_slice(name).start, self.layout.seat_slice(name).stop)
        s = self.summary_data
        return [list(normal_mean(s.mean(c), s.variance(c), s.n_games)) for c in cols]

    @property
    def win_share(self) -> list[float]:
        """Each seat's share of the wins (shared wins split 1/k), over all games."""
        return [m / WIN_UNIT for m in self._seat_means("win")]

    @property
    def win_share_ci95(self) -> list[list[float]]:
        """Per seat the Wilson 95 % interval of its win share, or, for duplicate deals
        (``extra["win_share_ci95"]``, ``analysis.seats``), the normal interval over deals."""
        if "win_share_ci95" in self.extra:
            return [list(ci) for ci in self.extra["win_share_ci95"]]
        return [list(wilson(p, self.n_games)) for p in self.win_share]

    @property
    def mean_score(self) -> list[float]:
        return self._seat_means("score")

    @property
    def mean_score_ci95(self) -> list[list[float]]:
        """Per seat ``[low, high]``: the normal 95 % interval of the mean score (``summary()``'s
        ``score_low``, ``score_high``)."""
        return self._seat_intervals("score")

    @property
    def mean_turns(self) -> float:
        return self.summary_data.mean(0)

    @property
    def unfinished(self) -> int:
        return int(self.summary_data.sums[1])

    @property
    def shared_win_rate(self) -> float:
        return self.summary_data.shared_wins / self.n_games

    @property
    def games_per_second(self) -> float:
        return self.n_games / self.elapsed_seconds if self.elapsed_seconds > 0 else float("inf")

    def metrics(self) -> dict[str, dict[str, Any]]:
        """The game's own per-game outputs: mean and 95 % interval of each."""
        s = self.summary_data
        out: dict[str, dict[str, Any]] = {}
        for name in self.layout.metrics:
            col = self.layout.column(name)
            mean = s.mean(col)
            if name in self.rate_metrics:
                ci = wilson(mean, s.n_games)
            else:
                ci = normal_mean(mean, s.variance(col), s.n_games)
            out[name] = {"mean": mean, "ci95": [ci[0], ci[1]]}
        turns = normal_mean(self.mean_turns, s.variance(0), s.n_games)
        out["turns"] = {"mean": self.mean_turns, "ci95": [turns[0], turns[1]]}
        shared = wilson(self.shared_win_rate, s.n_games)
        out["shared_wins"] = {"mean": self.shared_win_rate, "ci95": [shared[0], shared[1]]}
        return out

    @property
    def takes_luck(self) -> bool:
        """A run with ``--luck`` (its rows end in the ``luck`` and ``adjusted`` columns)."""
        return "adjusted" in self.layout.seat_outputs

    @property
    def win_share_adjusted(self) -> list[float]:
        """Each seat's luck-adjusted win share (``--luck``, docs/luck.md): the mean of ``win -
        luck``, an unbiased estimate of the win share with less variance."""
        return [m / LUCK_UNIT for m in self._seat_means("adjusted")]

    @property
    def win_share_adjusted_ci95(self) -> list[list[float]]:
        return [[lo / LUCK_UNIT, hi / LUCK_UNIT] for lo, hi in self._seat_intervals("adjusted")]

    @property
    def variance_ratio(self) -> list[float]:
        """Per seat, the variance of the win share over that of the adjusted win share, on the
        same games: how many times fewer games the adjusted estimate needs."""
        s = self.summary_data
        win, adjusted = self.layout.seat_slice("win"), self.layout.seat_slice("adjusted")
        scale = (LUCK_UNIT / WIN_UNIT) ** 2
        pairs = zip(range(win.start, win.stop), range(adjusted.start, adjusted.stop), strict=True)
        return [s.variance(w) * scale / s.variance(a) if s.variance(a) > 0 else float("inf")
                for w, a in pairs]

    def luck_dict(self) -> dict[str, Any]:
        """The JSON keys of a run with ``--luck``."""
        cis = self.win_share_adjusted_ci95
        return {
            "win_share_adjusted": self.win_share_adjusted,
            "win_share_adjusted_low": [ci[0] for ci in cis],
            "win_share_adjusted_high": [ci[1] for ci in cis],
            "variance_ratio": self.variance_ratio,
            "mean_luck": [m / LUCK_UNIT for m in self._seat_means("luck")],
            "value": self.extra.get("value", ""),
        }

    # --- tables ------------------------------------------------------------------------

    def seat_table(self) -> dict[str, list]:
        """The columns of ``summary()`` as plain lists (one entry per seat), without pandas."""
        table: dict[str, list] = {
            "seat": list(range(self.players)),
            "strategy": list(self.strategies),
            "win_share": list(self.win_share),
            "win_low": [ci[0] for ci in self.win_share_ci95],
            "win_high": [ci[1] for ci in self.win_share_ci95],
        }
        for name in self.layout.seat_block_names[1:]:
            unit = LUCK_UNIT if name in LUCK_OUTPUTS else 1
            cis = self._seat_intervals(name)
            table[f"mean_{name}"] = [m / unit for m in self._seat_means(name)]
            table[f"{name}_low"] = [ci[0] / unit for ci in cis]
            table[f"{name}_high"] = [ci[1] / unit for ci in cis]
        return table

    def summary(self) -> pd.DataFrame:
        """One row per seat: strategy, win share with its Wilson interval, mean score (and
        every other per-seat output) with normal intervals."""
        import pandas as pd

        return pd.DataFrame(self.seat_table()).set_index("seat")

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``montecards simulate --json`` (docs/design.md, Public interface)."""
        return {
            "game": self.game,
            "n_games": self.n_games,
            "players": self.players,
            "seed": self.seed,
            "strategies": list(self.strategies),
            "params": _jsonable(self.params),
            "win_share": self.win_share,
            "win_share_ci95": self.win_share_ci95,
            "mean_score": self.mean_score,
            "mean_score_ci95": self.mean_score_ci95,
            "mean_turns": self.mean_turns,
            "unfinished": self.unfinished,
            "elapsed_seconds": self.elapsed_seconds,
            "games_per_second": self.games_per_second,
            "metrics": self.metrics(),
            "seat_outputs": {
                name: [m / (LUCK_UNIT if name in LUCK_OUTPUTS else 1) for m in self._seat_means(name)]
                for name in self.layout.seat_outputs
            },
            "backend": self.backend,
            "jobs": self.jobs,
            **({"designer": _jsonable(self.extra["designer"])} if "designer" in self.extra else {}),
            **(self.luck_dict() if self.takes_luck else {}),
        }

    @property
    def plot(self):
        """Figures of this run: ``res.plot.win_share()``, ``res.plot.scores()``,
        ``res.plot.length()`` (matplotlib Figures; they display in Jupyter)."""
        from montecards.plots import ResultPlots

        return ResultPlots(self)

    def _repr_html_(self) -> str:
        head = f"<p><b>{self.title}</b>: {self.n_games:,} games, {self.players} players, seed {self.seed}</p>"
        return head + self.summary().to_html(float_format=lambda x: f"{x:.4f}")

    def __repr__(self) -> str:
        return f"SimulationResult({self.game}, n={self.n_games:,}, players={self.players}, seed={self.seed})"


def luck_estimates(plain: np.ndarray, adjusted: np.ndarray) -> dict[str, Any]:
    """The ``--luck`` keys of one win share estimated from paired per-unit values (a game's or a
    deal's win share ``plain`` and its luck-adjusted value ``adjusted``, same units): the
    adjusted share with its normal 95 % interval and the variance ratio (plain variance over
    adjusted variance, on the same units; docs/luck.md)."""
    share, low, high = mean_interval(adjusted)
    plain_var = float(np.var(plain, ddof=1)) if plain.shape[0] > 1 else 0.0
    adjusted_var = float(np.var(adjusted, ddof=1)) if adjusted.shape[0] > 1 else 0.0
    return {"win_share_adjusted": share, "win_share_adjusted_low": low, "win_share_adjusted_high": high,
            "variance_ratio": plain_var / adjusted_var if adjusted_var > 0 else float("inf")}


def games_frame(rows: np.ndarray, layout: Layout) -> pd.DataFrame:
    """Per-game DataFrame from int64 rows: ``win_k`` as a share in [0, 1], the rest as is."""
    import pandas as pd

    frame = pd.DataFrame({name: rows[:, k] for k, name in enumerate(layout.columns)})
    for col in frame.columns[layout.seat_slice("win")]:
        frame[col] = frame[col] / WIN_UNIT
    for name in LUCK_OUTPUTS if "adjusted" in layout.seat_outputs else ():
        for col in frame.columns[layout.seat_slice(name)]:
            frame[col] = frame[col] / LUCK_UNIT
    frame["unfinished"] = frame["unfinished"].astype(bool)
    return frame


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value

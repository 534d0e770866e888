"""Rule-variant comparisons and parameter sweeps on common random numbers.

Every variant is played with the **same seed**; game ``i`` of each variant is dealt from the
stream of ``(seed, i)`` only, so it starts from the same cards in every variant. Differences
are taken game by game (paired by game index) and get a normal 95 % interval over games —
much narrower than comparing two independent runs when the variants agree on most deals
(``crn_gain`` says by how much: the ratio of the unpaired to the paired variance).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from montecards import games
from montecards.analysis.intervals import half_width, mean_interval, share_interval
from montecards.analysis.results import _jsonable, luck_estimates
from montecards.analysis.runs import (
    DEFAULT_MAX_GAMES,
    Adaptive,
    Setup,
    check_count,
    check_precision,
    per_game,
    proportion_columns,
    run_adaptive,
    setup,
    timed,
    with_backend,
)
from montecards.engine.spec import InputError, parse_text
from montecards.engine.user_strategies import as_labels
from montecards.labels import describe


def variant_label(params: Mapping[str, Any]) -> str:
    """``"speed=1.1,1,1,1 rounds=3"`` from a dict of parameters."""
    if not params:
        return "default"
    return " ".join(f"{k}={_text(v)}" for k, v in params.items())


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(_text(v) for v in value)
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass
class VariantComparison:
    """Per-variant levels and paired differences against the baseline variant."""

    game: str
    title: str
    players: int
    strategies: list[str]
    seed: int
    labels: list[str]
    params: dict[str, dict[str, Any]]
    columns: dict[str, list[dict[str, np.ndarray]]]
    proportions: set[str]
    score_name: str = "score"
    turns_name: str = "turns"
    elapsed_seconds: float = 0.0
    adaptive: Adaptive | None = None
    targets: list[str] = field(default_factory=list)
    values_used: dict[str, str] = field(default_factory=dict)
    """With ``--luck``: per variant the value file of its ledger (docs/luck.md); empty without."""

    @property
    def baseline(self) -> str:
        return self.labels[0]

    @property
    def takes_luck(self) -> bool:
        return bool(self.values_used)

    def luck(self) -> dict[str, dict[str, Any]]:
        """With ``--luck``: per variant its JSON keys ``win_share_adjusted``, ``_low``, ``_high``
        and ``variance_ratio`` (lists over the seats; normal intervals over games) and the
        ``value`` used. The paired differences of the adjusted results are the ``adjusted_k``
        rows of :meth:`differences`."""
        out: dict[str, dict[str, Any]] = {}
        for label in self.labels if self.takes_luck else ():
            seats = [luck_estimates(self.values(label, f"win_{k}"), self.values(label, f"adjusted_{k}"))
                     for k in range(self.players)]
            out[label] = {key: [e[key] for e in seats] for key in seats[0]} if seats else {}
            out[label]["value"] = self.values_used[label]
        return out

    def __repr__(self) -> str:  # one line, not the per-game columns
        return (f"VariantComparison({self.game}, variants={self.labels!r}, players={self.players}, "
                f"seed={self.seed})")

    @property
    def n_games(self) -> int:
        return int(sum(b["turns"].shape[0] for b in self.columns[self.labels[0]]))

    def values(self, label: str, column: str) -> np.ndarray:
        return np.concatenate([b[column] for b in self.columns[label]])

    @property
    def quantities(self) -> list[str]:
        return list(self.columns[self.labels[0]][0]) if self.columns[self.labels[0]] else []

    def levels(self) -> pd.DataFrame:
        """One row per (variant, quantity): mean and 95 % interval (Wilson for shares and
        rates, normal for means)."""
        rows = []
        for label in self.labels:
            for q in self.quantities:
                v = self.values(label, q)
                mean, low, high = (share_interval if q in self.proportions else mean_interval)(v)
                rows.append({"variant": label, "quantity": q, "mean": mean, "low": low, "high": high})
        return pd.DataFrame(rows).set_index(["variant", "quantity"])

    def differences(self) -> pd.DataFrame:
        """One row per (variant, quantity), baseline excluded: the paired mean difference
        variant − baseline with its normal 95 % interval, and ``crn_gain`` (variance of an
        unpaired difference over the paired one)."""
        rows = []
        for label in self.labels[1:]:
            for q in self.quantities:
                a = self.values(label, q)
                b = self.values(self.baseline, q)
                d = a - b
                mean, low, high = mean_interval(d)
                paired = float(d.var(ddof=1)) if d.shape[0] > 1 else 0.0
                unpaired = float(a.var(ddof=1) + b.var(ddof=1)) if d.shape[0] > 1 else 0.0
                gain = unpaired / paired if paired > 0 else (float("inf") if unpaired > 0 else 1.0)
                rows.append(
                    {
                        "variant": label,
                        "quantity": q,
                        "difference": mean,
                        "low": low,
                        "high": high,
                        "significant": bool(low > 0 or high < 0),
                        "crn_gain": gain,
                    }
                )
        columns = ["variant", "quantity", "difference", "low", "high", "significant", "crn_gain"]
        return pd.DataFrame(rows, columns=columns).set_index(["variant", "quantity"])  # (one variant: empty)

    def level(self, label: str, quantity: str) -> tuple[float, float, float]:
        row = self.levels().loc[(label, quantity)]
        return float(row["mean"]), float(row["low"]), float(row["high"])

    def difference(self, label: str, quantity: str) -> tuple[float, float, float]:
        row = self.differences().loc[(label, quantity)]
        return float(row["difference"]), float(row["low"]), float(row["high"])

    def findings(self, quantities: Sequence[str] | None = None) -> list[str]:
        quantities = list(quantities or [q for q in self.quantities
                                         if q.startswith(("win_", "adjusted_")) or q == "turns"])
        out = []
        for label in self.labels[1:]:
            parts = []
            for q in quantities:
                d, low, high = self.difference(label, q)
                in_wins = q in self.proportions or q.startswith(("adjusted_", "luck_"))  # --luck: in wins
                scale, unit = (100, " pp") if in_wins else (1, "")
                parts.append(
                    f"{describe(q)} {scale * d:+.2f}{unit} ± {scale * half_width((low, high)):.2f}{unit}"
                )
            out.append(
                f"{label} vs {self.baseline} (paired, {self.n_games:,} common deals): "
                + "; ".join(parts)
                + "."
            )
        for label, est in self.luck().items():
            out.append(f"{label}: luck-adjusted first seat {100 * est['win_share_adjusted'][0]:.2f} % "
                       f"[{100 * est['win_share_adjusted_low'][0]:.2f}, "
                       f"{100 * est['win_share_adjusted_high'][0]:.2f}] (variance ratio "
                       f"{est['variance_ratio'][0]:.2f}).")
        return out

    def to_dict(self) -> dict[str, Any]:
        lv = self.levels().reset_index()
        df = self.differences().reset_index()
        return {
            "game": self.game,
            "analysis": "variants",
            "players": self.players,
            "strategies": self.strategies,
            "seed": self.seed,
            "n_games": self.n_games,
            "baseline": self.baseline,
            "variants": {label: _jsonable(self.params[label]) for label in self.labels},
            "levels": _jsonable(lv.to_dict(orient="records")),
            "differences": _jsonable(df.to_dict(orient="records")),
            "elapsed_seconds": self.elapsed_seconds,
            **({"adaptive": self.adaptive.to_dict()} if self.adaptive else {}),
            **({"luck": _jsonable(self.luck())} if self.takes_luck else {}),
        }

    @property
    def plot(self):
        from montecards.plots import VariantPlots

        return VariantPlots(self)

    def _repr_html_(self) -> str:
        head = (
            f"<p><b>{self.title}</b>: {len(self.labels)} variants on {self.n_games:,} common deals "
            f"({self.players} players), baseline {self.baseline}</p>"
        )
        return head + self.differences().to_html(float_format=lambda x: f"{x:.4f}")


@with_backend
def compare_variants(
    game: str,
    variants: Mapping[str, Mapping[str, Any]] | Sequence[Mapping[str, Any]],
    n: int = 100_000,
    players: int | None = None,
    strategies: Sequence[str] | str | None = None,
    params: Mapping[str, Any] | None = None,
    seed: int | None = None,
    jobs: int | None = None,
    precision: float | None = None,
    targets: Sequence[str] | None = None,
    max_games: int = DEFAULT_MAX_GAMES,
    _minimum: int = 2,
    strategy_params: Any = None,
    luck: bool = False,
) -> VariantComparison:
    """Play each variant (parameters overlaid on ``params``) on the same ``n`` deals.

    ``variants``: ``{label: params}`` or a list of params dicts (labelled from their values);
    the first is the baseline. ``precision``: instead of ``n``, add games until the paired
    differences of every ``targets`` quantity (default: every seat's win share) have a 95 %
    half-width of at most this. ``strategy_params``: the seats' weights, as in ``simulate``.

    ``luck=True`` (``--luck``, docs/luck.md): every variant played with the luck ledger; the
    quantities gain ``luck_k`` and ``adjusted_k`` (levels and paired differences) and
    :meth:`VariantComparison.luck` the adjusted win shares and variance ratios. A variant
    under which the game's ledger is not exact (a rule outside its ``LEDGER_RULES``: Anomia's
    ``tie_prob``, Joker Marbles' board and teams) is refused in one line, as are games and
    player counts without a value and user strategies.
    """
    spec = games.get(game)
    strategies = as_labels(strategies)  # user strategies are keyed by their labels
    if isinstance(variants, Mapping):
        named = {str(k): dict(v) for k, v in variants.items()}
    else:
        named = {}
        for v in variants:
            named[variant_label(v)] = dict(v)
    if len(named) < _minimum:
        raise InputError("a variant comparison needs at least 2 variants")
    n = check_count("n", n)
    precision = check_precision(precision)
    base = dict(params or {})
    runs: dict[str, Setup] = {}
    seed_used = seed
    for label, overlay in named.items():
        try:
            run = setup(game, players, strategies, {**base, **overlay}, seed_used, jobs, strategy_params, luck)
        except InputError as exc:
            if not luck or "official rules" not in str(exc):
                raise
            raise InputError(f"variant {label}: {exc}") from None
        seed_used = run.seed
        runs[label] = run
    first = next(iter(runs.values()))
    proportions = proportion_columns(first.layout, spec.rate_metrics)
    columns: dict[str, list[dict[str, np.ndarray]]] = {label: [] for label in runs}
    labels = list(runs)
    targets = list(targets or [f"win_{k}" for k in range(first.players)])

    def step(start: int, count: int) -> None:
        for label, run in runs.items():
            _, rows = run.play(start, count, keep=True)
            columns[label].append(per_game(rows, run.layout))

    cmp = VariantComparison(
        spec.name,
        spec.title,
        first.players,
        first.strategies,
        first.seed,
        labels,
        {label: runs[label].params for label in labels},
        columns,
        proportions,
        spec.score_name,
        spec.turns_name,
        targets=targets,
        values_used={label: run.config.luck_source for label, run in runs.items()} if luck else {},
    )
    for t in targets:
        if precision is not None and t not in per_game(
            np.zeros((1, first.layout.width), np.int64), first.layout
        ):
            raise InputError(f"unknown target {t!r} (allowed: {', '.join(cmp_quantities(first))})")

    def widest() -> float:
        worst = 0.0
        if len(labels) == 1:
            for t in targets:
                v = np.concatenate([b[t] for b in columns[labels[0]]])
                _, low, high = (share_interval if t in proportions else mean_interval)(v)
                worst = max(worst, half_width((low, high)))
        for label in labels[1:]:
            for t in targets:
                d = np.concatenate([b[t] for b in columns[label]]) - np.concatenate(
                    [b[t] for b in columns[labels[0]]]
                )
                _, low, high = mean_interval(d)
                worst = max(worst, half_width((low, high)))
        return worst

    def play_all() -> Adaptive | None:
        if precision is None:
            step(0, n)
            return None
        return run_adaptive(step, widest, precision, max_games=max_games)

    cmp.adaptive, cmp.elapsed_seconds = timed(play_all)
    return cmp


def cmp_quantities(run: Setup) -> list[str]:
    return list(per_game(np.zeros((1, run.layout.width), np.int64), run.layout))


@dataclass
class SweepResult:
    """A parameter swept over values: the comparison behind it and the x of each value."""

    parameter: str
    x: list[float]
    x_label: str
    comparison: VariantComparison

    @property
    def game(self) -> str:
        return self.comparison.game

    def __repr__(self) -> str:
        c = self.comparison
        return f"SweepResult({c.game}, {self.parameter}={self.x!r}, players={c.players}, seed={c.seed})"

    def table(self, quantity: str = "win_0") -> pd.DataFrame:
        """One row per value: ``x``, the level of ``quantity`` with its interval, and the paired
        difference from the first value with its interval."""
        c = self.comparison
        lv = c.levels()
        df = c.differences()
        rows = []
        for x, label in zip(self.x, c.labels, strict=True):
            level = lv.loc[(label, quantity)]
            if label == c.baseline:
                d = (0.0, 0.0, 0.0)
            else:
                r = df.loc[(label, quantity)]
                d = (float(r["difference"]), float(r["low"]), float(r["high"]))
            rows.append(
                {
                    "value": label.partition("=")[2],
                    "x": x,
                    quantity: float(level["mean"]),
                    "low": float(level["low"]),
                    "high": float(level["high"]),
                    "difference": d[0],
                    "diff_low": d[1],
                    "diff_high": d[2],
                }
            )
        return pd.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        d = self.comparison.to_dict()
        d.update({"analysis": "sweep", "parameter": self.parameter, "x": self.x, "x_label": self.x_label})
        return d

    @property
    def plot(self):
        from montecards.plots import SweepPlots

        return SweepPlots(self)

    def _repr_html_(self) -> str:
        c = self.comparison
        head = (
            f"<p><b>{c.title}</b>: {self.parameter} swept over {len(self.x)} values, "
            f"{c.n_games:,} common deals each</p>"
        )
        return head + self.table().to_html(float_format=lambda x: f"{x:.4f}")


@with_backend
def sweep(
    game: str,
    parameter: str,
    values: Sequence[Any],
    n: int = 100_000,
    players: int | None = None,
    strategies: Sequence[str] | str | None = None,
    params: Mapping[str, Any] | None = None,
    seed: int | None = None,
    jobs: int | None = None,
    x: Sequence[float] | None = None,
    x_label: str | None = None,
    precision: float | None = None,
    targets: Sequence[str] | None = None,
    max_games: int = DEFAULT_MAX_GAMES,
    strategy_params: Any = None,
    luck: bool = False,
) -> SweepResult:
    """Play ``parameter`` at each of ``values`` (values or CLI text, lists comma-separated) on
    the same deals. ``x``: the number to plot each value at; by default the value itself, or,
    for a per-seat list that varies in one position only, that position's value.
    ``strategy_params``: the seats' weights, as in ``simulate``; ``luck``: as in
    :func:`compare_variants` (only values that keep the official rules can take it)."""
    spec = games.get(game)
    strategies = as_labels(strategies)  # user strategies are keyed by their labels
    p = spec.param(parameter)  # unknown names fail with the allowed list
    values = list(values)
    if not values:
        raise InputError(f"sweep of {parameter} needs at least one value")
    parsed = [parse_text(p, v) if isinstance(v, str) else v for v in values]
    labels = [f"{parameter}={_text(v)}" for v in parsed]
    if len(set(labels)) != len(labels):
        raise InputError(f"sweep values of {parameter} must differ, got {', '.join(map(str, values))}")
    if x is None:
        x, auto_label = _auto_x(parameter, parsed)
        x_label = x_label or auto_label
    elif len(x) != len(parsed):
        raise InputError(f"x needs one number per value ({len(parsed)}), got {len(x)}")
    variants = {label: {parameter: v} for label, v in zip(labels, parsed, strict=True)}
    cmp = compare_variants(
        game,
        variants,
        n=n,
        players=players,
        strategies=strategies,
        params=params,
        seed=seed,
        jobs=jobs,
        precision=precision,
        targets=targets,
        max_games=max_games,
        _minimum=1,
        strategy_params=strategy_params,
        luck=luck,
    )
    return SweepResult(parameter, [float(v) for v in x], x_label or parameter, cmp)


def _auto_x(parameter: str, values: list[Any]) -> tuple[list[float], str]:
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return [float(v) for v in values], parameter
    if all(isinstance(v, (list, tuple)) for v in values) and len({len(v) for v in values}) == 1:
        width = len(values[0])
        varying = [i for i in range(width) if len({_text(v[i]) for v in values}) > 1]
        if len(varying) == 1 and all(isinstance(v[varying[0]], (int, float)) for v in values):
            i = varying[0]
            return [float(v[i]) for v in values], f"{parameter} of seat {i + 1}"
    return [float(i) for i in range(len(values))], f"{parameter} (value number)"

"""The figures. Inputs are result objects of :mod:`montecards.analysis`; outputs are Figures."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from montecards.labels import describe, short_strategy
from montecards.plots.style import FAIR, colour, new_figure, styled


def save(fig, path: str | Path) -> Path:
    """Write ``fig`` as a PNG (or any format matplotlib knows from the suffix)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, bbox_inches="tight")
    return path


def _pm(half: float, digits: int = 2) -> str:
    """ "± 0.03"; more digits for small nonzero widths."""
    while 0 < half and half < 0.5 * 10.0**-digits and digits < 4:
        digits += 1
    return f"± {half:.{digits}f}"


def _by_players(obj: Any) -> dict[int, Any]:
    """``{players: SimulationResult}`` from a SeatAdvantage, a dict or one result."""
    if hasattr(obj, "results") and isinstance(obj.results, dict):
        return dict(sorted(obj.results.items()))
    if isinstance(obj, dict):
        return dict(sorted(obj.items()))
    return {obj.players: obj}


def _grid(count: int, max_cols: int = 3) -> tuple[int, int]:
    cols = min(count, max_cols)
    return math.ceil(count / cols), cols


def _title(obj: Any) -> str:
    if hasattr(obj, "title"):
        return obj.title
    first = next(iter(_by_players(obj).values()))
    return first.title


@styled
def win_share_by_seat(obj: Any):
    """Win share of each seat with its 95 % interval, one panel per player count, against the
    fair share 1/players (dashed). A panel of fewer than 100 games is inconclusive: hollow
    markers, no bars. The strategy goes in the figure's title, so panel titles stay short."""
    results = _by_players(obj)
    nrows, ncols = _grid(len(results))
    fig, axes = new_figure(nrows, ncols, width=3.4 * ncols + 0.6, height=3.1 * nrows + 0.5, squeeze=False)
    for ax in axes.flat[len(results) :]:
        ax.set_visible(False)
    for ax, (p, res) in zip(axes.flat, results.items(), strict=False):
        share = np.array(res.win_share) * 100
        ci = np.array(res.win_share_ci95) * 100
        seats = np.arange(1, p + 1)
        err = np.clip(np.vstack([share - ci[:, 0], ci[:, 1] - share]), 0, None)  # (rounding: never < 0)
        if res.n_games < 100:
            ax.errorbar(seats, share, yerr=err, fmt="o", mfc="none", ms=8, color=colour(1), capsize=4,
                        lw=1.2, label="under 100 games: inconclusive")
        else:
            ax.bar(seats, share, color=colour(0), alpha=0.75, width=0.7)
            ax.errorbar(seats, share, yerr=err, fmt="none", ecolor="black", capsize=4, lw=1.2)
        ax.axhline(100 / p, color=FAIR, ls="--", lw=1, label=f"fair share {100 / p:.1f} %")
        top = max(ci[:, 1].max(), 100 / p)
        for x, y, hi in zip(seats, share, ci[:, 1], strict=True):
            ax.text(x, hi + top * 0.02, f"{y:.1f}", ha="center", va="bottom", fontsize=8)
        ax.set_ylim(0, top * 1.22)
        ax.set_xticks(seats)
        ax.set_xlabel("seat (1 = first to play)")
        ax.set_ylabel("win share (%)")
        ax.set_title(f"{p} players, {res.n_games:,} games", fontsize=10)
        ax.legend(loc="lower right", fontsize=7)
    strategies = {s for res in results.values() for s in res.strategies}
    who = "mixed seats"
    if len(strategies) == 1:
        who = f"{short_strategy(next(iter(strategies)), 24)} in every seat"
    fig.suptitle(f"{_title(obj)}: win share by seat ({who}), 95 % intervals", fontsize=11)
    return fig


@styled
def score_distribution(obj: Any):
    """Distribution of each seat's final score, one panel per player count."""
    results = _by_players(obj)
    nrows, ncols = _grid(len(results))
    fig, axes = new_figure(nrows, ncols, width=3.6 * ncols + 0.6, height=3.0 * nrows + 0.5, squeeze=False)
    for ax in axes.flat[len(results) :]:
        ax.set_visible(False)
    for ax, (p, res) in zip(axes.flat, results.items(), strict=False):
        drawn = False
        for k in range(p):
            counts = _score_counts(res, k)
            if counts is None:
                continue
            values, freq = counts
            ax.step(
                values,
                100 * freq / freq.sum(),
                where="mid",
                color=colour(k),
                lw=1.3,
                label=f"seat {k + 1} (mean {res.mean_score[k]:.1f})",
            )
            drawn = True
        if not drawn:
            ax.text(
                0.5,
                0.5,
                "no score histogram\n(negative scores; keep games)",
                ha="center",
                va="center",
                transform=ax.transAxes,
            )
        ax.set_xlabel(res.score_name)
        ax.set_ylabel("games (%)")
        ax.set_title(f"{p} players — {res.n_games:,} games", fontsize=10)
        if drawn:
            ax.legend(loc="upper right", fontsize=8)
    fig.suptitle(f"{_title(obj)}: final score by seat")
    return fig


def _score_counts(res: Any, seat: int) -> tuple[np.ndarray, np.ndarray] | None:
    hist = res.summary_data.hists.get(f"score_{seat}")
    if hist is not None and hist.sum() > 0:
        values = np.nonzero(hist)[0]
        lo, hi = values.min(), values.max()
        return np.arange(lo, hi + 1), hist[lo : hi + 1].astype(float)
    if res.games is not None and f"score_{seat}" in res.games:
        vals, freq = np.unique(res.games[f"score_{seat}"].to_numpy(), return_counts=True)
        return vals, freq.astype(float)
    return None


@styled
def game_length(obj: Any):
    """Distribution of game length (the game's own unit: turns, actions, draws), one panel per
    player count, with the mean and its 95 % interval in the title."""
    results = _by_players(obj)
    nrows, ncols = _grid(len(results))
    fig, axes = new_figure(nrows, ncols, width=3.4 * ncols + 0.6, height=2.9 * nrows + 0.5, squeeze=False)
    for ax in axes.flat[len(results) :]:
        ax.set_visible(False)
    for i, (ax, (p, res)) in enumerate(zip(axes.flat, results.items(), strict=False)):
        hist = res.summary_data.hists.get("turns")
        if hist is None or hist.sum() == 0:
            continue
        values = np.nonzero(hist)[0]
        lo, hi = values.min(), values.max()
        x = np.arange(lo, hi + 1)
        y = 100 * hist[lo : hi + 1] / hist.sum()
        ax.bar(x, y, width=1.0, color=colour(i), alpha=0.8)
        m = res.metrics()["turns"]
        ax.axvline(m["mean"], color=FAIR, ls="--", lw=1)
        ax.set_title(
            f"{p} players: {m['mean']:.1f} in every game"
            if m["ci95"][1] == m["ci95"][0]
            else f"{p} players: mean {m['mean']:.1f} {_pm((m['ci95'][1] - m['ci95'][0]) / 2)}",
            fontsize=10,
        )
        ax.set_xlabel(f"{res.turns_name} per game (all seats)")
        ax.set_ylabel("games (%)")
    fig.suptitle(f"{_title(obj)}: game length (dashed: mean)")
    return fig


@styled
def matchup_heatmap(result: Any):
    """Win share of the row strategy against the column strategy (over all seat rotations),
    coloured by its distance from the fair share, annotated with value ± half-width."""
    share = result.matrix("win_share")
    low = result.matrix("low")
    high = result.matrix("high")
    names = [short_strategy(str(name)) for name in share.index]  # user strategies: no folders, wrapped
    k = len(names)
    fair = result.fair_share
    tall = max(name.count("\n") for name in names) * 0.15  # room for wrapped tick labels
    fig, ax = new_figure(width=2.6 + 1.7 * k, height=1.6 + 1.2 * k + tall)
    data = (share.to_numpy() - fair) * 100
    span = max(5.0, float(np.nanmax(np.abs(data))) if np.isfinite(data).any() else 5.0)
    im = ax.imshow(data, cmap="RdBu", vmin=-span, vmax=span)
    ax.grid(False)
    for i in range(k):
        for j in range(k):
            v = share.iat[i, j]
            if np.isnan(v):
                ax.text(j, i, "—", ha="center", va="center", color=FAIR)
                continue
            hw = (high.iat[i, j] - low.iat[i, j]) / 2 * 100
            strong = abs(data[i, j]) > span * 0.6
            ax.text(
                j,
                i,
                f"{100 * v:.1f} %\n± {hw:.1f}",
                ha="center",
                va="center",
                fontsize=9,
                color="white" if strong else "black",
            )
    ax.set_xticks(range(k), names, fontsize=8)
    ax.set_yticks(range(k), names, fontsize=8)
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    cbar = fig.colorbar(im, ax=ax, shrink=0.8)
    cbar.set_label("win share − fair share (pp)")
    lineup = "head to head" if result.players == 2 else f"one seat vs {result.players - 1} opponents"
    ax.set_title(
        f"{result.title}: win share of row strategy\n{result.players} players, {lineup}, "
        f"all seat rotations (fair {100 * fair:.1f} %)",
        fontsize=10,
    )
    return fig


def _base(quantity: str) -> str:
    name, _, k = quantity.rpartition("_")
    return name if name and k.isdigit() else quantity


@styled
def variant_differences(cmp: Any, quantities: Sequence[str] | None = None):
    """Paired differences variant − baseline with 95 % intervals, one panel per kind of
    quantity (shares and rates in percentage points; scores, lengths in their units)."""

    df = cmp.differences().reset_index()
    if quantities is None:
        quantities = [
            q
            for q in cmp.quantities
            if q != "unfinished" or df[df.quantity == q]["difference"].abs().sum() > 0
        ]
    df = df[df["quantity"].isin(quantities)]
    groups: dict[str, list[str]] = {}
    for q in quantities:
        key = "shares and rates" if q in cmp.proportions else _base(q)
        groups.setdefault(key, []).append(q)
    nrows, ncols = _grid(len(groups), 2)
    variants = cmp.labels[1:]
    height_per = max(2.6, 0.32 * max(len(v) for v in groups.values()) * len(variants) + 1.4)
    fig, axes = new_figure(
        nrows, ncols, width=5.2 * ncols + 0.5, height=height_per * nrows + 0.6, squeeze=False
    )
    for ax in axes.flat[len(groups) :]:
        ax.set_visible(False)
    for ax, (key, qs) in zip(axes.flat, groups.items(), strict=False):
        scale = 100 if key == "shares and rates" else 1
        ticks, labels = [], []
        y = 0
        for q in qs:
            for vi, label in enumerate(variants):
                row = df[(df["quantity"] == q) & (df["variant"] == label)]
                if row.empty:
                    continue
                d, lo, hi = (float(row[c].iloc[0]) * scale for c in ("difference", "low", "high"))
                ax.errorbar(
                    d,
                    y,
                    xerr=[[d - lo], [hi - d]],
                    fmt="o",
                    color=colour(vi),
                    capsize=3,
                    label=label if q == qs[0] else None,
                )
                ticks.append(y)
                labels.append(describe(q))
                y -= 1
            y -= 0.5
        ax.axvline(0, color=FAIR, lw=1, ls="--")
        ax.set_yticks(ticks, labels)
        ax.set_xlabel("difference (percentage points)" if scale == 100 else f"difference ({_unit(cmp, key)})")
        ax.set_title(_unit(cmp, key) if key != "shares and rates" else key, fontsize=10)
        ax.grid(axis="y", alpha=0)
        if len(variants) > 1 or key == list(groups)[0]:
            ax.legend(loc="best", fontsize=8, title="variant", title_fontsize=8)
    fig.suptitle(
        f"{cmp.title}: variants − baseline ({cmp.baseline}), {cmp.players} players, "
        f"{cmp.n_games:,} paired deals, 95 % intervals"
    )
    return fig


def _unit(cmp: Any, base: str) -> str:
    if base == "score":
        return cmp.score_name
    if base == "turns":
        return cmp.turns_name
    return base.replace("_", " ")


@styled
def sweep_curve(result: Any, quantities: Sequence[str] | None = None):
    """Level of each quantity (default: every seat's win share) against the swept parameter
    with its 95 % band, and the paired difference from the first value with its band."""

    cmp = result.comparison
    if quantities is None:
        quantities = [q for q in cmp.quantities if q.startswith("win_")]
    props = all(q in cmp.proportions for q in quantities)
    scale = 100 if props else 1
    unit = " (%)" if props else ""
    fig, axes = new_figure(1, 2, width=11.0, height=4.0)
    for i, q in enumerate(quantities):
        t = result.table(q)
        x = t["x"].to_numpy()
        axes[0].plot(x, scale * t[q], marker="o", color=colour(i), label=describe(q))
        axes[0].fill_between(x, scale * t["low"], scale * t["high"], color=colour(i), alpha=0.2)
        axes[1].plot(x, scale * t["difference"], marker="o", color=colour(i), label=describe(q))
        axes[1].fill_between(x, scale * t["diff_low"], scale * t["diff_high"], color=colour(i), alpha=0.2)
    if props and all(q.startswith("win_") for q in quantities):
        axes[0].axhline(100 / cmp.players, color=FAIR, ls="--", lw=1, label="fair share")
    axes[1].axhline(0, color=FAIR, ls="--", lw=1)
    xs = list(result.x)
    if len(xs) <= 8:
        for ax in axes:
            ax.set_xticks(xs, [f"{v:g}" for v in xs])
    axes[0].set_ylabel(("level" if not props else "win share / rate") + unit)
    axes[1].set_ylabel("difference from first value" + (" (pp)" if props else ""))
    for ax in axes:
        ax.set_xlabel(result.x_label)
    axes[0].set_title("level, 95 % band", fontsize=10)
    axes[1].set_title("paired difference from first value, 95 % band", fontsize=10)
    axes[0].legend(loc="best", fontsize=8)
    fig.suptitle(
        f"{cmp.title}: sweep of {result.parameter}, {cmp.players} players, {cmp.n_games:,} common "
        "deals per value"
    )
    return fig


@styled
def metric_by_players(
    obj: Any,
    names: Sequence[str],
    labels: Sequence[str] | None = None,
    ylabel: str | None = None,
    percent: bool | None = None,
):
    """Game-level metrics (means or rates) against the player count, with 95 % intervals."""
    results = _by_players(obj)
    fig, ax = new_figure(width=6.4, height=3.8)
    ps = list(results)
    first = next(iter(results.values()))
    if percent is None:
        percent = all(n in first.rate_metrics or n == "shared_wins" for n in names)
    scale = 100 if percent else 1
    for i, name in enumerate(names):
        m = [results[p].metrics()[name] for p in ps]
        y = np.array([v["mean"] for v in m]) * scale
        lo = np.array([v["ci95"][0] for v in m]) * scale
        hi = np.array([v["ci95"][1] for v in m]) * scale
        label = labels[i] if labels else name.replace("_", " ")
        ax.errorbar(ps, y, yerr=[y - lo, hi - y], marker="o", capsize=4, color=colour(i), label=label)
    ax.set_xticks(ps)
    ax.set_xlabel("players")
    ax.set_ylabel(ylabel or ("games (%)" if percent else "mean per game"))
    if len(names) > 1 or labels:
        ax.legend(loc="best")
    ax.set_title(
        f"{_title(obj)}: {', '.join(labels or [n.replace('_', ' ') for n in names])} by player count",
        fontsize=10,
    )
    return fig


@styled
def tune_figure(result: Any):
    """A tuning run's convergence: per generation the candidates' shares, the search centre's
    share and its paired gain over the starting weights (95 % band); the held-out measurement
    of the winner at the right. Racing: every candidate's running share by round."""
    h = result.history
    fig, axes = new_figure(1, 2, width=11.0, height=4.0)
    fair = 100 * result.fair_share
    hold = result.holdout
    if result.method == "cma":
        cand = h[h.role == "candidate"]
        axes[0].scatter(cand.generation, 100 * cand.share, s=6, color=colour(7), alpha=0.5, label="candidates")
        c = h[h.role == "centre"]
        b = h[h.role == "baseline"]
        axes[0].plot(c.generation, 100 * c.share, marker="o", ms=3, color=colour(0), label="search centre")
        axes[0].plot(b.generation, 100 * b.share, color=colour(1), lw=1, label="starting weights")
        axes[1].plot(c.generation, 100 * c.gain, marker="o", ms=3, color=colour(0), label="centre - start")
        axes[1].fill_between(c.generation, 100 * c.gain_low, 100 * c.gain_high, color=colour(0), alpha=0.2)
        last = float(c.generation.max()) + 1 if len(c) else 0.0
        axes[1].errorbar([last], [100 * hold["gain"]], yerr=[[100 * (hold["gain"] - hold["gain_low"])],
                         [100 * (hold["gain_high"] - hold["gain"])]], fmt="s", color=colour(3),
                         capsize=3, label="winner, held out")
        axes[1].axhline(0, color=FAIR, ls="--", lw=1)
        axes[1].set_ylabel("paired gain (pp)")
        axes[1].set_title("gain over the starting weights, 95 % band", fontsize=10)
        axes[1].legend(loc="best", fontsize=8)
        axes[1].set_xlabel("generation")
    else:
        for i, (cand, part) in enumerate(h.groupby("candidate")):
            axes[0].plot(part.generation, 100 * part.share, marker="o", ms=3, color=colour(i), lw=1)
        counts = h.groupby("generation").survivors.first()
        axes[1].bar(counts.index, counts.to_numpy(), color=colour(0))
        axes[1].set_ylabel("candidates still racing")
        axes[1].set_xlabel("round")
        axes[1].set_title("successive halving", fontsize=10)
    last = float(h.generation.max()) + 1 if len(h) else 0.0
    axes[0].errorbar([last], [100 * hold["share"]], yerr=[[100 * (hold["share"] - hold["low"])],
                     [100 * (hold["high"] - hold["share"])]], fmt="s", color=colour(3), capsize=3,
                     label="winner, held out")
    axes[0].axhline(fair, color=FAIR, ls="--", lw=1, label="fair share")
    axes[0].set_ylabel("tuned seat's win share (%)")
    axes[0].set_xlabel("generation" if result.method == "cma" else "round")
    axes[0].set_title("share per deal block, all seatings", fontsize=10)
    axes[0].legend(loc="best", fontsize=8)
    opponents = ", ".join(short_strategy(o, width=40, max_lines=1) for o in dict.fromkeys(result.opponents))
    fig.suptitle(
        f"{result.title}: tuning {short_strategy(result.strategy, width=40, max_lines=1)}\n"
        f"against {opponents}, {result.players} players"
    )
    return fig


@styled
def ladder_figure(title: str, players: int, rungs: Sequence[tuple], gap: Any, gap_deals: int | None = None,
                  min_deals: int = 100):
    """A strength ladder: per rung (strong, weak, share, low, high[, deals]) the strong player's
    share in one seat against the weak one, and the gap (top rung against bottom rung) at the
    end. A rung played on fewer than ``min_deals`` deals is inconclusive: a hollow marker with
    its interval, not a full bar."""
    labels = [f"{short_strategy(s, 16)}\nvs {short_strategy(w, 16)}" for s, w, *_ in rungs]
    labels.append("gap: top rung\nvs bottom rung")
    shares = [r[2] for r in rungs] + [gap.win_share]
    lows = [r[3] for r in rungs] + [gap.low]
    highs = [r[4] for r in rungs] + [gap.high]
    deals = [r[5] if len(r) > 5 else None for r in rungs] + [gap_deals]
    small = np.array([d is not None and d < min_deals for d in deals])
    fig, ax = new_figure(1, 1, width=max(6.0, 1.6 * len(labels)), height=4.0)
    x = np.arange(len(labels))
    y = 100 * np.array(shares)
    err = np.clip(np.nan_to_num([y - 100 * np.array(lows), 100 * np.array(highs) - y]), 0, None)
    colours = np.array([colour(0)] * len(rungs) + [colour(3)], dtype=object)
    full = ~small
    if full.any():
        ax.bar(x[full], y[full], color=list(colours[full]), yerr=err[:, full], capsize=4)
    if small.any():
        ax.errorbar(x[small], y[small], yerr=err[:, small], fmt="o", mfc="none", ms=9, capsize=4,
                    color=colour(1), label=f"under {min_deals} deals: inconclusive")
    ax.axhline(100 / players, color=FAIR, ls="--", lw=1, label="fair share")
    ax.set_xticks(x, labels, fontsize=8)
    ax.set_ylabel("win share in one seat (%)")
    ax.legend(loc="best")
    ax.set_title(f"{title}: strength ladder, {players} players, every seating")
    return fig


def tournament_figure(result: Any):
    """Left: every entrant's rating with its 95 % bootstrap interval, best on top, and the
    class steps from the baseline. Right: for every pair that met, the observed share of
    meetings the row entrant finished ahead (with its interval) against the share the ratings
    predict; points off the diagonal are what one scale cannot describe (cycles, styles)."""
    table = result.ratings.table().iloc[::-1]
    ahead = result.ratings.ahead()
    fig, (left, right) = new_figure(1, 2, width=11.0, height=1.8 + 0.45 * max(len(table), 4))
    y = np.arange(len(table))
    left.errorbar(table["rating"], y, xerr=[table["rating"] - table["rating_low"],
                                            table["rating_high"] - table["rating"]],
                  fmt="o", color=colour(0), capsize=3)
    left.set_yticks(y, list(table["strategy"]))
    step = result.ratings.depth()["class_step_points"]
    top = float(table["rating_high"].max())
    for k in range(1, int(top // step) + 1):
        left.axvline(k * step, color=FAIR, lw=0.8, ls=":")
    left.axvline(0.0, color=FAIR, lw=1.0)
    left.set_xlabel(f"rating (Elo scale, {result.ratings.baseline} = 0; dotted: class steps of {step:.0f})")
    d = result.depth()
    left.set_title(f"{result.title}, {result.players} players: depth {d['points']:.0f} "
                   f"[{d['points_low']:.0f}, {d['points_high']:.0f}] points, {d['steps']:.2f} steps",
                   fontsize=10)
    if len(ahead):
        right.errorbar(ahead["predicted"], ahead["observed"],
                       yerr=[ahead["observed"] - ahead["low"], ahead["high"] - ahead["observed"]],
                       fmt="o", color=colour(1), ms=4, capsize=2, alpha=0.8)
    right.plot([0, 1], [0, 1], color=FAIR, lw=1.0)
    right.set_xlim(0, 1)
    right.set_ylim(0, 1)
    right.set_xlabel("predicted share finishing ahead (ratings)")
    right.set_ylabel("observed share (95 % bootstrap interval)")
    right.set_title("every pair that met: observed vs predicted", fontsize=10)
    return fig


@styled
def deal_win_rates(result: Any):
    """How much the deal decides (``analysis.luck``): left, the histogram of the first seat's
    per-deal win rates over the replays against what deals that decide nothing would give
    (binomial, dashed); right, the deal's share of the outcome variance with its interval."""
    fig, (left, right) = new_figure(1, 2, width=9.0, height=3.6, gridspec_kw={"width_ratios": [3, 1]})
    k = result.replays
    rates = result.deal_rates[:, 0]
    edges = (np.arange(k + 2) - 0.5) / k
    left.hist(rates, bins=edges, color=colour(0), alpha=0.8, label="observed deals")
    mean = float(rates.mean())
    from math import comb

    expected = [len(rates) * comb(k, j) * mean**j * (1 - mean) ** (k - j) for j in range(k + 1)]
    left.plot(np.arange(k + 1) / k, expected, "k--", lw=1, label="if the deal decided nothing")
    left.set_xlabel(f"seat 1's win rate over the {k} replays of a deal")
    left.set_ylabel("deals")
    left.legend(frameon=False, fontsize=8)
    _share_bars(right, [result])
    fig.suptitle(f"{result.title}: how much the deal decides ({result.players} players, "
                 f"{', '.join(short_strategy(s) for s in dict.fromkeys(result.strategies))})")
    return fig


def _share_bars(ax, results: Sequence[Any]) -> None:
    """The deal's share with its interval, one bar per result."""
    x = np.arange(len(results))
    shares = np.array([r.deal_share for r in results])
    low = np.array([r.deal_share_low for r in results])
    high = np.array([r.deal_share_high for r in results])
    ax.bar(x, 100 * shares, color=[colour(i) for i in range(len(results))], alpha=0.8)
    ax.errorbar(x, 100 * shares, yerr=[100 * (shares - low), 100 * (high - shares)], fmt="none", ecolor="k",
                capsize=3, lw=1)
    ax.set_xticks(x, [r.title if len(results) > 1 else "deal" for r in results],
                  rotation=20 if len(results) > 1 else 0)
    ax.set_ylabel("deal's share of the variance (%)")


@styled
def weaker_wins(result: Any):
    """Two strategies (``analysis.luck(..., versus=...)``): the weaker's win share and the
    stronger's, raw and (where the luck ledger serves) luck-adjusted, each with its 95 %
    interval, against the fair share (dashed)."""
    v = result.versus
    rows = [(f"{short_strategy(v['weaker'])} (weaker)", "weaker_win_share", colour(1)),
            (f"{short_strategy(v['stronger'])} (stronger)", "stronger_win_share", colour(0))]
    if v["luck"]:
        rows.append((f"{short_strategy(v['stronger'])}, luck-adjusted", "stronger_win_share_adjusted", colour(2)))
    fig, ax = new_figure(1, 1, width=7.0, height=1.0 + 0.7 * len(rows))
    y = np.arange(len(rows))[::-1]
    for yi, (_, key, c) in zip(y, rows, strict=True):
        mid, low, high = (100 * v[key + s] for s in ("", "_low", "_high"))
        ax.barh(yi, mid, color=c, alpha=0.8)
        # (clipped at 0: a share of 0 % has an interval from 0, and rounding may put low a hair above it)
        ax.errorbar(mid, yi, xerr=[[max(mid - low, 0.0)], [max(high - mid, 0.0)]], fmt="none", ecolor="k",
                    capsize=3, lw=1)
        ax.text(high + 0.5, yi, f"{mid:.1f} %", va="center", fontsize=8)
    ax.axvline(100 * v["fair_share"], color="k", ls="--", lw=1)
    ax.set_yticks(y, [r[0] for r in rows])
    ax.set_xlim(0, 100)
    ax.set_xlabel(f"win share (%); dashed: the fair share, {100 * v['fair_share']:.0f} %")
    ax.set_title(f"{result.title}: how often the weaker wins ({v['players']} players, {v['deals']:,} deals "
                 "in every seat rotation)")
    return fig


@styled
def deal_shares(results: Sequence[Any]):
    """The deal's share of the outcome variance, one bar per result (e.g. the five games at
    their default player counts), with the 95 % intervals."""
    fig, ax = new_figure(1, 1, width=1.4 * len(results) + 2.5, height=3.8)
    _share_bars(ax, list(results))
    ax.set_title("How much the deal decides (share of a seat's outcome variance)")
    return fig


@styled
def balance_figure(result: Any):
    """A rules search (``analysis.balance``): every variant's seat spread (the worst player
    count) against its mean length relative to the official rules, at its last measurement
    (held-out deals where played, with the spread's 95 % interval); the Pareto front joined."""
    fig, axes = new_figure(1, 1, width=7.5, height=4.6)
    ax = axes
    base = next(v for v in result.variants if v.label == result.baseline)
    base_len = {p: m["length"] for p, m in base.metrics.items()}

    def point(v):
        metrics = v.held_out["metrics"] if v.held_out else v.metrics
        worst = max(metrics, key=lambda p: metrics[p]["spread"])
        m = metrics[worst]
        length = 100 * max((m2["length"] / base_len[p] - 1 for p, m2 in metrics.items()), key=abs)
        return length, 100 * m["spread"], 100 * m["spread_low"], 100 * m["spread_high"]

    pts = [point(v) for v in result.variants]
    searched = [p for v, p in zip(result.variants, pts, strict=True) if v.held_out is None]
    if searched:
        ax.scatter([p[0] for p in searched], [p[1] for p in searched], s=10, color=colour(7), alpha=0.6,
                   label="searched (search deals)")
    for i, (v, p) in enumerate(zip(result.variants, pts, strict=True)):
        if v.held_out is None:
            continue
        is_base = v.label == result.baseline
        ax.errorbar([p[0]], [p[1]], yerr=[[p[1] - p[2]], [p[3] - p[1]]], fmt="s" if is_base else "o",
                    color=colour(1) if is_base else colour(0 if i == 0 else 2), capsize=3,
                    label=("official rules" if is_base else ("best" if i == 0 else None)) and
                    f"{'official rules' if is_base else 'best'}: {v.label}"[:60] + " (held out)")
    front = [pts[i] for i, v in enumerate(result.variants) if v.label in result.pareto]
    front.sort()
    if front:
        ax.plot([p[0] for p in front], [p[1] for p in front], color=colour(3), lw=1, label="Pareto front")
    ax.axhline(0, color=FAIR, ls="--", lw=1)
    ax.set_xlabel("length vs the official rules (%)")
    ax.set_ylabel("seat spread, worst player count (pp)")
    ax.legend(loc="best", fontsize=7)
    ax.set_title(f"{result.title}: rules searched ({', '.join(result.vary)}), "
                 f"{', '.join(map(str, result.players))} players", fontsize=10)
    return fig


@styled
def card_worth_bars(worth: Any, ax: Any = None):
    """Restricted play (``CardWorth.plot``): per pattern the change in the restricted first
    seat's win share as a bar with its 95 % interval (the card's worth); the correlation of
    the unrestricted games, where measured, as a hollow marker with its interval beside it."""
    rows = [r for r in worth.rows() if r["pattern"] != "-"]
    if ax is None:
        fig, ax = new_figure(width=7.5, height=2.2 + 0.45 * len(rows))
    else:
        fig = ax.figure
    y = np.arange(len(rows))[::-1]
    change = np.array([100 * r["change"] for r in rows])
    err = np.array([[100 * (r["change"] - r["change_low"]) for r in rows],
                    [100 * (r["change_high"] - r["change"]) for r in rows]])
    ax.barh(y, change, xerr=err, color=colour(0), alpha=0.85, capsize=3,
            label=f"change when seat 1 may {'not play' if worth.key == 'never' else 'must play first'} it "
                  "(same deals)")
    corr = [r.get("correlation") for r in rows]
    if any(c is not None for c in corr):
        keep = [i for i, c in enumerate(corr) if c is not None]
        cy = y[keep] - 0.25
        cv = np.array([100 * corr[i] for i in keep])
        cerr = np.array([[100 * (corr[i] - rows[i]["correlation_low"]) for i in keep],
                         [100 * (rows[i]["correlation_high"] - corr[i]) for i in keep]])
        ax.errorbar(cv, cy, xerr=cerr, fmt="o", mfc="white", color=colour(1), capsize=2,
                    label="played minus not played (correlation, not worth)")
    ax.axvline(0, color=FAIR, lw=1)
    ax.set_yticks(y, [r["pattern"] for r in rows])
    ax.set_xlabel("seat 1's win share, percentage points (95 % interval)")
    title = f"{worth.game}, {worth.players} players: what a card is worth to {short_strategy(worth.strategy, 40, 1)}"
    ax.set_title(title)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.35 - 0.6 / (1 + len(rows))), ncol=1)
    return fig

"""Every question at every strength: one table per question, one verdict per answer.

The recipes play the seat runs at up to three strengths — the game's simple player (``greedy``
or the default), ``tuned``, and the strongest search player affordable in every seat — and
record each with :func:`record`. :func:`answers` then writes the section that leads the page:

- **seat advantage** per player count: the first seat's share and the worst seat at each
  strength, with the verdict of ``verdicts.across_strengths`` ("holds at every strength",
  "depends on strength", "not resolved at this size" with the deals needed);
- **length** in the game's own unit and in turns per player at each strength;
- **ties** (shared wins) at each strength;

and a figure of every seat's deviation from the fair share, in percentage points, at each
strength (runs under ``verdicts.MIN_DEALS`` games drawn hollow). The rows also go to the
report's ``data.json`` (``summary``), which ``scripts/make_summary.py`` turns into
``reports/SUMMARY.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from montecards.report.verdicts import MIN_DEALS, Estimate, across_strengths

STRENGTHS = ("simple", "tuned", "strong")
"""The strength labels, weakest first."""

SEAT_MARGIN = 0.01
"""The smallest departure from the fair share worth naming (1 pp of win share)."""
LENGTH_MARGIN = 0.05
"""A length change under 5 % is no change worth naming."""


def record(rep: Any, label: str, strategy: str, sa: Any) -> None:
    """Keep seat run ``sa`` (every seat ``strategy``) as strength ``label`` of the report."""
    if label not in STRENGTHS:
        raise ValueError(f"strength label must be one of {STRENGTHS}, got {label!r}")
    rep.strength_runs[label] = (strategy, sa)


def _pp(e: Estimate) -> str:
    return f"{100 * (e.value - e.null):+.1f} pp"


def _share(value: float, low: float, high: float) -> str:
    return f"{100 * value:.1f} % [{100 * low:.1f}, {100 * high:.1f}]"


def _rel(e: Estimate) -> str:
    return f"{100 * e.value:+.0f} %"


def rows(rep: Any) -> list[dict[str, Any]]:
    """One row per player count: every strength's first seat, worst seat, Balance, ties and
    length, and the seat verdict (plain values, for data.json and the summary)."""
    runs = {label: rep.strength_runs[label] for label in STRENGTHS if label in rep.strength_runs}
    counts = sorted({p for _, sa in runs.values() for p in sa.player_counts})
    out = []
    for p in counts:
        row: dict[str, Any] = {"players": p, "fair": 1 / p, "strengths": {}}
        seats: dict[str, Estimate] = {}
        lengths: dict[str, tuple[float, float, float, int]] = {}
        for label, (strategy, sa) in runs.items():
            if p not in sa.results:
                continue
            res = sa.results[p]
            shares = np.array(res.win_share)
            cis = res.win_share_ci95
            worst = int(np.argmin(shares))
            m = res.metrics()
            seats[label] = Estimate(float(shares[0]), float(cis[0][0]), float(cis[0][1]), int(res.n_games),
                                    null=1 / p, margin=SEAT_MARGIN, label=label)
            lengths[label] = (m["turns"]["mean"], *m["turns"]["ci95"], int(res.n_games))
            row["strengths"][label] = {
                "strategy": strategy, "games": int(res.n_games),
                "first": [float(shares[0]), *map(float, cis[0])],
                "worst_seat": worst + 1, "worst": [float(shares[worst]), *map(float, cis[worst])],
                "balance": float(1 - (shares.max() - shares.min())),
                "ties": [m["shared_wins"]["mean"], *m["shared_wins"]["ci95"]],
                "length": [m["turns"]["mean"], *m["turns"]["ci95"]],
                "per_player": m["turns"]["mean"] / p,
                "small": res.n_games < MIN_DEALS,
            }
        v = across_strengths(seats, _pp, up="first-seat advantage", down="first-seat disadvantage",
                             none=f"no effect beyond ±{100 * SEAT_MARGIN:g} pp")
        row["seat_verdict"], row["seat_kind"] = v.text, v.kind
        row["length_verdict"] = _length_verdict(lengths)
        out.append(row)
    return out


def _length_verdict(lengths: dict[str, tuple[float, float, float, int]]) -> str:
    """How the length at each stronger strength compares with the simple player's."""
    if "simple" not in lengths or len(lengths) < 2:
        return "one strength only"
    base = lengths["simple"][0]
    rel = {label: Estimate(m / base - 1, lo / base - 1, hi / base - 1, n, null=0.0, margin=LENGTH_MARGIN)
           for label, (m, lo, hi, n) in lengths.items() if label != "simple"}
    v = across_strengths(rel, _rel, up="longer than the simple player's games",
                         down="shorter than the simple player's games",
                         none=f"the same length within ±{100 * LENGTH_MARGIN:g} %")
    return v.text


def answers(rep: Any) -> list[str]:
    """The Markdown blocks of the section "Answers at every strength" (empty without runs)."""
    if not rep.strength_runs:
        return [b for blocks in rep.variant_answers for b in blocks]
    table = rows(rep)
    rep.summary = table
    unit = rep.spec.turns_name
    labels = [label for label in STRENGTHS if label in rep.strength_runs]
    who = ", ".join(f"{label}: `{rep.strength_runs[label][0]}`" for label in labels)
    blocks = ["## Answers at every strength\n",
              f"Every seat plays the same player, at each strength ({who}). Verdicts come from the "
              "95 % intervals (`montecards/report/verdicts.py`): a strength with fewer than "
              f"{MIN_DEALS} games is inconclusive, whatever its interval.\n"]
    from montecards.report.base import markdown_table

    if rep.symmetric_seats:
        blocks.append(symmetry_check(rep))
    else:
        blocks += ["### Seat advantage\n", "The first seat's win share [95 % interval] and the worst seat:\n",
                   markdown_table(pd.DataFrame(_seat_rows(table, labels)), index=False) + "\n"]
    blocks += _length_and_ties(table, labels, unit)
    for variant_blocks in rep.variant_answers:
        blocks += variant_blocks
    return blocks


def symmetry_check(rep: Any) -> str:
    """One line for seats symmetric by construction: how many seat intervals miss the fair
    share at every strength and player count, against the one in twenty expected by chance."""
    from scipy.stats import binom

    total = missed = 0
    for _, sa in rep.strength_runs.values():
        for p in sa.player_counts:
            res = sa.results[p]
            for (low, high) in res.win_share_ci95:
                total += 1
                missed += not (low <= 1 / p <= high)
    chance = binom.sf(missed - 1, total, 0.05) if missed else 1.0
    verdict = ("consistent with symmetric seats" if chance >= 0.05 else
               "more than chance allows: look for a seat effect in the code")
    return (f"**Seat symmetry check** ({rep.symmetric_seats}): {missed} of {total} seat win-share "
            f"intervals (every seat, player count and strength) miss the fair share, against about "
            f"{0.05 * total:.1f} expected by chance (probability of {missed} or more: {chance:.2f}): "
            f"{verdict}.\n")


def _seat_rows(table: list[dict[str, Any]], labels: list[str]) -> list[dict[str, Any]]:
    seat = []
    for row in table:
        r = {"players": row["players"], "fair": f"{100 * row['fair']:.1f} %"}
        for label in labels:
            s = row["strengths"].get(label)
            r[label] = "—" if s is None else (
                f"{_share(*s['first'])}{' (inconclusive)' if s['small'] else ''}; worst seat "
                f"{s['worst_seat']} {100 * s['worst'][0]:.1f} %")
        r["verdict"] = row["seat_verdict"]
        seat.append(r)
    return seat


def _length_and_ties(table: list[dict[str, Any]], labels: list[str], unit: str) -> list[str]:
    from montecards.report.base import markdown_table

    blocks = []
    blocks.append(f"### Length\n\n{unit.capitalize()} per game [95 % interval] and {unit} per player:\n")
    length = []
    for row in table:
        r = {"players": row["players"]}
        for label in labels:
            s = row["strengths"].get(label)
            r[label] = "—" if s is None else (
                f"{s['length'][0]:.1f} [{s['length'][1]:.1f}, {s['length'][2]:.1f}]; {s['per_player']:.1f} "
                "per player")
        r["verdict"] = row["length_verdict"]
        length.append(r)
    blocks.append(markdown_table(pd.DataFrame(length), index=False) + "\n")
    blocks.append("### Ties\n\nShare of games with a shared win [95 % interval]:\n")
    ties = []
    for row in table:
        r = {"players": row["players"]}
        for label in labels:
            s = row["strengths"].get(label)
            r[label] = "—" if s is None else _share(*s["ties"])
        ties.append(r)
    blocks.append(markdown_table(pd.DataFrame(ties), index=False) + "\n")
    return blocks


def deviation_figure(rep: Any):
    """Every seat's win share minus the fair share (pp) at each strength, one panel per
    strength; runs under MIN_DEALS games hollow."""
    from montecards.plots.style import FAIR, colour, new_figure

    labels = [label for label in STRENGTHS if label in rep.strength_runs]
    fig, axes = new_figure(1, len(labels), width=4.2 * len(labels), height=3.6)
    axes = np.atleast_1d(axes)
    for ax, label in zip(axes, labels, strict=True):
        strategy, sa = rep.strength_runs[label]
        for p in sa.player_counts:
            res = sa.results[p]
            seats = np.arange(1, p + 1)
            dev = 100 * (np.array(res.win_share) - 1 / p)
            err = 100 * np.array([[s - lo, hi - s] for s, (lo, hi) in zip(res.win_share, res.win_share_ci95,
                                                                           strict=True)]).T
            err = np.clip(err, 0, None)  # (rounding at a share of 0 or 1: never below 0)
            hollow = res.n_games < MIN_DEALS
            ax.errorbar(seats + 0.08 * (p - 4), dev, yerr=err, fmt="o-", ms=5, capsize=2, lw=1,
                        color=colour(p - 2), mfc="none" if hollow else colour(p - 2),
                        label=f"{p} players" + (" (inconclusive)" if hollow else ""))
        ax.axhline(0, color=FAIR, ls="--", lw=1)
        ax.set_xticks(range(1, max(sa.player_counts) + 1))
        ax.set_xlabel("seat")
        ax.set_title(f"{label}: {strategy}", fontsize=9)
    axes[0].set_ylabel("win share − fair share (pp)")
    axes[-1].legend(fontsize=7, loc="best")
    return fig


def variant_at_strengths(rep: Any, title: str, variants: dict[str, dict[str, Any]], players: int,
                         strengths: dict[str, tuple[str, int]], quantities: dict[str, str],
                         margin: float = 0.01) -> None:
    """A rule variant's effect at each strength, as one table per variant: every quantity's
    paired difference from the baseline (the first variant; seat shares and rates in pp) with
    ``across_strengths``' verdict. ``strengths``: label → (strategy in every seat, deals);
    ``quantities``: name → what it is. Rendered in the answers at every strength."""
    from montecards.analysis import compare_variants
    from montecards.report.base import markdown_table, timed

    runs = {}
    for label, (strategy, n) in strengths.items():
        runs[label] = timed(rep, f"{title}: {strategy} in every seat ({players} players)",
                            f"{n:,} deals × {len(variants)}",
                            lambda strategy=strategy, n=n: compare_variants(
                                rep.game, variants, n=n, players=players, strategies=strategy, seed=rep.seed,
                                jobs=rep.jobs))
    baseline = next(iter(variants))
    rows = []
    for label in list(variants)[1:]:
        for q, what in quantities.items():
            ests = {}
            for strength, cmp in runs.items():
                d, lo, hi = cmp.difference(label, q)
                ests[strength] = Estimate(d, lo, hi, strengths[strength][1], null=0.0, margin=margin)
            row = {"variant": label, "quantity": what}
            for strength, e in ests.items():
                row[strength] = f"{100 * e.value:+.1f} [{100 * e.low:+.1f}, {100 * e.high:+.1f}]" + (
                    " (inconclusive)" if e.small else "")
            row["verdict"] = across_strengths(
                ests, lambda e: f"{100 * e.value:+.1f} pp", up="raises it", down="lowers it",
                none=f"no effect beyond ±{100 * margin:g} pp").text
            rows.append(row)
    who = ", ".join(f"{label}: `{s}`" for label, (s, _) in strengths.items())
    rep.variant_answers.append([
        f"### {title}\n",
        f"Each variant minus `{baseline}`, paired on the same deals, in percentage points [95 % interval], "
        f"{players} players, at each strength ({who}):\n",
        markdown_table(pd.DataFrame(rows), index=False) + "\n",
    ])

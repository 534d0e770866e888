"""``reports/SUMMARY.md``: one page across the games, from the reports' ``data.json``.

One row per game and player count: the first seat's share and the worst seat at each strength,
Balance (1 − the largest gap between two seats' win shares; 1 is perfectly fair), ties, length
per player, the game's skill depth and its luck share, and the one-line seat verdict. Under
the table, the cross-game figures: skill depth side by side (rating points with 95 %
intervals), and the luck share where the reports measured one. Nothing here is typed by hand:
a game whose report lacks a number shows "—" and the page says which reports to regenerate.

    python -m montecards.report.summary [REPORTS_DIR]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from montecards.report.base import markdown_table
from montecards.report.strengths import STRENGTHS


def _data(reports: Path) -> dict[str, dict[str, Any]]:
    out = {}
    for path in sorted(reports.glob("*/data.json")):
        out[path.parent.name] = json.loads(path.read_text())
    return out


def _cell(values: list[str]) -> str:
    return " / ".join(values)


def _plain(text: str) -> str:
    return re.sub(r"<!--.*?-->", "", text)


def summary_table(data: dict[str, dict[str, Any]]) -> pd.DataFrame:
    rows = []
    for game, d in data.items():
        depth = d.get("facts", {}).get("skill_depth")
        luck = d.get("facts", {}).get("luck_share")
        depth_text = "—" if depth is None else (
            f"{depth['points']:.0f} [{depth['points_low']:.0f}, {depth['points_high']:.0f}] "
            f"({depth['players']}p, `{depth['from']}`→`{depth['to']}`)")
        luck_text = _share_text(luck)
        lead = d.get("facts", {}).get("lead")
        lead_text = "—" if lead is None else (
            f"{lead['lead_changes']:.1f} / {100 * lead['decided_at']:.0f} % ({lead['players']}p)")
        deal_text = _share_text(d.get("facts", {}).get("deal_share"))
        for row in d.get("summary", []):
            s = [row["strengths"].get(label) for label in STRENGTHS]

            def each(fmt, s=s):
                return _cell(["—" if x is None else fmt(x) for x in s])

            rows.append({
                "game": game,
                "players": row["players"],
                "first seat (simple / tuned / strong)": each(
                    lambda x: f"{100 * x['first'][0]:.1f} %" + ("?" if x["small"] else "")),
                "worst seat": each(lambda x: f"{x['worst_seat']}: {100 * x['worst'][0]:.1f} %"),
                "Balance": each(lambda x: f"{x['balance']:.3f}"),
                "ties": each(lambda x: f"{100 * x['ties'][0]:.1f} %"),
                "length per player": each(lambda x: f"{x['per_player']:.1f}"),
                "skill depth (Elo points)": depth_text,
                "deal share": deal_text,
                "luck share": luck_text,
                "lead changes / decided at": lead_text,
                "seat verdict": _verdict_line(_plain(row["seat_verdict"])),
            })
    return pd.DataFrame(rows)


def depth_figure(data: dict[str, dict[str, Any]]):
    """Skill depth of every game side by side: rating points from the bottom to the top
    entrant with their 95 % intervals; dotted lines: class steps (75 % head to head)."""
    from montecards.analysis.ratings import CLASS_STEP
    from montecards.plots.style import FAIR, colour, new_figure

    games = [(g, d["facts"]["skill_depth"]) for g, d in data.items() if d.get("facts", {}).get("skill_depth")]
    fig, ax = new_figure(1, 1, width=7.0, height=1.2 + 0.5 * max(len(games), 1))
    for k, (_, dep) in enumerate(games):
        ax.errorbar([dep["points"]], [k], xerr=[[dep["points"] - dep["points_low"]],
                                               [dep["points_high"] - dep["points"]]],
                    fmt="o", color=colour(0), capsize=4)
    ax.set_yticks(range(len(games)), [f"{g} ({d['players']}p)" for g, d in games])
    top = max([d["points_high"] for _, d in games] + [CLASS_STEP])
    for k in range(1, int(top // CLASS_STEP) + 1):
        ax.axvline(k * CLASS_STEP, color=FAIR, ls=":", lw=0.8)
    ax.axvline(0, color=FAIR, lw=1)
    ax.set_xlabel(f"skill depth: rating points from the bottom to the top rated player "
                  f"(dotted: class steps of {CLASS_STEP:.0f})")
    ax.set_title("Skill depth by game, 95 % bootstrap intervals", fontsize=10)
    return fig


def _share_text(fact: dict[str, Any] | None) -> str:
    """A share fact (``{"share", "low", "high", "players"}``) as "12.3 % [11.8, 12.9] (4p)"."""
    if fact is None:
        return "—"
    where = f" ({fact['players']}p)" if "players" in fact else ""
    return f"{100 * fact['share']:.1f} % [{100 * fact['low']:.1f}, {100 * fact['high']:.1f}]{where}"


def _verdict_line(verdict: str) -> str:
    """The seat verdict without its per-strength figures, keeping "at one strength only" (an
    answer measured at one strength is not said to hold at every strength)."""
    head = verdict.split(" (")[0]
    return head + (" (at one strength only)" if "at one strength only" in verdict else "")


def luck_figure(data: dict[str, dict[str, Any]], key: str = "luck_share",
                label: str = "luck share of the result's variance (%)", title: str = "Luck share by game"):
    """The games' ``key`` facts side by side, 95 % intervals."""
    from montecards.plots.style import colour, new_figure

    games = [(g, d["facts"][key]) for g, d in data.items() if d.get("facts", {}).get(key)]
    fig, ax = new_figure(1, 1, width=7.0, height=1.2 + 0.5 * len(games))
    for k, (_, luck) in enumerate(games):
        ax.errorbar([100 * luck["share"]], [k], xerr=[[100 * (luck["share"] - luck["low"])],
                                                     [100 * (luck["high"] - luck["share"])]],
                    fmt="o", color=colour(1), capsize=4)
    ax.set_yticks(range(len(games)), [f"{g} ({f['players']}p)" if "players" in f else g for g, f in games])
    ax.set_xlim(0, max(5.0, min(100.0, 1.3 * 100 * max(f["high"] for _, f in games))))
    ax.set_xlabel(label)
    ax.set_title(f"{title}, 95 % intervals", fontsize=10)
    return fig


def _save_both(fig: Any, reports: Path, name: str) -> None:
    """One figure drawn once, as SVG (the HTML site's) and PNG (the page's), as a report's are."""
    from montecards.plots import save

    save(fig, reports / f"{name}.svg")
    save(fig, reports / f"{name}.png")


def write_summary(reports: str | Path = "reports") -> Path:
    """Write ``reports/SUMMARY.md`` and its figures from every report's data.json."""

    reports = Path(reports)
    data = _data(reports)
    if not data:
        raise ValueError(f"no report under {reports} has a data.json: regenerate the reports first")
    games = sorted(p.parent.name for p in reports.glob("*/README.md"))
    missing = [g for g in games if g not in data]
    lines = ["# Across the games\n",
             "Generated by `python -m montecards.report.summary` from each report's `data.json` (every "
             "number comes from a report; none is typed here). Strengths: simple (greedy or the game's "
             "own player), tuned, strong (the largest search player affordable in every seat); a share "
             "marked `?` rests on fewer than 100 games. Balance = 1 − the largest gap between two seats' "
             "win shares. Length per player is in each game's own unit (its report names it). Lead changes "
             "/ decided at: the changes of the seat ahead by the value per game, and the share of the "
             "chance events before the winner led for good (docs/metrics.md; where the game has a value).\n",
             markdown_table(summary_table(data), index=False) + "\n"]
    if missing:
        lines.append("Not in the table (their reports predate data.json; regenerate them): "
                     + ", ".join(missing) + ".\n")
    lines.append("## Per game\n")
    lines += [f"- [{g}]({g}/README.md): " + " ".join(_plain(h) for h in data[g].get("headlines", [])[:2])
              for g in data]
    lines.append("")
    if any(d.get("facts", {}).get("skill_depth") for d in data.values()):
        _save_both(depth_figure(data), reports, "skill_depth")
        lines.append("## Skill depth\n\n![Skill depth by game](skill_depth.png)\n")
    if any(d.get("facts", {}).get("deal_share") for d in data.values()):
        args = ("deal_share", "the deal's share of a seat's result variance (%)", "How much the deal decides")
        _save_both(luck_figure(data, *args), reports, "deal_share")
        lines.append("## How much the deal decides\n\nEach deal replayed with independent later draws; the "
                     "between-deal share of the variance of a seat's result (docs/luck.md): a lower bound on "
                     "luck, which every game has (no value needed).\n\n![The deal's share by game](deal_share.png)\n")
    if any(d.get("facts", {}).get("luck_share") for d in data.values()):
        _save_both(luck_figure(data), reports, "luck_share")
        lines.append("## Luck share\n\n![Luck share by game](luck_share.png)\n")
    else:
        lines.append("## Luck share\n\nNo report measured a luck share yet, so there is no luck figure.\n")
    path = reports / "SUMMARY.md"
    path.write_text("\n".join(lines) + "\n")
    return path


if __name__ == "__main__":
    print(write_summary(sys.argv[1] if len(sys.argv) > 1 else "reports"))

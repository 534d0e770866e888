"""The move analysis' figure: every legal move as a bar of the seat's win share with its 95 %
interval, best first (``MoveAnalysis.plot``, issue #32)."""

from __future__ import annotations

from typing import Any

from montecards.plots.style import colour, new_figure, styled


@styled
def move_bars(analysis: Any, ax: Any = None):
    """A horizontal bar per move (``analysis.rows()``, best on top); the omniscient value, when
    the analysis has it, as a marker. Returns the Figure."""
    rows = analysis.rows()
    if ax is None:
        fig, ax = new_figure(width=7.0, height=1.2 + 0.35 * len(rows))
    else:
        fig = ax.figure
    names = [r["move"] for r in rows][::-1]
    shares = [100 * r["win_share"] for r in rows][::-1]
    lows = [100 * (r["win_share"] - r["win_share_low"]) for r in rows][::-1]
    highs = [100 * (r["win_share_high"] - r["win_share"]) for r in rows][::-1]
    colours = [colour(1)] * (len(rows) - 1) + [colour(0)]
    ax.barh(names, shares, xerr=[lows, highs], color=colours, capsize=3, alpha=0.85, label="win share")
    omni = [r["omniscient"] for r in rows][::-1]
    if all(v is not None for v in omni):
        ax.plot([100 * v for v in omni], names, "kd", markersize=5, label="omniscient")
        ax.legend(loc="lower right")
    ax.set_xlabel("seat's win share (%), 95 % interval")
    ax.set_xlim(0, 100)
    state = "decided" if analysis.decided else "not decided"
    ax.set_title(f"{analysis.game}: best {analysis.best} ({state}, {analysis.evaluations:,} play-outs)")
    return fig

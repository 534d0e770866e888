"""One style for every figure: sizes, fonts, colours, grid."""

from __future__ import annotations

import functools

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

STYLE = {
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "axes.titleweight": "bold",
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linestyle": "-",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "figure.dpi": 100,
    "savefig.dpi": 110,
    "figure.facecolor": "white",
    "axes.facecolor": "white",
}

PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
FAIR = "#555555"
"""Colour of fair-share and zero reference lines."""


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def styled(func):
    """Build the figure under :data:`STYLE` (rcParams are read when artists are created)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(STYLE):
            return func(*args, **kwargs)

    return wrapper


class ReportFigure(Figure):
    """A Figure that shows itself in Jupyter (``_repr_png_``) without pyplot or ``%matplotlib``."""

    def _repr_png_(self) -> bytes:
        import io

        buf = io.BytesIO()
        self.savefig(buf, format="png", bbox_inches="tight")
        return buf.getvalue()


def new_figure(nrows: int = 1, ncols: int = 1, width: float = 7.0, height: float = 4.0, **kwargs):
    """A pyplot-free figure on the Agg canvas and its axes (a 2-D array when squeeze=False)."""
    fig = ReportFigure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, **kwargs)
    return fig, axes

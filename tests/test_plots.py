"""Every figure builds from a small run and is a valid PNG."""

from __future__ import annotations

import matplotlib.image as mpimg
import pytest

import montecards as mc
from montecards.analysis import compare_variants, matchups, seat_advantage, sweep
from montecards.plots import save

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def runs():
    return {
        "result": mc.simulate("parade", n=500, players=3, seed=1, jobs=2),
        "seats": seat_advantage("parade", players=[2, 3, 4], n=400, seed=1, jobs=2),
        "matchups": matchups("parade", ["random", "greedy"], players=2, n=200, seed=1, jobs=2),
        "variants": compare_variants(
            "parade", [{"two_player_margin": 2}, {"two_player_margin": 0}], n=300, players=2, seed=1, jobs=2
        ),
        "sweep": sweep("parade", "two_player_margin", ["0", "1", "2"], n=200, players=2, seed=1, jobs=2),
    }


FIGURES = {
    "result_win_share": lambda r: r["result"].plot.win_share(),
    "result_scores": lambda r: r["result"].plot.scores(),
    "result_length": lambda r: r["result"].plot.length(),
    "seats_win_share": lambda r: r["seats"].plot.win_share(),
    "seats_scores": lambda r: r["seats"].plot.scores(),
    "seats_length": lambda r: r["seats"].plot.length(),
    "seats_metric": lambda r: r["seats"].plot.metrics(["six_colours"]),
    "matchup_heatmap": lambda r: r["matchups"].plot.heatmap(),
    "variant_differences": lambda r: r["variants"].plot.differences(),
    "sweep_curve": lambda r: r["sweep"].plot.curve(),
}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_is_a_valid_png(runs, tmp_path, name):
    fig = FIGURES[name](runs)
    path = save(fig, tmp_path / f"{name}.png")
    assert path.read_bytes()[:8] == PNG_MAGIC
    image = mpimg.imread(path)
    assert image.ndim == 3 and image.shape[0] > 200 and image.shape[1] > 300
    assert fig.axes and all(
        ax.get_xlabel() or not ax.get_visible() for ax in fig.axes if ax.get_label() != "<colorbar>"
    )


def test_results_display_in_jupyter(runs):
    assert "<table" in runs["result"]._repr_html_()
    for key in ("seats", "matchups", "variants", "sweep"):
        assert "<table" in runs[key]._repr_html_()

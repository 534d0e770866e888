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


def test_results_print_in_one_short_line(runs):
    """``print(result)`` shows what the result is, not every per-deal array behind it."""
    for key in ("result", "seats", "matchups", "variants", "sweep"):
        text = repr(runs[key])
        assert "\n" not in text and len(text) < 200, (key, text[:300])
        assert "parade" in text
    assert "greedy" in repr(runs["matchups"]) and "array" not in repr(runs["matchups"].matchups[0])


LONG_NAMES = [
    "/home/someone/projects/cards/strategies/lowcard_with_memory.py:choose[1,0.5,0]",
    "/home/someone/projects/cards/strategies/lowcard_with_memory.py:choose[1,-0.25,2]",
    "weighted[-3,1.0911394493469282,-1,3,-2.5823766194189575,3,2,0.5945829132468456,1,3,"
    "-0.20853803779797264,-2,0.7316722334607371,-2.453967706518192,2]",
]


def test_short_strategy_labels_drop_folders_and_wrap():
    from montecards.labels import short_strategy

    assert short_strategy("greedy") == "greedy"
    assert short_strategy("ismcts[1000,0.7,0]") == "ismcts[1000,0.7,0]"
    assert short_strategy(LONG_NAMES[0]).replace("\n", "") == "lowcard_with_memory.py:choose[1,0.5,0]"
    assert short_strategy("/a/b/mine.py:choose[1,0.5]") == "mine.py:choose[1,0.5]"
    weighted = short_strategy(LONG_NAMES[2])
    assert weighted.startswith("weighted[-3,1.09,-1,3,") and weighted.endswith("…")
    for name in LONG_NAMES:
        lines = short_strategy(name).split("\n")
        assert len(lines) <= 3 and all(len(line) <= 22 for line in lines)


def _overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_heatmap_labels_of_file_strategies_do_not_overlap():
    """User strategies are labelled by their file paths: the heat map's tick labels must stay
    apart from each other and inside the figure."""
    import numpy as np

    from montecards.analysis.matchups import Matchup, MatchupResult

    rng = np.random.default_rng(0)
    pairs = [(a, b) for a in LONG_NAMES for b in LONG_NAMES if a != b]
    result = MatchupResult(
        game="parade", title="Parade", players=2, strategies=LONG_NAMES, seed=1, params={},
        matchups=[Matchup(a, b, 2, [rng.random(50)], [rng.random(50)]) for a, b in pairs],
    )
    fig = result.plot.heatmap()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    ax = fig.axes[0]
    for ticks in (ax.get_xticklabels(), ax.get_yticklabels()):
        boxes = [t.get_window_extent(renderer) for t in ticks]
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                assert not _overlap(boxes[i], boxes[j]), (ticks[i].get_text(), ticks[j].get_text())
            assert page.x0 <= boxes[i].x0 and boxes[i].x1 <= page.x1
        assert all("/" not in t.get_text() for t in ticks)

"""Designer metrics (issue 33, docs/metrics.md): ``simulate(..., designer=True)``."""

from __future__ import annotations

import json

import numpy as np
import pytest

import montecards as mc
from montecards import games
from montecards.analysis.designer import DesignerMetrics
from montecards.analysis.intervals import mean_interval
from montecards.engine.spec import WIN_UNIT


def _rows(players: int, n: int, seed: int) -> np.ndarray:
    """Random rows of Parade's layout: a winner per game (some shared), scores, turns."""
    layout = games.get("parade").layout(players)
    rng = np.random.default_rng(seed)
    rows = np.zeros((n, layout.width), np.int64)
    rows[:, 0] = rng.integers(20, 60, n)
    scores = rng.integers(0, 40, (n, players))
    rows[:, layout.seat_slice("score")] = scores
    low = scores.min(axis=1, keepdims=True)
    best = scores == low
    rows[:, layout.seat_slice("win")] = best * (WIN_UNIT // best.sum(axis=1, keepdims=True))
    return rows


def test_accumulated_metrics_are_the_per_game_definitions():
    players, n = 3, 5000
    rows = _rows(players, n, 1)
    layout = games.get("parade").layout(players)
    acc = DesignerMetrics(layout, lower_wins=True)
    for start in range(0, n, 1200):  # chunk by chunk, as a run hands them over
        acc(start, rows[start : start + 1200])
    d = acc.result()
    win = rows[:, layout.seat_slice("win")] / WIN_UNIT
    share = win.mean(axis=0)
    hi, lo = int(share.argmax()), int(share.argmin())
    gap = mean_interval(win[:, hi] - win[:, lo])
    assert d["balance_seats"] == [hi, lo]
    assert d["balance"] == pytest.approx(1 - gap[0])
    assert (d["balance_low"], d["balance_high"]) == pytest.approx((1 - gap[2], min(1.0, 1 - gap[1])))
    first = mean_interval(win[:, 0])
    assert d["first_seat_bias"] == pytest.approx(first[0] - 1 / 3)
    assert d["first_seat_bias_low"] == pytest.approx(first[1] - 1 / 3)
    s = np.sort(rows[:, layout.seat_slice("score")], axis=1)
    margin = s[:, 1] - s[:, 0]  # lowest wins: runner-up minus winner
    m = mean_interval(margin)
    assert (d["score_margin"], d["score_margin_low"], d["score_margin_high"]) == pytest.approx(m)
    assert d["closeness"] == pytest.approx(1 / np.sqrt(np.mean(margin.astype(float) ** 2)))
    assert d["score_margin_quantiles"]["0.5"] == int(np.quantile(margin, 0.5, method="inverted_cdf"))
    assert d["length_per_player"] == pytest.approx(rows[:, 0].mean() / players)


def test_simulate_reports_designer_metrics_only_when_asked():
    on = mc.simulate("parade", n=2000, players=3, seed=4, jobs=1, designer=True, designer_sample=10,
                     progress=False)
    off = mc.simulate("parade", n=2000, players=3, seed=4, jobs=1, progress=False)
    assert on.win_share == off.win_share  # the same games
    d = json.loads(json.dumps(on.to_dict()))["designer"]
    for key in ("balance", "score_margin", "first_seat_bias", "length_per_player", "decision_density",
                "choices_per_decision"):
        assert d[f"{key}_low"] <= d[key] <= d[f"{key}_high"], key
    assert 0 < d["decision_density"] <= 1 and d["choices_per_decision"] > 1
    assert d["decisions_sampled_games"] == 10
    assert "designer" not in off.to_dict()

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


def _lead_reference(vs: list[list[float]]) -> tuple[int, list[int]]:
    """Lead changes and each seat's last event behind, by the definition (docs/metrics.md)."""
    changes, behind, leader = 0, [0] * len(vs[0]), None
    for k, v in enumerate(vs, start=1):
        now = max(range(len(v)), key=lambda s: (v[s], -s))  # the highest V, the lowest seat on a tie
        if leader is not None and now != leader:
            changes += 1
        leader = now
        for s in range(len(v)):
            if s != now:
                behind[s] = k
    return changes, behind


def test_the_lead_follows_the_highest_value_event_by_event():
    from montecards.engine import value as ev

    vs = [[0.5, 0.3, 0.2], [0.2, 0.6, 0.2], [0.2, 0.6, 0.2], [0.4, 0.4, 0.2], [0.1, 0.2, 0.7],
          [0.1, 0.2, 0.7], [0.0, 1.0, 0.0]]
    acc = np.zeros(ev.ACC_GAME)
    for v in vs:
        ev.lead(acc, 3, np.array(v))
    changes, behind = _lead_reference(vs)
    assert changes == 4  # 0 -> 1, 1 -> 0 (a tie goes to the lower seat), 0 -> 2, 2 -> 1
    assert acc[ev.ACC_CHANGES] == changes and acc[ev.ACC_EVENTS] == len(vs)
    assert list(acc[ev.ACC_BEHIND:ev.ACC_BEHIND + 3]) == behind == [7, 6, 7]
    assert acc[ev.ACC_LEADER] == 1


@pytest.mark.parametrize("game,players,strategy", [("parade", 2, "greedy"), ("wigout", 4, "greedy")])
def test_lead_metrics_of_real_games_are_consistent(game, players, strategy):
    """On the luck ledgers of real games: a game without a lead change was decided at its first
    event; one decided later had a lead change; the result's leader is the winner."""
    from montecards.analysis.runs import prepare
    from montecards.engine import value as ev

    spec, config, _, _ = prepare(game, players, strategy, None, 11, luck=True)
    layout = spec.layout(players, luck=True)
    rows = np.zeros((150, layout.width), np.int64)
    ledgers = np.zeros((150, spec.value.ledger_width))
    spec.value.luck_block(np.uint64(11), 0, players, config.params, config.strategies, rows,
                          spec.kernel_options(config.strategies), config.luck, 0, ledgers)
    fin = rows[:, 1] == 0
    changes, decided = ledgers[fin, ev.ACC_CHANGES], ledgers[fin, ev.ACC_DECIDED]
    assert ((decided >= 0) & (decided <= 1)).all()
    assert (decided[changes == 0] == 0).all() and (changes[decided > 0] >= 1).all()
    assert (changes <= ledgers[fin, ev.ACC_EVENTS] - 1).all()
    assert 0 < decided.mean() < 1 and changes.mean() > 1  # the lead does change in these games
    win = rows[fin][:, layout.seat_slice("win")]
    assert (win[np.arange(win.shape[0]), ledgers[fin, ev.ACC_LEADER].astype(int)] == win.max(axis=1)).all()


def test_simulate_designer_gives_lead_metrics_where_a_value_exists_and_says_why_not_elsewhere():
    d = mc.simulate("parade", n=300, players=2, seed=4, jobs=1, designer=True, designer_sample=60,
                    progress=False).to_dict()["designer"]
    for key in ("lead_changes", "decided_at"):
        assert d[f"{key}_low"] <= d[key] <= d[f"{key}_high"], key
    assert d["lead_sampled_games"] == 60 and d["lead_value"].endswith("2p-greedy-greedy.json")
    no = mc.simulate("parade", n=300, players=3, seed=4, jobs=1, designer=True, designer_sample=10,
                     progress=False).to_dict()["designer"]
    assert "lead_changes" not in no and "no fitted value for parade with 3 players" in no["lead_note"]
    rules = mc.simulate("parade", n=300, players=2, seed=4, jobs=1, designer=True, designer_sample=10,
                        params={"opening_parade": 5}, progress=False).to_dict()["designer"]
    assert "lead_changes" not in rules and "opening_parade" in rules["lead_note"]


def test_cli_designer_sample_sets_the_games_of_the_decision_and_lead_metrics():
    from tests.inprocess import run_main

    proc = run_main("simulate", "parade", "-p", "2", "-n", "300", "--seed", "4", "-j", "1", "--designer",
                    "--designer-sample", "40", "--json")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)["designer"]
    assert d["lead_sampled_games"] == 40 and d["decisions_sampled_games"] == 40
    text = run_main("simulate", "parade", "-p", "2", "-n", "300", "--seed", "4", "-j", "1", "--designer",
                    "--designer-sample", "40")
    assert "lead changes" in text.stdout and "(40 games)" in text.stdout
    bad = run_main("simulate", "parade", "-n", "300", "--designer", "--designer-sample", "0")
    assert bad.returncode == 2 and "designer sample must be an integer > 0" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1

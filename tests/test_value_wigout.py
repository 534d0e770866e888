"""Wig Out!'s value and luck ledger (montecards/games/wigout/value.py, docs/luck.md): the ledger
adds up on every game, its luck terms have mean 0, a run with luck plays the very games of the
run without it, the value beats the score-only baseline, V reads a finished game exactly, the
analysis' value column is filled, and bad input is refused in one line.

Cheap: Wig Out!'s luck kernel compiles in seconds; a few thousand games in all."""

from __future__ import annotations

import json

import numpy as np
import pytest

import montecards as mc
from montecards import games
from montecards.analysis.runs import prepare
from montecards.engine.spec import WIN_UNIT, InputError
from montecards.engine.value import ACC_DRIFT, ACC_LUCK, LUCK_UNIT, load_value, values_folder
from montecards.games.wigout import rules
from montecards.games.wigout import value as wv
from tests.inprocess import run_main

SEED = 20261206


def _luck_rows(n: int, players: int, strategies, start: int = 0):
    """Rows and the ledgers' accumulators of ``n`` games with luck."""
    spec, config, _, _ = prepare("wigout", players, strategies, None, SEED, luck=True)
    layout = spec.layout(players, luck=True)
    rows = np.zeros((n, layout.width), np.int64)
    ledgers = np.zeros((n, spec.value.ledger_width), np.float64)
    spec.value.luck_block(np.uint64(SEED), start, players, config.params, config.strategies, rows,
                          spec.kernel_options(config.strategies), config.luck, 0, ledgers)
    return config, layout, rows, ledgers


@pytest.mark.parametrize("players, strategies", [
    (2, "greedy"),
    # every branch of an event's expectation: a deterministic play, random's every play, tuned's
    # weighted play, singles_first's; the 4-player greedy value (no file for this lineup)
    (4, ["greedy", "random", "tuned", "singles_first"]),
    (5, "greedy"),  # deadlocks happen at 5 players: V reads a deadlocked round as played
])
def test_the_ledger_adds_up_on_every_game_and_its_luck_has_mean_zero(players, strategies):
    n = 600
    config, layout, rows, ledgers = _luck_rows(n, players, strategies)
    assert (rows[:, 1] == 0).all()  # no unfinished game under the official rules
    win = rows[:, layout.seat_slice("win")] / WIN_UNIT
    vstart = config.luck[:players]
    luck = ledgers[:, ACC_LUCK:ACC_LUCK + players]
    drift = ledgers[:, ACC_DRIFT:ACC_DRIFT + players]
    # result - V(start) = luck + drift, per game and seat
    np.testing.assert_allclose(win - vstart, luck + drift, rtol=0, atol=1e-9)
    assert np.abs(luck).max() > 0.3  # the deals and the race do move V
    # the luck terms are exactly centred at every event and unbiasedly at every deal: mean 0
    for s in range(players):
        assert abs(luck[:, s].mean()) < 4 * luck[:, s].std() / np.sqrt(n), s
    # the row columns: luck in LUCK_UNIT, adjusted = win - luck exactly
    np.testing.assert_array_equal(rows[:, layout.seat_slice("luck")], np.round(luck * LUCK_UNIT))
    np.testing.assert_array_equal(rows[:, layout.seat_slice("adjusted")],
                                  rows[:, layout.seat_slice("win")] * (LUCK_UNIT // WIN_UNIT)
                                  - rows[:, layout.seat_slice("luck")])


def test_luck_plays_the_same_games():
    _, layout, rows, _ = _luck_rows(64, 4, "greedy", start=500)
    plain = mc.simulate("wigout", n=564, players=4, strategies="greedy", seed=SEED, keep_games=True, jobs=1)
    theirs = plain.games.iloc[500:]
    for k, name in enumerate(games.get("wigout").layout(4).columns):
        np.testing.assert_allclose(theirs[name].to_numpy(),
                                   rows[:, k] / (WIN_UNIT if name.startswith("win_") else 1))


def test_simulate_with_luck_reduces_the_variance_and_stays_unbiased():
    res = mc.simulate("wigout", n=3000, players=2, strategies="greedy", seed=SEED, luck=True, jobs=1,
                      keep_games=True)
    out = res.to_dict()
    assert out["value"].endswith("2p-greedy-greedy.json")
    for seat in range(2):
        lo, hi = out["win_share_adjusted_low"][seat], out["win_share_adjusted_high"][seat]
        plain_lo, plain_hi = out["win_share_ci95"][seat]
        assert lo < plain_hi and plain_lo < hi  # two estimates of one quantity overlap
    # measured 2.55 on 20,000 games (docs/luck.md); a V that saw nothing would give ~1
    assert out["variance_ratio"][0] > 1.8


def test_v_is_the_final_win_shares_once_the_game_is_over():
    spec, config, _, _ = prepare("wigout", 3, "greedy", None, SEED, luck=True)
    ledger = wv.new_ledger(config.luck, config.strategies, config.params)
    g = rules.new_state(3, config.params)
    g[rules.ROUND] = g[rules.ROUNDS] - 1  # the last round
    g[rules.POINTS:rules.POINTS + 3] = (10, 4, 7)
    for s, hand in enumerate((0, 3, 1)):  # seat 0 has just wigged out
        g[rules.HAND_N + s] = hand
    out = np.zeros(3)
    wv.values(g, ledger, out)
    np.testing.assert_array_equal(out, [0.0, 1.0, 0.0])  # 10, 7, 8: seat 1 wins
    g[rules.HAND_N + 2] = 0
    g[rules.HAND_N] = 3  # seat 2 wigs out instead: 13, 7, 7: seats 1 and 2 share the win
    wv.values(g, ledger, out)
    np.testing.assert_array_equal(out, [0.0, 0.5, 0.5])
    g[rules.ROUND] = 0  # the same in the first round: the logit, a distribution over the seats
    wv.values(g, ledger, out)
    assert out.sum() == pytest.approx(1) and (out > 0).all() and out[0] < min(out[1], out[2])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_value_file_beats_the_score_only_baseline(players):
    path = values_folder("montecards.games.wigout.game") / f"{players}p-{'-'.join(['greedy'] * players)}.json"
    data = load_value(path, "wigout", players, wv.FEATURES)
    fit = data["fit"]
    assert fit["games"] >= 20_000
    assert fit["value"]["brier"] < fit["score_only"]["brier"] < fit["constant"]["brier"]


def test_value_fit_reports_calibration_against_the_score_only_baseline():
    proc = run_main("value", "fit", "wigout", "-p", "2", "-n", "1500", "--seed", "3", "--dry-run", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["game"] == "wigout" and out["lineup"] == ["greedy", "greedy"] and "file" not in out
    fit = out["fit"]
    assert fit["value"]["brier"] < fit["score_only"]["brier"]
    for model in ("value", "score_only"):
        bins = fit[model]["bins"]
        assert sum(b["states"] for b in bins) == fit["held_out_states"] * 2
        # calibrated: where it predicts, it is right to within a few points (bins of 500+ states)
        for b in bins:
            if b["states"] >= 500:
                assert abs(b["predicted"] - b["observed"]) < 0.06, (model, b)


def test_the_analysis_value_column_is_v_after_each_play():
    mid = ("wigout players=4 seat=0 round=0 points=0,0,0,0 hand=5,5,7,7,9,9,11 table=5,5,5,6 sizes=7,7,6,7 "
           "pile=29")
    out = mc.analyse("wigout", mid, budget=400, seed=0).to_dict()
    assert out["value_note"].startswith("V of the seat after the move (wigout/values/4p-greedy-greedy-greedy")
    for m in out["moves"]:
        assert 0 < m["value_low"] <= m["value"] <= m["value_high"] < 1
    assert len({m["value"] for m in out["moves"]}) > 1  # the plays differ in V


@pytest.mark.parametrize("args, message", [
    (["seats", "wigout", "-p", "4", "-n", "10", "--luck", "--duplicate"], "--luck with duplicate deals"),
    (["value", "fit", "wigout", "-p", "7"], "players"),
])
def test_bad_luck_input_is_one_line_and_exit_2(args, message):
    proc = run_main(*args)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_a_player_count_without_a_value_file_is_refused_in_one_line(tmp_path, monkeypatch):
    from montecards.engine import value as engine_value

    monkeypatch.setattr(engine_value, "values_folder", lambda module: tmp_path)  # an empty values folder
    with pytest.raises(InputError, match="no fitted value for wigout with 3 players"):
        mc.simulate("wigout", n=10, players=3, strategies="greedy", seed=1, luck=True)
    with pytest.raises(InputError, match="for 2 players, not 3"):
        load_value(values_folder("montecards.games.wigout.game") / "2p-greedy-greedy.json", "wigout", 3,
                   wv.FEATURES)

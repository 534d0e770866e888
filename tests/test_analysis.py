"""The analysis layer: intervals against known values, common random numbers, matchups,
variants, sweeps, adaptive runs and bad inputs (small runs of Parade)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import montecards as mc
from montecards.analysis import (
    compare_variants,
    matchups,
    mean_interval,
    normal_mean,
    seat_advantage,
    setup,
    share_interval,
    simulate_adaptive,
    sweep,
    wilson,
)
from montecards.analysis.intervals import half_width
from montecards.analysis.matchups import Matchup, MatchupResult
from montecards.engine.spec import InputError

# --- intervals against published values -------------------------------------------------------


@pytest.mark.parametrize(
    "share, n, low, high",
    [
        (0.5, 100, 0.40383, 0.59617),  # 50/100
        (0.0, 10, 0.0, 0.27753),  # 0/10: upper bound z^2 / (n + z^2)
        (1.0, 10, 0.72247, 1.0),
        (0.9, 10, 0.59585, 0.98212),  # 9/10 (Newcombe 1998, Wilson without continuity correction)
        (0.2, 50, 0.11244, 0.33037),  # 10/50: 0.1124-0.3304
    ],
)
def test_wilson_known_values(share, n, low, high):
    lo, hi = wilson(share, n)
    assert lo == pytest.approx(low, abs=2e-5)
    assert hi == pytest.approx(high, abs=2e-5)


def test_normal_mean_and_helpers():
    lo, hi = normal_mean(10.0, 4.0, 100)
    assert (lo, hi) == pytest.approx((10 - 1.959964 * 0.2, 10 + 1.959964 * 0.2), abs=1e-6)
    m, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    sd = np.std([1, 2, 3, 4], ddof=1)
    assert m == 2.5 and hi - m == pytest.approx(3.182446 * sd / 2, rel=1e-2)  # Student t, 3 df
    big = np.arange(1000) % 7
    m, lo, hi = mean_interval(big)
    assert hi - m == pytest.approx(1.959964 * big.std(ddof=1) / np.sqrt(1000), rel=1e-6)
    from montecards.analysis.intervals import t_quantile

    for df, exact in ((5, 2.570582), (10, 2.228139), (30, 2.042272), (100, 1.983972)):
        assert t_quantile(df) == pytest.approx(exact, rel=2e-3)
    assert half_width((0.3, 0.5)) == pytest.approx(0.1)
    s, lo, hi = share_interval([1, 0, 0, 0, 1, 0, 0, 0, 0, 0])
    assert s == 0.2 and (lo, hi) == pytest.approx(wilson(0.2, 10))
    assert mean_interval([5.0, 5.0, 5.0])[1:] == (5.0, 5.0)


# --- common random numbers ----------------------------------------------------------------------


def test_same_seed_deals_the_same_cards_in_both_variants():
    for index in (0, 7, 123):
        deals = []
        for margin in (2, 0):
            events = mc.trace("parade", seed=11, index=index, players=2, params={"two_player_margin": margin})
            setup_events = events[events["event"].isin(["deal", "opening_parade"])]
            deals.append(setup_events[["event", "seat", "card"]].reset_index(drop=True))
        pd.testing.assert_frame_equal(deals[0], deals[1])


def test_variant_rows_pair_by_game_index():
    # the margin only matters with 2 players: at 3 players every paired game is identical
    cmp = compare_variants(
        "parade", [{"two_player_margin": 2}, {"two_player_margin": 0}], n=600, players=3, seed=5, jobs=1
    )
    diffs = cmp.differences()
    assert (diffs["difference"] == 0).all() and (diffs["high"] == 0).all()
    # and a batch played at an offset is the same games as the full run
    run = setup("parade", 2, "greedy", None, 5, 1)
    _, rows = run.play(0, 500, keep=True)
    _, tail = run.play(300, 200, keep=True)
    np.testing.assert_array_equal(rows[300:], tail)
    full = mc.simulate("parade", n=500, players=2, seed=5, jobs=1, keep_games=True)
    np.testing.assert_array_equal(full.games["score_0"].to_numpy(), rows[:, run.layout.column("score_0")])


def test_two_player_margin_variants_are_paired():
    cmp = compare_variants(
        "parade",
        {"official": {"two_player_margin": 2}, "m0": {"two_player_margin": 0}},
        n=1500,
        players=2,
        seed=3,
        jobs=2,
    )
    assert cmp.labels == ["official", "m0"] and cmp.n_games == 1500
    d, lo, hi = cmp.difference("m0", "score_0")
    assert hi < 0  # margin 0 gives majorities on ties: lower (better) scores
    lv = cmp.levels()
    assert lv.loc[("official", "win_0"), "low"] <= lv.loc[("official", "win_0"), "mean"]
    # win shares of both seats add up to one in every game, so their differences cancel
    assert cmp.difference("m0", "win_0")[0] == pytest.approx(-cmp.difference("m0", "win_1")[0])
    assert len(cmp.findings()) == 1 and "±" in cmp.findings()[0]
    assert cmp.to_dict()["baseline"] == "official"


# --- seats, matchups, sweeps, adaptive ----------------------------------------------------------


def test_seat_advantage_per_player_count():
    sa = seat_advantage("parade", players=[2, 3], n=2000, seed=1, jobs=2)
    t = sa.table()
    assert list(sa.player_counts) == [2, 3]
    assert t.loc[2, "win_share"].sum() == pytest.approx(1.0)
    assert (t["win_low"] <= t["win_share"]).all() and (t["win_share"] <= t["win_high"]).all()
    assert len(sa.findings()) == 2 and "first seat wins" in sa.findings()[0]
    assert "<table" in sa._repr_html_()


def test_matchups_cover_all_rotations():
    res = matchups("parade", ["random", "greedy"], players=2, n=400, seed=2, jobs=2)
    m = res.matrix()
    assert m.loc["greedy", "random"] + m.loc["random", "greedy"] == pytest.approx(1.0)
    assert res.table().set_index(["strategy", "opponent"]).loc[("greedy", "random"), "games"] == 800
    assert res.ranking().iloc[0]["strategy"] == "greedy"
    assert res.transitive and "greedy > random" in res.verdict()
    # at 3 players: one seat of A against two of B, A rotated through every seat
    three = matchups("parade", ["random", "greedy"], players=3, n=200, seed=2, jobs=2)
    assert three.fair_share == pytest.approx(1 / 3)
    assert three.matrix().loc["greedy", "random"] > 1 / 3
    h2h = three.head_to_head()
    d, lo, hi = h2h[("greedy", "random")]
    assert h2h[("random", "greedy")] == pytest.approx((-d, -hi, -lo))
    beats = three.beats()
    assert not (beats["greedy"] & {"random"} and beats["random"] & {"greedy"})  # antisymmetric


def test_ranking_is_honest_about_cycles():
    n = 4000
    rng = np.random.default_rng(0)

    def pair(a, b, p):
        share = (rng.random(n) < p).astype(float)
        return Matchup(a, b, 2, [share], [1 - share])

    rps = MatchupResult(
        "parade",
        "Parade",
        2,
        ["rock", "paper", "scissors"],
        0,
        {},
        [pair("rock", "scissors", 0.7), pair("scissors", "paper", 0.7), pair("paper", "rock", 0.7)],
    )
    assert not rps.transitive
    assert rps.cycles() and set(rps.cycles()[0]) == {"rock", "paper", "scissors"}
    assert "non-transitive" in rps.verdict()
    assert rps.ranking()["in_cycle"].all()


def test_sweep_pairs_values_and_picks_x():
    res = sweep("parade", "two_player_margin", ["2", "1", "0"], n=800, players=2, seed=4, jobs=2)
    t = res.table("score_0")
    assert list(t["x"]) == [2.0, 1.0, 0.0]
    assert t["difference"].iloc[0] == 0 and t["diff_high"].iloc[2] < 0
    assert res.to_dict()["parameter"] == "two_player_margin"


def test_sweep_x_of_a_per_seat_list():
    from montecards.analysis.variants import _auto_x

    x, label = _auto_x("speed", [[1.0, 1, 1, 1], [1.1, 1, 1, 1], [1.5, 1, 1, 1]])
    assert x == [1.0, 1.1, 1.5] and label == "speed of seat 1"


def test_adaptive_run_stops_at_precision_and_equals_a_plain_run():
    res = simulate_adaptive("parade", 0.015, players=2, seed=9, jobs=2, first=2000)
    info = res.extra["adaptive"]
    assert info["reached"] and info["max_half_width"] <= 0.015
    assert max(half_width(ci) for ci in res.win_share_ci95) <= 0.015
    plain = mc.simulate("parade", n=res.n_games, players=2, seed=9, jobs=2)
    assert plain.win_share == res.win_share and plain.mean_score == res.mean_score
    # a tighter precision needs more games
    more = simulate_adaptive("parade", 0.01, players=2, seed=9, jobs=2, first=2000)
    assert more.n_games > res.n_games and more.extra["adaptive"]["max_half_width"] <= 0.01


def test_adaptive_variants_reach_precision():
    cmp = compare_variants(
        "parade",
        [{"two_player_margin": 2}, {"two_player_margin": 1}],
        players=3,
        seed=1,
        jobs=2,
        precision=0.01,
    )
    assert cmp.adaptive.reached and cmp.adaptive.n_games == cmp.n_games


# --- bad inputs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: sweep("parade", "no_such", ["1"], n=10), "unknown parameter 'no_such'"),
        (lambda: sweep("parade", "two_player_margin", [], n=10), "at least one value"),
        (lambda: sweep("parade", "two_player_margin", ["7"], n=10), "must be one of"),
        (lambda: sweep("parade", "two_player_margin", ["1", "1"], n=10), "must differ"),
        (lambda: matchups("parade", ["greedy", "greedy"], n=10), "at least 2 different"),
        (lambda: matchups("parade", ["greedy", "bogus"], n=10), "unknown strategy"),
        (lambda: compare_variants("parade", [{"two_player_margin": 1}], n=10), "at least 2 variants"),
        (lambda: compare_variants("parade", [{"x": 1}, {"x": 2}], n=10), "unknown parameter"),
        (lambda: seat_advantage("parade", players=[9], n=10), "2 to 6 players"),
        (lambda: seat_advantage("parade", players=[2], n=0), "n must be"),
        (lambda: simulate_adaptive("parade", 0.0), "precision"),
        (lambda: simulate_adaptive("parade", 2.0), "precision"),
    ],
)
def test_bad_inputs_raise_input_error(call, message):
    with pytest.raises(InputError, match=message):
        call()

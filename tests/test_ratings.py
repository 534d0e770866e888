"""Ratings (analysis/ratings.py) on synthetic results drawn from known strengths.

No game is played here: finishing orders are drawn from Bradley–Terry / Plackett–Luce with
known ratings (the Gumbel trick: a seat's place follows ``theta + Gumbel`` noise, highest
first), so the fit, its intervals and its predictions can be checked against the truth.
"""

from __future__ import annotations

import itertools

import choix
import numpy as np
import pytest

from montecards.analysis.ratings import (
    CLASS_STEP,
    ELO,
    Observations,
    _stages,
    elo_share,
    find_cycles,
    fit,
    fit_strengths,
    maxent_nash,
    places_of,
)


def draw_places(theta: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` finishing orders of seats with log-strengths ``theta`` (Plackett–Luce)."""
    noise = theta[None, :] + rng.gumbel(size=(n, theta.shape[0]))
    return np.argsort(np.argsort(-noise, axis=1), axis=1)


def synthetic(theta: np.ndarray, players: int, n: int, rng: np.random.Generator, model: str = "finish",
              lineups=None) -> Observations:
    k = theta.shape[0]
    obs = Observations([f"s{i}" for i in range(k)], players, model)
    for lineup in lineups or itertools.combinations(range(k), players):
        obs.add(list(lineup), draw_places(theta[list(lineup)], n, rng))
    return obs


TRUE = np.array([0.0, 0.6, 1.1, -0.5])


def test_plackett_luce_fit_equals_choix_on_distinct_rankings():
    rng = np.random.default_rng(5)
    obs = Observations([f"s{i}" for i in range(4)], 3)
    rankings = []
    for lineup in itertools.combinations(range(4), 3):
        places = draw_places(TRUE[list(lineup)], 400, rng)
        obs.add(list(lineup), places)
        rankings += [tuple(int(x) for x in np.array(lineup)[np.argsort(row)]) for row in places]
    tables = obs.tables()
    ours = fit_strengths(tables, tables.weights(), prior=0.0)
    theirs = choix.ilsr_rankings(4, rankings, tol=1e-12, max_iter=1000)
    assert np.allclose(ours, theirs - theirs.mean(), atol=1e-6)


def test_bradley_terry_goes_through_choix_and_matches_the_choice_fit():
    rng = np.random.default_rng(6)
    obs = synthetic(TRUE, 2, 500, rng)
    tables = obs.tables()
    w = tables.weights()
    pairwise = fit_strengths(tables, w, prior=0.0)  # choix.ilsr_pairwise_dense
    from montecards.analysis.ratings import _fit_choices

    general = _fit_choices(tables.sets, w @ tables.stage, w @ tables.chosen)
    assert np.allclose(pairwise, general, atol=1e-6)


@pytest.mark.parametrize("players", [2, 4])
def test_known_strengths_are_recovered_within_their_intervals(players):
    rng = np.random.default_rng(players)
    theta = np.array([0.0, 0.4, 0.9, -0.3, 1.5])
    obs = synthetic(theta, players, 3000, rng)
    r = fit(obs, bootstrap=100, seed=1, baseline="s0")
    truth = ELO * (theta - theta[0])
    low, high = r.intervals()
    assert np.all(low <= truth + 1e-9) and np.all(truth <= high + 1e-9), (low, truth, high)
    assert np.abs(r.rating - truth).max() < 25
    assert list(r.table()["strategy"]) == ["s4", "s2", "s1", "s0", "s3"]


@pytest.mark.parametrize("players, draws", [(2, 60), (3, 60)])
def test_intervals_cover_the_truth_about_95_percent_of_the_time(players, draws):
    theta = np.array([0.0, 0.5, -0.4, 0.9])
    truth = ELO * (theta - theta[0])
    hits = total = 0
    for d in range(draws):
        rng = np.random.default_rng(1000 + d)
        obs = synthetic(theta, players, 400, rng)
        r = fit(obs, bootstrap=80, seed=d, baseline="s0")
        low, high = r.intervals()
        inside = (low <= truth) & (truth <= high)
        hits += int(inside[1:].sum())
        total += len(theta) - 1
    coverage = hits / total
    assert 0.88 <= coverage <= 0.99, coverage


def test_predictions_hold_on_a_lineup_held_out_of_the_fit():
    rng = np.random.default_rng(11)
    theta = np.array([0.0, 0.7, 1.2, -0.4])
    obs = synthetic(theta, 3, 4000, rng)
    held = ["s1", "s2", "s3"]
    r = fit(obs, bootstrap=60, seed=2, baseline="s0", exclude=[held])
    table = r.lineups(draws=100)
    out = table[table["held_out"]]
    assert len(out) == 3 and set(out["strategy"]) == set(held)
    assert ((out["gap_low"] <= 0) & (0 <= out["gap_high"])).all(), out.T
    assert ((out["low"] <= out["predicted"]) & (out["predicted"] <= out["high"])).all(), out.T
    # the ratings came from the other lineups alone: refitting with it moves them
    assert not np.allclose(r.theta, fit(obs, bootstrap=0).theta)


def test_winner_model_uses_only_who_won():
    rng = np.random.default_rng(3)
    theta = np.array([0.0, 0.8, -0.6])
    obs = synthetic(theta, 3, 6000, rng, model="winner")
    r = fit(obs, bootstrap=30, seed=0, baseline="s0")
    assert np.abs(r.rating - ELO * (theta - theta[0])).max() < 40
    predicted = r.predict(["s0", "s1", "s2"])
    expected = np.exp(theta) / np.exp(theta).sum()
    assert np.allclose(predicted, expected, atol=0.02)


def test_shared_places_split_into_every_order_with_equal_weight():
    # entrants 0 and 1 tie for first ahead of 2: half the weight says 0 > 1 > 2, half 1 > 0 > 2
    stages = _stages(((0, 1), (2,)), 3, "finish")
    assert stages == {((1, 1, 1), 0): 0.5, ((1, 1, 1), 1): 0.5, ((0, 1, 1), 1): 0.5, ((1, 0, 1), 0): 0.5}
    assert _stages(((0, 1), (2,)), 3, "winner") == {((1, 1, 1), 0): 0.5, ((1, 1, 1), 1): 0.5}
    # two players: a shared win is half a win for each
    obs = Observations(["a", "b"], 2)
    obs.add([0, 1], np.array([[0, 0]] * 10 + [[0, 1]] * 10))
    tables = obs.tables()
    ahead = np.einsum("p,pij->ij", tables.weights(), tables.ahead)
    assert ahead[0, 1] == 15 and ahead[1, 0] == 5


def test_places_follow_the_win_then_the_score_in_its_direction():
    win = np.array([[0, 1, 0, 0], [0.5, 0.5, 0, 0]])
    score = np.array([[10, 3, 7, 7], [4, 4, 9, 1]])
    assert places_of(win, score, lower_score_wins=True).tolist() == [[3, 0, 1, 1], [0, 0, 3, 2]]
    assert places_of(win, score, lower_score_wins=False).tolist() == [[1, 0, 2, 2], [0, 0, 2, 3]]


def test_repeated_entrants_in_a_lineup_are_rated_as_one():
    # A among three B's (the matchups' lineup): one entrant in several seats
    rng = np.random.default_rng(8)
    theta = np.array([0.5, 0.0])
    obs = Observations(["a", "b"], 4)
    obs.add([0, 1, 1, 1], draw_places(theta[[0, 1, 1, 1]], 20000, rng))
    r = fit(obs, bootstrap=40, baseline="b")
    low, high = r.intervals()
    assert low[0] <= ELO * 0.5 <= high[0]
    assert r.predict(["a", "b", "b", "b"])[0] == pytest.approx(np.exp(0.5) / (np.exp(0.5) + 3), abs=0.01)


def test_cycles_are_named_and_nash_averaging_mixes_them():
    # rock-paper-scissors: each beats the next 80 % of the time
    obs = Observations(["rock", "paper", "scissors"], 2)
    rng = np.random.default_rng(4)
    for a, b in [(1, 0), (2, 1), (0, 2)]:  # paper beats rock, scissors paper, rock scissors
        wins = rng.random(2000) < 0.8
        obs.add([a, b], np.c_[np.where(wins, 0, 1), np.where(wins, 1, 0)])
    r = fit(obs, bootstrap=50)
    assert r.cycles() == [["paper", "rock", "scissors"]]  # paper beats rock beats scissors beats paper
    nash = r.nash().set_index("strategy")
    assert np.allclose(nash["nash_weight"], 1 / 3, atol=0.05)
    assert np.abs(nash["nash_payoff"]).max() < 0.02  # no entrant is better against the mix
    assert np.abs(r.rating).max() < 30  # one scale sees three equals


def test_nash_of_a_transitive_game_is_the_best_entrant():
    payoff = np.array([[0, -0.2, -0.3], [0.2, 0, -0.1], [0.3, 0.1, 0]])
    assert np.allclose(maxent_nash(payoff), [0, 0, 1], atol=1e-6)


def test_find_cycles_lists_each_once():
    beats = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert find_cycles(["a", "b", "c", "d"], beats) == [["a", "b", "c"]]


def test_depth_is_the_gap_from_the_baseline_in_points_and_steps():
    rng = np.random.default_rng(9)
    theta = np.array([0.0, 1.0, 2.0])
    obs = synthetic(theta, 2, 3000, rng)
    obs.items = ["random", "mid", "top"]
    r = fit(obs, bootstrap=60)
    d = r.depth()
    assert d["from"] == "random" and d["to"] == "top"
    assert d["points_low"] <= ELO * 2.0 <= d["points_high"]
    assert d["steps"] == pytest.approx(d["points"] / CLASS_STEP)
    assert elo_share(CLASS_STEP) == pytest.approx(0.75)
    out = r.to_dict()
    assert [x["strategy"] for x in out["ratings"]] == ["top", "mid", "random"]
    assert set(out["ratings"][0]) == {"strategy", "rating", "rating_low", "rating_high"}
    assert {"points", "points_low", "points_high", "steps"} <= set(out["depth"])
    assert out["cycles"] == []

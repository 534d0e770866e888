"""Tournaments (analysis/tournament.py): designs, common deals over lineups and rotations,
entrants of every kind, predictions checked on played pairings held out of the fit, the CLI
and its JSON, and checkpoint resume. Small runs: the throughput target is in benchmarks/."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import montecards as mc
from montecards.analysis.matchups import matchups
from montecards.analysis.ratings import CLASS_STEP, ELO, fit
from montecards.analysis.tournament import design_lineups
from montecards.cli import cli
from montecards.engine.spec import InputError

ROOT = Path(__file__).resolve().parent.parent
WEIGHTED = "weighted[-1,-0.3,0,0,0,0,0,0,0,0,0,0,0,-1,0]"  # greedy plus a price per card taken


def test_designs_give_the_lineups_they_promise():
    six = list("abcdef")
    assert len(design_lineups(six, 4, "round_robin")) == 15  # C(6, 4), each entrant once a table
    assert len(design_lineups(six, 4, "round_robin", repeats=True)) == 126 - 6  # multisets, no mirrors
    assert design_lineups(["a", "b"], 3, "round_robin") == [("a", "a", "b"), ("a", "b", "b")]
    field = [("a", "g", "g", "g"), ("b", "g", "g", "g")]
    assert design_lineups(["a", "b"], 4, "field", opponents=["g"]) == field
    sample = design_lineups(six, 4, "sample", sample=3, seed=1)
    assert len(sample) == 3 and {e for lineup in sample for e in lineup} == set(six)
    assert sample == design_lineups(six, 4, "sample", sample=3, seed=1)  # drawn from the seed
    with pytest.raises(InputError, match="1 opponent .* or 3"):
        design_lineups(six, 4, "field", opponents=["g", "g"])
    with pytest.raises(InputError, match="has 2 seats"):
        design_lineups(six, 4, "lineups", lineups=[["a", "b"]])


def test_one_against_the_field_plays_the_matchups_games():
    """The field design's lineup is the matchups' lineup (A among B's), on the same seed and
    rotations: the same games, so A's win share is the matchups' share exactly."""
    t = mc.tournament("parade", ["greedy"], opponents="random", design="field", players=3, n=300, seed=4,
                      bootstrap=0)
    m = matchups("parade", ["greedy", "random"], players=3, n=300, seed=4)
    lineup = t.ratings.lineups(draws=0)
    share = lineup.set_index("strategy").loc["greedy", "observed"]
    assert share == pytest.approx(m.matrix().loc["greedy", "random"], abs=1e-12)
    assert t.games_played == 3 * 300 and t.lineups == [("greedy", "random", "random")]


def test_every_rotation_is_played_on_the_same_deals():
    t = mc.tournament("parade", ["random", "greedy", WEIGHTED], players=2, n=200, seed=9, bootstrap=0)
    assert t.lineups == [("random", "greedy"), ("random", WEIGHTED), ("greedy", WEIGHTED)]
    obs = t.ratings.observations
    assert obs.n_games == 3 * 2 * 200 and obs.n_deals == 200
    for deals in obs._deal_of:
        assert np.array_equal(deals, np.arange(200))
    # every deal counts once per lineup and rotation: the bootstrap resamples whole deals
    assert np.allclose(obs.tables().deal_pattern.sum(axis=1), 3 * 2)


def test_ratings_predict_a_played_pairing_held_out_of_the_fit():
    t = mc.tournament("parade", ["random", "greedy", WEIGHTED], players=2, n=1500, seed=21, bootstrap=0)
    held = ["greedy", WEIGHTED]
    r = fit(t.ratings.observations, bootstrap=100, seed=3, exclude=[held])
    rows = r.lineups(draws=200)
    out = rows[rows["held_out"]].set_index("strategy")
    assert len(out) == 2
    for name in held:  # the pairing never fitted: observed minus predicted, paired over deals
        assert out.loc[name, "gap_low"] <= 0 <= out.loc[name, "gap_high"], out.T


def test_skill_levels_rate_anomia_and_its_depth_follows_the_face_off_model():
    t = mc.tournament("anomia", ["theta=0", "theta=1"], players=3, n=300, seed=2, bootstrap=50)
    assert t.ratings.baseline == "theta=0"
    d = t.depth()
    assert d["to"] == "theta=1" and d["points"] > 0
    assert d["face_off_points"] == pytest.approx(ELO * 1.0)
    assert d["steps"] == pytest.approx(d["points"] / CLASS_STEP)
    assert "theta" not in t.params  # the entrants' own, not a rule of the run


def test_user_strategies_with_params_are_entrants():
    ref = str(ROOT / "montecards/strategies/parade_weighted.py") + ":choose"
    t = mc.tournament("parade", [ref, "random"], players=2, n=100, seed=5, bootstrap=10,
                      strategy_params=[[-1.0, -0.3], None])
    assert any(e.endswith("[-1,-0.3]") for e in t.entrants)
    # the same weights as the built-in play the same games
    b = mc.tournament("parade", [WEIGHTED, "random"], players=2, n=100, seed=5, bootstrap=10)
    assert np.allclose(t.ratings.rating, b.ratings.rating)


def test_cli_json_is_best_first_with_depth_and_cycles(tmp_path):
    png = tmp_path / "ratings.png"
    out = CliRunner().invoke(cli, ["tournament", "parade", "-s", "random", "-s", "greedy", "-s", WEIGHTED,
                                   "-n", "200", "--seed", "3", "--bootstrap", "30", "--json", "--plot",
                                   str(png)])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    ratings = data["ratings"]
    assert [set(r) for r in ratings] == [{"strategy", "rating", "rating_low", "rating_high"}] * 3
    assert [r["rating"] for r in ratings] == sorted((r["rating"] for r in ratings), reverse=True)
    assert all(r["rating_low"] <= r["rating"] <= r["rating_high"] for r in ratings)
    assert {"points", "points_low", "points_high", "steps"} <= set(data["depth"])
    assert isinstance(data["cycles"], list) and data["analysis"] == "tournament"
    assert png.stat().st_size > 10_000


def test_checkpoint_resumes_with_the_same_result(tmp_path):
    args = dict(players=3, n=300, bootstrap=20, seed=8, jobs=1)
    where = tmp_path / "cp"
    first = mc.tournament("parade", ["random", "greedy"], checkpoint=where, **args)
    runs = sorted(p for p in where.iterdir() if p.is_dir())
    assert len(runs) == 2 * 3  # 2 lineups (random twice or greedy twice) x 3 rotations
    for chunk in runs[0].glob("chunk-*.npz"):
        chunk.unlink()  # lost: played again
    again = mc.tournament("parade", ["random", "greedy"], checkpoint=where,
                          **{k: v for k, v in args.items() if k != "seed"})  # the seed is recorded
    assert again.seed == first.seed
    assert np.array_equal(again.ratings.rating, first.ratings.rating)
    with pytest.raises(InputError, match="another run"):
        mc.tournament("parade", ["random", "greedy"], checkpoint=where, **{**args, "n": 400})


def test_slow_entrants_get_fewer_deals_and_budgets_cap_the_rest():
    t = mc.tournament("parade", ["random", "greedy", WEIGHTED], players=2, n=200, n_for={"weighted": 50},
                      seed=1, bootstrap=5)
    assert t.deals == [200, 50, 50] and t.games_played == 2 * 300  # the key covers weighted[...]
    capped = mc.tournament("parade", ["random", "greedy", WEIGHTED], players=2, n=200, budget=300, seed=1,
                           bootstrap=5)
    assert capped.deals == [50, 50, 50] and capped.games_played <= 300

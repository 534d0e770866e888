"""The matchups rated on one Elo scale (issue 31, part 5): MatchupResult keeps every game's
finishing order by deal, and its ratings equal the tournament's on the same games."""

from __future__ import annotations

import numpy as np

from montecards.analysis.matchups import matchups
from montecards.analysis.tournament import tournament


def test_two_player_matchups_rate_as_the_round_robin():
    entrants = ["random", "greedy", "tuned"]
    mu = matchups("parade", entrants, players=2, n=300, seed=5, jobs=1)
    assert mu.observations.n_games == 3 * 2 * 300 and mu.observations.n_deals == 300
    mine = mu.ratings(bootstrap=40).table().set_index("strategy")
    theirs = tournament("parade", entrants, players=2, n=300, seed=5, jobs=1, bootstrap=40,
                        progress=False).ratings.table().set_index("strategy")
    for column in ("rating", "rating_low", "rating_high"):
        assert np.allclose(mine.loc[entrants, column], theirs.loc[entrants, column])


def test_one_against_the_rest_matchups_rate_by_finishing_order():
    mu = matchups("parade", ["random", "greedy"], players=3, n=200, seed=5, jobs=1, n_for={"random": 150})
    # both one-against-two lineups, every rotation, on the deals each pair played
    assert mu.observations.n_games == 2 * 3 * 150 and mu.observations.n_deals == 150
    r = mu.ratings(bootstrap=30)
    t = r.table().set_index("strategy")
    assert t.loc["random", "rating"] == 0 and t.loc["greedy", "rating_low"] > 0

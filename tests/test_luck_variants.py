"""``--luck`` under rule variants (issue #30): each game's ledger declares the rule parameters
under which it stays exact (``LEDGER_RULES`` in ``games/<game>/value.py``); under them a run with
the ledger plays the very games of the plain run and its luck terms keep mean 0. The
statistical checks on many more games are ``benchmarks/luck_checks.py``'s; docs/luck.md."""

import numpy as np
import pytest

import montecards as mc
from montecards import games
from montecards.analysis.runs import ledger_rules

SEED = 11


@pytest.mark.parametrize("game", ["parade", "tulips", "wigout"])
def test_every_rule_parameter_is_served(game):
    """Parade's, Gift of Tulips' and Wig Out!'s ledgers sample deals and take every draw's
    expectation on the game's own state: every parameter is declared (a new one must be too)."""
    assert set(ledger_rules(games.get(game))) == {p.name for p in games.get(game).params}


def test_the_rules_marbles_and_anomia_do_not_serve():
    assert {p.name for p in games.get("marbles").params} - set(ledger_rules(games.get("marbles"))) == {
        "teams", "sides", "holes_per_side", "marbles"}
    assert {p.name for p in games.get("anomia").params} - set(ledger_rules(games.get("anomia"))) == {"tie_prob"}


@pytest.mark.parametrize("game, players, n, params", [
    ("parade", 2, 4000, {"opening_parade": 3, "colours": 5, "values": 9, "two_player_margin": 1}),
    ("parade", 2, 3000, {"hand_size": 4, "discards": 1, "end_colours": 5}),
    ("tulips", 4, 3000, {"values": [1, 3, 5], "removed": [18, 4, 10, 14, 10], "secret_reveal": 3}),
    ("wigout", 4, 3000, {"characters": 14, "copies": 4, "hand_size": 6, "rounds": 3}),
    ("marbles", 4, 800, {"decks": 2, "nine_split": True}),
])
def test_luck_under_a_variant_plays_the_same_games_and_has_mean_zero(game, players, n, params):
    lucky = mc.simulate(game, n=n, players=players, seed=SEED, params=params, luck=True, jobs=1, keep_games=True)
    plain = mc.simulate(game, n=n, players=players, seed=SEED, params=params, jobs=1, keep_games=True)
    wins = [f"win_{s}" for s in range(players)]
    np.testing.assert_array_equal(lucky.games[wins].to_numpy(), plain.games[wins].to_numpy())
    luck = lucky.games[[f"luck_{s}" for s in range(players)]].to_numpy()
    assert luck.std() > 0
    z = luck.mean(axis=0) / (luck.std(axis=0, ddof=1) / np.sqrt(n))
    assert np.abs(z).max() < 4, z
    np.testing.assert_allclose(luck.sum(axis=1), 0, atol=1e-3)  # one win is shared among the seats
    out = lucky.to_dict()
    assert out["params"] == plain.to_dict()["params"] and len(out["variance_ratio"]) == players


def test_the_luck_command_gives_the_ledger_shares_under_a_served_variant():
    """``montecards luck GAME --param ...``: the luck and drift shares under a rule the ledger
    serves (the same definition; V keeps its official fit), none under one it does not."""
    served = mc.luck("parade", players=2, deals=60, replays=2, seed=SEED, jobs=1,
                     params={"two_player_margin": 1}).to_dict()
    for name in ("luck_share", "drift_share"):
        assert served[f"{name}_low"] <= served[name] <= served[f"{name}_high"], name
    refused = mc.luck("marbles", players=4, deals=10, replays=2, seed=SEED, jobs=1,
                      params={"teams": "pairs"}).to_dict()
    assert "luck_share" not in refused

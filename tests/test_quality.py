"""Decision quality by the value on the information set (analysis/quality.py, issue 30 part 2):
each strategy's error per unforced decision, ``max_m V(m) - V(chosen)`` averaged over the
determinizations of what the seat cannot see."""

from __future__ import annotations

import json

import pytest

from montecards.analysis import luck
from montecards.analysis.quality import decision_errors, error_sentence
from montecards.engine.spec import InputError
from tests.inprocess import run_main


def test_random_errs_more_than_greedy_and_the_figures_hold_together():
    """Wig Out!, 2 players, greedy against random on the same games: V on the information set
    rates random's choices as clearly worse (measured: greedy 0.09 pp [0.06, 0.13], random
    0.44 pp [0.21, 0.67] per unforced decision, 10 games, seed 3)."""
    res = decision_errors("wigout", 2, ["greedy", "random"], n=10, determinizations=16, seed=3)
    g, r = res["errors"]["greedy"], res["errors"]["random"]
    for e in (g, r):
        assert 0 <= e["error_low"] <= e["error"] <= e["error_high"] <= 1
        assert 0 < e["unforced"] <= e["decisions"]
    assert r["error_low"] > g["error_high"], (g, r)
    again = decision_errors("wigout", 2, ["greedy", "random"], n=10, determinizations=16, seed=3)
    assert again["errors"] == res["errors"]  # the same seed: the same games and determinizations
    assert res["value"].startswith("wigout/values/2p-greedy-greedy.json")
    line = error_sentence(res)
    assert "greedy 0." in line and "16 determinizations, 10 games" in line


def test_luck_decisions_in_python_and_on_the_cli():
    res = luck("parade", players=2, deals=20, replays=2, seed=4, jobs=1, decision_games=2)
    assert set(res.error_per_decision) == {"greedy"}
    e = res.error_per_decision["greedy"]
    assert e["unforced"] > 10 and 0 <= e["error"] < 0.5
    assert any(line.startswith("Error per unforced decision") for line in res.findings())
    d = json.loads(json.dumps(res.to_dict()))
    assert d["error_per_decision"]["greedy"]["unforced"] == e["unforced"]
    out = run_main("luck", "parade", "-p", "2", "-n", "20", "--replays", "2", "--seed", "4", "-j", "1",
                   "--decisions", "2", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["error_per_decision"]["greedy"] == d["error_per_decision"]["greedy"]


@pytest.mark.parametrize("args, message", [
    (["luck", "anomia", "-n", "20", "--decisions", "2"], "anomia has no position format yet"),
    (["luck", "parade", "-p", "3", "-n", "20", "--decisions", "2"], "no fitted value for parade with 3 players"),
    (["luck", "parade", "-p", "2", "-n", "20", "--decisions", "2", "--param", "opening_parade=5"],
     "official rules only"),
    (["luck", "parade", "-p", "2", "-n", "20", "--decisions", "-1"], "decision_games"),
])
def test_decisions_bad_input_is_one_line_and_exit_2(args, message):
    out = run_main(*args)
    assert out.returncode == 2, out.stdout
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_user_strategies_are_refused():
    with pytest.raises(InputError, match="built-in strategies"):
        decision_errors("parade", 2, ["greedy", "montecards/strategies/parade_greedy.py:choose"], n=1, seed=1)

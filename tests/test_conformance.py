"""The conformance suite: every registered game passes ``montecards.testing`` unchanged.

Each check of ``montecards.testing.CHECKS`` runs for each registered game (pgx-style: the check
ships inside the library, and a new game's test is one call of ``check_game``), and so does the
kernel-versus-naive replay, ``check_kernel_agrees_with_oracle``, with the game's naive reference
``tests/naive/<game>.py`` (``play_script``, the same contract in every game).
"""

from __future__ import annotations

import dataclasses

import pytest

import montecards as mc
from montecards import games, testing
from montecards.engine.spec import WIN_UNIT, InputError
from tests.naive import anomia, marbles, parade, tulips, wigout

GAMES = games.names()
CHECKS = list(testing.CHECKS)

# Each game's naive reference (tests/naive/<game>.py, its ``play_script``) and the rule
# parameter sets its games are traced with, one after the other (a set that allows only some
# player counts is played at those).
ORACLES = {
    "parade": (parade, [{}, {"two_player_margin": 0}, {"two_player_margin": 1},
                        {"opening_parade": 0, "end_colours": 4}, {"opening_parade": 11, "end_colours": 1},
                        {"colours": 5, "values": 9}, {"colours": 4, "hand_size": 4, "discards": 1},
                        {"colours": 3, "values": 8, "hand_size": 3, "discards": 0, "end_colours": 2},
                        {"discards": 3}, {"hand_size": 2, "discards": 1, "values": 6}]),
    "anomia": (anomia, [
        {},
        {"winnings_face_up": True},
        {"tie_prob": 0.3},
        {"cards_per_symbol": [3, 3, 3, 3, 2, 2, 2, 2], "remove_symbols": [], "tie_prob": 0.5,
         "wild_pairs": [[0, 1], [2, 3], [4, 5], [6, 7], [0, 4]]},
    ]),
    "wigout": (wigout, [
        {},
        {"deadlock_counts_as_round": False, "draw_time_factor": 2.0},
        {"characters": 14, "hand_size": 4, "rounds": 3},
        {"speed": [1.25, 1.0, 1.0, 0.8]},
        # every deal deadlocks: the game stops unfinished at the deal cap
        {"characters": 20, "copies": 1, "hand_size": 3, "rounds": 1,
         "deadlock_counts_as_round": False},
    ]),
    "tulips": (tulips, [
        {},
        {"values": [1, 2, 3, 5], "base_per_value": 3, "marked_per_value": 1,
         "removed": [3, 2, 1, 0, 5]},
        {"secret_reveal": 2, "give_bonus": [-5, -4, -6, -9], "keep_bonus": [-1, 0, -3, 1]},
        {"start_points": [0, 2, 4, 6, 8, 10]},
        {"start_points": [7, 0, -4]},
    ]),
    "marbles": (marbles, [
        {},
        {"teams": "pairs"},
        {"nine_split": True, "joker_from_track": True, "decks": 2},
        {"castle_entry": "optional", "sides": 6},
        {"teams": "two", "max_turns": 300},
        {"holes_per_side": 12},
        {"holes_per_side": 24, "marbles": 4},
        {"marbles": 3, "teams": "pairs", "nine_split": True},
        {"marbles": 1, "holes_per_side": 10, "castle_entry": "optional"},
        {"marbles": 2, "joker_from_track": True, "sides": 6, "holes_per_side": 36},
    ]),
}


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__.removeprefix("check_"))
@pytest.mark.parametrize("name", GAMES)
def test_conformance(name, check):
    check(name)


def test_every_game_has_an_oracle():
    assert sorted(ORACLES) == sorted(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_quick_strategies_are_the_built_ins_at_other_parameters(name):
    """``spec.quick_strategies`` (what the replay checks mix) names the built-ins in order, each
    label valid; only parameterised ones differ, and they differ from the defaults."""
    from montecards.engine.weights import parse_label

    spec = games.get(name)
    if not spec.quick_strategies:
        return
    assert len(spec.quick_strategies) == len(spec.strategies)
    for label, builtin in zip(spec.quick_strategies, spec.strategies):
        parsed = parse_label(label)
        assert (parsed[0] if parsed else label) == builtin, label
        assert spec.strategy_codes(1, [label])  # a valid label (InputError otherwise)
    assert spec.quick_strategies != spec.strategies


@pytest.mark.parametrize("name", GAMES)
def test_kernel_agrees_with_naive_reference(name):
    """The kernel and the game's naive reference play the same traced scripts to the same
    outcomes (every common key of ``play_scripted`` and ``play_script``), game for game."""
    module, params = ORACLES[name]
    n = 100
    compared = testing.check_kernel_agrees_with_oracle(name, module.play_script, games_to_check=n,
                                                       params=params)
    assert {"scores", "win_share", "turns"} <= set(compared) and len(compared) >= 5, compared


@pytest.mark.parametrize("name", GAMES)
def test_a_wrong_oracle_fails_the_check(name):
    """The replay check can fail: an oracle whose seat 0 scores one point more."""
    module = ORACLES[name][0]

    def off_by_one(**script):
        out = module.play_script(**script)
        return out | {"scores": [out["scores"][0] + 1] + list(out["scores"][1:])}

    where = rf"{name} game 0 \(seed 123, \d players, strategies \[.*\], params \{{\}}\): 'scores' differs"
    with pytest.raises(AssertionError, match=where):
        testing.check_kernel_agrees_with_oracle(name, off_by_one, games_to_check=1)


def test_a_wrong_win_share_fails_the_check():
    def shares_moved(**script):
        out = wigout.play_script(**script)
        return out | {"win_share": out["win_share"][::-1]}

    with pytest.raises(AssertionError, match="wigout game .*'win_share' differs"):
        testing.check_kernel_agrees_with_oracle("wigout", shares_moved, games_to_check=3)


def test_check_game_runs_the_oracle_replay(monkeypatch):
    """``check_game(name, oracle=...)`` ends with the replay check (the other checks run above)."""
    monkeypatch.setattr(testing, "CHECKS", ())
    testing.check_game("parade", oracle=parade.play_script, oracle_params=ORACLES["parade"][1])

    def off_by_one(**script):
        out = parade.play_script(**script)
        return out | {"scores": [out["scores"][0] + 1] + out["scores"][1:]}

    with pytest.raises(AssertionError, match="'scores' differs"):
        testing.check_game("parade", oracle=off_by_one)


def test_an_oracle_without_scores_fails_the_check():
    def no_scores(**script):
        return {key: value for key, value in parade.play_script(**script).items() if key != "scores"}

    with pytest.raises(AssertionError, match="has no 'scores'"):
        testing.check_kernel_agrees_with_oracle("parade", no_scores, games_to_check=1)


def test_an_oracle_that_refuses_a_script_fails_the_check():
    def refuses(**script):
        raise ValueError("too few plays")

    with pytest.raises(AssertionError, match="parade game 0 .*the oracle refused the script"):
        testing.check_kernel_agrees_with_oracle("parade", refuses, games_to_check=1)


def test_a_broken_game_fails_the_check(monkeypatch):
    """The checks can fail: a spec whose default strategy is not among its strategies."""
    spec = games.get("parade")
    broken = dataclasses.replace(spec, default_strategy="nobody")  # (run_chunk is derived)
    monkeypatch.setattr(games, "get", lambda name: broken)
    with pytest.raises(AssertionError, match="default strategy"):
        testing.check_spec_is_complete("parade")


def test_unknown_game_is_refused():
    with pytest.raises(InputError, match="allowed"):
        mc.simulate("chess", n=10)


def test_win_unit_divides_every_tie():
    assert all(WIN_UNIT % k == 0 for k in range(1, 7))

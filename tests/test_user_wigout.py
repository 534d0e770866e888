"""Wig Out!'s user path: the interface twins (montecards/strategies/wigout_*.py, examples/strategies/wigout_singles_first.py), run as user
strategies in the kernel, play the very games of the built-ins they copy.

``greedy`` and ``singles_first`` are deterministic: their twins give the same per-game rows,
the same traces and the same decision logs as the built-ins, for the same seed, at every player
count, alone and mixed with other built-ins (``random`` seats among them: the twins draw
nothing, so the built-in ``random`` seats still draw the game's shared choice stream in the
same order). The ``random`` twin cannot match the built-in ``random``: the kernel's ``random``
seats share one choice stream per game (``kernel.CHOICE_STREAM``), while a user seat draws from
its own stream (``engine.user_seats.USER_STREAM + seat``); it is checked to run, to be reproducible
and to win a fair share. Faults (an index outside ``legal``, an exception) stop the run with a
``StrategyError`` naming the seat and the game.

The runs go through ``mc.simulate`` when the front end takes user strategies, else through the
engine's own chunk runner (``run.runner.play_chunk``, what a local ``mc.simulate`` calls).
"""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import montecards as mc
from montecards.analysis.results import games_frame
from montecards.engine.user_strategies import seats_of
from montecards.errors import InputError, StrategyError
from montecards.games import wigout
from montecards.games.wigout import kernel, view
from montecards.games.wigout.game import SPEC
from montecards.run.runner import RunConfig, play_chunk

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "strategies"
TWINS_DIR = Path(__file__).resolve().parent.parent / "montecards" / "strategies"


def ref(name: str) -> str:
    """The reference of ``montecards/strategies/wigout_<name>.py:choose`` (a twin) or ``examples/strategies/...`` (an absolute path)."""
    folder = TWINS_DIR if name in ("greedy", "random", "weighted") else EXAMPLES
    return f"{folder / f'wigout_{name}.py'}:choose"


GREEDY, SINGLES, RANDOM, SPOILER = ref("greedy"), ref("singles_first"), ref("random"), ref("spoiler")
TWINS = {GREEDY: "greedy", SINGLES: "singles_first"}
FRONT_END = "strategy_params" in inspect.signature(mc.simulate).parameters
VARIANT = {"characters": 14, "deadlock_counts_as_round": False, "draw_time_factor": 2.0}


def games(players, strategies, n, seed, params=None) -> pd.DataFrame:
    """The per-game rows of a run, as ``mc.simulate(..., keep_games=True).games``."""
    if FRONT_END:
        return mc.simulate("wigout", n=n, players=players, strategies=strategies, params=params,
                           seed=seed, keep_games=True, jobs=2).games
    entries = SPEC.strategy_codes(players, strategies)
    seats = seats_of(entries)
    config = RunConfig("wigout", seed, players,
                       SPEC.pack_params(players, SPEC.resolve_params(players, params)),
                       SPEC.strategy_array(entries),
                       user=tuple(seats) if any(s is not None for s in seats) else ())
    return games_frame(play_chunk(SPEC, config, 0, n), SPEC.layout(players))


def builtin(strategies):
    return [TWINS.get(s, s) for s in strategies]


def write(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(body)
    return f"{path}:choose"


# --------------------------------------------------------------------------- the same games

CONFIGS = [
    (2, [GREEDY]),
    (2, [SINGLES, "random"]),
    (3, [GREEDY, SINGLES, "greedy"]),
    (4, [SINGLES]),
    (4, [GREEDY, "random", "singles_first", GREEDY]),
    (5, ["random", GREEDY, "greedy", SINGLES, "random"]),
    (6, [GREEDY]),
    (6, [SINGLES, "greedy", "random", GREEDY, "singles_first", "random"]),
]


@pytest.mark.parametrize(("players", "strategies"), CONFIGS,
                         ids=[f"{p}p-{i}" for i, (p, _s) in enumerate(CONFIGS)])
def test_twins_play_the_builtins_games(players, strategies):
    mine = games(players, strategies, 3000, 11 + players)
    theirs = games(players, builtin(strategies), 3000, 11 + players)
    pd.testing.assert_frame_equal(mine, theirs)


@pytest.mark.parametrize("players", [3, 5])
def test_twins_play_the_builtins_games_in_a_rule_variant(players):
    strategies = [GREEDY, "random"] + [SINGLES] * (players - 2)
    params = dict(VARIANT, speed=[1.25] + [1.0] * (players - 1))
    mine = games(players, strategies, 2000, 3, params)
    theirs = games(players, builtin(strategies), 2000, 3, params)
    pd.testing.assert_frame_equal(mine, theirs)
    assert mine["deadlocks"].sum() > 0 or players < 5


def test_trace_with_a_user_seat_is_the_builtins_trace():
    for players, strategies, index in [(4, [GREEDY, "random", SINGLES, "greedy"], 7),
                                       (6, [SINGLES, GREEDY, "random", "greedy", GREEDY, "random"], 2)]:
        mine = mc.trace("wigout", 21, index, players, strategies)
        theirs = mc.trace("wigout", 21, index, players, builtin(strategies))
        pd.testing.assert_frame_equal(mine, theirs)
        assert mine.attrs["outcome"] == theirs.attrs["outcome"]
        assert len(mine) > 50


def test_the_decision_log_logs_the_same_choices():
    strategies = [GREEDY, "singles_first", SINGLES, "random"]
    for index in range(3):
        mine = wigout.decisions(9, index, 4, None, strategies)
        theirs = wigout.decisions(9, index, 4, None, builtin(strategies))
        assert len(mine) == len(theirs) > 50
        for a, b in zip(mine, theirs, strict=True):
            assert (a.seat, a.choice, a.move) == (b.seat, b.choice, b.move)
            assert np.array_equal(a.obs, b.obs) and np.array_equal(a.legal, b.legal)


def test_spec_declares_one_kind_of_decision():
    assert SPEC.decision_kinds == 1 and SPEC.has_decisions
    assert SPEC.run_chunk.play_block is kernel.play_block


# --------------------------------------------------------------------------- random and the idea


def test_random_twin_runs_reproducibly_and_wins_a_fair_share():
    """The ``random`` twin draws from its seat's own stream (not the built-in's shared choice
    stream): not the built-in's games, but the same games for the same seed, a fair share
    among twins, and about the built-in ``random``'s share against ``greedy``."""
    n = 20_000
    alone = games(4, [RANDOM], n, 4)
    assert alone.equals(games(4, [RANDOM], n, 4))
    shares = alone[[f"win_{s}" for s in range(4)]].mean()
    assert shares.sum() == pytest.approx(1.0 - alone["unfinished"].mean(), abs=1e-9)
    assert all(abs(share - 0.25) < 0.02 for share in shares)
    twin = games(4, [RANDOM, "greedy", "greedy", "greedy"], n, 6)["win_0"].mean()
    built = games(4, ["random", "greedy", "greedy", "greedy"], n, 6)["win_0"].mean()
    assert abs(twin - built) < 0.025


def test_spoiler_runs_and_plays_its_own_games():
    strategies = [SPOILER, "greedy", "greedy", "greedy"]
    mine = games(4, strategies, 5000, 2)
    assert not mine.equals(games(4, ["greedy"] * 4, 5000, 2))
    shares = mine[[f"win_{s}" for s in range(4)]].mean()
    assert shares.sum() == pytest.approx(1.0, abs=1e-9) and 0.15 < shares["win_0"] < 0.6


# --------------------------------------------------------------------------- faults

BAD_INDEX = '''
from montecards.games.wigout import view

def choose(obs, legal, params, memory, rng):
    if view.obs_deal(obs) >= 3 and view.obs_points(obs, 2) >= 12:
        return legal.shape[0]
    return 0
'''

RAISES = '''
from montecards.games.wigout import view

def choose(obs, legal, params, memory, rng):
    if view.obs_deal(obs) >= 2:
        raise ValueError("boom")
    return 0
'''


def first_decision(strategies, seat, condition):
    """The index of the first game in which ``seat`` decides where ``condition(obs)`` holds,
    in the games the strategy plays until then (seat ``seat`` playing legal[0], as the bad
    strategies below do until they break)."""
    for index in range(200):
        for d in wigout.decisions(1, index, 4, None, strategies):
            if d.seat == seat and condition(d.obs):
                return index
    raise AssertionError("the condition never held")


FIRST_MOVE = '''
def choose(obs, legal, params, memory, rng):
    return 0
'''


def test_an_index_outside_legal_stops_the_run_naming_seat_and_game(tmp_path):
    bad = write(tmp_path, "wigout_bad_index", BAD_INDEX)
    first = write(tmp_path, "wigout_first_move", FIRST_MOVE)
    strategies = ["greedy", bad, "singles_first", "random"]
    expected = first_decision(["greedy", first, "singles_first", "random"], 1,
                              lambda obs: view.obs_deal(obs) >= 3 and view.obs_points(obs, 2) >= 12)
    assert expected > 0, "the fault must come after some good games"
    with pytest.raises(StrategyError) as caught:
        games(4, strategies, 2000, 1)
    message = str(caught.value)
    assert "wigout_bad_index.py:choose" in message and "(seat 1)" in message
    assert f"in game {expected} returned index" in message and "outside its" in message
    with pytest.raises(StrategyError, match=rf"\(seat 1\) in game {expected} returned index"):
        mc.trace("wigout", 1, expected, 4, strategies)


def test_an_exception_in_the_strategy_stops_the_run_with_its_text(tmp_path):
    raises = write(tmp_path, "wigout_raises", RAISES)
    strategies = ["greedy", "random", raises, "greedy"]
    with pytest.raises(StrategyError, match=r"\(seat 2\) in game 3 raised ValueError: boom"):
        wigout.decisions(1, 3, 4, None, strategies)
    with pytest.raises(StrategyError, match=r"\(seat 2\) in game 5 raised ValueError: boom"):
        mc.trace("wigout", 1, 5, 4, strategies)
    if not FRONT_END:  # the engine's runner of this branch lets numba's garbled SystemError
        pytest.skip("out of a parallel run (the runner that catches it comes with the front end)")
    with pytest.raises(StrategyError) as caught:
        games(4, strategies, 2000, 1)
    message = str(caught.value)
    assert "wigout_raises.py:choose" in message and "(seat 2) in game 0" in message
    assert "ValueError: boom" in message


def test_play_scripted_refuses_a_user_strategy():
    script = wigout.scripted_inputs(1, 0, 2, None, "greedy")
    with pytest.raises(InputError, match="built-in strategies only"):
        wigout.play_scripted(players=2, strategies=[GREEDY, "greedy"], **script)

"""Joker Marbles played by user strategies (the kernel's user path, ``engine/user_seats.py``).

The interface twins of ``montecards/strategies/marbles_greedy.py`` (``choose``: greedy,
``choose_aggressive``: aggressive), loaded by reference as any user strategy, play the very
games of the built-ins they copy: the same per-game rows for the same seed, alone and mixed
with other built-ins, at every player count, in teams and rule variants; the same trace and
the same decision log. (There is no twin of ``random``: it draws from the game's shared choice
stream, a user seat from its own.) A strategy returning an index outside its legal moves, or
raising, stops the run with one ``StrategyError`` line naming the seat and the game.

Runs go through ``mc.simulate`` where the engine passes user strategies to the kernels;
before that (the engine half of issue 17 without its front ends) through the engine's own
chunk entry, ``run.runner.play_chunk``, which ``mc.simulate`` calls.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pytest

import montecards as mc
from montecards.analysis.results import games_frame
from montecards.errors import StrategyError
from montecards.games import marbles
from montecards.games.marbles import SPEC
from montecards.games.marbles.game import pack_params
from montecards.run.runner import RunConfig, play_chunk

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "strategies"
TWINS_DIR = ROOT / "montecards" / "strategies"
GREEDY = f"{TWINS_DIR / 'marbles_greedy.py'}:choose"
AGGRESSIVE = f"{TWINS_DIR / 'marbles_greedy.py'}:choose_aggressive"
CAUTIOUS = f"{EXAMPLES / 'marbles_cautious.py'}:choose"
TWIN_OF = {GREEDY: "greedy", AGGRESSIVE: "aggressive"}
SEED = 20261217

SIMULATE_TAKES_USER = "strategy_params" in inspect.signature(mc.simulate).parameters
"""True once ``mc.simulate`` passes user strategies to the kernels (the engine's front ends)."""


def games(strategies, players, n, params=None, seed=SEED):
    """The per-game DataFrame of a run (``keep_games=True``)."""
    if SIMULATE_TAKES_USER:
        return mc.simulate("marbles", n=n, players=players, strategies=strategies, params=params,
                           seed=seed, keep_games=True, jobs=2).games
    entries = SPEC.strategy_codes(players, strategies)
    resolved = SPEC.resolve_params(players, params)
    seats = tuple(e if not isinstance(e, str) else None for e in entries)
    config = RunConfig("marbles", seed, players, pack_params(players, resolved),
                       SPEC.strategy_array(entries),
                       user=seats if any(s is not None for s in seats) else ())
    return games_frame(play_chunk(SPEC, config, 0, n), SPEC.layout(players))


def builtins_of(strategies):
    return [TWIN_OF.get(s, s) for s in strategies]


CONFIGS = [
    (2, [GREEDY, GREEDY], {}),
    (2, [AGGRESSIVE, "greedy"], {"decks": 2}),
    (3, [GREEDY, "random", AGGRESSIVE], {}),
    (4, [GREEDY], {}),
    (4, [AGGRESSIVE, "greedy", GREEDY, "random"], {"teams": "pairs"}),
    (4, ["random", GREEDY, "aggressive", GREEDY], {"castle_entry": "optional", "nine_split": True}),
    (5, [AGGRESSIVE, GREEDY, "random", GREEDY, "greedy"], {"joker_from_track": True}),
    (6, [GREEDY, "aggressive", GREEDY, "random", AGGRESSIVE, GREEDY], {"teams": "two"}),
]


@pytest.mark.parametrize("players, strategies, params", CONFIGS)
def test_twins_play_the_builtins_games(players, strategies, params):
    n = 2000 if players <= 4 else 1000
    mine = games(strategies, players, n, params)
    theirs = games(builtins_of(strategies), players, n, params)
    assert len(mine) == n
    assert mine.equals(theirs)


def test_trace_of_a_user_seat_is_the_builtins_trace():
    for index in (0, 7):
        mine = mc.trace("marbles", SEED, index, players=4, strategies=[GREEDY, "random", AGGRESSIVE, "greedy"],
                        params={"teams": "pairs"})
        theirs = mc.trace("marbles", SEED, index, players=4,
                          strategies=["greedy", "random", "aggressive", "greedy"], params={"teams": "pairs"})
        assert mine.equals(theirs)
        assert mine.attrs["outcome"] == theirs.attrs["outcome"]


def test_decision_log_of_a_user_seat_logs_the_builtins_choices():
    for players, strategies, params in (CONFIGS[2], CONFIGS[6]):
        mine = marbles.decisions(SEED, 3, players, params, strategies)
        theirs = marbles.decisions(SEED, 3, players, params, builtins_of(strategies))
        assert len(mine) == len(theirs) > 50
        for a, b in zip(mine, theirs, strict=True):
            assert (a.seat, a.choice, a.move) == (b.seat, b.choice, b.move)
            assert np.array_equal(a.obs, b.obs) and np.array_equal(a.legal, b.legal)


def write(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(body)
    return f"{path}:choose"


BAD_INDEX = """\
from montecards.games.marbles import view

def choose(obs, legal, params, memory, rng):
    if view.obs_turn(obs) >= 40:
        return legal.shape[0]
    return 0
"""

RAISES = """\
from montecards.games.marbles import view

def choose(obs, legal, params, memory, rng):
    if view.obs_turn(obs) == 10:
        raise ValueError("boom")
    return 0
"""


def test_an_index_outside_legal_stops_with_the_seat_and_game(tmp_path):
    ref = write(tmp_path, "bad_index", BAD_INDEX)
    with pytest.raises(StrategyError, match=r"\(seat 1\) in game 0 returned index \d+, outside its \d+ legal moves"
                       ) as caught:
        games(["greedy", ref, "random"], 3, 1200)
    assert "\n" not in str(caught.value)
    with pytest.raises(StrategyError, match=r"\(seat 1\) in game 5 returned index"):
        mc.trace("marbles", SEED, 5, players=3, strategies=["greedy", ref, "random"])


def test_a_strategy_that_raises_stops_with_its_exception(tmp_path):
    ref = write(tmp_path, "raises", RAISES)
    with pytest.raises(StrategyError, match=r"\(seat 0\) in game 2 raised ValueError: boom"):
        marbles.decisions(SEED, 2, 2, {}, [ref, "greedy"])
    with pytest.raises(StrategyError, match=r"\(seat 0\) in game 4 raised ValueError: boom"):
        mc.trace("marbles", SEED, 4, players=2, strategies=[ref, "greedy"])


@pytest.mark.skipif(not SIMULATE_TAKES_USER, reason="at this commit the engine's play_chunk lets numba's "
                    "garbled SystemError of a parallel run out (the front-end commit replays the game)")
def test_a_strategy_that_raises_in_a_parallel_run_stops_with_its_exception(tmp_path):
    ref = write(tmp_path, "raises", RAISES)
    with pytest.raises(StrategyError, match=r"\(seat 0\) in game 0 raised ValueError: boom"):
        games([ref, "greedy"], 2, 1200)


def test_the_cautious_idea_runs_and_beats_greedy_in_four_player_games():
    two = games([CAUTIOUS, "greedy"], 2, 2000)
    assert not two["unfinished"].any()
    assert 0.4 < two["win_0"].mean() < 0.6  # about even with one opponent
    four = games([CAUTIOUS, "greedy"] * 2, 4, 2000)
    assert (four["win_0"] + four["win_2"]).mean() > 0.65  # fair share 0.5
    # it plays its own games (the same deals as greedy's)
    assert not two.equals(games(["greedy", "greedy"], 2, 2000))

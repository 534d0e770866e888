"""Gift of Tulips played by user strategies (issue 17): the user path plays the same games.

* each interface twin in ``montecards/strategies/tulips_*.py`` and ``examples/strategies/tulips_*.py`` (loaded by reference, as a user
  writes it: ``"path/to/tulips_greedy.py:choose"``) gives the same per-game rows as the
  built-in it copies, for the same seed, at several player counts, alone and mixed with other
  built-ins;
* ``random``'s twin cannot: a user seat draws from its own stream (``engine.user_seats.USER_STREAM
  + seat``), the built-in from the game's shared choice stream. It runs, and its win shares are
  sane;
* ``mc.trace`` and the decision log with a twin equal the built-in's;
* a strategy returning an index outside its legal moves, or raising, stops the run with a
  ``StrategyError`` naming the seat and the game;
* the strategy idea ``tulips_secret_majority.py`` runs.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pytest

import montecards as mc
from montecards.analysis.results import games_frame
from montecards.engine.user_strategies import check_faults, kernel_arg, load, seats_of
from montecards.errors import StrategyError
from montecards.games import tulips
from montecards.games.tulips import view

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "strategies"
TWINS_DIR = Path(__file__).resolve().parent.parent / "montecards" / "strategies"
GREEDY = f"{TWINS_DIR / 'tulips_greedy.py'}:choose"
MAJORITY = f"{EXAMPLES / 'tulips_majority.py'}:choose"
RANDOM = f"{TWINS_DIR / 'tulips_random.py'}:choose"
IDEA = f"{EXAMPLES / 'tulips_secret_majority.py'}:choose"
TWINS = {"greedy": GREEDY, "majority": MAJORITY}

API_TAKES_USER = "strategy_params" in inspect.signature(mc.simulate).parameters


def games(players: int, strategies: list[str], n: int, seed: int):
    """The per-game rows of a run (``mc.simulate(..., keep_games=True).games``).

    Before ``mc.simulate`` passes user strategies to the kernels (the API half of issue 17),
    the same run through the game's ``run_chunk`` and ``check_faults``, as the engine's
    ``play_chunk`` calls them.
    """
    if API_TAKES_USER:
        return mc.simulate("tulips", n=n, players=players, strategies=strategies, seed=seed,
                           keep_games=True, jobs=2, progress=False).games
    spec = tulips.SPEC
    entries = spec.strategy_codes(players, strategies)
    seats = seats_of(entries)
    packed = spec.pack_params(players, spec.resolve_params(players, None))
    codes = spec.strategy_array(entries)
    width = spec.layout(players).width
    rows = np.zeros((n, width), dtype=np.int64)
    if not any(s is not None for s in seats):
        spec.run_chunk(np.uint64(seed), 0, players, packed, codes, rows)
        return games_frame(rows, spec.layout(players))
    user = kernel_arg(seats, n)
    try:
        spec.run_chunk(np.uint64(seed), 0, players, packed, codes, rows, user)
    except Exception:  # noqa: BLE001 - a strategy raised: check_faults below names its seat and game
        pass

    def replay(game, alone):
        spec.run_chunk(np.uint64(seed), game, players, packed, codes, np.zeros((1, width), np.int64),
                       alone, serial=True)

    check_faults(user, seats, replay)
    return games_frame(rows, spec.layout(players))


def same_games(players, lineup, n, seed):
    """``lineup`` (built-in names) against the same lineup with every twin-able seat in
    ``user_seats`` played by its twin: the very same rows."""
    builtin = [name for name, _ in lineup]
    user = [TWINS[name] if twin else name for name, twin in lineup]
    a = games(players, builtin, n, seed)
    b = games(players, user, n, seed)
    assert len(a) == len(b) == n
    assert a.equals(b), (players, user)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_greedy_twin_alone_plays_the_same_games(players):
    same_games(players, [("greedy", True)] * players, 3000, 20261201 + players)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_majority_twin_alone_plays_the_same_games(players):
    same_games(players, [("majority", True)] * players, 1500, 17 + players)


@pytest.mark.parametrize("players,lineup", [
    (2, [("greedy", True), ("majority", False)]),
    (3, [("random", False), ("greedy", True), ("majority", True)]),
    (4, [("majority", False), ("greedy", True), ("random", False), ("greedy", False)]),
    (5, [("majority", True), ("random", False), ("greedy", False), ("greedy", True), ("random", False)]),
    (6, [("random", False), ("majority", False), ("greedy", True), ("majority", True),
         ("random", False), ("greedy", False)]),
])
def test_twins_mixed_with_built_ins_play_the_same_games(players, lineup):
    """A twin seat among built-ins (``random`` among them: its draws from the shared choice
    stream are not shifted by the user seats, which draw from their own streams)."""
    same_games(players, lineup, 2000, 99 + players)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_twin_runs_with_sane_win_shares(players):
    """``random``'s twin draws from its seat's own stream, not the game's choice stream, so its
    games differ from the built-in's; alone it wins about 1/players per seat, and against
    greedy it wins about as often as the built-in random does (a little more than 1/players
    with 6 players: greedy gives its cards to the lowest scorer)."""
    n = 4000
    alone = games(players, [RANDOM], n, 5)
    shares = np.array([alone[f"win_{s}"].mean() for s in range(players)])
    assert abs(shares.sum() - 1) < 1e-9
    assert np.all(np.abs(shares - 1 / players) < 0.06), shares
    against = games(players, [RANDOM] + ["greedy"] * (players - 1), n, 6)
    builtin = games(players, ["random"] + ["greedy"] * (players - 1), n, 6)
    twin_share = against["win_0"].mean()
    builtin_share = builtin["win_0"].mean()
    assert abs(twin_share - builtin_share) < 0.05, (twin_share, builtin_share)


@pytest.mark.parametrize("players", [2, 5])
def test_trace_with_a_user_seat_is_the_built_ins(players):
    for index in (0, 7):
        for name, twin in TWINS.items():
            lineup = ["random", name] + ["greedy"] * (players - 2)
            expected = mc.trace("tulips", seed=3, index=index, players=players, strategies=lineup)
            got = mc.trace("tulips", seed=3, index=index, players=players,
                           strategies=["random", twin] + lineup[2:])
            assert got.equals(expected), (players, index, name)
            assert got.attrs["outcome"] == expected.attrs["outcome"]


def test_decision_log_with_a_twin_logs_the_same_choices():
    for players in (2, 4, 6):
        for index in range(4):
            for name, twin in TWINS.items():
                lineup = [name] * players
                expected = tulips.decisions(11, index, players, None, lineup)
                got = tulips.decisions(11, index, players, None, [twin] + lineup[1:])
                assert len(got) == len(expected) > players
                for x, y in zip(expected, got, strict=True):
                    assert x.seat == y.seat and x.choice == y.choice
                    assert (x.obs == y.obs).all() and (x.legal == y.legal).all()


# --- faults -------------------------------------------------------------------------------------

BAD = '''
from numba import njit
from montecards.games.tulips import view


@njit
def choose(obs, legal, params, memory, rng):
    """Index 0, except at seat 1's set-up when its first dealt card is card 7."""
    setup = view.obs_kind(obs) == view.DECISION_SETUP
    if setup and view.obs_seat(obs) == 1 and view.obs_hand_card(obs, 0) == 7:
        {fault}
    return 0
'''


def write_strategy(tmp_path, name, fault):
    path = tmp_path / f"{name}.py"
    path.write_text(BAD.format(fault=fault))
    return f"{path}:choose"


def first_game_with_card_7(players, seed):
    """The first game of the run whose seat 1 is dealt card 7 as its first card (the deal does
    not depend on the strategies)."""
    for index in range(2000):
        d = tulips.decisions(seed, index, players, None, ["greedy"])[1]
        if d.obs[view.OBS_HAND] == 7:
            return index
    raise AssertionError("no such game")


def test_a_bad_index_stops_the_run_naming_seat_and_game(tmp_path):
    bad = write_strategy(tmp_path, "tulips_bad_index", "return legal.shape[0]")
    players, seed = 4, 8
    game = first_game_with_card_7(players, seed)
    assert game > 0
    with pytest.raises(StrategyError) as error:
        games(players, ["greedy", bad, "majority", bad], 3000, seed)
    text = str(error.value)
    assert f"(seat 1) in game {game} returned index 2, outside its 2 legal moves" in text, text
    with pytest.raises(StrategyError, match=rf"\(seat 1\) in game {game} returned index 2"):
        mc.trace("tulips", seed=seed, index=game, players=players,
                 strategies=["greedy", bad, "majority", bad])


LATE = '''
from numba import njit
from montecards.games.tulips import view


@njit
def choose(obs, legal, params, memory, rng):
    """Index -1 at seat 2's action that leaves 3 cards in the draw pile."""
    action = view.obs_kind(obs) == view.DECISION_ACTION
    if action and view.obs_seat(obs) == 2 and view.obs_pile_left(obs) == 3:
        return -1
    return legal.shape[0] - 1
'''


def test_a_bad_index_at_an_action_stops_the_run(tmp_path):
    """Every game reaches that action (4 players: 7 turns each), so game 0 stops."""
    path = tmp_path / "tulips_late.py"
    path.write_text(LATE)
    late = f"{path}:choose"
    players = 4
    deciding = [d for d in tulips.decisions(1, 0, players, None, ["greedy"])
                if d.obs[view.OBS_KIND] == view.DECISION_ACTION and d.obs[view.OBS_PILE] == 3]
    assert [d.seat for d in deciding] == [2]
    with pytest.raises(StrategyError, match=r"\(seat 2\) in game 0 returned index -1, outside its"):
        games(players, ["greedy", "majority", late, "random"], 2000, 1)


def test_an_exception_in_a_strategy_stops_the_run_with_its_message(tmp_path):
    """A run of one block of games (engine.kernel.BLOCK_GAMES), and the decision log."""
    boom = write_strategy(tmp_path, "tulips_boom", 'raise ValueError("boom")')
    players, seed = 3, 9
    game = first_game_with_card_7(players, seed)
    assert 0 < game < 200
    with pytest.raises(StrategyError) as error:
        games(players, ["random", boom, "greedy"], 200, seed)
    text = str(error.value)
    assert f"(seat 1) in game {game} raised ValueError: boom" in text, text
    with pytest.raises(StrategyError, match=rf"\(seat 1\) in game {game} raised ValueError: boom"):
        tulips.decisions(seed, game, players, None, ["random", boom, "greedy"])


def test_an_exception_in_a_run_of_many_blocks_names_its_game(tmp_path):
    boom = write_strategy(tmp_path, "tulips_boom_blocks", 'raise ValueError("boom")')
    players, seed = 3, 9
    assert first_game_with_card_7(players, seed) > 0
    with pytest.raises(StrategyError) as error:
        games(players, ["random", boom, "greedy"], 3000, seed)
    assert "ValueError: boom" in str(error.value), str(error.value)


# --- a strategy idea ----------------------------------------------------------------------------


def test_the_secret_majority_idea_runs_and_plays_legally():
    """It plays legal moves, and beats greedy with 2 players (both seatings)."""
    share = 0.0
    for seat, lineup in enumerate(([IDEA, "greedy"], ["greedy", IDEA])):
        rows = games(2, lineup, 2000, 12)
        share += rows[f"win_{seat}"].mean() / 2
    assert share > 0.55, share
    for d in tulips.decisions(12, 0, 4, None, [IDEA, "greedy", "majority", IDEA]):
        assert 0 <= d.choice < d.legal.shape[0]
    early = load(IDEA, "tulips").bind([0.0])  # its one weight: majorities count from 0 at first
    rows = games(4, [early, "majority", early, "greedy"], 500, 13)
    assert abs(sum(rows[f"win_{s}"].mean() for s in range(4)) - 1) < 1e-9

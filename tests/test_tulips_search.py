"""Gift of Tulips' tree searches (montecards/games/tulips/search.py): ``ismcts`` never peeks,
its ``omniscient`` twin does, both kinds of decision are searched, the searches are
reproducible and play through the engine like any built-in."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import montecards as mc
from montecards.engine.weights import WeightedSeat, append_table
from montecards.games.tulips import rules, search
from montecards.games.tulips.game import SPEC, pack_params
from montecards.games.tulips.strategies import WORK_SIZE, decode, greedy_action, greedy_setup
from montecards.rng import new_state, seed_stream

NO_TRACE = np.zeros((0, rules.TRACE_COLS), np.int64)
ITERATIONS = 120


def decision_states(seed: int, index: int, players: int):
    """Every decision of a game (all seats greedy, played as ``kernel.play_game`` plays it) as
    ``(kind, seat, step, first_class, state, deck stream)``, the state and stream as they stand
    when the seat decides."""
    g = np.zeros(WORK_SIZE, np.int64)
    rules.init_tables(g, players, pack_params(players, SPEC.resolve_params(players, None)))
    deck = new_state()
    seed_stream(deck, np.uint64(seed), index, 0)
    rules.reset_game(g, True)
    rules.draw_festival(g, deck, True)
    rules.open_festival_setup(g, NO_TRACE)
    rules.random_opening(g, deck)
    for _ in range(2 * players):
        rules.next_card(g, deck, True)
    for seat in range(players):
        yield search.KIND_SETUP, seat, 0, -1, g.copy(), deck.copy()
    for seat in range(players):
        a, b = rules.dealt_card(g, seat, 0), rules.dealt_card(g, seat, 1)
        keep = a if greedy_setup(g, a, b) == 0 else b
        rules.to_bouquet(g, seat, keep)
        rules.to_secret(g, seat, b if keep == a else a)
    seat = 0
    while g[rules.DRAWN] < g[rules.PILE_END]:
        g[rules.TURNS] += 1
        first_class = -1
        for step in range(2):
            if g[rules.DRAWN] >= g[rules.PILE_END]:
                break
            card = rules.next_card(g, deck, True)
            yield search.KIND_ACTION, seat, step, first_class, g.copy(), deck.copy()
            action, receiver = decode(greedy_action(g, seat, card, first_class))
            rules.apply_action(g, seat, card, action, receiver, NO_TRACE)
            first_class = rules.action_class(action)
        seat = (seat + 1) % players


def redeal(g: np.ndarray, seat: int, kind: int, rng: np.random.Generator) -> np.ndarray:
    """``g`` with the cards ``seat`` cannot see dealt afresh among their places: the undrawn
    cards (draw pile and removed), the other seats' secret-festival cards and, at set-up,
    their dealt cards. Every count stays: a state the seat cannot tell from ``g``."""
    out = g.copy()
    players = int(g[rules.PLAYERS])
    slots = list(range(rules.DECK + int(g[rules.DRAWN]), rules.DECK + int(g[rules.N_DECK])))
    slots += [rules.SECRET + i for i in range(int(g[rules.N_SECRET]))
              if g[rules.SECRET_SEAT + i] != seat]
    if kind == search.KIND_SETUP:
        slots += [rules.DECK + 2 + 2 * other + k for other in range(players) if other != seat
                  for k in range(2)]
    out[slots] = rng.permutation(g[slots])
    return out


def decide(kind, seat, step, first_class, g, omniscient, params, space, deck):
    g = g.copy()
    before = g.copy()
    if kind == search.KIND_SETUP:
        move = search.setup(g, seat, omniscient, params, space, deck.copy())
    else:
        move = search.action(g, seat, step, first_class, omniscient, params, space, deck.copy())
    assert np.array_equal(g[: rules.STATE_SIZE], before[: rules.STATE_SIZE]), "the search changed the game"
    return int(move)


def searching(iterations, players, playout=1.0):
    return append_table(np.array([0.0]), [(iterations, 0.7, playout)] * players)


@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_never_peeks(players):
    """At every decision of several games (set-up splits and actions), re-dealing what the seat
    cannot see (and handing it another deck stream) leaves ``ismcts``'s choice unchanged under
    the same seed; the ``omniscient`` twin, which reads the true state, changes its choice at
    some of them (so the comparison can fail)."""
    params = searching(ITERATIONS, players)
    space = search.new_search_space()
    rng = np.random.default_rng(players)
    decisions = changed = 0
    kinds = {search.KIND_SETUP: 0, search.KIND_ACTION: 0}
    for index in range(3 if players == 2 else 2):
        search.set_key(space, np.uint64(11), index)
        for kind, seat, step, first_class, g, deck in decision_states(11, index, players):
            other_deck = new_state()
            seed_stream(other_deck, np.uint64(999), decisions, 0)
            here = (kind, seat, step, first_class)
            move = decide(*here, g, False, params, space, deck)
            for attempt in range(2):
                g2 = redeal(g, seat, kind, rng)
                assert move == decide(*here, g2, False, params, space, other_deck if attempt else deck), (
                    f"ismcts peeked: game {index}, {'set-up' if kind == 0 else 'action'} of seat {seat}"
                )
            true_move = decide(*here, g, True, params, space, deck)
            changed += decide(*here, g2, True, params, space, deck) != true_move
            decisions += 1
            kinds[kind] += 1
    assert min(kinds.values()) >= players, kinds
    assert decisions > 40
    assert changed >= decisions // 20, f"omniscient changed {changed} of {decisions} choices"
    print(f"{players} players: {decisions} decisions ({kinds[0]} set-up), ismcts unchanged at all; "
          f"omniscient changed {changed}")


def test_same_seed_same_search_and_the_seed_matters():
    """The decision stream is the game's (seed, index): the same key repeats a search exactly;
    another game index changes it (at a small iteration count, somewhere)."""
    params = searching(12, 3, 0.0)
    space = search.new_search_space()
    differ = 0
    for kind, seat, step, first_class, g, deck in decision_states(5, 0, 3):
        search.set_key(space, np.uint64(5), 0)
        first = decide(kind, seat, step, first_class, g, False, params, space, deck)
        assert decide(kind, seat, step, first_class, g, False, params, space, deck) == first
        search.set_key(space, np.uint64(5), 1)
        differ += decide(kind, seat, step, first_class, g, False, params, space, deck) != first
    assert differ > 0


def test_runs_are_reproducible_whatever_the_threads_and_chunks():
    """The same seed plays the same games on 1 or 2 threads and in any chunk size."""
    seats = ["ismcts[30,0.7,1]", "greedy", "omniscient[30,0.7,0]"]
    one = mc.simulate("tulips", n=12, seed=7, players=3, strategies=seats, jobs=1, keep_games=True)
    two = mc.simulate("tulips", n=12, seed=7, players=3, strategies=seats, jobs=2, chunk_size=5,
                      keep_games=True)
    assert one.games.equals(two.games)
    assert one.win_share == two.win_share


def test_run_time_parameters_and_labels():
    """Parameters come in the name or as strategy_params, label the seat, and are checked."""
    res = mc.simulate("tulips", n=6, seed=3, players=2, strategies=["ismcts[30,1,0]", "greedy"])
    assert res.strategies == ["ismcts[30,1,0]", "greedy"]
    same = mc.simulate("tulips", n=6, seed=3, players=2, strategies=["ismcts", "greedy"],
                       strategy_params=[[30, 1, 0], None])
    assert same.strategies == res.strategies and same.win_share == res.win_share
    assert SPEC.strategy_codes(2, ["omniscient"])[0] == "omniscient"
    assert SPEC.strategy_codes(1, "ismcts[5,0.5,1]")[0] == WeightedSeat("ismcts", (5.0, 0.5, 1.0))
    short = SPEC.strategy_codes(1, "ismcts[10]")[0]
    assert short == WeightedSeat("ismcts", (10.0,) + SPEC.seat_params["ismcts"].default[1:])
    with pytest.raises(mc.InputError, match="takes 1 to 3 weights"):
        mc.simulate("tulips", n=2, seed=1, strategies=["ismcts[10,1,0,5]", "greedy"])


def test_bad_parameters_give_a_one_line_error():
    """The CLI reports a malformed search label in one line with exit status 2."""
    for label in ("ismcts[10,1,0,5]", "omniscient[10,0.7,nan]"):
        out = subprocess.run(
            [sys.executable, "-m", "montecards", "simulate", "tulips", "-n", "2", "-s", label],
            capture_output=True, text=True,
        )
        assert out.returncode == 2, out.stderr
        assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr, out.stderr


def test_trace_and_decisions_replay_the_run_game():
    """``trace`` and ``decisions`` play the very game the run played (same search streams),
    and every logged choice is legal."""
    seats = ["greedy", "ismcts[40,0.7,1]", "omniscient[40,0.7,0]"]
    res = mc.simulate("tulips", n=4, seed=8, players=3, strategies=seats, keep_games=True)
    layout = SPEC.layout(3)
    for index in (0, 3):
        events = mc.trace("tulips", seed=8, index=index, players=3, strategies=seats)
        outcome = events.attrs["outcome"]
        for column in layout.columns:
            assert outcome[column] == res.games.iloc[index][column], column
        logged = SPEC.decisions(8, index, 3, None, seats)
        assert all(0 <= d.choice < len(d.legal) for d in logged)
        draws = events.loc[events["event"] == "draw"]
        assert len(logged) == len(draws) + 3


def test_ismcts_beats_greedy():
    """``ismcts`` at 200 iterations beats ``greedy`` at 2 players over both seatings, the 95 %
    interval's lower bound above 50 %."""
    shares = []
    for seats in (["ismcts[200,0.7,1]", "greedy"], ["greedy", "ismcts[200,0.7,1]"]):
        res = mc.simulate("tulips", n=40, players=2, strategies=seats, seed=2024, keep_games=True)
        shares.append(res.games[f"win_{1 - seats.index('greedy')}"].to_numpy(float))
    shares = np.concatenate(shares)
    low = shares.mean() - 1.96 * shares.std(ddof=1) / np.sqrt(shares.size)
    assert low > 0.5, f"ismcts vs greedy: {shares.mean():.3f}, lower bound {low:.3f}"

"""Parade's tree searches (montecards/games/parade/search.py): ``ismcts`` never peeks, its
``omniscient`` twin does, both play through the engine like any built-in, and ``ismcts`` beats
``greedy`` and ``rollout`` head to head."""

from __future__ import annotations

import numpy as np
import pytest

import montecards as mc
from montecards.engine.weights import WeightedSeat, append_table
from montecards.games.parade import rules, search
from montecards.games.parade.cards import N_CARDS
from montecards.games.parade.game import SPEC
from montecards.games.parade.strategies import greedy_discard, greedy_play, new_takings
from montecards.rng import new_state, seed_stream

NO_TRACE = np.zeros((0, 4), np.int64)
ITERATIONS = 150


def decision_states(seed: int, index: int, players: int):
    """Every decision of a game (all seats greedy) as ``(kind, seat, state, deck stream)``,
    the state and stream as they stand when the seat decides."""
    g = rules.new_state()
    deck = new_state()
    seed_stream(deck, np.uint64(seed), index, 0)
    rules.set_up(g, players, 2, deck, True, NO_TRACE)
    seat, done = 0, False
    while not done:
        yield search.KIND_PLAY, seat, g.copy(), deck.copy()
        rules.play_card(g, seat, greedy_play(g, seat, new_takings()), NO_TRACE)
        done = rules.finish_turn(g, seat, deck, True, NO_TRACE)
        seat = rules.next_seat(seat, players)
    for s in range(players):
        yield search.KIND_DISCARD, s, g.copy(), deck.copy()
    for s in range(players):  # (the driver's own discards: greedy)
        g[rules.DISCARD + s] = greedy_discard(g, s)


def redeal(g: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray:
    """``g`` with the cards ``seat`` cannot see (draw pile and other hands) dealt afresh,
    every count kept: a state the seat cannot tell from ``g``."""
    out = g.copy()
    players = int(g[rules.PLAYERS])
    slots = list(range(rules.DECK + int(g[rules.DRAWN]), rules.DECK + N_CARDS))
    for other in range(players):
        if other != seat:
            slots += [int(rules.hand_at(other, k)) for k in range(int(g[rules.HAND_N + other]))]
    out[slots] = rng.permutation(g[slots])
    return out


def decide(kind, g, seat, omniscient, params, space, deck):
    g = g.copy()
    before = g.copy()
    if kind == search.KIND_PLAY:
        move = search.play(g, seat, omniscient, params, space, deck.copy())
    else:
        move = search.discard(g, seat, omniscient, params, space, deck.copy())
    assert np.array_equal(g, before), "the search changed the game"
    return int(move)


@pytest.mark.parametrize("players", [2, 3])
def test_ismcts_never_peeks(players):
    """At every decision of several games, re-dealing what the seat cannot see (and handing it
    another deck stream) leaves ``ismcts``'s choice unchanged under the same seed; the
    ``omniscient`` twin, which reads the true state, changes its choice at many of them."""
    params = append_table(np.array([2.0]), [(ITERATIONS, 0.7, 1.0)] * players)
    space = search.new_search_space()
    rng = np.random.default_rng(players)
    decisions = changed = 0
    kinds = set()
    for index in range(3 if players == 2 else 2):
        search.set_key(space, np.uint64(11), index)
        for kind, seat, g, deck in decision_states(11, index, players):
            other_deck = new_state()
            seed_stream(other_deck, np.uint64(999), decisions, 0)
            for attempt in range(2):
                g2 = redeal(g, seat, rng)
                assert decide(kind, g, seat, False, params, space, deck) == decide(
                    kind, g2, seat, False, params, space, other_deck if attempt else deck
                ), f"ismcts peeked: game {index}, {'play' if kind == 0 else 'discard'} of seat {seat}"
            true_move = decide(kind, g, seat, True, params, space, deck)
            changed += decide(kind, g2, seat, True, params, space, deck) != true_move
            decisions += 1
            kinds.add(kind)
    assert kinds == {search.KIND_PLAY, search.KIND_DISCARD}
    assert decisions > 40
    assert changed >= decisions // 10, f"omniscient changed {changed} of {decisions} choices"


def test_same_seed_same_search_and_the_seed_matters():
    """The decision stream is the game's (seed, index): the same key repeats a search exactly;
    another game index changes it (at a small iteration count, somewhere)."""
    params = append_table(np.array([2.0]), [(20, 0.7, 0.0)] * 2)
    space = search.new_search_space()
    differ = 0
    for kind, seat, g, deck in decision_states(5, 0, 2):
        if kind != search.KIND_PLAY:
            continue
        search.set_key(space, np.uint64(5), 0)
        first = decide(kind, g, seat, False, params, space, deck)
        assert decide(kind, g, seat, False, params, space, deck) == first
        search.set_key(space, np.uint64(5), 1)
        differ += decide(kind, g, seat, False, params, space, deck) != first
    assert differ > 0


def test_run_time_parameters_and_labels():
    """Parameters come in the name or as strategy_params, label the seat, and are checked."""
    res = mc.simulate("parade", n=6, seed=3, players=2, strategies=["ismcts[30,1,0]", "greedy"])
    assert res.strategies == ["ismcts[30,1,0]", "greedy"]
    same = mc.simulate("parade", n=6, seed=3, players=2, strategies=["ismcts", "greedy"],
                       strategy_params=[[30, 1, 0], None])
    assert same.strategies == res.strategies and same.win_share == res.win_share
    assert SPEC.strategy_codes(2, ["omniscient"])[0] == "omniscient"
    assert SPEC.strategy_codes(1, "ismcts[5,0.5,1]")[0] == WeightedSeat("ismcts", (5.0, 0.5, 1.0))
    # the iterations alone: the other parameters take their defaults, and the label says them
    short = SPEC.strategy_codes(1, "ismcts[10]")[0]
    assert short == WeightedSeat("ismcts", (10.0,) + SPEC.seat_params["ismcts"].default[1:])
    with pytest.raises(mc.InputError, match="takes 1 to 3 weights"):
        mc.simulate("parade", n=2, seed=1, strategies=["ismcts[10,1,0,5]", "greedy"])


def test_trace_and_decisions_replay_the_run_game():
    """``trace`` and ``decisions`` play the very game the run played (same search streams),
    and every logged choice is legal."""
    seats = ["greedy", "ismcts[40,0.7,1]", "omniscient[40,0.7,0]"]
    res = mc.simulate("parade", n=4, seed=8, players=3, strategies=seats, keep_games=True)
    layout = SPEC.layout(3)
    for index in (0, 3):
        events = mc.trace("parade", seed=8, index=index, players=3, strategies=seats)
        outcome = events.attrs["outcome"]
        for column in layout.columns:
            assert outcome[column] == res.games.iloc[index][column], column
        logged = SPEC.decisions(8, index, 3, None, seats)
        assert all(0 <= d.choice < len(d.legal) for d in logged)
        plays = events.loc[events["event"] == "play"]
        assert len(logged) == len(plays) + 3


def test_head_to_head():
    """``ismcts`` (its defaults: 1,000 iterations, c = 0.7, random play-outs) beats ``greedy``
    and ``rollout`` over both seatings, the 95 % interval's lower bound above 50 %."""
    for opponent, n in (("greedy", 40), ("rollout", 40)):
        shares = []
        for seats in (["ismcts", opponent], [opponent, "ismcts"]):
            res = mc.simulate("parade", n=n, players=2, strategies=seats, seed=2024, keep_games=True)
            shares.append(res.games[f"win_{seats.index('ismcts')}"].to_numpy(float))
        shares = np.concatenate(shares)
        low = shares.mean() - 1.96 * shares.std(ddof=1) / np.sqrt(shares.size)
        assert low > 0.5, f"ismcts vs {opponent}: {shares.mean():.3f}, lower bound {low:.3f}"

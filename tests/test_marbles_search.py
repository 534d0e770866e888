"""Joker Marbles' tree searches (montecards/games/marbles/search.py): ``ismcts`` never peeks,
its ``omniscient`` twin does, both play through the engine like any built-in (simulate, trace,
decision log, reproducibly for any jobs and chunk size), teams share, bad parameters are one
line."""

from __future__ import annotations

import numpy as np
import pytest

import montecards as mc
from montecards.engine.weights import WeightedSeat, append_table
from montecards.games.marbles import moves, rules, search
from montecards.games.marbles.game import SPEC, pack_params
from montecards.games.marbles.moves import gen_hand
from montecards.games.marbles.strategies import GREEDY, choose
from montecards.rng import new_state, seed_stream

NO_TRACE = np.zeros((0, rules.TRACE_WIDTH), np.int64)
ITERATIONS = 24
CUTOFF = 12


def decision_states(seed: int, index: int, players: int, teams: str, every: int):
    """Every ``every``-th decision of a game (all seats greedy) as ``(seat, owner, total, state,
    deck stream)``, the state and stream as they stand when the seat decides (its card drawn,
    its moves listed)."""
    packed = pack_params(players, SPEC.resolve_params(players, {"teams": teams}))
    g = np.zeros(moves.WORK_SIZE, np.int64)  # the rules' state, the strategies' and moves' space
    deck, choice = new_state(), new_state()
    seed_stream(deck, np.uint64(seed), index, 0)
    seed_stream(choice, np.uint64(seed), index, 1)
    rules.set_up(g, players, *(np.int64(v) for v in packed))
    rules.deal(g, players, deck, True, NO_TRACE)
    seat = turn = 0
    while True:
        g[rules.S_TURNS] = turn
        if g[rules.S_DRAWN] == g[rules.S_PILE_N]:
            rules.reshuffle_lazy(g)
        rules.hand_insert(g, seat, rules.draw_card(g, deck, True))
        owner = rules.mover(g, seat)
        total = gen_hand(g, seat, owner, 1)
        if turn % every == 0:
            yield seat, owner, total, g.copy(), deck.copy()
        slot, mv = choose(g, seat, GREEDY, total, choice)
        won = (rules.play_card(g, seat, owner, slot, mv, turn, NO_TRACE) if mv >= 0
               else rules.discard_card(g, seat, slot, turn, NO_TRACE))
        turn += 1
        if won:
            return
        seat = (seat + 1) % players


def redeal(g: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray:
    """``g`` with the cards ``seat`` cannot see (the other hands and the rest of the draw pile)
    dealt afresh, every hand size kept and every hand sorted: a state the seat cannot tell
    from ``g``."""
    out = g.copy()
    players = int(g[rules.S_PLAYERS])
    pile = [int(rules.pile_at(k)) for k in range(int(g[rules.S_DRAWN]), int(g[rules.S_PILE_N]))]
    hands = [[int(rules.hand_at(o, k)) for k in range(int(g[rules.hand_n_at(o)]))]
             for o in range(players) if o != seat]
    cards = rng.permutation(g[pile + [s for h in hands for s in h]])
    out[pile] = cards[: len(pile)]
    at = len(pile)
    for slots in hands:
        out[slots] = np.sort(cards[at : at + len(slots)])
        at += len(slots)
    return out


def distinct(g, seat, total) -> int:
    n = 0
    for k in range(int(g[rules.hand_n_at(seat)])):
        if rules.group_of(g, k) == k:
            n += rules.group_end(g, k) - rules.group_start(g, k) if total > 0 else 1
    return n


def decide(g, seat, owner, total, omniscient, params, space, deck):
    g = g.copy()
    before = g.copy()
    choice = search.choose_searched(g, seat, owner, total, omniscient, params, space, deck.copy())
    assert np.array_equal(g[: rules.O_MOVES], before[: rules.O_MOVES]), "the search changed the game"
    return tuple(int(c) for c in choice)


@pytest.mark.parametrize(("players", "teams"), [(2, "none"), (4, "pairs")])
def test_ismcts_never_peeks(players, teams):
    """At many decisions of several games, re-dealing what the seat cannot see (and handing it
    another deck stream) leaves ``ismcts``'s choice unchanged under the same seed; the
    ``omniscient`` twin, which reads the true state, changes its choice at some of them."""
    rows = [(ITERATIONS, 0.7, playout, CUTOFF) for playout in (1, 0, 2, 1, 0, 2)[:players]]
    params = append_table(np.zeros(7), rows)
    space = search.new_search_space()
    rng = np.random.default_rng(players)
    decisions = changed = discards = 0
    for index in range(2):
        search.set_key(space, np.uint64(11), index)
        for seat, owner, total, g, deck in decision_states(11, index, players, teams, 7):
            if distinct(g, seat, total) < 2:
                continue
            other_deck = new_state()
            seed_stream(other_deck, np.uint64(999), decisions, 0)
            first = decide(g, seat, owner, total, False, params, space, deck)
            for attempt in range(2):
                g2 = redeal(g, seat, rng)
                assert decide(g2, seat, owner, total, False, params, space,
                              other_deck if attempt else deck) == first, (
                    f"ismcts peeked: game {index}, turn {g[rules.S_TURNS]}, seat {seat}")
            true_move = decide(g, seat, owner, total, True, params, space, deck)
            changed += decide(g2, seat, owner, total, True, params, space, other_deck) != true_move
            decisions += 1
            discards += total == 0
    assert decisions > 30
    assert changed >= decisions // 4, f"omniscient changed {changed} of {decisions} choices"


def test_evaluate_shares_the_team_and_estimates_by_progress():
    """A finished game gives every seat of the winning team 1; a cut-off one gives the team
    with less distance to go the larger estimate, partners the same, summing to 1 per team."""
    packed = pack_params(4, SPEC.resolve_params(4, {"teams": "pairs"}))
    g = np.zeros(moves.WORK_SIZE, np.int64)  # the rules' state, the strategies' and moves' space
    rules.set_up(g, 4, *(np.int64(v) for v in packed))
    board = np.full((4, 5), rules.HOME, np.int64)
    board[0, 0] = 10  # team {0, 2} has a marble out
    rules.place_marbles(g, 4, board)
    shares, dist = np.zeros(6), np.zeros(6)
    search.evaluate(g, False, shares, dist)
    assert shares[0] == shares[2] > shares[1] == shares[3]
    assert shares[0] + shares[1] == pytest.approx(1.0)
    g[rules.winner_at(1)] = g[rules.winner_at(3)] = 1
    search.evaluate(g, True, shares, dist)
    assert shares[:4].tolist() == [0.0, 1.0, 0.0, 1.0]


SEATS = ["ismcts[20,0.7,1,10]", "greedy", "omniscient[20,0.7,0,10]", "tuned"]


def test_reproducible_for_any_jobs_and_chunks():
    one = mc.simulate("marbles", n=6, seed=5, players=4, strategies=SEATS, jobs=1, keep_games=True)
    two = mc.simulate("marbles", n=6, seed=5, players=4, strategies=SEATS, jobs=2, chunk_size=2,
                      keep_games=True)
    assert one.games.equals(two.games)
    other = mc.simulate("marbles", n=6, seed=6, players=4, strategies=SEATS, jobs=1, keep_games=True)
    assert not one.games.equals(other.games)


def test_run_time_parameters_labels_and_bad_ones():
    res = mc.simulate("marbles", n=3, seed=3, players=2, strategies=["ismcts[20,1,0,10]", "greedy"])
    assert res.strategies == ["ismcts[20,1,0,10]", "greedy"]
    same = mc.simulate("marbles", n=3, seed=3, players=2, strategies=["ismcts", "greedy"],
                       strategy_params=[[20, 1, 0, 10], None])
    assert same.strategies == res.strategies and same.win_share == res.win_share
    seat = WeightedSeat("omniscient", (5.0, 0.5, 2.0, 0.0))
    assert SPEC.strategy_codes(1, "omniscient[5,0.5,2,0]")[0] == seat
    short = SPEC.strategy_codes(1, "ismcts[10]")[0]
    assert short == WeightedSeat("ismcts", (10.0,) + SPEC.seat_params["ismcts"].default[1:])
    for bad, message in (("ismcts[10,1,0,5,1]", "takes 1 to 4 weights"), ("ismcts[10,0.7,3,0]", "playout must be"),
                         ("ismcts[0,0.7,1,0]", "iterations must be"),
                         ("ismcts[10,0.7,1,-1]", "cutoff must be"),
                         ("ismcts[10,-1,1,0]", "exploration must be")):
        with pytest.raises(mc.InputError, match=message):
            mc.simulate("marbles", n=2, seed=1, players=2, strategies=[bad, "greedy"])


def test_cli_bad_parameters_are_one_line(monkeypatch, capsys):
    import sys

    from montecards import cli

    monkeypatch.setattr(sys, "argv", ["montecards", "simulate", "marbles", "-n", "2", "-p", "2",
                                      "-s", "ismcts[10,0.7,5,0]", "-s", "greedy"])
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("error: ") and "playout must be" in err


def test_teams_play_and_trace_replays_the_run_game():
    """With teams the searching seat's partner shares its wins; ``trace`` and ``decisions``
    play the very game the run played (same search streams), every logged choice legal."""
    res = mc.simulate("marbles", n=3, seed=8, players=4, strategies=SEATS, params={"teams": "pairs"},
                      keep_games=True)
    games = res.games
    assert (games["win_0"] == games["win_2"]).all() and (games["win_1"] == games["win_3"]).all()
    layout = SPEC.layout(4)
    for index in (0, 2):
        events = mc.trace("marbles", seed=8, index=index, players=4, strategies=SEATS,
                          params={"teams": "pairs"})
        outcome = events.attrs["outcome"]
        for column in layout.columns:
            assert outcome[column] == games.iloc[index][column], column
        logged = SPEC.decisions(8, index, 4, {"teams": "pairs"}, SEATS)
        assert all(0 <= d.choice < len(d.legal) for d in logged)
        assert len(logged) == games.iloc[index]["turns"]

"""Joker Marbles: the kernel against the independent naive oracle (tests/naive/marbles.py), game
by game and board by board, plus hand-built boards for every card, conservation and bad input.

The oracle is slow, so most games of the comparison are cut short by ``max_turns`` (they end
unfinished, and every output still has to agree); a few per configuration are played out.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import montecards as mc
from montecards.engine.spec import InputError
from montecards.games import marbles
from montecards.games.marbles import SPEC
from tests.naive import marbles as naive

SEED = 20261130
HOME = ("home",)


def T(h):
    return ("track", h)


def C(k):
    return ("castle", k)


def card(rank, suit=0, deck=0):
    """Card id of the oracle's encoding: A = 1 .. K = 13 (rank 14: joker)."""
    if rank == 14:
        return 54 * deck + 52 + suit
    return 54 * deck + 13 * suit + rank - 1


JOKER = card(14)


def kernel_game(seed, index, players, strategies, params):
    events, row = marbles.trace(seed, index, players, params, strategies)
    script = marbles.script_from_trace(events, params=params)
    assert script["players"] == players
    return events, row, script["deck_orders"], script["decisions"]


def kernel_outcome(row, players):
    layout = SPEC.layout(players)
    return {
        "turns": int(row[0]),
        "unfinished": bool(row[1]),
        "win_share": [w / 60 for w in row[layout.seat_slice("win")].tolist()],
        "castle": row[layout.seat_slice("score")].tolist(),
        "bumps_made": row[layout.seat_slice("bumps_made")].tolist(),
        "bumps_suffered": row[layout.seat_slice("bumps_suffered")].tolist(),
        "discards": row[layout.seat_slice("discards")].tolist(),
    }


def oracle_outcome(out):
    return {key: out[key] for key in ("turns", "unfinished", "castle", "bumps_made",
                                      "bumps_suffered", "discards")} | {
        "win_share": [pytest.approx(w) for w in out["win_share"]]
    }


def oracle_params(params, players):
    resolved = SPEC.resolve_params(players, params)
    return naive.Params(decks=resolved["decks"], nine_split=resolved["nine_split"],
                        joker_from_track=resolved["joker_from_track"],
                        castle_entry=resolved["castle_entry"], max_turns=resolved["max_turns"])


def hands_before_each_turn(events, players):
    """Each turn's (seat, hand after the draw) from a kernel trace."""
    hands = [[] for _ in range(players)]
    out = []
    for ev in events.itertuples(index=False):
        if ev.event == "deal":
            hands[ev.seat].append(ev.card_id)
        elif ev.event == "draw":
            hands[ev.seat].append(ev.card_id)
            out.append((ev.seat, list(hands[ev.seat])))
        elif ev.event in ("play", "discard"):
            hands[ev.seat].remove(ev.card_id)
    return out


# --------------------------------------------------------------------------- game by game

G, A, R = "greedy", "aggressive", "random"
FULL = 20000
CASES = [
    # id, players, params, strategies (cycled over the seats), games, check choosers
    ("2p", 2, {}, [G], 8, False),
    ("2p-sides2", 2, {"sides": 2}, [G, A], 6, False),
    ("3p", 3, {}, [G, A, G], 5, False),
    ("4p", 4, {}, [G], 5, False),
    ("5p", 5, {}, [G, A], 3, False),
    ("6p", 6, {}, [G], 3, False),
    ("4p-pairs", 4, {"teams": "pairs"}, [G, A], 4, False),
    ("6p-pairs", 6, {"teams": "pairs"}, [G], 2, False),
    ("6p-two", 6, {"teams": "two"}, [A, G], 2, False),
    ("4p-variants", 4, {"nine_split": True, "joker_from_track": True, "decks": 2}, [G, A], 3, False),
    ("4p-optional", 4, {"castle_entry": "optional"}, [G], 3, False),
    # short games: max_turns cuts them, every output must still agree
    ("2p-short", 2, {"max_turns": 120}, [R, G], 90, True),
    ("3p-short", 3, {"max_turns": 100}, [R], 80, False),
    ("4p-short", 4, {"max_turns": 100}, [R, A, G, R], 100, True),
    ("5p-short", 5, {"max_turns": 90, "sides": 5}, [R], 70, False),
    ("6p-short", 6, {"max_turns": 90}, [R, G], 70, False),
    ("4p-pairs-short", 4, {"teams": "pairs", "max_turns": 100}, [R, G], 90, True),
    ("4p-two-short", 4, {"teams": "two", "max_turns": 100, "nine_split": True}, [R], 70, False),
    ("6p-pairs-short", 6, {"teams": "pairs", "max_turns": 90, "joker_from_track": True}, [R], 70,
     False),
    ("6p-two-short", 6, {"teams": "two", "max_turns": 90, "decks": 2}, [R, A], 70, False),
    ("4p-nine-short", 4, {"nine_split": True, "max_turns": 100}, [R, G], 70, True),
    ("4p-jft-short", 4, {"joker_from_track": True, "max_turns": 100}, [R], 60, False),
    ("4p-optional-short", 4, {"castle_entry": "optional", "max_turns": 100}, [R, A], 60, True),
    ("3p-all-short", 3, {"nine_split": True, "joker_from_track": True, "decks": 2,
                         "castle_entry": "optional", "sides": 6, "max_turns": 100}, [R], 60, False),
    # the board as parameters (issue 33): greedy's and aggressive's picks checked move by move
    ("4p-h12-short", 4, {"holes_per_side": 12, "max_turns": 100}, [R, G, A, G], 40, True),
    ("3p-h24-m4-short", 3, {"holes_per_side": 24, "marbles": 4, "max_turns": 100}, [G, A, R], 30, True),
    ("4p-pairs-m3-short", 4, {"teams": "pairs", "marbles": 3, "max_turns": 100}, [G, R], 30, True),
    ("2p-m3-h10", 2, {"marbles": 3, "holes_per_side": 10}, [G, A], 4, True),
    ("6p-two-m2-h36", 6, {"teams": "two", "marbles": 2, "holes_per_side": 36, "max_turns": 400}, [G, R], 3,
     False),
        # late-game team play: long random games reach finished players moving for a teammate
    ("4p-pairs-long", 4, {"teams": "pairs", "sides": 4}, [R], 6, False),
    ("6p-two-long", 6, {"teams": "two", "max_turns": 3000}, [G, R], 4, False),
]
assert sum(case[4] for case in CASES) >= 1000


@pytest.mark.parametrize("name,players,params,cycle,n_games,choosers", CASES,
                         ids=[c[0] for c in CASES])
def test_kernel_matches_naive_oracle(name, players, params, cycle, n_games, choosers):
    """Same deck orders (reshuffles included) and decisions -> identical turns, win shares,
    castles, bumps, discards and final boards; the scripted entry point agrees too. Where
    ``choosers`` is set, every greedy/aggressive decision is also the oracle chooser's."""
    strategies = [cycle[k % len(cycle)] for k in range(players)]
    oparams = oracle_params(params, players)
    resolved = SPEC.resolve_params(players, params)
    kw = {k: resolved[k] for k in ("teams", "sides", "decks", "nine_split", "joker_from_track",
                                   "castle_entry", "max_turns", "holes_per_side", "marbles")}
    reshuffles = 0
    for index in range(n_games):
        events, row, orders, decisions = kernel_game(SEED, index, players, strategies, params)
        reshuffles += len(orders) - 1
        out = naive.replay(orders, players, decisions, record_boards=choosers, **kw)
        assert kernel_outcome(row, players) == oracle_outcome(out), (name, index)
        scripted = marbles.play_scripted(**marbles.script_from_trace(events, params=params))
        assert scripted["final_positions"] == out["final_positions"]
        assert scripted["turns"] == out["turns"]
        if choosers:
            boards = [e["positions"] for e in out["events"] if e["type"] == "board"]
            board = naive.Board(players, resolved["sides"], resolved["teams"], resolved["holes_per_side"],
                                resolved["marbles"])
            empty = naive.State(board).snapshot()
            for turn, (seat, hand) in enumerate(hands_before_each_turn(events, players)):
                chooser = {G: naive.choose_greedy, A: naive.choose_aggressive}.get(strategies[seat])
                if chooser is None:
                    continue
                state = naive.State(board, boards[turn - 1] if turn else empty)
                expected = naive.normalize_move(tuple(chooser(state, seat, hand, oparams)))
                assert naive.normalize_move(decisions[turn]) == expected, (name, index, turn)
    if "short" not in name:
        assert reshuffles > 0


# --------------------------------------------------------------------------- board by board


def random_board(rng, players, sides, teams, holes_per_side=18, marbles=5):
    board = naive.Board(players, sides, teams, holes_per_side, marbles)
    L = board.track_len
    free = list(range(L))
    rng.shuffle(free)
    pos = []
    for _ in range(players):
        holes = list(range(1, marbles + 1))
        rng.shuffle(holes)
        row = []
        for _ in range(marbles):
            r = rng.random()
            if r < 0.3:
                row.append(HOME)
            elif r < 0.45:
                row.append(C(holes.pop()))
            else:
                h = free.pop()
                if rng.random() < 0.4:  # crowd the entries and come-out holes
                    near = (rng.choice(board.entry + board.come_out) + rng.randrange(-9, 4)) % L
                    if near in free:
                        free.remove(near)
                        free.append(h)
                        h = near
                row.append(T(h))
        pos.append(row)
    if teams != "none" and rng.random() < 0.3:  # a finished seat moves for its teammate
        pos[rng.randrange(players)] = [C(k) for k in range(1, marbles + 1)]
    return board, pos


@pytest.mark.parametrize("boards", ["official", "parameters"])
def test_move_generator_and_choosers_match_the_oracle_on_random_boards(boards):
    """Every (card, move) of random hands on random boards, in the same order, and the greedy
    and aggressive picks; a random legal move then gives the same board and bumps. ``boards``:
    the official board, or random ``holes_per_side`` and ``marbles``."""
    rng = random.Random(SEED if boards == "official" else SEED + 1)
    checked = moves = 0
    for _ in range(500):
        players = rng.choice([2, 3, 4, 4, 5, 6])
        teams = rng.choice(["none", "pairs", "two"]) if players in (4, 6) else "none"
        sides = rng.choice([None, None, players, 8])
        params = {
            "teams": teams, "decks": rng.choice([1, 1, 2]), "nine_split": rng.random() < 0.5,
            "joker_from_track": rng.random() < 0.5,
            "castle_entry": rng.choice(["auto", "optional"]),
        }
        if sides is not None:
            params["sides"] = sides
        holes_per_side, n_marbles = 18, 5
        if boards == "parameters":
            n_marbles = rng.choice([1, 2, 3, 4, 5])
            most = 216 // (sides or (4 if players <= 4 else 6))
            holes_per_side = rng.choice([10, 11, 12, 15, 24, min(36, most)])
            params |= {"holes_per_side": holes_per_side, "marbles": n_marbles}
        board, pos = random_board(rng, players, sides, teams, holes_per_side, n_marbles)
        state = naive.State(board, pos)
        seat = rng.randrange(players)
        if naive.mover(state, seat) is None:
            continue
        hand = rng.sample(range(54 * params["decks"]), 6)
        hand[0] = rng.choice([card(7), card(7, 1), card(9), card(8), JOKER, hand[0]])
        hand = list(dict.fromkeys(hand))
        oparams = oracle_params(params, players)
        strategy = rng.choice([G, A])
        got, pick = marbles.legal_moves(pos, players, seat, hand, params, strategy)
        assert marbles.legal_moves(pos, players, seat, hand, params) == got  # unscored list
        expected = naive.legal_choices(state, seat, hand, oparams)
        assert [(c, naive.normalize_move(m)) for c, m in got] == [
            (c, naive.normalize_move(tuple(m))) for c, m in expected
        ]
        chooser = naive.choose_greedy if strategy == G else naive.choose_aggressive
        assert naive.normalize_move(pick) == naive.normalize_move(
            tuple(chooser(state, seat, hand, oparams))
        )
        if got:
            _, move = rng.choice(got)
            new_pos, bumps = marbles.apply_move(pos, players, move, params)
            copy = state.copy()
            expected_bumps = naive.apply_move(copy, tuple(move))
            assert new_pos == copy.snapshot()
            assert bumps == [tuple(b) for b in expected_bumps]
        checked += 1
        moves += len(got)
    assert checked > 400 and moves > 5000


# --------------------------------------------------------------------------- hand-built boards


def moves_of(pos, c, players=4, seat=0, **params):
    return [m for card_id, m in marbles.legal_moves(pos, players, seat, [c], params)]


def board(players=4, **placed):
    """Positions with the given seats' marbles placed (``s0=[...]``), the rest at home."""
    pos = [[HOME] * 5 for _ in range(players)]
    for key, marbles_placed in placed.items():
        seat = int(key[1:])
        for m, p in enumerate(marbles_placed):
            pos[seat][m] = p
    return pos


def fwd(m, start, end, n, owner=0, kind="forward"):
    return (kind, owner, ((m, start, end, n),))


def test_geometry_and_come_out():
    # 4 players: come-out 18s + 8, entry 18s + 3; bringing out lands on the come-out hole
    for seat in range(4):
        assert moves_of(board(), card(1), seat=seat) == [
            ("out", seat, ((0, HOME, T(18 * seat + 8), 0),))
        ]
    # 2 players sit on sides 0 and 2; 5 players on 6 sides, seat = side
    assert moves_of(board(2), card(11), players=2, seat=1) == [("out", 1, ((0, HOME, T(44), 0),))]
    assert moves_of(board(5), card(13), players=5, seat=4) == [("out", 4, ((0, HOME, T(80), 0),))]
    # 2-6 cards cannot bring a marble out; the joker needs a target
    for r in (2, 3, 4, 5, 6, 7, 8, 9, 10, 14):
        assert moves_of(board(), card(r)) == []


def test_a_three_marble_board_of_twelve_holes_per_side():
    """``marbles`` 3, ``holes_per_side`` 12 (rules: Components and board): come-out 12s + 8,
    entry 12s + 3, a castle of 3 holes; a 5 overshoots it from 2 holes before the entry."""
    p = {"marbles": 3, "holes_per_side": 12}
    empty = [[HOME] * 3 for _ in range(4)]
    for seat in range(4):
        assert moves_of(empty, card(1), seat=seat, **p) == [("out", seat, ((0, HOME, T(12 * seat + 8), 0),))]
    pos = [[C(2), C(3), T(1)]] + [[HOME] * 3 for _ in range(3)]
    assert moves_of(pos, card(3), **p) == [fwd(2, T(1), C(1), 3)]
    assert moves_of(pos, card(5), **p) == [fwd(2, T(1), T(6), 5)]  # 5 > 2 + 3: around again
    assert moves_of(pos, card(4), **p) == [fwd(2, T(1), T(5), 4)]  # castle hole 2 taken: around
    with pytest.raises(ValueError, match="3 positions for each of 4 seats"):
        moves_of(board(), card(2), **p)
    with pytest.raises(ValueError, match=r"\('castle', 1..3\)"):
        moves_of([[C(4), HOME, HOME]] + empty[1:], card(2), **p)
    # the 3 completes the castle: the move that wins
    new, _ = marbles.apply_move(pos, 4, fwd(2, T(1), C(1), 3), p)
    assert sorted(new[0]) == [C(1), C(2), C(3)]


def test_a_three_marble_game_is_won_with_three_marbles_in_a_three_hole_castle():
    """Played games of ``marbles`` 3: every one finishes, the winner has its 3 marbles in
    castle holes 1..3 (the scripted replay's final board), the others fewer; the score
    (marbles in the castle) never exceeds 3."""
    params = {"marbles": 3}
    for index in range(6):
        events, row = marbles.trace(SEED, index, 3, params, [G, A, R])
        out = marbles.play_scripted(**marbles.script_from_trace(events, params=params))
        assert not out["unfinished"] and len(out["winner_seats"]) == 1
        winner = out["winner_seats"][0]
        assert sorted(out["final_positions"][winner]) == [C(1), C(2), C(3)]
        assert out["castle"][winner] == 3 and max(out["castle"]) == 3
        assert all(c < 3 for s, c in enumerate(out["castle"]) if s != winner)
        assert all(len(r) == 3 for r in out["final_positions"])
    res = mc.simulate("marbles", n=200, players=4, params=params, seed=5, jobs=1)
    assert res.unfinished == 0
    assert res.to_dict()["params"]["marbles"] == 3


def test_out_onto_own_marble_is_illegal_onto_another_bumps():
    assert moves_of(board(s0=[T(8)]), card(1)) == [fwd(0, T(8), T(9), 1)]
    pos = board(s0=[T(20)], s1=[T(8)])
    assert moves_of(pos, card(12)) == [("out", 0, ((1, HOME, T(8), 0),)), fwd(0, T(20), T(30), 10)]
    new, bumps = marbles.apply_move(pos, 4, ("out", 0, ((1, HOME, T(8), 0),)))
    assert new[1][0] == HOME and new[0][1] == T(8) and bumps == [(1, 0, 8, HOME)]


def test_no_passing_or_landing_on_own_marbles():
    pos = board(s0=[T(10), T(14)], s1=[T(12)])
    assert moves_of(pos, card(5)) == [fwd(1, T(14), T(19), 5)]  # marble 0 would pass 14
    assert moves_of(pos, card(4)) == [fwd(1, T(14), T(18), 4)]  # ... or land on it
    assert moves_of(pos, card(3)) == [fwd(0, T(10), T(13), 3), fwd(1, T(14), T(17), 3)]
    # passing another player's marble is fine, landing on it bumps it home
    assert fwd(0, T(10), T(12), 2) in moves_of(pos, card(2))
    _, bumps = marbles.apply_move(pos, 4, fwd(0, T(10), T(12), 2))
    assert bumps == [(1, 0, 12, HOME)]
    # backward 8: own marbles block too; wraps around hole 0
    assert moves_of(board(s0=[T(14), T(10)]), card(8)) == [("backward", 0, ((1, T(10), T(2), -8),))]
    assert moves_of(board(s0=[T(3)]), card(8)) == [("backward", 0, ((0, T(3), T(67), -8),))]


def test_exact_castle_fit_overshoot_and_blocked_castle():
    # marble 2 holes before its entry (hole 3): 3..7 go into castle 1..5, 10 goes around
    pos = board(s0=[T(1)])
    for n in (3, 4, 5, 6, 7):
        assert moves_of(pos, card(n)) == [fwd(0, T(1), C(n - 2), n)]
    assert moves_of(pos, card(2)) == [fwd(0, T(1), T(3), 2)]  # onto the entry itself
    assert moves_of(pos, card(10)) == [fwd(0, T(1), T(11), 10)]  # overshoot: around again
    # castle_entry=optional: castle end first, then the track end
    assert moves_of(pos, card(4), castle_entry="optional") == [
        fwd(0, T(1), C(2), 4), fwd(0, T(1), T(5), 4)
    ]
    # a castle marble in the way: the marble goes on around the track
    pos = board(s0=[T(1), C(2)])
    assert moves_of(pos, card(5)) == [fwd(0, T(1), T(6), 5)]
    assert moves_of(pos, card(3)) == [fwd(0, T(1), C(1), 3), fwd(1, C(2), C(5), 3)]
    # castle marbles move forward only, within the castle
    assert moves_of(board(s0=[C(1), C(3)]), card(2)) == [fwd(1, C(3), C(5), 2)]
    assert moves_of(board(s0=[C(1), C(3)]), card(8)) == []
    # an 8 just past the entry is the shortcut: the next forward move may enter
    pos = board(s0=[T(9)])
    assert moves_of(pos, card(8)) == [("backward", 0, ((0, T(9), T(1), -8),))]
    assert moves_of(board(s0=[T(1)]), card(6)) == [fwd(0, T(1), C(4), 6)]


def test_bumping_a_teammate_goes_to_its_entry_or_home():
    # 4 players in pairs: seat 2 is seat 0's partner, its entry is hole 39
    pos = board(s0=[T(30)], s2=[T(33)])
    _, bumps = marbles.apply_move(pos, 4, fwd(0, T(30), T(33), 3), {"teams": "pairs"})
    assert bumps == [(2, 0, 33, T(39))]
    # the entry is occupied (by anyone): home
    pos = board(s0=[T(30)], s1=[T(39)], s2=[T(33)])
    new, bumps = marbles.apply_move(pos, 4, fwd(0, T(30), T(33), 3), {"teams": "pairs"})
    assert bumps == [(2, 0, 33, HOME)] and new[1][0] == T(39)
    # the teammate stood on its entry: the mover lands there, so it goes home
    pos = board(s0=[T(30)], s2=[T(39), T(50)])
    _, bumps = marbles.apply_move(pos, 4, ("forward", 0, ((0, T(30), T(39), 9),)), {"teams": "pairs"})
    assert bumps == [(2, 0, 39, HOME)]
    # the mover leaves the teammate's entry: the bumped teammate may go there
    pos = board(s0=[T(39)], s2=[T(44)])
    _, bumps = marbles.apply_move(pos, 4, fwd(0, T(39), T(44), 5), {"teams": "pairs"})
    assert bumps == [(2, 0, 44, T(39))]
    # without teams the same marble is an opponent's: home
    _, bumps = marbles.apply_move(pos, 4, fwd(0, T(39), T(44), 5))
    assert bumps == [(2, 0, 44, HOME)]


def test_joker_targets():
    pos = board(s0=[T(5)], s1=[T(30), C(1)], s2=[T(12)], s3=[HOME])
    assert moves_of(pos, JOKER) == [
        ("joker", 0, ((1, HOME, T(12), 0),)), ("joker", 0, ((1, HOME, T(30), 0),))
    ]
    # teammates are targets too; no home marble: no joker move unless joker_from_track
    full = board(s0=[T(5), T(6), T(7), C(1), C(2)], s2=[T(40)])
    assert moves_of(full, JOKER, teams="pairs") == []
    assert moves_of(full, JOKER, teams="pairs", joker_from_track=True) == [
        ("joker", 0, ((m, T(5 + m), T(40), 0),)) for m in range(3)
    ]
    # the joker passes anything, own marbles included
    pos = board(s0=[T(10), T(11)], s1=[T(12)])
    assert moves_of(pos, JOKER) == [("joker", 0, ((2, HOME, T(12), 0),))]


def test_seven_split():
    pos = board(s0=[T(20), T(40)])
    got = moves_of(pos, card(7))
    assert got[:2] == [fwd(0, T(20), T(27), 7), fwd(1, T(40), T(47), 7)]
    splits = got[2:]
    assert len(splits) == 12  # 2 orders x first part 1..6
    assert splits[0] == ("split7", 0, ((0, T(20), T(21), 1), (1, T(40), T(46), 6)))
    # the second part sees the first: a marble moved in front blocks the other one
    pos = board(s0=[T(20), T(25)])
    got = moves_of(pos, card(7))
    assert ("split7", 0, ((1, T(25), T(26), 1), (0, T(20), T(26), 6))) not in got
    assert ("split7", 0, ((1, T(25), T(27), 2), (0, T(20), T(25), 5))) in got
    # one marble out: no split; a castle marble may take a part
    assert [m[0] for m in moves_of(board(s0=[T(20)]), card(7))] == ["forward"]
    got = moves_of(board(s0=[T(20), C(1)]), card(7))
    assert ("split7", 0, ((1, C(1), C(5), 4), (0, T(20), T(23), 3))) in got
    # both parts may bump
    pos = board(s0=[T(20), T(40)], s1=[T(22), T(45)])
    move = ("split7", 0, ((0, T(20), T(22), 2), (1, T(40), T(45), 5)))
    assert move in moves_of(pos, card(7))
    _, bumps = marbles.apply_move(pos, 4, move)
    assert bumps == [(1, 0, 22, HOME), (1, 1, 45, HOME)]


def test_nine_split_only_as_a_variant():
    pos = board(s0=[T(20), T(40)])
    assert moves_of(pos, card(9)) == [fwd(0, T(20), T(29), 9), fwd(1, T(40), T(49), 9)]
    got = moves_of(pos, card(9), nine_split=True)
    assert ("split9", 0, ((0, T(20), T(21), 1), (1, T(40), T(32), -8))) in got
    assert len(got) == 2 + 16
    # the backward part moves a track marble only
    got = moves_of(board(s0=[T(20), C(1)]), card(9), nine_split=True)
    assert ("split9", 0, ((1, C(1), C(2), 1), (0, T(20), T(12), -8))) in got
    assert all(m[2][1][0] == 0 for m in got if m[0] == "split9")


def test_finished_player_moves_for_its_teammate():
    done = [C(k) for k in range(1, 6)]
    pos = board(s0=done, s2=[T(50)])
    assert moves_of(pos, card(2), teams="pairs") == [("forward", 2, ((0, T(50), T(52), 2),))]
    assert moves_of(pos, card(1), teams="pairs") == [
        ("out", 2, ((1, HOME, T(44), 0),)), ("forward", 2, ((0, T(50), T(51), 1),))
    ]
    # "own" marbles are the teammate's: the joker's home source and its targets
    assert moves_of(board(s0=done, s1=[T(60)], s2=[T(50)]), JOKER, teams="pairs") == [
        ("joker", 2, ((1, HOME, T(60), 0),))
    ]


def test_greedy_tie_rules():
    # J and K make the same moves: greedy plays the lower rank (J) even with a higher id
    pos = board(s0=[T(20)])
    k_club, j_diamond = card(13, 0), card(11, 1)
    _, pick = marbles.legal_moves(pos, 4, 0, [k_club, j_diamond], {}, G)
    assert pick[1] == j_diamond
    # no legal move: discard the lowest rank
    _, pick = marbles.legal_moves(board(), 4, 0, [card(5), card(3, 2), card(9)], {}, G)
    assert pick == ("discard", card(3, 2))
    # aggressive weighs bumps 3x
    pos = board(s0=[T(20), T(30)], s1=[T(22)])  # bumping it costs seat 1 only 6 holes
    _, greedy = marbles.legal_moves(pos, 4, 0, [card(2), card(10)], {}, G)
    _, aggressive = marbles.legal_moves(pos, 4, 0, [card(2), card(10)], {}, A)
    assert greedy == ("play", card(10), fwd(1, T(30), T(40), 10))
    assert aggressive == ("play", card(2), fwd(0, T(20), T(22), 2))


# --------------------------------------------------------------------------- conservation


def check_board(pos, L):
    track = [p[1] for row in pos for p in row if p[0] == "track"]
    assert len(track) == len(set(track)) and all(0 <= h < L for h in track)
    for row in pos:
        assert len(row) == 5
        ks = [p[1] for p in row if p[0] == "castle"]
        assert len(ks) == len(set(ks)) and all(1 <= k <= 5 for k in ks)


def replay_trace(events, players, sides, n_cards):
    """Walk a kernel trace, checking that every step starts where its marble stands and every
    bump takes the marble found on that hole, and before each draw: 5 marbles per seat, one
    marble per hole and per castle hole, 5 cards per hand and every card somewhere."""
    parse = marbles.game._parse_position
    L = 18 * sides
    pos = [[HOME] * 5 for _ in range(players)]
    hands = [[] for _ in range(players)]
    draw_left = n_cards
    discard = 0
    for ev in events.itertuples(index=False):
        if ev.event == "draw":
            check_board(pos, L)
            assert all(len(h) == 5 for h in hands)
            assert sum(len(h) for h in hands) + draw_left + discard == n_cards
        if ev.event in ("deal", "draw"):
            hands[ev.seat].append(ev.card_id)
            draw_left -= 1
            assert draw_left >= 0
        elif ev.event == "reshuffle":
            assert draw_left == 0 and ev.count == discard
            draw_left, discard = discard, 0
        elif ev.event in ("play", "discard"):
            hands[ev.seat].remove(ev.card_id)
            discard += 1
        elif ev.event in ("step", "bump"):
            assert parse(ev.start) == pos[ev.owner][ev.marble]
            if ev.event == "bump":
                assert parse(ev.end) in (HOME, T(18 * (ev.owner * sides // players) + 3))
            pos[ev.owner][ev.marble] = parse(ev.end)
    check_board(pos, L)
    assert all(len(h) == 5 for h in hands)
    assert sum(len(h) for h in hands) + draw_left + discard == n_cards
    return pos


@pytest.mark.parametrize("players,params,strategy", [
    (2, {}, R), (3, {"decks": 2}, A), (4, {"teams": "pairs"}, R), (4, {}, G),
    (5, {"nine_split": True, "joker_from_track": True}, R), (6, {"teams": "two"}, G),
    (6, {"castle_entry": "optional", "sides": 9}, R),
])
def test_marble_and_card_conservation(players, params, strategy):
    resolved = SPEC.resolve_params(players, params)
    for index in range(12):
        events, row = marbles.trace(SEED, index, players, params, [strategy])
        pos = replay_trace(events, players, resolved["sides"], 54 * resolved["decks"])
        castle = [sum(p[0] == "castle" for p in r) for r in pos]
        assert castle == kernel_outcome(row, players)["castle"]
        outcome = kernel_outcome(row, players)
        assert sum(outcome["bumps_made"]) == sum(outcome["bumps_suffered"]) == row[2]
        assert sum(outcome["discards"]) == row[3]
        if not outcome["unfinished"]:
            assert sum(outcome["win_share"]) == pytest.approx(1)


def test_unfinished_games_are_counted_without_win_shares():
    res = mc.simulate("marbles", n=50, players=4, params={"max_turns": 60}, seed=3, jobs=1,
                      keep_games=True)
    assert res.unfinished == 50
    assert (res.games[[f"win_{k}" for k in range(4)]].to_numpy() == 0).all()
    assert (res.games["turns"] == 60).all()


def test_default_games_finish():
    res = mc.simulate("marbles", n=2000, players=4, seed=11, jobs=2)
    assert res.unfinished <= 2  # < 0.1 %
    teams = mc.simulate("marbles", n=300, players=6, params={"teams": "two"}, seed=11, jobs=2,
                        keep_games=True)
    shares = teams.games[[f"win_{k}" for k in range(6)]].to_numpy()
    finished = shares.sum(axis=1) > 0
    assert np.allclose(shares[finished].sum(axis=1), 1)
    # a team of three: 1/3 each to seats 0, 2, 4 or 1, 3, 5
    assert np.allclose(shares[finished][:, 0], shares[finished][:, 2])


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("players,params,needle", [
    (3, {"teams": "pairs"}, "teams=pairs needs 4 or 6 players"),
    (5, {"teams": "two"}, "teams=two needs 4 or 6 players"),
    (4, {"teams": "trios"}, "teams must be one of none, pairs, two"),
    (4, {"sides": 3}, "sides must be from 4"),
    (4, {"sides": 13}, "to 12"),
    (4, {"sides": "x"}, "invalid value 'x' for parameter sides"),
    (4, {"decks": 0}, "decks must be from 1 to 4"),
    (4, {"decks": 2.5}, "decks must be an integer"),
    (4, {"nine_split": "maybe"}, "invalid value 'maybe' for parameter nine_split"),
    (4, {"joker_from_track": 1}, "joker_from_track must be true or false"),
    (4, {"castle_entry": "never"}, "castle_entry must be one of auto, optional"),
    (4, {"max_turns": 0}, "max_turns must be from 1"),
    (4, {"holes_per_side": 9}, "holes_per_side must be from 10 to 36, got 9"),
    (4, {"holes_per_side": 37}, "holes_per_side must be from 10 to 36, got 37"),
    (4, {"holes_per_side": "x"}, "invalid value 'x' for parameter holes_per_side"),
    (4, {"sides": 12, "holes_per_side": 19},
     r"sides x holes_per_side must be at most 216 track holes, got 12 x 19"),
    (4, {"marbles": 0}, "marbles must be from 1 to 5, got 0"),
    (4, {"marbles": 6}, "marbles must be from 1 to 5, got 6"),
    (4, {"marbles": 2.5}, "marbles must be an integer"),
    (4, {"no_such": 1}, "unknown parameter 'no_such'"),
])
def test_bad_parameters_are_refused(players, params, needle):
    with pytest.raises(InputError, match=needle) as err:
        mc.simulate("marbles", n=10, players=players, params=params, seed=1)
    assert "\n" not in str(err.value)


def test_text_parameters_are_parsed():
    resolved = SPEC.resolve_params(6, {"teams": "pairs", "nine_split": "yes", "decks": "2",
                                       "castle_entry": "optional", "max_turns": "500"})
    assert resolved == {"teams": "pairs", "sides": 6, "holes_per_side": 18, "marbles": 5, "decks": 2,
                        "nine_split": True, "joker_from_track": False, "castle_entry": "optional",
                        "max_turns": 500}


def test_illegal_scripts_raise_value_error():
    params = {"max_turns": 40}
    _, _, orders, decisions = kernel_game(SEED, 1, 4, [G], params)
    assert len(orders) == 2  # the draw pile runs out at turn 34
    marbles.play_scripted(orders, 4, decisions, params)
    t = next(k for k, d in enumerate(decisions) if d[0] == "play")
    played, (kind, owner, steps) = decisions[t][1], decisions[t][2]

    def fails(match, orders=orders, decisions=decisions):
        with pytest.raises(ValueError, match=match):
            marbles.play_scripted(orders, 4, decisions, params)

    def at(k, decision):
        return decisions[:k] + [decision] + decisions[k + 1:]

    fails("turn 0: card not in that seat's hand", decisions=at(0, ("discard", orders[0][5])))
    fails(f"turn {t}: discard although a legal move exists", decisions=at(t, ("discard", played)))
    marble, start, end, count = steps[0]
    wrong = ("castle", 5) if end != ("castle", 5) else ("track", 0)
    fails(f"turn {t}: illegal move for that card",
          decisions=at(t, ("play", played, (kind, owner, ((marble, start, wrong, count),) + steps[1:]))))
    fails(f"turn {t}: illegal move", decisions=at(t, ("play", played, (kind, 1 - owner, steps))))
    fails("turn 0: decision must be", decisions=at(0, ("pass",)))
    fails("turn 0: bad move", decisions=at(0, ("play", played, ("fly", 0, ()))))
    fails("ran out of decisions", decisions=decisions[:-1])
    fails("more decisions given than turns played", decisions=decisions + [decisions[-1]])
    fails("deck order must be a permutation", orders=[orders[0][:-1]] + orders[1:])
    fails("more reshuffle orders given than reshuffles", orders=orders + [[1, 2, 3]])
    fails("no further deck order", orders=orders[:1])
    bad = [list(o) for o in orders]
    bad[1][0] = bad[1][1]
    fails("not a permutation of the discard pile", orders=bad)
    with pytest.raises(InputError):
        marbles.play_scripted(orders, 4, decisions, {"teams": "trios"})


def test_bad_boards_are_refused():
    with pytest.raises(ValueError, match="two marbles on one track hole"):
        marbles.legal_moves(board(s0=[T(3), T(3)]), 4, 0, [card(2)])
    with pytest.raises(ValueError, match="two marbles of seat 1 in one castle hole"):
        marbles.apply_move(board(s1=[C(2), C(2)]), 4, fwd(0, HOME, T(8), 0, kind="out"))
    with pytest.raises(ValueError, match="bad position"):
        marbles.legal_moves(board(s0=[T(72)]), 4, 0, [card(2)])
    with pytest.raises(ValueError, match="5 positions for each of 4 seats"):
        marbles.legal_moves(board(3), 4, 0, [card(2)])


def test_trace_is_readable_and_matches_the_run():
    res = mc.simulate("marbles", n=5, players=3, strategies=["greedy", "random", "aggressive"],
                      seed=9, jobs=1, keep_games=True)
    events = mc.trace("marbles", seed=9, index=4, players=3,
                      strategies=["greedy", "random", "aggressive"])
    assert events.attrs["outcome"] == res.games.iloc[4].to_dict()
    assert set(events["event"]) >= {"deal", "draw", "play", "step"}
    steps = events[events["event"] == "step"]
    assert steps["start"].str.match(r"^(home|track \d+|castle [1-5])$").all()
    assert (events.loc[events["event"] == "deal", "turn"] == -1).all()


def test_castle_masks_name_the_holes():
    """``rules.castle_holes`` / ``castle_bit`` against their plain reading."""
    from montecards.games.marbles import rules

    for lo in range(0, 6):
        for hi in range(lo, 6):
            assert rules.castle_holes(lo, hi) == sum(1 << k for k in range(lo + 1, hi + 1))
    for k in range(1, 6):
        assert rules.castle_bit(rules.CASTLE0 + k) == 1 << k


def test_a_full_trace_buffer_is_an_error_not_a_cut():
    from montecards.games.marbles import game, rules

    buffer = np.zeros((4, rules.TRACE_WIDTH), np.int64)
    for k in range(5):
        rules.record(buffer, rules.EV_DRAW, k, 0, k, -1, -1, -1, -1, 0)
    assert buffer[0, 0] == 5 and buffer[1:, 3].tolist() == [0, 1, 2]
    with pytest.raises(RuntimeError, match="5 trace events"):
        game._trace_frame(buffer, 1)


@pytest.mark.parametrize("args,message", [
    (["--param", "marbles=6"], "error: parameter marbles must be from 1 to 5, got 6"),
    (["--param", "holes_per_side=9"], "error: parameter holes_per_side must be from 10 to 36, got 9"),
    (["--param", "sides=12", "--param", "holes_per_side=20"],
     "error: parameters sides x holes_per_side must be at most 216 track holes, got 12 x 20 = 240"),
    (["--param", "marbles=3", "--luck"], "--luck is not exact under --param marbles"),
])
def test_the_cli_refuses_a_bad_board_in_one_line_with_exit_2(args, message):
    """The board parameters' domains (and the luck ledger, fitted on the official board) from
    the command line: exit status 2, one line."""
    from tests.inprocess import run_main

    out = run_main("simulate", "marbles", "-n", "5", *args)
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], out.stderr

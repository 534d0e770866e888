"""Unit and self-consistency tests of the naive Joker Marbles oracle (tests/naive/marbles.py)."""

import random

import pytest

from tests.naive import marbles as M
from tests.naive.marbles import HOME, Board, Move, State, Step, castle, legal_moves, track

JOKER = 52


def card(rank, suit=0, deck=0):
    return 54 * deck + 13 * suit + rank - 1


def mk(players=4, placements=None, sides=None, teams="none"):
    """State with the given marbles placed: {seat: [pos, ...]} (rest at home)."""
    board = Board(players, sides, teams)
    st = State(board)
    for seat, poss in (placements or {}).items():
        for m, p in enumerate(poss):
            st.pos[seat][m] = p
    return st


def ends(moves):
    return [tuple(s.end for s in mv.steps) for mv in moves]


def fwd(owner, m, start, end, n):
    return Move("forward", owner, (Step(m, start, end, n),))


P = M.Params()
OPT = M.Params(castle_entry="optional")


# --------------------------------------------------------------------------- cards, geometry

def test_card_ids_and_ranks():
    assert M.card_rank(0) == 1 and M.card_rank(12) == 13 and M.card_rank(13) == 1
    assert M.card_rank(51) == 13 and M.card_rank(52) == 14 and M.card_rank(53) == 14
    assert M.card_rank(54) == 1 and M.card_rank(107) == 14
    assert M.card_suit(13 * 2 + 4) == 2 and M.card_suit(53) is None
    assert M.is_joker(106) and not M.is_joker(51)


def test_geometry_four_players():
    b = Board(4)
    assert b.sides == 4 and b.track_len == 72
    assert b.come_out == [8, 26, 44, 62] and b.entry == [3, 21, 39, 57]
    for k in range(4):
        assert (b.entry[k] - b.come_out[k]) % b.track_len == 18 * 4 - 5 == b.travel()


@pytest.mark.parametrize("players,sides,expected", [
    (2, None, [0, 2]), (3, None, [0, 1, 2]), (4, None, [0, 1, 2, 3]),
    (5, None, [0, 1, 2, 3, 4]), (6, None, [0, 1, 2, 3, 4, 5]), (5, 8, [0, 1, 3, 4, 6]),
    (2, 2, [0, 1]),
])
def test_sides(players, sides, expected):
    b = Board(players, sides)
    assert b.side == expected
    assert b.sides == (sides or (4 if players <= 4 else 6))
    for k in range(players):
        assert (b.entry[k] - b.come_out[k]) % b.track_len == 18 * b.sides - 5


def test_teams():
    assert Board(4, teams="pairs").teams == [(0, 2), (1, 3)]
    assert Board(4, teams="two").teams == [(0, 2), (1, 3)]
    assert Board(6, teams="pairs").teams == [(0, 3), (1, 4), (2, 5)]
    assert Board(6, teams="two").teams == [(0, 2, 4), (1, 3, 5)]
    assert Board(3).teams == [(0,), (1,), (2,)]
    b = Board(6, teams="pairs")
    assert b.is_teammate(1, 4) and not b.is_teammate(1, 1) and b.is_opponent(1, 2)
    for bad in [dict(players=3, teams="pairs"), dict(players=5, teams="two"),
                dict(players=4, sides=3), dict(players=7), dict(players=4, teams="x")]:
        with pytest.raises(ValueError):
            Board(bad.pop("players"), **bad)


def test_remaining_distance():
    b = Board(4)
    assert M.remaining_distance(HOME, 0, b) == 82
    assert M.remaining_distance(track(8), 0, b) == 67 + 5
    assert M.remaining_distance(track(3), 0, b) == 5
    assert M.remaining_distance(track(2), 0, b) == 6
    assert M.remaining_distance(track(22), 1, b) == 76
    assert M.remaining_distance(castle(1), 0, b) == 4
    assert M.remaining_distance(castle(5), 0, b) == 0


# --------------------------------------------------------------------------- A, J/Q/K, out

def test_ace_out_from_empty_board():
    st = mk()
    assert legal_moves(st, 0, card(1), P) == [Move("out", 0, (Step(0, HOME, track(8), 0),))]
    for r in range(2, 11):
        assert legal_moves(st, 0, card(r), P) == []
    assert legal_moves(st, 0, JOKER, P) == []  # no target


def test_out_onto_own_marble_is_illegal():
    st = mk(placements={0: [track(8)]})
    assert legal_moves(st, 0, card(1), P) == [fwd(0, 0, track(8), track(9), 1)]
    assert legal_moves(st, 0, card(13), P) == [fwd(0, 0, track(8), track(18), 10)]


def test_out_bumps_other_marble_on_come_out():
    st = mk(placements={0: [track(20)], 1: [track(8)]})
    mv = legal_moves(st, 0, card(11), P)
    assert mv == [Move("out", 0, (Step(1, HOME, track(8), 0),)),
                  fwd(0, 0, track(20), track(30), 10)]
    bumps = M.apply_move(st, mv[0])
    assert bumps == [(1, 0, 8, HOME)]
    assert st.pos[0][1] == track(8) and st.pos[1][0] == HOME


def test_out_onto_teammate_sends_it_to_its_entry():
    st = mk(placements={2: [track(8)]}, teams="pairs")
    mv = legal_moves(st, 0, card(12), P)
    assert mv == [Move("out", 0, (Step(0, HOME, track(8), 0),))]
    assert M.apply_move(st, mv[0]) == [(2, 0, 8, track(39))]


# --------------------------------------------------------------------------- passing / blocking

def test_cannot_pass_or_land_on_own_marbles():
    st = mk(placements={0: [track(10), track(12)]})
    assert legal_moves(st, 0, card(3), P) == [fwd(0, 1, track(12), track(15), 3)]
    assert legal_moves(st, 0, card(2), P) == [fwd(0, 1, track(12), track(14), 2)]
    assert legal_moves(st, 0, card(1), P) == [
        Move("out", 0, (Step(2, HOME, track(8), 0),)),
        fwd(0, 0, track(10), track(11), 1), fwd(0, 1, track(12), track(13), 1)]


def test_passing_other_marbles_is_allowed_and_landing_bumps():
    st = mk(placements={0: [track(10)], 1: [track(11)], 2: [track(14)]})
    assert legal_moves(st, 0, card(5), P) == [fwd(0, 0, track(10), track(15), 5)]
    mv = legal_moves(st, 0, card(4), P)
    assert mv == [fwd(0, 0, track(10), track(14), 4)]
    assert M.apply_move(st, mv[0]) == [(2, 0, 14, HOME)]


def test_wraparound_track():
    st = mk(placements={0: [track(70)]})  # d = (3 - 70) % 72 = 5
    assert ends(legal_moves(st, 0, card(4), P)) == [(track(2),)]
    assert ends(legal_moves(st, 0, card(5), P)) == [(track(3),)]
    assert ends(legal_moves(st, 0, card(6), P)) == [(castle(1),)]


def test_come_out_holes_are_not_protected():
    # R5: an opponent on its own come-out hole can be passed and bumped
    st = mk(placements={0: [track(20)], 1: [track(26)]})
    assert ends(legal_moves(st, 0, card(10), P)) == [(track(30),)]
    mv = legal_moves(st, 0, card(6), P)
    assert M.apply_move(st, mv[0]) == [(1, 0, 26, HOME)]


# --------------------------------------------------------------------------- castle

def test_exact_castle_fit_and_overshoot():
    st = mk(placements={0: [track(1)]})  # d = 2
    assert ends(legal_moves(st, 0, card(2), P)) == [(track(3),)]  # onto the entry
    assert ends(legal_moves(st, 0, card(3), P)) == [(castle(1),)]
    assert ends(legal_moves(st, 0, card(5), P)) == [(castle(3),)]
    assert ends(legal_moves(st, 0, card(7), P)) == [(castle(5),)]
    assert ends(legal_moves(st, 0, card(9), P)) == [(track(10),)]  # overshoot goes around
    assert ends(legal_moves(st, 0, card(10), P)) == [(track(11),)]
    assert ends(legal_moves(st, 0, card(13), P)) == [(track(8),), (track(11),)]
    assert ends(legal_moves(st, 0, card(6), P)) == [(castle(4),)]


def test_castle_entry_optional_lists_both():
    st = mk(placements={0: [track(1)]})
    assert ends(legal_moves(st, 0, card(5), OPT)) == [(castle(3),), (track(6),)]
    assert ends(legal_moves(st, 0, card(9), OPT)) == [(track(10),)]
    assert ends(legal_moves(st, 0, card(5), {"castle_entry": "optional"})) == \
        [(castle(3),), (track(6),)]


def test_marble_on_its_entry_may_enter():
    st = mk(placements={0: [track(3)]})
    mv = legal_moves(st, 0, card(1), P)
    assert mv[0].kind == "out" and ends(mv[1:]) == [(castle(1),)]
    assert ends(legal_moves(st, 0, card(5), P)) == [(castle(5),)]
    assert ends(legal_moves(st, 0, card(6), P)) == [(track(9),)]


def test_blocked_castle_goes_around():
    st = mk(placements={0: [track(1), castle(2)]})
    assert ends(legal_moves(st, 0, card(3), P))[0] == (castle(1),)
    # 4 would land on own castle 2, 5 would pass it: the marble stays on the track
    assert (track(5),) in ends(legal_moves(st, 0, card(4), P))
    assert (castle(2),) not in ends(legal_moves(st, 0, card(4), P))
    assert legal_moves(st, 0, card(5), P) == [fwd(0, 0, track(1), track(6), 5)]
    assert legal_moves(st, 0, card(5), OPT) == [fwd(0, 0, track(1), track(6), 5)]
    # the castle marble itself: 1..3 steps, never beyond hole 5
    assert ends(legal_moves(st, 0, card(3), P)) == [(castle(1),), (castle(5),)]
    assert (castle(3),) in ends(legal_moves(st, 0, card(1), P))
    # track route blocked too -> no move at all for that marble
    st2 = mk(placements={0: [track(1), castle(2), track(6)]})
    assert [m for m in legal_moves(st2, 0, card(5), P) if m.steps[0].marble == 0] == []


def test_castle_marbles_block_each_other():
    st = mk(placements={0: [castle(2), castle(4)]})
    assert ends(legal_moves(st, 0, card(1), P)) == [(track(8),), (castle(3),), (castle(5),)]
    assert legal_moves(st, 0, card(2), P) == []
    assert legal_moves(st, 0, card(8), P) == []  # 8 never moves castle marbles


def test_own_track_marble_before_entry_blocks_castle_route():
    st = mk(placements={0: [track(0), track(2)]})  # marble 1 on the way to the entry
    assert [m for m in legal_moves(st, 0, card(5), P) if m.steps[0].marble == 0] == []


# --------------------------------------------------------------------------- bumping teammates

def test_bump_teammate_goes_to_its_entry():
    st = mk(placements={0: [track(30)], 2: [track(35)]}, teams="pairs")
    mv = legal_moves(st, 0, card(5), P)
    assert M.apply_move(st, mv[0]) == [(2, 0, 35, track(39))]


def test_bump_teammate_with_occupied_entry_goes_home():
    st = mk(placements={0: [track(30)], 2: [track(35)], 1: [track(39)]}, teams="pairs")
    mv = legal_moves(st, 0, card(5), P)
    assert M.apply_move(st, mv[0]) == [(2, 0, 35, HOME)]
    assert st.pos[1][0] == track(39)


def test_bump_teammate_standing_on_its_entry_goes_home():
    st = mk(placements={0: [track(34)], 2: [track(39)]}, teams="pairs")
    mv = legal_moves(st, 0, card(5), P)
    assert M.apply_move(st, mv[0]) == [(2, 0, 39, HOME)]
    assert st.pos[0][0] == track(39)


def test_bump_opponent_goes_home_in_team_play():
    st = mk(placements={0: [track(30)], 1: [track(35)]}, teams="pairs")
    assert M.apply_move(st, legal_moves(st, 0, card(5), P)[0]) == [(1, 0, 35, HOME)]


def test_teammate_marble_is_not_own_for_blocking():
    st = mk(placements={0: [track(30)], 2: [track(32)]}, teams="pairs")
    assert ends(legal_moves(st, 0, card(5), P)) == [(track(35),)]


# --------------------------------------------------------------------------- joker

def test_joker_targets():
    st = mk(placements={0: [track(20)], 1: [track(30), track(26)], 2: [castle(1)], 3: [track(5)]})
    mv = legal_moves(st, 0, JOKER, P)
    assert [m.steps[0].end for m in mv] == [track(5), track(26), track(30)]
    assert all(m.kind == "joker" and m.steps[0].marble == 1 and m.steps[0].start == HOME
               for m in mv)
    assert M.apply_move(st, mv[2]) == [(1, 0, 30, HOME)]
    assert st.pos[0][1] == track(30)


def test_joker_needs_home_marble_unless_from_track():
    st = mk(placements={0: [track(20), track(21), track(22), castle(1), castle(2)],
                        1: [track(40)]})
    assert legal_moves(st, 0, JOKER, P) == []
    jt = legal_moves(st, 0, JOKER, M.Params(joker_from_track=True))
    assert [(m.steps[0].marble, m.steps[0].end) for m in jt] == \
        [(0, track(40)), (1, track(40)), (2, track(40))]
    st2 = mk(placements={0: [track(20)], 1: [track(40)]})
    jt2 = legal_moves(st2, 0, JOKER, M.Params(joker_from_track=True))
    assert [(m.steps[0].marble, m.steps[0].start) for m in jt2] == \
        [(1, HOME), (0, track(20))]


def test_joker_on_teammate():
    st = mk(placements={2: [track(50)]}, teams="pairs")
    mv = legal_moves(st, 0, JOKER, P)
    assert len(mv) == 1
    assert M.apply_move(st, mv[0]) == [(2, 0, 50, track(39))]
    # jumping onto a teammate standing on its own entry: it goes home
    st = mk(placements={2: [track(39)]}, teams="pairs")
    assert M.apply_move(st, legal_moves(st, 0, JOKER, P)[0]) == [(2, 0, 39, HOME)]


def test_joker_is_exempt_from_passing():
    # the jump lands beyond own marbles and needs no path
    st = mk(placements={0: [track(9), track(10)], 1: [track(11)]})
    assert len(legal_moves(st, 0, JOKER, P)) == 1


# --------------------------------------------------------------------------- 7 split

def test_seven_split_free_board():
    st = mk(placements={0: [track(10), track(20)]})
    mv = legal_moves(st, 0, card(7), P)
    whole = [m for m in mv if m.kind == "forward"]
    split = [m for m in mv if m.kind == "split7"]
    assert ends(whole) == [(track(17),), (track(27),)]
    assert len(split) == 12
    assert Move("split7", 0, (Step(0, track(10), track(13), 3),
                              Step(1, track(20), track(24), 4))) in split
    assert Move("split7", 0, (Step(1, track(20), track(24), 4),
                              Step(0, track(10), track(13), 3))) in split


def test_seven_split_second_part_on_new_board():
    st = mk(placements={0: [track(10), track(14)]})
    mv = legal_moves(st, 0, card(7), P)
    assert ends([m for m in mv if m.kind == "forward"]) == [(track(21),)]
    split = [m for m in mv if m.kind == "split7"]
    firsts = sorted((m.steps[0].marble, m.steps[0].count) for m in split)
    assert firsts == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6)]
    assert len(split) == 8


def test_seven_split_needs_two_marbles():
    st = mk(placements={0: [track(10)]})
    assert [m.kind for m in legal_moves(st, 0, card(7), P)] == ["forward"]


def test_seven_split_with_castle_marble():
    st = mk(placements={0: [track(1), castle(1)]})  # track marble d = 2
    mv = legal_moves(st, 0, card(7), P)
    a = Move("split7", 0, (Step(1, castle(1), castle(5), 4), Step(0, track(1), castle(1), 3)))
    b = Move("split7", 0, (Step(0, track(1), track(4), 3), Step(1, castle(1), castle(5), 4)))
    assert a in mv and b in mv
    # in the second order castle 1 is still occupied, so the 3 goes on along the track


def test_seven_split_parts_may_bump():
    st = mk(placements={0: [track(10), track(20)], 1: [track(12), track(25)]})
    mv = Move("split7", 0, (Step(0, track(10), track(12), 2), Step(1, track(20), track(25), 5)))
    assert mv in legal_moves(st, 0, card(7), P)
    assert M.apply_move(st, mv) == [(1, 0, 12, HOME), (1, 1, 25, HOME)]


# --------------------------------------------------------------------------- 8 backward

def test_backward_eight():
    st = mk(placements={0: [track(5), castle(1)]})
    assert legal_moves(st, 0, card(8), P) == [
        Move("backward", 0, (Step(0, track(5), track(69), -8),))]  # passes its entry backwards
    st = mk(placements={0: [track(5), track(1)]})
    assert legal_moves(st, 0, card(8), P) == [
        Move("backward", 0, (Step(1, track(1), track(65), -8),))]
    st = mk(placements={0: [track(20)], 1: [track(12)]})
    mv = legal_moves(st, 0, card(8), P)
    assert M.apply_move(st, mv[0]) == [(1, 0, 12, HOME)]


def test_backward_eight_shortcut():
    st = mk(placements={0: [track(8)]})
    mv = legal_moves(st, 0, card(8), P)
    assert ends(mv) == [(track(0),)]
    M.apply_move(st, mv[0])
    assert ends(legal_moves(st, 0, card(4), P)) == [(castle(1),)]
    assert ends(legal_moves(st, 0, card(9), P)) == [(track(9),)]


# --------------------------------------------------------------------------- 9 split

def test_nine_split():
    st = mk(placements={0: [track(10), track(30)]})
    assert len(legal_moves(st, 0, card(9), P)) == 2
    mv = legal_moves(st, 0, card(9), M.Params(nine_split=True))
    split = [m for m in mv if m.kind == "split9"]
    assert len(mv) == 2 + 16 and len(split) == 16
    for m in split:
        assert m.steps[0].count > 0 and m.steps[1].count < 0
        assert m.steps[0].count - m.steps[1].count == 9


def test_nine_split_backward_part_track_only():
    st = mk(placements={0: [track(1), castle(1)]})
    mv = legal_moves(st, 0, card(9), M.Params(nine_split=True))
    split = [m for m in mv if m.kind == "split9"]
    # only the castle marble can go forward (1..4) with the track marble backward
    assert sorted((m.steps[0].marble, m.steps[0].count) for m in split) == \
        [(1, 1), (1, 2), (1, 3), (1, 4)]
    assert all(m.steps[1].start[0] == "track" and m.steps[1].end[0] == "track" for m in split)


# --------------------------------------------------------------------------- team mover

def test_finished_player_moves_for_teammate():
    allc = [castle(k) for k in range(1, 6)]
    st = mk(placements={0: allc, 2: [track(44)]}, teams="pairs")
    assert M.mover(st, 0) == 2
    mv = legal_moves(st, 0, card(5), P)
    assert mv == [fwd(2, 0, track(44), track(49), 5)]
    st = mk(6, placements={2: allc}, teams="two")
    assert M.mover(st, 2) == 4
    st = mk(6, placements={2: allc, 4: allc}, teams="two")
    assert M.mover(st, 2) == 0
    st = mk(6, placements={0: allc, 2: allc, 4: allc}, teams="two")
    assert M.mover(st, 0) is None


# --------------------------------------------------------------------------- strategies

def test_greedy_tie_rules_and_discard():
    st = mk()
    hand = [card(13), card(1, 1), card(1), card(2), card(3), card(4)]
    assert M.choose_greedy(st, 0, hand, P) == ("play", card(1),
                                               Move("out", 0, (Step(0, HOME, track(8), 0),)))
    hand = [card(2, 1), card(2), card(9), card(8), card(5), card(6)]
    assert M.choose_greedy(st, 0, hand, P) == ("discard", card(2))


def test_greedy_vs_aggressive():
    st = mk(placements={0: [track(19)], 1: [track(22)]})
    hand = [card(3), card(10), card(2), card(4), card(5), card(6)]
    # 3 bumps an opponent that only loses 6 (82 - 76): greedy 3+6 < 10, aggressive 3+18 > 10
    g = M.choose_greedy(st, 0, hand, P)
    a = M.choose_aggressive(st, 0, hand, P)
    assert g[1] == card(10) and a[1] == card(3)


def test_choose_random():
    st = mk(placements={0: [track(10), track(20)]})
    ch = M.legal_choices(st, 0, [card(5), card(3)], P)
    assert [c for c, _ in ch] == [card(3), card(3), card(5), card(5)]
    assert M.choose_random(ch, 0.0) == ch[0]
    assert M.choose_random(ch, 0.9999) == ch[-1]
    assert M.choose_random(ch, 0.5) == ch[2]
    assert M.choose_random_discard([5, 1, 3], 0.5) == 3


# --------------------------------------------------------------------------- replay

def _scripted_deck():
    first = [card(1), card(2), card(3), card(4), card(5),
             card(6), card(7), card(8), card(9), card(10),
             card(2, 1), card(3, 1)]
    return first + [c for c in range(54) if c not in first]


def test_replay_scripted_opening():
    deck = _scripted_deck()
    out_move = Move("out", 0, (Step(0, HOME, track(8), 0),))
    r = M.replay([deck], 2, [("play", card(1), out_move), ("discard", card(6))], max_turns=2)
    assert r["unfinished"] and r["turns"] == 2 and r["discards"] == [0, 1]
    assert r["winner_seats"] == [] and r["win_share"] == [0.0, 0.0]
    assert r["final_positions"][0][0] == track(8)
    # a plain nested-list move (as from JSON) is accepted
    plain = ["out", 0, [[0, ["home"], ["track", 8], 0]]]
    r2 = M.replay([deck], 2, [("play", card(1), plain), ("discard", card(6))], max_turns=2)
    assert r2["turns"] == 2


def test_replay_rejects_bad_decisions():
    deck = _scripted_deck()
    out_move = Move("out", 0, (Step(0, HOME, track(8), 0),))
    with pytest.raises(ValueError, match="legal move exists"):
        M.replay([deck], 2, [("discard", card(2)), ("discard", card(6))], max_turns=2)
    with pytest.raises(ValueError, match="not in seat"):
        M.replay([deck], 2, [("play", card(12), out_move), ("discard", card(6))], max_turns=2)
    with pytest.raises(ValueError, match="illegal move"):
        M.replay([deck], 2, [("play", card(2), out_move), ("discard", card(6))], max_turns=2)
    with pytest.raises(ValueError, match="ran out"):
        M.replay([deck], 2, [("play", card(1), out_move)], max_turns=2)
    with pytest.raises(ValueError, match="decisions were given"):
        M.replay([deck], 2, [("play", card(1), out_move), ("discard", card(6)),
                             ("discard", card(7))], max_turns=2)
    with pytest.raises(ValueError, match="permutation"):
        M.replay([deck[:-1]], 2, [], max_turns=2)
    with pytest.raises(ValueError, match="reshuffle"):
        M.replay([deck, deck], 2, [("play", card(1), out_move), ("discard", card(6))],
                 max_turns=2)


def _check_boards(res, players):
    boards = [e for e in res["events"] if e["type"] == "board"]
    assert len(boards) == res["turns"]
    for e in boards:
        pos = e["positions"]
        assert len(pos) == players
        holes = []
        for s, row in enumerate(pos):
            assert len(row) == 5
            kinds = [p[0] for p in row]
            assert kinds.count("home") + kinds.count("track") + kinds.count("castle") == 5
            holes += [p[1] for p in row if p[0] == "track"]
            ks = [p[1] for p in row if p[0] == "castle"]
            assert len(ks) == len(set(ks)) and all(1 <= k <= 5 for k in ks)
        assert len(holes) == len(set(holes))


CONFIGS = [
    (2, ["greedy", "random"], {}),
    (3, ["aggressive", "greedy", "random"], {"nine_split": True}),
    (4, "greedy", {"teams": "pairs"}),
    (4, ["random", "greedy", "aggressive", "greedy"], {"teams": "two", "joker_from_track": True}),
    (5, ["greedy", "random", "greedy", "random", "aggressive"], {"castle_entry": "optional"}),
    (6, ["greedy", "aggressive"] * 3, {"teams": "pairs"}),
    (6, "random", {"teams": "two", "decks": 2}),
    (2, "random", {"sides": 2, "nine_split": True, "castle_entry": "optional"}),
    (3, "greedy", {"decks": 2, "joker_from_track": True}),
]


@pytest.mark.parametrize("players,strategies,params", CONFIGS)
def test_play_replay_roundtrip(players, strategies, params):
    rng = random.Random(1000 + players)
    res = M.play(players, strategies, rng, record_boards=True, **params)
    _check_boards(res, players)
    assert len(res["decisions"]) == res["turns"]
    again = M.replay(res["deck_orders"], players, res["decisions"], record_boards=True, **params)
    for key in ("winner_seats", "win_share", "turns", "castle", "bumps_made", "bumps_suffered",
                "discards", "unfinished", "events", "final_positions"):
        assert again[key] == res[key], key
    assert not res["unfinished"]
    assert abs(sum(res["win_share"]) - 1.0) < 1e-12
    for s in res["winner_seats"]:
        assert res["castle"][s] == 5
    assert sum(res["bumps_made"]) == sum(res["bumps_suffered"])
    assert sum(res["discards"]) == sum(1 for d in res["decisions"] if d[0] == "discard")
    b = Board(players, params.get("sides"), params.get("teams", "none"))
    if b.teams_mode != "none":
        assert sorted(res["winner_seats"]) == sorted(b.team_members(res["winner_seats"][0]))
        assert all(abs(res["win_share"][s] - 1 / len(res["winner_seats"])) < 1e-12
                   for s in res["winner_seats"])
        # these seeds exercise a finished seat playing for its teammate
        assert any(e["type"] == "play" and e["move"].owner != e["seat"] for e in res["events"])
    else:
        assert [s for s in range(players) if res["castle"][s] == 5] == res["winner_seats"]
    n = 54 * params.get("decks", 1)
    assert sorted(res["deck_orders"][0]) == list(range(n))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_greedy_games_finish(players):
    for seed in range(2):
        res = M.play(players, "greedy", random.Random(seed))
        assert not res["unfinished"] and res["turns"] < 4000
        assert len(res["winner_seats"]) == 1


def test_play_is_deterministic_and_max_turns():
    a = M.play(4, "random", random.Random(5))
    b = M.play(4, "random", random.Random(5))
    assert a["decisions"] == b["decisions"] and a["deck_orders"] == b["deck_orders"]
    c = M.play(4, "random", random.Random(5), max_turns=50)
    assert c["unfinished"] and c["turns"] == 50 and c["win_share"] == [0.0] * 4
    assert c["decisions"] == a["decisions"][:50]
    with pytest.raises(ValueError):
        M.play(4, "nonsense", random.Random(1))


# --------------------------------------------------------------------------- oracle interface


def test_play_script_is_replay_with_the_library_arguments():
    """``play_script`` takes the keyword arguments of the library's ``play_scripted`` (moves
    may come as nested lists, as from JSON)."""
    params = {"teams": "pairs", "nine_split": True, "max_turns": 400}
    res = M.play(4, ["random", "greedy"] * 2, random.Random(3), **params)
    as_lists = [[d[0], d[1], [d[2][0], d[2][1], [list(s) for s in d[2][2]]]] if d[0] == "play"
                else list(d) for d in res["decisions"]]
    got = M.play_script(deck_orders=res["deck_orders"], players=4, decisions=as_lists,
                        params=params)
    for key in ("winner_seats", "win_share", "turns", "castle", "bumps_made", "bumps_suffered",
                "discards", "unfinished", "final_positions"):
        assert got[key] == res[key], key
    assert got["scores"] == res["castle"] and "events" not in got
    with pytest.raises(ValueError, match="unknown parameter"):
        M.play_script(res["deck_orders"], 4, res["decisions"], {"team": "pairs"})

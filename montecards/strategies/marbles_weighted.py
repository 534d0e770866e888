"""Joker Marbles' ``weighted`` built-in written over the decision interface: a tunable template.

``choose(obs, legal, params, memory, rng) -> int`` scores every legal move by a weighted sum of
the 12 features of the built-in ``weighted`` (docs/strategies/marbles.md, "weighted and tuned:
the features") and returns the index of the best; ``params`` are the 12 weights (the built-in's
defaults, ``DEFAULT_WEIGHTS``, when a seat gives none). Ties as greedy's: the lowest card
rank, then the lowest marble of the first step, then the first in the legal order. With no
legal move: the discard whose card features score highest (ties: the lowest rank, then id).
It makes exactly the built-in's choices (``tests/test_weighted_marbles.py``: the same rows for
the same seed), so it is the place to start a strategy of your own: add a feature here, try it
with ``--strategy-params``, and nothing else recompiles.

    montecards simulate marbles -n 20000 -s montecards/strategies/marbles_weighted.py:choose -s greedy \\
        -s greedy -s greedy --strategy-params 1,1,1,-2,0,0,0,0,0,0,0,0 \\
        --strategy-params - --strategy-params - --strategy-params -

How it reads a move: ``board`` is a copy of the observation on which the move is made
(``view.obs_make_step``, both parts of a split), so each feature compares the board before
the move (``obs``) with the board after it (``board``).
"""

import numpy as np
from numba import njit

from montecards.games.marbles import view

DEFAULT_WEIGHTS = np.array([1.0, 1.0, 1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
"""The built-in ``weighted``'s defaults (``strategies.DEFAULT_WEIGHTS``)."""
N_FEATURES = 12
COUNT_SCALE = 10  # holes a count feature (a marble, a card) is worth
REACH = 13  # the farthest one card moves a marble forward


@njit(cache=True, inline="always")
def moves_exactly(r, d):
    """Does a card of rank ``r`` move a marble exactly ``d`` (1..13) holes forward (whole, or
    one part of a 7 split)?"""
    if r == 1:
        return d == 1
    if r == 7:
        return d <= 7
    if 10 <= r <= 13:
        return d == 10
    if r == 8 or r == 14:
        return False
    return d == r


@njit(cache=True, inline="always")
def is_out_rank(r):
    return r == 1 or 11 <= r <= 13


@njit(cache=True)
def unseen_ways(obs):
    """Per distance 1..13 (index d - 1) the unseen cards moving exactly that far forward, then
    the unseen 8s, jokers and out cards (A, J, Q, K), and the unseen cards in all (index 16)."""
    ways = np.zeros(17, np.int64)
    for d in range(1, REACH + 1):
        for r in range(1, 14):
            if moves_exactly(r, d):
                ways[d - 1] += view.obs_unseen(obs, r)
    ways[13] = view.obs_unseen(obs, 8)
    ways[14] = view.obs_unseen(obs, 14)
    ways[15] = view.obs_unseen(obs, 1) + view.obs_unseen(obs, 11) + view.obs_unseen(obs, 12) \
        + view.obs_unseen(obs, 13)
    for r in range(1, 15):
        ways[16] += view.obs_unseen(obs, r)
    return ways


@njit(cache=True)
def risk_at(board, owner, e, ways):
    """The expected-loss numerator of an owner's marble on ``e`` on ``board``: the holes it
    would lose, home again, x the unseen cards that bring an opponent's marble there."""
    if not view.is_track(e):
        return 0
    L = view.obs_track_len(board)
    count = 0
    joker = board[view.OBS_JOKER_FROM_TRACK] != 0
    for s in range(view.obs_players(board)):
        if view.obs_same_team(board, s, owner):
            continue
        if view.obs_at_home(board, s) > 0:
            joker = True
            if view.obs_come_out(board, s) == e:
                count += ways[15]
        for m in range(view.MARBLES):
            p = view.obs_position(board, s, m)
            if view.is_track(p):
                d = (e - p) % L
                if 1 <= d <= REACH:
                    count += ways[d - 1]
                elif d == L - 8:
                    count += ways[13]
    if joker:
        count += ways[14]
    loss = view.obs_remaining(board, owner, view.HOME_POS) - view.obs_remaining(board, owner, e)
    return loss * count


@njit(cache=True)
def opponent_loss(board, owner, h):
    v = view.obs_occupant(board, h)
    if v < 0 or view.obs_same_team(board, view.marble_seat(v), owner):
        return 0
    s = view.marble_seat(v)
    return view.obs_remaining(board, s, view.HOME_POS) - view.obs_remaining(board, s, h)


@njit(cache=True)
def attack_at(board, owner, e, hits, played):
    """Holes lost by the opponents' marbles that a card the hand keeps (``hits`` per distance,
    less one card of the ``played`` rank) could bump from a marble on ``e``."""
    if not view.is_track(e):
        return 0
    L = view.obs_track_len(board)
    total = 0
    for d in range(1, REACH + 1):
        if hits[d - 1] - (1 if moves_exactly(played, d) else 0) > 0:
            total += opponent_loss(board, owner, (e + d) % L)
    if hits[13] - (1 if played == 8 else 0) > 0:
        total += opponent_loss(board, owner, (e - 8) % L)
    return total


@njit(cache=True)
def start_blocked(board, owner):
    v = view.obs_occupant(board, view.obs_come_out(board, owner))
    return 1 if view.obs_at_home(board, owner) > 0 and v >= 0 and view.marble_seat(v) == owner else 0


@njit(cache=True)
def features(obs, board, move, ways, hits, out):
    """The 12 features of ``move`` into ``out`` (``board``: scratch, overwritten)."""
    owner = view.obs_owner(obs)
    r = view.card_rank(view.move_card(move))
    for k in range(N_FEATURES):
        out[k] = 0.0
    out[7] = COUNT_SCALE if r == 14 else 0
    out[9] = COUNT_SCALE if r == 7 else 0
    if view.move_is_discard(move):
        out[8] = COUNT_SCALE if is_out_rank(r) and view.obs_at_home(obs, owner) > 0 else 0
        return
    board[:] = obs
    n = 2 if view.move_is_split(move) else 1
    progress = 0
    risk = 0
    attack = 0
    for part in range(n):
        m = view.move_marble(move) if part == 0 else view.move_marble2(move)
        e = view.move_end(move) if part == 0 else view.move_end2(move)
        p = view.obs_position(obs, owner, m)
        progress += view.obs_remaining(obs, owner, p) - view.obs_remaining(obs, owner, e)
        risk -= risk_at(obs, owner, p, ways)
        attack -= attack_at(obs, owner, p, hits, r)
        view.obs_make_step(board, owner, m, e)
    opp = 0
    partner = 0
    leader = 0
    for s in range(view.obs_players(obs)):
        for m in range(view.MARBLES):
            before = view.obs_remaining(obs, s, view.obs_position(obs, s, m))
            after = view.obs_remaining(board, s, view.obs_position(board, s, m))
            if s == owner:
                continue
            if view.obs_same_team(obs, s, owner):
                partner += before - after
            else:
                opp += after - before
                leader += (after - before) * view.obs_in_castle(obs, s)
    for part in range(n):
        e = view.move_end(move) if part == 0 else view.move_end2(move)
        risk += risk_at(board, owner, e, ways)
        attack += attack_at(board, owner, e, hits, r)
    out[0] = progress
    out[1] = opp
    out[2] = partner
    out[3] = risk / ways[16] if ways[16] > 0 else 0.0
    out[4] = attack
    out[5] = COUNT_SCALE * (view.obs_at_home(obs, owner) - view.obs_at_home(board, owner))
    out[6] = COUNT_SCALE * (view.obs_in_castle(board, owner) - view.obs_in_castle(obs, owner))
    waiting = view.obs_at_home(board, owner) > 0
    out[8] = COUNT_SCALE if is_out_rank(r) and view.move_kind(move) != view.KIND_OUT and waiting else 0
    out[10] = COUNT_SCALE * (start_blocked(board, owner) - start_blocked(obs, owner))
    out[11] = leader / 5


@njit(cache=True)
def choose_with(obs, legal, weights):
    """The index of the best-scored legal move under ``weights`` (ties as greedy's)."""
    ways = unseen_ways(obs)
    hits = np.zeros(14, np.int64)
    for k in range(view.obs_hand_size(obs)):
        r = view.card_rank(view.obs_hand_card(obs, k))
        for d in range(1, REACH + 1):
            if moves_exactly(r, d):
                hits[d - 1] += 1
        if r == 8:
            hits[13] += 1
    board = np.empty_like(obs)
    f = np.zeros(N_FEATURES)
    best = 0
    best_score = 0.0
    best_rank = 0
    best_marble = 0
    discard = view.obs_kind(obs) == view.DECISION_DISCARD
    for i in range(legal.shape[0]):
        move = legal[i]
        features(obs, board, move, ways, hits, f)
        score = 0.0
        for k in range(N_FEATURES):
            score += weights[k] * f[k]
        rank = view.card_rank(view.move_card(move))
        marble = 0 if discard else view.move_marble(move)
        if i == 0 or score > best_score or (
            score == best_score and (rank < best_rank or (rank == best_rank and marble < best_marble))
        ):
            best = i
            best_score = score
            best_rank = rank
            best_marble = marble
    return best


@njit(cache=True)
def choose(obs, legal, params, memory, rng):
    """``weighted`` with the weights ``params`` (its defaults when none are given)."""
    return choose_with(obs, legal, params if params.shape[0] == N_FEATURES else DEFAULT_WEIGHTS)

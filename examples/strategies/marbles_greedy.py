"""Joker Marbles' ``greedy`` (and ``aggressive``) written over the decision interface only.

``choose(obs, legal, params, memory, rng) -> int`` returns an index into ``legal``; it reads
the seat's observation and the legal move ids through ``montecards.games.marbles.view`` and
nothing else, and makes exactly the choices of the built-in ``greedy`` strategy
(``tests/test_view_marbles.py`` checks it on many logged games). ``choose_aggressive`` is the
built-in ``aggressive``: the same with bumps of opponents weighted 3x.

Greedy (docs/rules/marbles.md, Strategies): play the move that most reduces the remaining
distance of the team's marbles plus the distance its bumps add to opponents; ties: the lowest
card rank, then the lowest marble (of the first step), then the first move in the legal order
(which lists cards by id). With no legal move: discard the lowest-ranked card (ties: the
lowest id, the first in the legal order).
"""

import numpy as np
from numba import njit

from montecards.games.marbles import view


@njit(cache=True)
def step_gain(obs, owner, marble, end, bump_weight):
    """Distance the step takes off the owner's team, plus ``bump_weight`` x the distance its
    bump adds to an opponent (a bumped teammate's change counts as the team's own)."""
    start = view.obs_position(obs, owner, marble)
    gain = view.obs_remaining(obs, owner, start) - view.obs_remaining(obs, owner, end)
    if view.is_track(end) and view.obs_occupant(obs, end) >= 0:
        victim = view.marble_seat(view.obs_occupant(obs, end))
        before = view.obs_remaining(obs, victim, end)
        after = view.obs_remaining(obs, victim, view.obs_bump_destination(obs, owner, start, end))
        if view.obs_same_team(obs, victim, owner):
            gain += before - after
        else:
            gain += bump_weight * (after - before)
    return gain


@njit(cache=True)
def move_gain(obs, move, bump_weight, board):
    """The move's gain: its first step on the board of ``obs``, then a split's second part on
    the board the first part leaves (``board`` is scratch of ``obs``'s size)."""
    owner = view.obs_owner(obs)
    gain = step_gain(obs, owner, view.move_marble(move), view.move_end(move), bump_weight)
    if view.move_is_split(move):
        board[:] = obs
        view.obs_make_step(board, owner, view.move_marble(move), view.move_end(move))
        gain += step_gain(board, owner, view.move_marble2(move), view.move_end2(move), bump_weight)
    return gain


@njit(cache=True)
def choose_weighted(obs, legal, bump_weight):
    """The greedy choice with opponents' bump distance weighted ``bump_weight``."""
    best = 0
    if view.obs_kind(obs) == view.DECISION_DISCARD:
        for i in range(1, legal.shape[0]):
            if view.card_rank(view.move_card(legal[i])) < view.card_rank(view.move_card(legal[best])):
                best = i
        return best
    board = np.empty_like(obs)
    best_gain = 0
    best_rank = 0
    best_marble = 0
    for i in range(legal.shape[0]):
        move = legal[i]
        gain = move_gain(obs, move, bump_weight, board)
        rank = view.card_rank(view.move_card(move))
        marble = view.move_marble(move)
        if i == 0 or gain > best_gain or (
            gain == best_gain
            and (rank < best_rank or (rank == best_rank and marble < best_marble))
        ):
            best = i
            best_gain = gain
            best_rank = rank
            best_marble = marble
    return best


@njit(cache=True)
def choose(obs, legal, params, memory, rng):
    """``greedy``: bumps of opponents count once."""
    return choose_weighted(obs, legal, 1)


@njit(cache=True)
def choose_aggressive(obs, legal, params, memory, rng):
    """``aggressive``: bumps of opponents count three times."""
    return choose_weighted(obs, legal, 3)

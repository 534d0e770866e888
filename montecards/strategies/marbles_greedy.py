"""Joker Marbles' ``greedy`` (and ``aggressive``) written over the decision interface only.

``choose(obs, legal, params, memory, rng) -> int`` returns an index into ``legal``; it reads
the seat's observation and the legal move ids through ``montecards.games.marbles.view`` and
nothing else, and makes exactly the choices of the built-in ``greedy`` strategy
(``tests/test_view_marbles.py`` checks it on many logged games, ``tests/test_user_marbles.py``
on whole runs). ``choose_aggressive`` is the built-in ``aggressive``: the same with bumps of
opponents weighted 3x.

Greedy (docs/rules/marbles.md, Strategies): play the move that most reduces the remaining
distance of the team's marbles plus the distance its bumps add to opponents; ties: the lowest
card rank, then the lowest marble (of the first step), then the first move in the legal order
(which lists cards by id). With no legal move: discard the lowest-ranked card (ties: the
lowest id, the first in the legal order).

Speed. A split's second part is scored on the board its first part leaves. That board differs
from ``obs`` at three track holes at most (the hole the first marble left, the one it landed
on, and where a bumped teammate went), so ``occupant_after`` reads it off ``obs`` instead of
copying the 528-entry observation for every split (a hand with a 7 lists up to 480 of them).
And ``choose_weighted`` is compiled with ``montecards.engine.jit.hot``
(the kernels' decorator: numba's cache, and no reference counting, which is safe in a function
that allocates no array): under plain ``@njit`` numba counts references to ``obs`` and
``legal`` in the inlined helpers at every move, and that made this strategy ~3x slower.
Measured (4 players, every seat, ``mc.simulate(n=200_000, jobs=2)`` interleaved with the
built-in): ~0.67 of the built-in greedy's games per second (2,180 against 3,220 on a shared,
loaded 2-core machine); the kernel's side of a decision (the observation, the legal ids, the
call) costs about as much as this function.
"""

from numba import njit

from montecards.engine.jit import hot
from montecards.games.marbles import view

NO_HOLE = -2
"""No hole: a first part that leaves or lands on no track hole, or bumps nobody."""


@njit(cache=True, inline="always")
def occupant_after(obs, hole, left, landed, mover, moved_to, bumped):
    """The marble id on track ``hole`` once a first part was made: ``mover`` left hole ``left``
    for ``landed`` (``NO_HOLE``: not a track hole), and the marble ``bumped`` it found there
    went to track hole ``moved_to`` (``NO_HOLE``: home, or nobody bumped); -1: empty."""
    if hole == landed:
        return mover
    if hole == moved_to:
        return bumped
    if hole == left:
        return -1
    return view.obs_occupant(obs, hole)


@njit(cache=True, inline="always")
def step_gain(obs, owner, marble, end, bump_weight, left, landed, mover, moved_to, bumped):
    """Distance the step takes off the owner's team, plus ``bump_weight`` x the distance its
    bump adds to an opponent (a bumped teammate's change counts as the team's own), on the
    board of ``obs`` after a first part (``occupant_after``; all ``NO_HOLE``: ``obs`` itself)."""
    start = view.obs_position(obs, owner, marble)
    gain = view.obs_remaining(obs, owner, start) - view.obs_remaining(obs, owner, end)
    if not view.is_track(end):
        return gain
    victim = occupant_after(obs, end, left, landed, mover, moved_to, bumped)
    if victim < 0:
        return gain
    victim_seat = view.marble_seat(victim)
    before = view.obs_remaining(obs, victim_seat, end)
    if view.obs_same_team(obs, victim_seat, owner):
        # a teammate goes to its castle entry if that hole is free once the mover has left
        # its start (view.obs_bump_destination, on the board after the first part)
        e = view.obs_entry(obs, victim_seat)
        if e != end and (occupant_after(obs, e, left, landed, mover, moved_to, bumped) < 0 or e == start):
            return gain + before - view.obs_remaining(obs, victim_seat, e)
        return gain + before - view.obs_remaining(obs, victim_seat, view.HOME_POS)
    return gain + bump_weight * (view.obs_remaining(obs, victim_seat, view.HOME_POS) - before)


@njit(cache=True, inline="always")
def move_gain(obs, move, bump_weight):
    """The move's gain: its first step on the board of ``obs``, then a split's second part on
    the board the first part leaves."""
    owner = view.obs_owner(obs)
    marble = view.move_marble(move)
    end = view.move_end(move)
    gain = step_gain(obs, owner, marble, end, bump_weight, NO_HOLE, NO_HOLE, -1, NO_HOLE, -1)
    if not view.move_is_split(move):
        return gain
    start = view.obs_position(obs, owner, marble)
    left = start if view.is_track(start) else NO_HOLE
    landed = end if view.is_track(end) else NO_HOLE
    bumped = view.obs_occupant(obs, end) if view.is_track(end) else -1
    moved_to = NO_HOLE
    if bumped >= 0:
        dest = view.obs_bump_destination(obs, owner, start, end)
        moved_to = dest if view.is_track(dest) else NO_HOLE
    mover = view.MARBLES * owner + marble
    return gain + step_gain(obs, owner, view.move_marble2(move), view.move_end2(move), bump_weight,
                            left, landed, mover, moved_to, bumped)


@hot
def choose_weighted(obs, legal, bump_weight):
    """The greedy choice with opponents' bump distance weighted ``bump_weight``."""
    best = 0
    if view.obs_kind(obs) == view.DECISION_DISCARD:
        for i in range(1, legal.shape[0]):
            if view.card_rank(view.move_card(legal[i])) < view.card_rank(view.move_card(legal[best])):
                best = i
        return best
    best_gain = 0
    best_rank = 0
    best_marble = 0
    for i in range(legal.shape[0]):
        move = legal[i]
        gain = move_gain(obs, move, bump_weight)
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

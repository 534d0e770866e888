"""Joker Marbles: ``cautious``, greedy that counts cards to keep its marbles out of reach.

Greedy (``marbles_greedy.py``) scores a move by the distance it takes off the team's marbles
and adds to bumped opponents, and does not look at what may happen next. ``cautious`` also
prices the risk of being bumped on the next turns: a marble of the owner standing on track hole
``h`` is in reach of an opponent's track marble ``d`` holes behind it (``1 <= d <= 13``) when a
card moving exactly ``d`` forward exists (A: 1; 2..6; 7: 1..7, whole or as a split part;
9: 9; 10, J, Q, K: 10), or 8 holes ahead of it (the 8 moves backward), or anywhere by a joker.
Each way is weighted by the share of *unseen* cards of those ranks (``view.obs_unseen``: not in
the hand, not on the discard pile: what the opponents may hold or draw), times the distance the
marble would lose, home again. A move's score is greedy's gain minus ``risk_weight`` x the risk
its marbles carry after it plus the risk they carried before (leaving a dangerous hole pays).

``params``: ``[risk_weight]`` (default 1.0 when empty); discards as greedy's (lowest rank).

    montecards simulate marbles -n 100000 --players 2 -s examples/strategies/marbles_cautious.py:choose -s greedy

Measured (``montecards simulate marbles -n 100000 --seed 17``, default rules): two players,
one seat each, about even with greedy (50.0 % as seat 0, 48.0 % as seat 1); four players, two
cautious seats against two greedy (alternating, either way round), the cautious seats win
78-79 % of the games (fair share: 50 %) and keep ~3.9 marbles in the castle to greedy's 2.5:
with three opponents on the board the risk of a bump is worth pricing. ``risk_weight`` 2 to 4
does about as well (4,000 games: 4p ~79 %, 2p ~48 %), 0.3 worse (4p 75 %, 2p 46 %).
"""

from numba import njit

from montecards.engine.jit import hot
from montecards.games.marbles import view

REACH = 13
"""The farthest a single card moves a marble forward (the joker aside): 10, J, Q, K (10), 9, 7."""


@njit(cache=True, inline="always")
def ways_to_move(obs, d):
    """Unseen cards that move an opponent's marble exactly ``d`` holes forward (1..13)."""
    ways = 0
    if d == 1:
        ways += view.obs_unseen(obs, 1)  # the ace
    if 2 <= d <= 6 or d == 9:
        ways += view.obs_unseen(obs, d)
    if d <= 7:
        ways += view.obs_unseen(obs, 7)  # whole, or one part of a split
    if d == 10:
        for rank in (10, 11, 12, 13):
            ways += view.obs_unseen(obs, rank)
    return ways


@njit(cache=True, inline="always")
def risk_at(obs, owner, hole, unseen_total):
    """The owner's expected loss for a marble on track ``hole``: for every opponent's track
    marble that can reach it with one card (by the share of unseen cards that do it), the
    distance the bumped marble loses; plus the jokers' threat from opponents with a marble at
    home (or every opponent with ``joker_from_track``)."""
    if not view.is_track(hole) or unseen_total <= 0:
        return 0.0
    L = view.obs_track_len(obs)
    loss = view.obs_remaining(obs, owner, view.HOME_POS) - view.obs_remaining(obs, owner, hole)
    ways = 0
    jokers = 0
    for s in range(view.obs_players(obs)):
        if view.obs_same_team(obs, s, owner):
            continue
        if view.obs_at_home(obs, s) > 0 or obs[view.OBS_JOKER_FROM_TRACK] != 0:
            jokers = view.obs_unseen(obs, 14)
        for m in range(view.MARBLES):
            p = view.obs_position(obs, s, m)
            if view.is_track(p):
                d = hole - p
                if d < 0:
                    d += L
                if 1 <= d <= REACH:
                    ways += ways_to_move(obs, d)
                elif d == L - 8:
                    ways += view.obs_unseen(obs, 8)
    return loss * (ways + jokers) / unseen_total


@njit(cache=True, inline="always")
def step_gain(obs, owner, marble, end, start):
    """Greedy's gain of one step (bumps of opponents counted once), on the board of ``obs``."""
    gain = view.obs_remaining(obs, owner, start) - view.obs_remaining(obs, owner, end)
    if view.is_track(end) and view.obs_occupant(obs, end) >= 0:
        victim = view.marble_seat(view.obs_occupant(obs, end))
        before = view.obs_remaining(obs, victim, end)
        after = view.obs_remaining(obs, victim, view.obs_bump_destination(obs, owner, start, end))
        if view.obs_same_team(obs, victim, owner):
            gain += before - after
        else:
            gain += after - before
    return gain


@hot
def score_moves(obs, legal, risk_weight):
    """Index of the best move: greedy's gain minus the change of risk of the moved marbles
    (a split's parts both scored on the board of ``obs``: an approximation greedy does not
    make). Ties: the first in the legal order."""
    owner = view.obs_owner(obs)
    unseen_total = 0
    for rank in range(1, 15):
        unseen_total += view.obs_unseen(obs, rank)
    best = 0
    best_score = 0.0
    for i in range(legal.shape[0]):
        move = legal[i]
        score = 0.0
        for part in range(2 if view.move_is_split(move) else 1):
            marble = view.move_marble(move) if part == 0 else view.move_marble2(move)
            end = view.move_end(move) if part == 0 else view.move_end2(move)
            start = view.obs_position(obs, owner, marble)
            score += step_gain(obs, owner, marble, end, start)
            score -= risk_weight * (risk_at(obs, owner, end, unseen_total)
                                    - risk_at(obs, owner, start, unseen_total))
        if i == 0 or score > best_score:
            best = i
            best_score = score
    return best


@njit(cache=True)
def choose(obs, legal, params, memory, rng):
    if view.obs_kind(obs) == view.DECISION_DISCARD:
        best = 0
        for i in range(1, legal.shape[0]):
            if view.card_rank(view.move_card(legal[i])) < view.card_rank(view.move_card(legal[best])):
                best = i
        return best
    return score_moves(obs, legal, params[0] if params.shape[0] > 0 else 1.0)

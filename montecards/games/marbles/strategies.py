"""Joker Marbles strategies, as integer codes dispatched inside the kernel.

A strategy sees what its seat sees at the table: its hand, the whole board, the discard pile
and the number of cards left to draw (``view.py`` is that view, as a strategy written outside
the kernel gets it; ``examples/strategies/marbles_greedy.py`` is greedy written over it, and
``tests/test_view_marbles.py`` shows both make the same choices). All three share the
kernel's legal-move generator (``moves.gen_hand``), which lists the hand's (card, move)
choices and, for greedy and aggressive, scores them as it goes (``step_score``,
``consider_move``).

* ``random``: uniform over the legal (card, move) choices, every card of the hand counted
  separately (two 5s give each 5-move twice), each 7-split order and first part its own
  choice, the joker one choice per (source, target); with no legal move, a uniform card of
  the hand is discarded.
* ``greedy``: the choice with the highest score = distance taken off the team's marbles
  (remaining distance: home -> L + 10, track -> holes to the entry + 5, castle k -> 5 - k;
  a bumped teammate counts as the team's) + distance its bumps add to opponents. Ties: the
  lowest card rank (A = 1 .. K = 13, joker = 14), then the lowest marble index (the marble of
  the move's first step), then the lowest card id, then the first move in generation order.
  With no legal move: discard the lowest-ranked card (ties: lowest id).
* ``aggressive``: the same with the distance added to opponents by bumps weighted 3x.
"""

from __future__ import annotations

from montecards.engine.jit import hot, hot_inline
from montecards.games.marbles.rules import (
    CASTLE0,
    MARBLES,
    MV_SLOT,
    O_STRATEGY,
    S_L,
    dist,
    entry,
    group_best,
    group_end,
    group_of,
    group_rank,
    group_start,
    hand_card,
    hand_size,
    move_at,
    occupant,
    position,
    rank,
    team,
)
from montecards.rng import bounded

RANDOM = 0
GREEDY = 1
AGGRESSIVE = 2
NAMES = ("random", "greedy", "aggressive")
SCRIPTED = -1  # decisions read from a script (play_scripted and the oracle tests)

# greedy's running best over the generated moves, in the state's strategy scratch: the move
# (-1: none yet), its score, its group's rank, its first marble
BEST = O_STRATEGY
BEST_SCORE = O_STRATEGY + 1
BEST_RANK = O_STRATEGY + 2
BEST_M1 = O_STRATEGY + 3


@hot
def score_weight(strategy):
    """Weight of opponents' bump distance in the score (-1: the strategy needs no scores)."""
    if strategy == GREEDY:
        return 1
    if strategy == AGGRESSIVE:
        return 3
    return -1


@hot
def step_score(g, owner, m, end, weight):
    """Distance the step takes off the owner's team, plus ``weight`` x the distance its bump
    adds to an opponent (a bumped teammate counts as the team's own), on the current board."""
    p = position(g, owner, m)
    score = dist(g, owner, p) - dist(g, owner, end)
    if end >= 0 and end < CASTLE0:
        v = occupant(g, end)
        if v >= 0:
            vs = v // MARBLES
            before = dist(g, vs, end)
            home = g[S_L] + 10
            if team(g, vs) == team(g, owner):
                e = entry(g, vs)
                if e != end and (occupant(g, e) < 0 or e == p):
                    score += before - 5
                else:
                    score += before - home
            else:
                score += weight * (home - before)
    return score


@hot
def reset_best(g):
    """No best move yet (before a hand's moves are generated)."""
    g[BEST] = -1


@hot_inline
def consider_move(g, n, slot, m1, score):
    """Greedy's running best over the generated moves: move ``n`` (hand group ``slot``, first
    marble ``m1``) replaces the best so far on a higher score, then a lower group rank, then a
    lower first marble; on a full tie the first generated stays (the tie rules above)."""
    best_score = g[BEST_SCORE]
    r = group_rank(g, slot)
    if g[BEST] < 0 or score > best_score or (
        score == best_score
        and (r < g[BEST_RANK] or (r == g[BEST_RANK] and m1 < g[BEST_M1]))
    ):
        g[BEST] = n
        g[BEST_SCORE] = score
        g[BEST_RANK] = r
        g[BEST_M1] = m1


@hot
def best_move(g, seat):
    """Index of the best-scored move of the hand (greedy/aggressive; tie rules above), as
    ``moves.gen_hand`` with scores found it (``consider_move``); -1 when there is none."""
    return g[BEST]


@hot
def best_slot(g, move):
    """Hand slot of the card greedy plays for ``move``: the lowest rank (then id) of its group."""
    return group_best(g, g[move_at(move, MV_SLOT)])


@hot
def lowest_rank_slot(g, seat):
    """Hand slot of the lowest-ranked card (ties: the lowest id, the hand being sorted)."""
    best = 0
    for k in range(1, hand_size(g, seat)):
        if rank(hand_card(g, seat, k)) < rank(hand_card(g, seat, best)):
            best = k
    return best


@hot
def random_choice(g, seat, total, rng):
    """``(slot, move)`` uniform over the ``total`` (card, move) choices of the hand."""
    r = bounded(rng, total)
    slot = -1
    move = -1
    for k in range(hand_size(g, seat)):
        grp = group_of(g, k)
        count = group_end(g, grp) - group_start(g, grp)
        if slot < 0:
            if r < count:
                slot = k
                move = group_start(g, grp) + r
            r -= count
    return slot, move


@hot_inline
def choose(g, seat, strategy, total, rng):
    """``(slot, move)`` of a built-in strategy: the hand slot of the card to play and the
    move of the list (``moves.gen_hand``, which scored it when the strategy needs scores),
    or move -1 and the slot of the card to discard when ``total`` (the hand's legal
    choices) is 0."""
    slot = -1
    mv = -1
    if strategy == GREEDY or strategy == AGGRESSIVE:
        if total > 0:
            mv = best_move(g, seat)
            slot = best_slot(g, mv)
        else:
            slot = lowest_rank_slot(g, seat)
    elif strategy == RANDOM:
        if total > 0:
            slot, mv = random_choice(g, seat, total, rng)
        else:
            slot = bounded(rng, hand_size(g, seat))
    return slot, mv

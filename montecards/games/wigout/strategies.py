"""Wig Out!'s built-in strategies: their codes and choosers (docs/rules/wigout.md: Strategies).

A chooser is called when a seat acts and has a legal play (the draw is forced, not a choice)
and returns the play, ``2 * character + START / ADD`` (``rules``). Each reads only what its seat
may see: its own hand (the counts and the held-once / held-twice masks) and the table's mask.
Their twins over the decision interface (``view.py``) are ``montecards/strategies/wigout_*.py`` (and ``examples/strategies/wigout_singles_first.py``);
``tests/test_view_wigout.py`` shows they choose the same plays.

``weighted`` and ``tuned`` score every legal play by a weighted sum of the ``FEATURES`` below and
make the highest-scoring one (ties: the first in ``view.legal_moves``'s order); their weights
are run-time data, seat ``s``'s weight ``k`` at ``params[weight_index(params, s, k)]``
(``engine/weights.py``), so trying other weights never recompiles. ``GREEDY_WEIGHTS`` make
exactly ``greedy``'s plays; ``weighted``'s defaults, ``DEFAULT_WEIGHTS``, also hold back
plays that open a new pile; ``tuned``'s are ``TUNED_WEIGHTS``. The features are documented in
``docs/strategies/wigout.md`` ("weighted and tuned: the features").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.weights import weight_index, weighted_and_tuned
from montecards.games.wigout.rules import (
    ADD,
    COPIES,
    PLAYERS,
    TABLE,
    addable,
    count_bits,
    draw_pile_size,
    hand_size,
    held,
    held_once,
    held_twice,
    lowest_bit,
)

# strategy codes (index into NAMES; new codes go at the end, so that no code moves)
GREEDY = 0
SINGLES_FIRST = 1
RANDOM = 2
WEIGHTED = 3
TUNED = 4
NAMES = ("greedy", "singles_first", "random", "weighted", "tuned")

# --- weighted and tuned: the features (docs/strategies/wigout.md) -------------------------------
# A play of character c by a seat holding n copies of it and H cards in all; "opens": a start
# of a character without a pile on the table (so none of it shows: its unseen copies, in other
# hands or the draw pile, are copies - n); O: the cards the opponents hold in all, P: the draw
# pile's size, m: the fewest cards an opponent holds (>= 1 while a round runs).
F_CARDS = 0  # cards the play sheds: n for a start, 1 for an add
F_WIG_OUT = 1  # 1 if the play empties the hand (wins the round)
F_SPLIT = 2  # 1 for an add from a character held >= 2 (the actions still needed stay the same)
F_ADD = 3  # 1 for an add
F_OPENS = 4  # 1 for a start of a character no pile shows
F_HELP = 5  # opens x (copies - n) x O / (O + P): expected copies the opponents hold (plays given)
F_HELP_PILE = 6  # opens x (copies - n) x P / (O + P): expected copies in the draw pile
F_HELP_NEAR = 7  # help / m: help given when an opponent is close to wigging out
F_CARDS_NEAR = 8  # cards / m: shedding when an opponent is close to wigging out
F_HELP_STUCK = 9  # opens x (copies - n) when the draw pile is empty (opponents cannot draw)
N_FEATURES = 10

FEATURES = (
    "cards", "wig_out", "split", "add", "opens", "help", "help_pile", "help_near", "cards_near",
    "help_stuck",
)
GREEDY_WEIGHTS = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
"""The cards shed alone: exactly ``greedy``'s plays (``tests/test_weighted_wigout.py`` shows the
same rows)."""
DEFAULT_WEIGHTS = (1.0, 0.0, 0.0, 0.0, -3.0, 0.0, 0.0, 0.0, 0.0, 0.0)
"""``weighted``'s default weights: greedy's cards shed, less 3 for a play that opens a new
character, so a new pile (a play handed to every opponent holding that character) waits until
nothing else sheds as much. One seat of it among ``greedy`` seats wins 26.9 % at 4 players
(fair share 25 %), more than its share at every player count (docs/strategies/wigout.md)."""
TUNED_WEIGHTS = (
    0.30272458787409123,
    11.478332596378136,
    -0.44564108941904923,
    -3.5317696057024994,
    -4.0,
    -4.0,
    -1.630162329140429,
    -1.788997101295445,
    4.0,
    2.0,
)
"""``tuned``'s weights: the winner of ``python scripts/tune_builtins.py --game wigout`` (record:
``docs/tuning/wigout.json``), against greedy at 4 players: held out on 100,000 deals x 4
seatings it wins 26.90 % [26.81, 27.00], +0.02 points over ``weighted``'s defaults (paired)."""
WEIGHT_BOUNDS = (
    (0.0, 4.0), (0.0, 20.0), (-4.0, 2.0), (-4.0, 4.0), (-4.0, 4.0), (-4.0, 2.0), (-4.0, 2.0),
    (-8.0, 2.0), (-4.0, 4.0), (-4.0, 2.0),
)
WEIGHTS_DOC = ("each legal play scores sum_k w_k * feature_k; the highest is played, ties by "
               "the legal order (docs/strategies/wigout.md)")
WEIGHTS = weighted_and_tuned(FEATURES, DEFAULT_WEIGHTS, TUNED_WEIGHTS, WEIGHT_BOUNDS, WEIGHTS_DOC)
"""``GameSpec.seat_params``: the built-ins that read run-time weights."""


@njit(cache=True, inline="always")
def greedy_play(g, seat):
    """``greedy``: start a pile with all copies of the most numerous character held >= 2 times
    (even if it has a pile already); else add one card of the lowest-index character that has
    a pile; ties: lowest character index."""
    m2 = held_twice(g, seat)
    if m2 != 0:
        best = -1
        best_n = 1
        while m2 != 0:  # the characters held >= 2 times, lowest first
            c = lowest_bit(m2)
            n = held(g, seat, c)
            if n > best_n:
                best = c
                best_n = n
            m2 &= m2 - 1
        return 2 * best
    return 2 * lowest_bit(addable(g, seat)) + ADD


@njit(cache=True, inline="always")
def singles_first_play(g, seat):
    """``singles_first``: add one card of the lowest-index character that has a pile; else
    start a pile with all copies of the lowest-index character held >= 2 times."""
    can_add = addable(g, seat)
    if can_add != 0:
        return 2 * lowest_bit(can_add) + ADD
    return 2 * lowest_bit(held_twice(g, seat))


@njit(cache=True, inline="always")
def random_play(g, seat, u):
    """``random``: play ``floor(u * n)`` of the ``n`` legal plays listed by character ascending,
    "start" (held >= 2 times) before "add" (a pile of it shows): ``view.legal_moves``'s order."""
    m2 = held_twice(g, seat)
    can_add = addable(g, seat)
    k = np.int64(u * (count_bits(m2) + count_bits(can_add)))
    either = m2 | can_add
    while True:  # the characters with a play, lowest first
        c = lowest_bit(either)
        bit = either & -either
        if m2 & bit:
            if k == 0:
                return 2 * c
            k -= 1
        if can_add & bit:
            if k == 0:
                return 2 * c + ADD
            k -= 1
        either ^= bit


@njit(cache=True, inline="always")
def weighted_score(w, b, n, start, showing, hand, copies, in_hands, in_pile, inv_near,
                   pile_empty):
    """The weighted sum of a play's features (``FEATURES``, in order), the seat's weights at
    ``w[b:]``: ``n`` copies of its character held, ``start`` / add, ``showing``: a pile of it
    is on the table, ``hand``: cards held; the opponents' share ``in_hands`` and the draw pile's share
    ``in_pile`` of the unseen cards, ``inv_near`` = 1 / the fewest cards an opponent holds."""
    cards = n if start else 1
    opens = start and not showing
    unseen = (copies - n) if opens else 0
    help_ = unseen * in_hands
    score = w[b + F_CARDS] * cards
    score += w[b + F_WIG_OUT] * (1.0 if cards == hand else 0.0)
    score += w[b + F_SPLIT] * (1.0 if (not start and n >= 2) else 0.0)
    score += w[b + F_ADD] * (0.0 if start else 1.0)
    score += w[b + F_OPENS] * (1.0 if opens else 0.0)
    score += w[b + F_HELP] * help_
    score += w[b + F_HELP_PILE] * (unseen * in_pile)
    score += w[b + F_HELP_NEAR] * (help_ * inv_near)
    score += w[b + F_CARDS_NEAR] * (cards * inv_near)
    score += w[b + F_HELP_STUCK] * (unseen if pile_empty else 0.0)
    return score


@njit(cache=True)
def weighted_play(g, seat, params):
    """``weighted`` / ``tuned``: the legal play with the highest weighted score (``FEATURES``;
    the seat's weights from the table at the end of ``params``); ties: the first in the legal
    order (characters ascending, for one character the start before the add)."""
    b = weight_index(params, seat, 0)
    others = 0
    fewest = np.int64(1) << 62
    for s in range(g[PLAYERS]):
        if s != seat:
            h = hand_size(g, s)
            others += h
            fewest = min(fewest, h)
    pile = draw_pile_size(g)
    unseen_total = max(others + pile, 1)
    in_hands = others / unseen_total
    in_pile = pile / unseen_total
    inv_near = 1.0 / max(fewest, 1)
    pile_empty = pile == 0
    hand = hand_size(g, seat)
    copies = g[COPIES]
    table = g[TABLE]
    m2 = held_twice(g, seat)
    can_add = held_once(g, seat) & table
    either = m2 | can_add
    best = np.int64(-1)
    best_score = 0.0
    while either != 0:  # the characters with a play, lowest first: the legal order
        c = lowest_bit(either)
        bit = either & -either
        n = held(g, seat, c)
        showing = (table & bit) != 0
        if m2 & bit:
            score = weighted_score(params, b, n, True, showing, hand, copies, in_hands, in_pile,
                                   inv_near, pile_empty)
            if best < 0 or score > best_score:
                best = 2 * c
                best_score = score
        if can_add & bit:
            score = weighted_score(params, b, n, False, showing, hand, copies, in_hands, in_pile,
                                   inv_near, pile_empty)
            if best < 0 or score > best_score:
                best = 2 * c + ADD
                best_score = score
        either ^= bit
    return best


@njit(cache=True, inline="always")
def choose_play(g, seat, strategy, u):
    """The play of a seat that has one, by its strategy (``u``: ``random``'s uniform). The
    kernel calls ``weighted_play`` itself for ``weighted`` / ``tuned`` seats, in the kernels
    of runs that have one (``kernel.OPTIONS``)."""
    if strategy == GREEDY:
        return greedy_play(g, seat)
    if strategy == SINGLES_FIRST:
        return singles_first_play(g, seat)
    return random_play(g, seat, u)

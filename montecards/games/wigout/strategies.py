"""Wig Out!'s built-in strategies: their codes and choosers (docs/rules/wigout.md: Strategies).

A chooser is called when a seat acts and has a legal play (the draw is forced, not a choice)
and returns the play, ``2 * character + START / ADD`` (``rules``). Each reads only what its seat
may see: its own hand (the counts and the held-once / held-twice masks) and the table's mask.
Their twins over the decision interface (``view.py``) are ``examples/strategies/wigout_*.py``;
``tests/test_view_wigout.py`` shows they choose the same plays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.games.wigout.rules import (
    ADD,
    addable,
    count_bits,
    held,
    held_twice,
    lowest_bit,
)

# strategy codes (index into NAMES)
GREEDY = 0
SINGLES_FIRST = 1
RANDOM = 2
NAMES = ("greedy", "singles_first", "random")


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
def choose_play(g, seat, strategy, u):
    """The play of a seat that has one, by its strategy (``u``: ``random``'s uniform)."""
    if strategy == GREEDY:
        return greedy_play(g, seat)
    if strategy == SINGLES_FIRST:
        return singles_first_play(g, seat)
    return random_play(g, seat, u)

"""Parade's collections as packed words: the six colours in one int64, 10 bits each.

Per colour, a collection holds at most 11 cards worth at most 55 points, so a seat's counts,
its value sums and the best other counts each fit in one word with one 10-bit field per
colour (colour ``c`` in bits ``10c .. 10c + 9``). Taking cards is then a word addition,
"holds all six colours" is one test, and the score of a collection — every colour at once,
without a branch — is a few word operations (SIMD within a register). The rules keep
collections this way; ``greedy`` scores every candidate play with ``score_against``
(thresholds from ``majority_threshold``, once per decision), which ``tests/test_parade.py``
checks against the naive oracle.

Ten bits hold a count (at most 11: 4 bits) and a value sum (at most 55: 6 bits) together,
so a **tally** — a count word plus its sum word shifted left by 4 — carries both in one
word: what a play takes is added up as one tally and split once (``tally_counts``,
``tally_sums``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot
from montecards.games.parade.cards import N_CARDS, N_COLOURS, N_VALUES

FIELD_BITS = 10
FIELD_MASK = (1 << FIELD_BITS) - 1
TOP_BIT = 1 << (FIELD_BITS - 1)  # within a field
ONES = sum(1 << (FIELD_BITS * c) for c in range(N_COLOURS))  # 1 in every colour's field
HIGH_BITS = ONES * TOP_BIT  # the top bit of every field

COUNT_BITS = 4  # a tally's count bits in each field (counts <= 11); its sum sits above them
TALLY_COUNTS = ONES * ((1 << COUNT_BITS) - 1)
TALLY_SUMS = ONES * ((1 << (FIELD_BITS - COUNT_BITS)) - 1)  # after the shift (sums <= 55)

CARD_COUNT = np.array([1 << (FIELD_BITS * (card // N_VALUES)) for card in range(N_CARDS)], np.int64)
"""A card as a packed count: 1 in its colour's field."""
CARD_VALUE = np.array(
    [(card % N_VALUES) << (FIELD_BITS * (card // N_VALUES)) for card in range(N_CARDS)], np.int64
)
"""A card as a packed value sum: its value in its colour's field."""
CARD_TALLY = CARD_COUNT + (CARD_VALUE << COUNT_BITS)
"""A card as a tally: its count and value in its colour's field."""
COLOUR_FIELD = np.array(
    [FIELD_MASK << (FIELD_BITS * (card // N_VALUES)) for card in range(N_CARDS)], np.int64
)
"""A card's colour as a packed mask: all ones in its colour's field."""


@njit(cache=True, inline="always")
def card_count(card):
    """``CARD_COUNT[card]`` (an unsigned index: numba then skips the negative-index fix-up)."""
    return CARD_COUNT[np.uint64(card)]


@njit(cache=True, inline="always")
def card_value(card):
    """``CARD_VALUE[card]``."""
    return CARD_VALUE[np.uint64(card)]


@njit(cache=True, inline="always")
def card_tally(card):
    """``CARD_TALLY[card]``."""
    return CARD_TALLY[np.uint64(card)]


@njit(cache=True, inline="always")
def tally_counts(tally):
    """The packed counts of a tally (a sum of card tallies, at most 11 cards per colour)."""
    return tally & TALLY_COUNTS


@njit(cache=True, inline="always")
def tally_sums(tally):
    """The packed value sums of a tally."""
    return (tally >> COUNT_BITS) & TALLY_SUMS


@hot
def field(word, colour):
    """One colour's entry of a packed word."""
    return (word >> (FIELD_BITS * colour)) & FIELD_MASK


@hot
def every_field_set(word):
    """Is every colour's entry of a packed count word at least 1?"""
    return ((word + ONES * (TOP_BIT - 1)) & HIGH_BITS) == HIGH_BITS


@hot
def field_max(a, b):
    """The colour-by-colour maximum of two packed count words (entries < ``TOP_BIT``)."""
    a_at_least_b = (((a | HIGH_BITS) - b) & HIGH_BITS) >> (FIELD_BITS - 1)
    pick_a = a_at_least_b * FIELD_MASK
    return (a & pick_a) | (b & ~pick_a)


@hot
def field_total(word):
    """The sum of the six entries of a packed word (each <= 55, so every partial sum < 1024).

    Multiplying by ``ONES`` adds every field into the top one (bits 50..59): the products of
    lower fields land below it without carrying into it, those of higher fields above it.
    """
    return ((word * ONES) >> (FIELD_BITS * (N_COLOURS - 1))) & FIELD_MASK


@njit(cache=True, inline="always")
def colour_field(card):
    """``COLOUR_FIELD[card]``."""
    return COLOUR_FIELD[np.uint64(card)]


@hot
def majority_threshold(other_best, margin):
    """Per colour, the fewest cards that are in majority against ``other_best`` (packed):
    ``max(1, other_best + margin)`` (``rules.colour_score``: at least one card and
    ``count - other_best >= margin``)."""
    return field_max(other_best + ONES * margin, ONES)


@hot
def score_against(counts, sums, threshold):
    """The score of a collection given as packed ``counts`` and value ``sums`` (rules:
    Scoring), with ``threshold`` from ``majority_threshold``.

    A colour is in majority iff its count reaches its threshold: adding ``TOP_BIT`` minus the
    threshold sets a field's top bit exactly then, in every field at once, and no field
    over- or underflows (counts <= 11, thresholds <= 13). Subtracting that bit shifted down
    to bit 0 turns it into a mask of the field's lower bits. Majority colours score their
    count, the others their sum; the six fields are then added up (at most 6 x 55 = 330).
    """
    majority = (counts + HIGH_BITS - threshold) & HIGH_BITS
    mask = majority - (majority >> (FIELD_BITS - 1))  # bits 0..8 of each majority field
    return field_total((counts & mask) | (sums & ~mask))


@hot
def packed_score(counts, sums, other_best, margin):
    """The score of a collection (``score_against``) against the best other counts
    ``other_best`` with the majority ``margin`` in force."""
    return score_against(counts, sums, majority_threshold(other_best, margin))


@hot
def nonzero_fields(word):
    """The top bit of every field of a packed count word that is at least 1 (a field mask)."""
    return (word + ONES * (TOP_BIT - 1)) & HIGH_BITS


@hot
def majority_fields(counts, threshold):
    """The top bit of every colour in which ``counts`` reach ``threshold`` (``score_against``'s
    majority test; ``threshold`` from ``majority_threshold``)."""
    return (counts + HIGH_BITS - threshold) & HIGH_BITS


@hot
def fields_set(mask):
    """How many fields of a field mask (top bits only, as from ``nonzero_fields``) are set."""
    return field_total(mask >> (FIELD_BITS - 1))

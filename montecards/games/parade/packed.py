"""Parade's scoring on packed words: the six colours of a collection in one int64, 8 bits each.

Per colour, a collection holds at most 11 cards worth at most 55 points, so a seat's counts,
its value sums and the best other counts each fit in one word with one 8-bit field per colour
(colour ``c`` in bits ``8c .. 8c + 7``). Adding the cards a play would take is then one word
addition, and the score of the result — for every colour at once, without a branch — is a few
word operations (SIMD within a register). ``greedy`` scores every candidate play this way;
``tests/test_parade.py`` checks ``packed_score`` against ``rules.seat_score``.
"""

from __future__ import annotations

import numpy as np

from montecards.engine.jit import hot
from montecards.games.parade.cards import N_CARDS, N_COLOURS, N_VALUES

FIELD_BITS = 8
ONES = sum(1 << (FIELD_BITS * c) for c in range(N_COLOURS))  # 1 in every colour's field
HIGH_BITS = ONES << (FIELD_BITS - 1)  # the top bit of every field
EVEN_FIELDS = sum(0xFF << (2 * FIELD_BITS * c) for c in range(N_COLOURS // 2))
SUM_OF_PAIRS = sum(1 << (2 * FIELD_BITS * c) for c in range(N_COLOURS // 2))

CARD_COUNT = np.array([1 << (FIELD_BITS * (card // N_VALUES)) for card in range(N_CARDS)], np.int64)
"""A card as a packed count: 1 in its colour's field."""
CARD_VALUE = np.array(
    [(card % N_VALUES) << (FIELD_BITS * (card // N_VALUES)) for card in range(N_CARDS)], np.int64
)
"""A card as a packed value sum: its value in its colour's field."""


@hot
def pack(g, first):
    """The six entries ``g[first + colour]`` (each 0..255) as one packed word."""
    start = np.int64(first)
    word = 0
    for c in range(N_COLOURS):
        word |= g[start + c] << (FIELD_BITS * c)
    return word


@hot
def packed_score(counts, sums, other_best, margin):
    """The score of a collection given as packed ``counts`` and value ``sums`` (rules: Scoring).

    A colour is in majority iff its count is ``>= 1`` and ``count - other_best >= margin``
    (``rules.colour_score``). Both tests are done in every field at once: adding 127, or 128
    minus ``other_best + margin``, sets a field's top bit exactly when the test holds, and no
    field over- or underflows (counts <= 11, margin <= 2). Majority colours score their count,
    the others their sum; the six fields are then added up (at most 6 x 55 = 330).
    """
    at_least_one = (counts + ONES * 127) & HIGH_BITS
    ahead = (counts + ONES * 128 - other_best - ONES * margin) & HIGH_BITS
    majority = ((at_least_one & ahead) >> (FIELD_BITS - 1)) * 0xFF
    points = (counts & majority) | (sums & ~majority)
    pairs = (points & EVEN_FIELDS) + ((points >> FIELD_BITS) & EVEN_FIELDS)
    return ((pairs * SUM_OF_PAIRS) >> (2 * FIELD_BITS * (N_COLOURS // 2 - 1))) & 0xFFFF

"""Parade's cards: 66 cards, one of each (colour, value), ``id = 11 * colour + value``."""

from __future__ import annotations

import numpy as np
from numba import njit

COLOURS = ("red", "blue", "purple", "green", "grey", "orange")
N_COLOURS = 6
N_VALUES = 11
N_CARDS = N_COLOURS * N_VALUES
HAND_SIZE = 5
OPENING_PARADE = 6
FINAL_HAND = 4
KEPT_AT_END = 2
MAX_PLAYERS = 6


COLOUR_OF = np.array([card // N_VALUES for card in range(N_CARDS)], dtype=np.int64)
VALUE_OF = np.array([card % N_VALUES for card in range(N_CARDS)], dtype=np.int64)


@njit(cache=True, inline="always")
def value_of(card):
    return VALUE_OF[np.uint64(card)]  # a table, unsigned index: no division, no sign fix-up


def label(card: int) -> str:
    """Text label of a card id, e.g. 36 -> ``"green-3"``."""
    return f"{COLOURS[card // N_VALUES]}-{card % N_VALUES}"


def card_id(text: str) -> int:
    """Card id of a label like ``"green-3"``; raises ValueError naming the expected form."""
    colour, sep, value = str(text).strip().lower().partition("-")
    if not sep or colour not in COLOURS or not value.isdigit() or not 0 <= int(value) < N_VALUES:
        raise ValueError(
            f"unknown card {text!r}: expected '<colour>-<value>' with colour in "
            f"{', '.join(COLOURS)} and value 0..10"
        )
    return COLOURS.index(colour) * N_VALUES + int(value)

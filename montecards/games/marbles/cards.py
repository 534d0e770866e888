"""Joker Marbles cards: ``decks`` standard decks of 52 cards + 2 jokers each.

Card ids run over ``0 .. 54 * decks - 1``. Within one deck (``c = id % 54``):
``c = 13 * suit + (rank - 1)`` for suits 0..3 (clubs, diamonds, hearts, spades) and ranks
A = 1 .. K = 13; ``c`` = 52, 53 are the two jokers. The next deck adds 54. This is the
encoding of the naive oracle (tests/naive/marbles.py) and of ``play_scripted``.
"""

from __future__ import annotations

from numba import njit

CARDS_PER_DECK = 54
JOKER_RANK = 14
SUITS = "CDHS"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@njit(cache=True, inline="always")
def rank_of(card):
    """A = 1 .. K = 13, joker = 14."""
    c = card % CARDS_PER_DECK
    if c >= 52:
        return JOKER_RANK
    return c % 13 + 1


def label(card: int, decks: int = 1) -> str:
    """Text label of a card id, e.g. 19 -> ``"7D"``, 52 -> ``"joker"``; ``"#2"`` marks deck 2."""
    c = card % CARDS_PER_DECK
    text = "joker" if c >= 52 else RANKS[c % 13] + SUITS[c // 13]
    if decks > 1:
        text += f"#{card // CARDS_PER_DECK + 1}"
    return text

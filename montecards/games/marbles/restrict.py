"""Joker Marbles' patterns for restricted play, ``restrict(INNER, never=PATTERN)`` (docs/metrics.md).

A pattern is one card (``7H``, ``10S``, ``joker``: the position notation of
``position.parse_cards``; with several decks it names that card in every deck) or a rank
(``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``: the four suits). It is a 0/1 mask over the 54
cards of one deck. The restriction applies to the play decisions (``DECISION_PLAY``: which card,
and which move of it); a discard, when nothing is playable, is not a play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.errors import InputError
from montecards.games.marbles import view
from montecards.games.marbles.cards import CARDS_PER_DECK, RANKS, SUITS
from montecards.games.marbles.position import parse_cards

PATTERN_SIZE = CARDS_PER_DECK
FORMS = f"a card (7H, 10S, joker) or a rank ({', '.join(RANKS)})"


def parse(text: str) -> np.ndarray:
    """The cards ``text`` names, as a 0/1 mask over one deck's cards (InputError if none)."""
    t = str(text).strip().upper()
    mask = np.zeros(PATTERN_SIZE, dtype=np.int64)
    if t in RANKS:
        for suit in range(len(SUITS)):
            mask[suit * len(RANKS) + RANKS.index(t)] = 1
        return mask
    try:
        card = parse_cards([t], "pattern", 1)[0]
    except InputError:
        raise InputError(f"marbles: unknown pattern {text!r}: give {FORMS}") from None
    mask[card] = 1
    if card >= 4 * len(RANKS):  # the two jokers of a deck share their name
        mask[4 * len(RANKS):] = 1
    return mask


@njit(cache=True)
def plays(obs, move, pattern):
    """True when ``move`` plays a card the pattern names (play decisions only)."""
    if view.obs_kind(obs) != view.DECISION_PLAY:
        return False
    return pattern[view.move_card(move) % CARDS_PER_DECK] != 0

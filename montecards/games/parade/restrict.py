"""Parade's patterns for restricted play, ``restrict(INNER, never=PATTERN)`` (docs/metrics.md).

A pattern is one card (``red-0``, the position notation of ``cards.card_id``), a colour
(``red``) or a value (``0`` .. ``10``). It is a 0/1 mask over the 66 card ids. The restriction
applies to the play decisions (``DECISION_PLAY``: which hand card goes to the parade); the final
discard is not a play, and no pattern touches it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.errors import InputError
from montecards.games.parade import view
from montecards.games.parade.cards import COLOURS, N_CARDS, N_VALUES, card_id

PATTERN_SIZE = N_CARDS
FORMS = f"a card (red-0), a colour ({', '.join(COLOURS)}) or a value (0..{N_VALUES - 1})"


def parse(text: str) -> np.ndarray:
    """The card ids ``text`` names, as a 0/1 mask over the card ids (InputError if none)."""
    t = str(text).strip().lower()
    mask = np.zeros(PATTERN_SIZE, dtype=np.int64)
    if t in COLOURS:
        colour = COLOURS.index(t)
        mask[colour * N_VALUES:(colour + 1) * N_VALUES] = 1
    elif t.isdigit():
        if not 0 <= int(t) < N_VALUES:
            raise InputError(f"parade has no cards of value {t} (values 0..{N_VALUES - 1})")
        mask[int(t)::N_VALUES] = 1
    else:
        try:
            mask[card_id(t)] = 1
        except ValueError:
            raise InputError(f"parade: unknown pattern {text!r}: give {FORMS}") from None
    return mask


@njit(cache=True)
def plays(obs, move, pattern):
    """True when ``move`` plays a card the pattern names (play decisions only)."""
    if view.obs_kind(obs) != view.DECISION_PLAY:
        return False
    return pattern[view.move_card(move)] != 0

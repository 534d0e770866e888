"""Wig Out!'s patterns for restricted play, ``restrict(INNER, never=PATTERN)`` (docs/metrics.md).

A card is its character (``3``, the position notation of ``position._cards``), so a pattern is
a character (``0`` .. ``MAX_CHARS - 1``; a deck of the official rules has ``0`` .. ``11``) or a
kind of play: ``start`` (start a pile with every copy held) or ``add`` (add a card to a pile).
A move matches when its character or its kind is named. Wig Out!'s one decision is a play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.errors import InputError
from montecards.games.wigout import view
from montecards.games.wigout.cards import MAX_CHARS
from montecards.games.wigout.position import MOVE_KINDS

PATTERN_SIZE = MAX_CHARS + 2
"""``pattern[character]``, then ``pattern[MAX_CHARS + kind]`` (kind: start 0, add 1)."""
FORMS = f"a character (0..{MAX_CHARS - 1}) or a kind of play ({', '.join(MOVE_KINDS)})"


def parse(text: str) -> np.ndarray:
    """The characters or kind ``text`` names, as a 0/1 mask (InputError if none)."""
    t = str(text).strip().lower()
    mask = np.zeros(PATTERN_SIZE, dtype=np.int64)
    if t in MOVE_KINDS:
        mask[MAX_CHARS + MOVE_KINDS[t]] = 1
    elif t.isdigit() and int(t) < MAX_CHARS:
        mask[int(t)] = 1
    else:
        raise InputError(f"wigout: unknown pattern {text!r}: give {FORMS}")
    return mask


@njit(cache=True)
def plays(obs, move, pattern):
    """True when ``move`` plays a character, or a kind of play, the pattern names."""
    return pattern[view.move_character(move)] != 0 or pattern[MAX_CHARS + view.move_kind(move)] != 0

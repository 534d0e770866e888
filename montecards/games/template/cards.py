"""High card's components: a deck of numbered cards (docs/rules/template.md, Components).

A card's id is its number, ``0 .. deck_size - 1``, and its rank: a higher card beats a lower.
The bounds below size the kernel's state; the parameters (``game.PARAMS``) stay within them.
"""

from __future__ import annotations

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MIN_DECK = 2
MAX_DECK = 60
"""The most cards a deck may hold (``deck_size`` is from ``MIN_DECK`` to ``MAX_DECK``)."""
MIN_HAND = 1
MAX_HAND = 10
"""The most cards dealt to a seat (``hand_size`` is from ``MIN_HAND`` to ``MAX_HAND``)."""

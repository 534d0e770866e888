"""Wig Out!'s cards (docs/rules/wigout.md: Components).

``characters`` characters x ``copies`` identical copies (12 x 5 = 60 cards; an edition has 14
characters). A card is its character, ``0 .. characters - 1``: copies are interchangeable, so
no rule needs more. A set of characters is a bit mask, so at most 64 characters; the kernel's
parameter check allows up to ``MAX_CHARS``.
"""

from __future__ import annotations

MAX_PLAYERS = 6
MAX_CHARS = 60
"""Most characters a deck may have (a set of characters fits the bits of an int64 mask)."""

CHARACTERS = 12
COPIES = 5
STARTERS = 2
"""Cards turned face up as starter piles after the deal (one pile of two when they match)."""


def default_hand_size(players: int) -> int:
    """7 cards each with 2-4 players, 5 with 5-6 (rules: Round setup)."""
    return 7 if players <= 4 else 5


def deck_size(characters: int, copies: int) -> int:
    return characters * copies

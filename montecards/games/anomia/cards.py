"""Anomia's deck model (docs/rules/anomia.md, Components): which cards exist and which are in play.

Card ids follow the rules page and the naive reference: category cards are numbered symbol by
symbol (with the default deck ids 0-10 show symbol 0, 11-21 symbol 1, ..., 80-91 symbol 7),
then the wild cards in the order of ``wild_pairs`` (92 = (0,1), 93 = (1,2), ..., 99 = (7,4)).
``remove_symbols`` takes out every card, category or wild, showing a removed symbol; the cards
left keep their ids.

Inside the kernel a card's *code* says what it shows: ``0..7`` the symbol of a category card,
``WILD_BASE + 8 * x + y`` a wild showing symbols ``x`` and ``y``, ``NOT_IN_PLAY`` a removed card.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

N_SYMBOLS = 8
MIN_PLAYERS = 3
MAX_PLAYERS = 6
DEFAULT_CARDS_PER_SYMBOL = (11, 11, 11, 11, 12, 12, 12, 12)
DEFAULT_WILD_PAIRS = ((0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4))
THREE_PLAYER_REMOVED = (6, 7)
MAX_CARDS_PER_SYMBOL = 10_000
MAX_WILDS = 1_000

WILD_BASE = N_SYMBOLS
NOT_IN_PLAY = -1


def default_remove_symbols(players: int) -> list[int]:
    """The rulebook's suggestion: with 3 players play without two symbols (6 and 7)."""
    return list(THREE_PLAYER_REMOVED) if players == 3 else []


def wild_code(x: int, y: int) -> int:
    return WILD_BASE + N_SYMBOLS * x + y


def card_codes(
    cards_per_symbol: Sequence[int], wild_pairs: Sequence[Sequence[int]], remove_symbols: Sequence[int]
) -> np.ndarray:
    """The code of every card id (``NOT_IN_PLAY`` for the removed ones)."""
    removed = set(remove_symbols)
    codes = []
    for symbol, count in enumerate(cards_per_symbol):
        codes += [NOT_IN_PLAY if symbol in removed else symbol] * count
    for x, y in wild_pairs:
        codes.append(NOT_IN_PLAY if x in removed or y in removed else wild_code(x, y))
    return np.array(codes, dtype=np.int64)


def cards_in_play(
    cards_per_symbol: Sequence[int], wild_pairs: Sequence[Sequence[int]], remove_symbols: Sequence[int]
) -> list[int]:
    """Ids of the cards in play, ascending (the order the deck is shuffled from)."""
    codes = card_codes(cards_per_symbol, wild_pairs, remove_symbols)
    return np.flatnonzero(codes != NOT_IN_PLAY).tolist()


def label(card: int, code: int) -> str:
    """Readable label of a card: ``"s3#35"`` (symbol 3, id 35) or ``"wild3/0#95"``."""
    if code >= WILD_BASE:
        x, y = divmod(code - WILD_BASE, N_SYMBOLS)
        return f"wild{x}/{y}#{card}"
    return f"s{code}#{card}"


def card_id(item: object) -> int:
    """A card id from an int, an int-like string or a label such as ``"s3#35"``."""
    if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
        return int(item)
    text = str(item).strip()
    if "#" in text:
        text = text.rsplit("#", 1)[1]
    if not text.isdigit():
        raise ValueError(
            f"unknown card {item!r}: expected a card id (int) or a label like 's3#35' / 'wild0/1#92'"
        )
    return int(text)

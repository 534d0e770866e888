"""Gift of Tulips' cards (docs/rules/tulips.md, default model; every number is a parameter).

Card ids: ``id = colour * cards_per_colour + index`` with ``cards_per_colour =
len(values) * (base_per_value + marked_per_value)``. Inside one colour, ``index`` runs over
the base cards first (values in the order of ``values``, ``base_per_value`` each), then the
cards marked "5-6 players" (values in order, ``marked_per_value`` each). With the default
model (values 2, 3, 4; 6 base and 2 marked per value) purple is 0..23, blue 24..47, pink
48..71, orange 72..95; ids with ``index < 18`` are base cards. 2-4 players use the base
cards only, 5-6 players every card.
"""

from __future__ import annotations

from collections.abc import Sequence

COLOURS = ("purple", "blue", "pink", "orange")
N_COLOURS = 4
N_PLACES = 4
MIN_PLAYERS = 2
MAX_PLAYERS = 6
MAX_VALUES = 16
MAX_PER_COLOUR = 64
MAX_CARDS = N_COLOURS * MAX_PER_COLOUR
N_MAJORITY_COLS = 3  # at most 3 majorities per colour (5-6 players)


def cards_per_colour(values: Sequence[int], base_per_value: int, marked_per_value: int) -> int:
    return len(values) * (base_per_value + marked_per_value)


def card_value(card: int, values: Sequence[int], base_per_value: int, marked_per_value: int) -> int:
    """The printed value of card ``card`` (see the module docstring for the id layout)."""
    cpc = cards_per_colour(values, base_per_value, marked_per_value)
    index = card % cpc
    n_base = len(values) * base_per_value
    if index < n_base:
        return values[index // base_per_value]
    return values[(index - n_base) // marked_per_value]


def deck_ids(players: int, values: Sequence[int], base_per_value: int, marked_per_value: int) -> list[int]:
    """Ids of the cards used with ``players`` players (base cards only with 2-4), ascending."""
    cpc = cards_per_colour(values, base_per_value, marked_per_value)
    n_base = len(values) * base_per_value
    return [c * cpc + i for c in range(N_COLOURS) for i in range(cpc) if players >= 5 or i < n_base]


def label(card: int, values: Sequence[int], base_per_value: int, marked_per_value: int) -> str:
    """Readable label, e.g. ``"pink-3"`` (``"pink-3*"`` for a card marked 5-6 players)."""
    cpc = cards_per_colour(values, base_per_value, marked_per_value)
    marked = card % cpc >= len(values) * base_per_value
    colour = COLOURS[card // cpc]
    return f"{colour}-{card_value(card, values, base_per_value, marked_per_value)}" + ("*" if marked else "")

"""Wig Out!'s ``singles_first`` written as a user strategy: only the observation and legal moves.

Add one card of the lowest character that has a pile; with none, start a pile with all copies
of the lowest character held at least twice. The built-in ``singles_first`` makes exactly these
choices (``tests/test_view_wigout.py``).
"""

from montecards.games.wigout import view


def choose(obs, legal, params, memory, rng):
    """The index into ``legal`` of the play to make: the first add, else the first start."""
    for i in range(legal.shape[0]):
        if view.is_add(legal[i]):
            return i
    return 0  # only starts are legal: the first is the lowest character's

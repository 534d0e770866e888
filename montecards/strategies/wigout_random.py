"""Wig Out!'s ``random`` written as a user strategy: a uniform draw over the legal moves.

The built-in ``random`` draws one uniform ``u`` from its seat's choice stream per decision and
plays ``floor(u * n)`` of its ``n`` plays listed by character ascending, start before add:
the very order of ``legal``, so this draw over ``legal`` makes the same choice from the same
stream (``tests/test_view_wigout.py`` replays the game's choice stream to check it).
"""

from montecards.rng import uniform


def choose(obs, legal, params, memory, rng):
    """A uniformly drawn index into ``legal``."""
    return int(uniform(rng) * legal.shape[0])

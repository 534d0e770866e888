"""Row writing: the win shares of a finished game and the per-seat columns of its row.

Every game's row is ``turns, unfinished, <metrics...>`` then one block of ``players`` columns
per seat output (``win``, ``score``, the game's own; ``spec.Layout``). Two rules are the same
in every game and live here once:

* the win is shared equally by the seats that tie for the best result: ``WIN_UNIT // k``
  each for ``k`` tied seats (a game states its result as one integer key per seat, *lowest
  best*: Parade ``(score, cards)`` packed into one key, Wig Out! the total, Anomia minus the
  cards won, a team game the team's finishing order);
* an unfinished game has no winner (every share 0).

The comparisons compile without branches (who wins is unpredictable, so a branch would be
mispredicted about every other game).
"""

from __future__ import annotations

import numpy as np

from montecards.engine.jit import hot_inline
from montecards.engine.spec import GAME_COLUMNS, SEAT_COLUMNS, WIN_UNIT

COL_TURNS = GAME_COLUMNS.index("turns")
COL_UNFINISHED = GAME_COLUMNS.index("unfinished")
WIN_BLOCK = SEAT_COLUMNS.index("win")
SCORE_BLOCK = SEAT_COLUMNS.index("score")


@hot_inline
def share_win(keys, players, finished, shares):
    """``shares[s]``: seat ``s``'s share of the win, in ``WIN_UNIT``: the seats with the lowest
    ``keys`` share it equally; nobody wins an unfinished game. ``shares`` may be ``keys``
    itself (each share is written after its own key was last read), so a game can write its
    keys into the row's ``win`` columns and share the win in place."""
    best = keys[0]
    for seat in range(1, players):
        best = min(best, keys[seat])
    tied = np.int64(0)
    for seat in range(players):
        tied += keys[seat] == best
    share = (WIN_UNIT // tied) * np.int64(finished)
    for seat in range(players):
        shares[seat] = share * (keys[seat] == best)


@hot_inline
def seat_column(first_seat_col, players, block, seat):
    """The row column of seat ``seat``'s output number ``block`` (0 ``win``, 1 ``score``, ...)."""
    return first_seat_col + block * players + seat

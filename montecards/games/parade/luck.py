"""Parade's luck kernels: ``play_block``'s games of built-in strategies (the same games, from
the same streams: ``kernel.py``) with the luck ledger's hooks (``value.py``, docs/luck.md).
``play_luck_block`` plays the runs of ``--luck``; ``sample_block`` records the value fit's
samples. They sit apart from ``kernel.py`` as playing on from a position does (``playon.py``):
the kernel's ``play_game`` takes the ledger as an argument, and only these entry points pass one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.borrow import borrow, keep_alive
from montecards.games.parade.kernel import (
    ERR_NONE,
    FIRST_SEAT_COL,
    PARAM_MARGIN,
    block_work,
    play_game,
    seed_game,
    write_row,
)
from montecards.engine.value import ledger_result, ledger_start
from montecards.games.parade.value import new_ledger


@njit(cache=True, nogil=True)  # (not hot: it allocates the block's arrays)
def ledger_games(seed, start, players, params, strategies, rows, options, ledger, ledgers=None, game_of=None):
    """``play_block``'s games of built-in strategies (the same games, from the same streams)
    with the luck ledger's hooks (``value.py``): ``play_luck_block``'s (``ledgers`` its
    argument: luck into each finished game's row) or ``sample_block``'s (``game_of`` its)."""
    owned, work, rollout, weighted, search = block_work(options)
    seat_strategies = borrow(strategies)
    count = ledger[7]
    for g in range(rows.shape[0]):
        seed_game(work, seed, start + g, search)
        ledger_start(ledger, seed, start + g)
        first = count[0]
        if play_game(
            work[0], players, np.int64(params[PARAM_MARGIN]), seat_strategies, params, work[1], work[2],
            True, rollout, weighted, search, work[3], work[6], None, work[4], work[5], ledger=ledger,
        ) == ERR_NONE:
            write_row(work[0], players, ERR_NONE, rows[g])
            if ledgers is not None:
                ledger_result(ledger, players, rows[g], FIRST_SEAT_COL)
                if ledgers.shape[0] > 0:
                    ledgers[g, :] = ledger[1][: ledgers.shape[1]]
        if game_of is not None:
            for i in range(first, min(count[0], game_of.shape[0])):
                game_of[i] = g
    keep_alive(owned)
    keep_alive(strategies)


@njit(cache=True, nogil=True)
def play_luck_block(seed, start, players, params, strategies, rows, options, value, block, ledgers):
    """``play_block``'s games of built-in strategies (the same games, from the same streams)
    with the luck ledger (``value.py``, docs/luck.md): each finished game's row gains its
    ``luck`` and ``adjusted`` columns (the last ``2 * players``). Runs without ``--luck``
    never compile it. ``value``: ``engine.value``'s array (V(start) per seat, the weights);
    ``ledgers``: ``(0, k)``, or one float row per game for the ledger's accumulator (tests)."""
    ledger_games(seed, start, players, params, strategies, rows, options, new_ledger(value, strategies, params),
                 ledgers)


@njit(cache=True)
def sample_block(seed, start, players, params, strategies, rows, options, recorder, game_of):
    """The value fit's samples (``engine.value.fit``): ``rows``' games played as
    ``play_luck_block`` plays them, ``recorder`` (``value.new_recorder``) recording the features
    of every seat at sampled states; ``game_of[i]``: the game (row) of recorded state ``i``."""
    ledger_games(seed, start, players, params, strategies, rows, options, recorder, None, game_of)

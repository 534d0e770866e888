"""Small jitted helpers every game's chunk kernel uses (nothing game-specific here).

A game's ``run_chunk`` is a ``prange`` over blocks of consecutive games; each block allocates
the game's working arrays once and plays its games one after the other::

    @njit(cache=True, parallel=True)
    def run_chunk(seed, start, players, params, strategies, rows):
        blocks = block_count(rows.shape[0])
        for b in prange(blocks):
            work = new_work(players)
            for g in range(block_start(rows.shape[0], blocks, b), block_start(rows.shape[0], blocks, b + 1)):
                play_one(seed, start + g, players, params, strategies, work, rows[g])

Which thread plays which block never changes a game's result: game ``i`` only reads the
random stream of ``(seed, i)``.
"""

from __future__ import annotations

from numba import njit

BLOCK_GAMES = 256
"""Games per block: enough to amortise a block's allocations, small enough to balance threads."""


@njit(cache=True)
def block_count(n_games):
    """How many blocks to split a chunk of ``n_games`` into (at least one)."""
    return max(1, (n_games + BLOCK_GAMES - 1) // BLOCK_GAMES)


@njit(cache=True)
def block_start(n_games, blocks, b):
    """First game (relative to the chunk) of block ``b`` of ``blocks``."""
    return n_games * b // blocks

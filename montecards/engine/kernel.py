"""The chunk glue of every game (nothing game-specific here).

A game's ``run_chunk`` (``GameSpec.run_chunk``, made here by :func:`chunk_runner` from the
game's ``play_block`` and ``OPTIONS``) splits a chunk of games into blocks of consecutive games
and plays them with :func:`run_blocks`: a pool of Python threads, each calling the game's
jitted ``play_block`` (compiled ``nogil``) on the next block not yet taken. Each block
allocates the game's working arrays once and plays its games one after the other::

    @njit(cache=True, nogil=True)
    def play_block(seed, start, players, params, strategies, rows, options, fns, user, block):
        work = new_work(players)
        for g in range(rows.shape[0]):
            play_one(seed, start + g, players, params, strategies, work, rows[g])

Which thread plays which block never changes a game's result: game ``i`` only reads the
random stream of ``(seed, i)``; block ``b`` keeps its index (user strategies' fault records,
``engine/user_seats.py``).

Why threads and not numba's ``parallel=True`` ``prange`` (which the games used before): the
parallel kernel was one more compiled level above ``play_block`` (a gufunc that LLVM
optimised and turned into machine code again with the whole game inside), its parfor
lowering alone took ~1.5 s of Parade's first run, and its ``prange`` index (uint64) compiled
``play_block`` a second time next to the serial path's (int64). The threads run the same
machine code at the same speed (a ``play_block`` call costs ~1 us of dispatch for ~500 us
of games), and an exception raised in a block (a user strategy's) comes out as itself.
"""

from __future__ import annotations

import threading

import numba
import numpy as np
from numba import njit

from montecards.engine.options import Options, kernel_options

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


def block_bounds(n_games: int) -> list[tuple[int, int]]:
    """``(lo, hi)`` of every block of a chunk of ``n_games`` (``block_count``/``block_start``)."""
    blocks = max(1, (n_games + BLOCK_GAMES - 1) // BLOCK_GAMES)
    return [(n_games * b // blocks, n_games * (b + 1) // blocks) for b in range(blocks)]


def threads() -> int:
    """Threads a chunk is played on: numba's thread count for this thread
    (``numba.set_num_threads``; ``run.runner`` sets it to the run's ``jobs``)."""
    return numba.get_num_threads()


def run_blocks(play_block, seed, start, players, params, strategies, rows, options, fns, user, deal=None):
    """Play every block of ``rows`` (games ``start ..``) with ``play_block`` on :func:`threads`
    threads (this one among them). An exception raised in a block is re-raised after every
    thread has stopped (the one of the lowest block); blocks not yet started then stay unplayed.
    ``deal``: the deal option ``(replay, rotation)`` (``engine.options``), or None: left out
    of the call (the kernels of ordinary runs compile without it)."""
    bounds = block_bounds(rows.shape[0])
    n_threads = min(threads(), len(bounds))
    extra = () if deal is None else (deal,)

    def play(b):
        lo, hi = bounds[b]
        play_block(seed, start + lo, players, params, strategies, rows[lo:hi], options, fns, user, b, *extra)

    if n_threads <= 1:
        for b in range(len(bounds)):
            play(b)
        return
    taken = iter(range(len(bounds)))  # next() on a range iterator is atomic under the GIL
    lock = threading.Lock()
    errors: dict[int, BaseException] = {}

    def worker():
        while not errors:
            with lock:
                b = next(taken, None)
            if b is None:
                return
            try:
                play(b)
            except BaseException as error:  # noqa: BLE001 - handed to the calling thread
                errors[b] = error

    helpers = [threading.Thread(target=worker, daemon=True) for _ in range(n_threads - 1)]
    for helper in helpers:
        helper.start()
    try:
        worker()
    finally:
        for helper in helpers:
            helper.join()
    if errors:
        raise errors[min(errors)]


def chunk_runner(play_block, options: Options, luck_block=None):
    """A game's ``run_chunk`` (``engine/CONTRACT.md``) from its ``play_block`` and its
    ``OPTIONS`` (``engine.options``), and its ``luck_block`` (``engine.value.ValueParts``) if it
    has a value."""

    def run_chunk(seed, start, players, params, strategies, rows, user=None, serial=False, deal=None,
                  luck=None):
        """Games ``start ..`` into ``rows``, in blocks spread over the threads
        (:func:`run_blocks`), or in one block on this thread when ``serial``. ``user``:
        ``engine.user_strategies.kernel_arg``'s pair, or None. ``deal``: the deal option
        ``(replay, rotation)`` (``engine.options``: replayed deals, duplicate deals), or None.
        ``luck``: the value array (``engine.value``): the same games through the game's
        ``luck_block``, whose rows end in the ``luck`` and ``adjusted`` columns (built-in
        strategies, no deal option)."""
        on = kernel_options(options, strategies)
        if luck is not None:
            if deal is not None or user is not None:
                raise ValueError("the luck ledger plays built-in strategies on ordinary deals only")
            no_ledgers = np.zeros((0, 1), np.float64)

            def play_luck(seed, start, players, params, strategies, rows, on, fns, user, block):
                luck_block(seed, start, players, params, strategies, rows, on, luck, block, no_ledgers)

            if serial:
                play_luck(seed, start, players, params, strategies, rows, on, None, None, 0)
            else:
                run_blocks(play_luck, seed, start, players, params, strategies, rows, on, None, None)
            return
        fns, data = (None, None) if user is None else user
        extra = () if deal is None else ((np.int64(deal[0]), np.int64(deal[1])),)
        if serial:
            play_block(seed, start, players, params, strategies, rows, on, fns, data, 0, *extra)
        else:
            run_blocks(play_block, seed, start, players, params, strategies, rows, on, fns, data, *extra)

    run_chunk.play_block = play_block
    return run_chunk

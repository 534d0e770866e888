"""Joker Marbles' luck kernels: ``play_block``'s games of built-in strategies (the same games,
from the same streams: ``kernel.py``) with the luck ledger's hooks (``value.py``,
docs/luck.md). ``play_luck_block`` plays the runs of ``--luck``; ``sample_block`` records the
value fit's samples. They sit apart from ``kernel.py``: the kernel's ``play_game`` takes the
ledger as an argument, and only these entry points pass one.
"""

from __future__ import annotations

from numba import njit

from montecards.engine.borrow import borrow_all, keep_alive
from montecards.games.marbles.kernel import (
    ERR_NONE,
    FIRST_SEAT_COL,
    new_work,
    play_game,
    search_space,
    seed_game,
    weighted_option,
    write_row,
)
from montecards.engine.value import ledger_result, ledger_start
from montecards.games.marbles.value import new_ledger


@njit(cache=True, nogil=True)  # (not hot: it allocates the block's arrays)
def ledger_games(seed, start, players, params, strategies, rows, options, ledger, ledgers=None, game_of=None):
    """``play_block``'s games of built-in strategies (the same games, from the same streams)
    with the luck ledger's hooks (``value.py``): ``play_luck_block``'s (``ledgers`` its
    argument: luck into each finished game's row) or ``sample_block``'s (``game_of`` its)."""
    g, deck_rng, choice_rng, orders, offsets, script = new_work()
    weighted = weighted_option(options)
    search_owned = search_space(options)
    search = borrow_all(search_owned)
    count = ledger[7]
    for k in range(rows.shape[0]):
        seed_game(deck_rng, choice_rng, seed, start + k, search)
        ledger_start(ledger, seed, start + k)
        first = count[0]
        err = play_game(g, deck_rng, choice_rng, players, params, strategies, orders, offsets, script, None,
                        None, None, weighted, search, None, ledger)
        write_row(g, players, err, rows[k])
        if err == ERR_NONE and ledgers is not None:
            ledger_result(ledger, players, rows[k], FIRST_SEAT_COL)
            if ledgers.shape[0] > 0:
                ledgers[k, :] = ledger[1][: ledgers.shape[1]]
        if game_of is not None:
            for i in range(first, min(count[0], game_of.shape[0])):
                game_of[i] = k
    keep_alive(search_owned)


@njit(cache=True, nogil=True)
def play_luck_block(seed, start, players, params, strategies, rows, options, value, block, ledgers):
    """``play_block``'s games of built-in strategies (the same games, from the same streams)
    with the luck ledger (``value.py``, docs/luck.md): each finished game's row gains its
    ``luck`` and ``adjusted`` columns (the last ``2 * players``). Runs without ``--luck``
    never compile it. ``value``: ``engine.value``'s array (V(start) per seat, the weights);
    ``ledgers``: ``(0, k)``, or one float row per game for the ledger's accumulator (tests)."""
    ledger = new_ledger(value, strategies, params)
    ledger_games(seed, start, players, params, strategies, rows, options, ledger, ledgers)


@njit(cache=True)
def sample_block(seed, start, players, params, strategies, rows, options, recorder, game_of):
    """The value fit's samples (``engine.value.fit``): ``rows``' games played as
    ``play_luck_block`` plays them, ``recorder`` (``value.new_recorder``) recording the features
    of every seat at sampled states; ``game_of[i]``: the game (row) of recorded state ``i``."""
    ledger_games(seed, start, players, params, strategies, rows, options, recorder, None, game_of)

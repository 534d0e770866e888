"""Wig Out!'s luck kernels: ``play_block``'s games of built-in strategies (the same games, from
the same streams: ``kernel.py``) with the luck ledger's hooks (``value.py``, docs/luck.md).
``play_luck_block`` plays the runs of ``--luck``; ``sample_block`` records the value fit's
samples. They sit apart from ``kernel.py`` as playing on from a position does (``playon.py``):
the kernel's ``play_game`` takes the ledger as an argument, and only these entry points pass one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.borrow import borrow, keep_alive
from montecards.games.wigout.kernel import ERR_NONE, FIRST_SEAT_COL, play_game, weighted_option, write_row
from montecards.games.wigout.rules import UNFINISHED, new_floats, new_state
from montecards.engine.value import ledger_result, ledger_start
from montecards.games.wigout.value import new_ledger


@njit(cache=True, nogil=True)  # (not hot: it allocates the block's arrays)
def ledger_games(seed, start, players, params, strategies, rows, options, ledger, ledgers=None, game_of=None):
    """``play_block``'s games of built-in strategies (the same games, from the same streams)
    with the luck ledger's hooks (``value.py``): ``play_luck_block``'s (``ledgers`` its
    argument: luck into each finished game's row) or ``sample_block``'s (``game_of`` its)."""
    owned_g = new_state(players, params)
    owned_fw = new_floats(players, params)
    owned_rng = np.zeros((3, 4), np.uint64)
    g = borrow(owned_g)
    fw = borrow(owned_fw)
    event_rng = borrow(owned_rng[0])
    choice_rng = borrow(owned_rng[1])
    deck_rng = borrow(owned_rng[2])
    seat_strategies = borrow(strategies)
    run_params = borrow(params)
    no_decks = np.zeros((0, 0), np.int64)
    no_actors = np.zeros(0, np.int64)
    no_floats = np.zeros(0, np.float64)
    weighted = weighted_option(options)
    count = ledger[7]
    for k in range(rows.shape[0]):
        ledger_start(ledger, seed, start + k)
        first = count[0]
        err = play_game(g, fw, seed, start + k, seat_strategies, run_params, weighted, event_rng, choice_rng,
                        deck_rng, no_decks, no_actors, no_floats, no_floats, None, None, None, None, ledger)
        write_row(g, players, err, rows[k])
        if err == ERR_NONE and ledgers is not None and g[UNFINISHED] == 0:
            ledger_result(ledger, players, rows[k], FIRST_SEAT_COL)
            if ledgers.shape[0] > 0:
                ledgers[k, :] = ledger[1][: ledgers.shape[1]]
        if game_of is not None:
            for i in range(first, min(count[0], game_of.shape[0])):
                game_of[i] = k
    keep_alive(owned_g)
    keep_alive(owned_fw)
    keep_alive(owned_rng)
    keep_alive(strategies)
    keep_alive(params)


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

"""Gift of Tulips' luck kernels: ``play_block``'s games of built-in strategies (the same games,
from the same streams: ``kernel.py``) with the luck ledger's hooks (``value.py``,
docs/luck.md). ``play_luck_block`` plays the runs of ``--luck``; ``sample_block`` records the
value fit's samples. They sit apart from ``kernel.py``: the kernel's ``play_game`` takes the
ledger as an argument, and only these entry points pass one.
"""

from __future__ import annotations

from numba import njit

from montecards.engine.borrow import borrow, borrow_all, keep_alive
from montecards.games.tulips.kernel import (
    ERR_NONE,
    FIRST_SEAT_COL,
    majority_option,
    new_work,
    open_weighting,
    play_game,
    search_arg,
    search_space,
    seed_game,
    write_row,
)
from montecards.games.tulips.rules import init_tables
from montecards.engine.value import ledger_result, ledger_start
from montecards.games.tulips.value import new_ledger


@njit(cache=True, nogil=True)  # (not hot: it allocates the block's arrays)
def ledger_games(seed, start, players, params, strategies, rows, options, ledger, ledgers=None, game_of=None):
    """``play_block``'s games of built-in strategies (the same games, from the same streams)
    with the luck ledger's hooks (``value.py``): ``play_luck_block``'s (``ledgers`` its
    argument: luck into each finished game's row) or ``sample_block``'s (``game_of`` its)."""
    owned = new_work()
    init_tables(owned[0], players, params)
    g = borrow(owned[0])
    deck_rng = borrow(owned[1])
    choice_rng = borrow(owned[2])
    seat_strategies = borrow(strategies)
    weighting_owned = open_weighting(options, params, owned[0])
    weighting = borrow_all(weighting_owned)
    majority = majority_option(options)
    search_owned = search_space(options)
    search = search_arg(borrow_all(search_owned), params)
    count = ledger[7]
    for k in range(rows.shape[0]):
        seed_game(deck_rng, choice_rng, search, seed, start + k)
        ledger_start(ledger, seed, start + k)
        first = count[0]
        if play_game(
            g, seat_strategies, deck_rng, choice_rng, None, None, None, None, None,
            None, None, weighting, majority, search, None, ledger,
        ) == ERR_NONE:
            write_row(g, players, ERR_NONE, rows[k])
            if ledgers is not None:
                ledger_result(ledger, players, rows[k], FIRST_SEAT_COL)
                if ledgers.shape[0] > 0:
                    ledgers[k, :] = ledger[1][: ledgers.shape[1]]
        if game_of is not None:
            for i in range(first, min(count[0], game_of.shape[0])):
                game_of[i] = k
    keep_alive(search_owned)
    keep_alive(weighting_owned)
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

"""User strategies' seats inside the cached game kernels: the jitted half (``user_strategies.py``
finds, checks and compiles the strategies).

A user strategy is ``choose(obs, legal, params, memory, rng) -> int`` (``docs/strategies.md``),
compiled by numba for exactly one signature, :data:`SIG`. numba's first-class function types
make this work in a cached kernel (``tests/test_user_strategies.py`` checks the numba facts
this relies on): a dispatcher locked
to one signature, *in a tuple*, is typed by its signature only, so a kernel taking
``UniTuple(FunctionType(SIG), MAX_SEATS)`` compiles once per game and loads from numba's
cache in every later process, whichever strategies the tuple holds. A dispatcher passed on
its own would be typed as itself and recompile the kernel in every process: always the tuple,
padded with :func:`no_strategy`.

The kernels take two extra arguments, ``fns`` and ``data``: both None in runs of built-in
strategies only (numba types them ``NoneType`` and compiles the user path out, so those kernels
and their speed do not change), or the pair :func:`montecards.engine.user_strategies.kernel_arg`
builds (two arguments, as every game's ``play_block`` takes them)::

    fns = (choose_seat_0, ..., choose_seat_5)
    data = (params, param_counts, memory_size, faults)

* ``fns``: one function per seat (seats not played by a user strategy hold ``no_strategy``);
* ``params[seat, :param_counts[seat]]``: the seat's read-only weights;
* ``memory_size``: floats of per-seat scratch (zeroed at every game start);
* ``faults[block]``: what each block of games is doing, read after the run (below).

A game's block of games opens its seats once (:func:`open_seats`: the observation and
legal-move buffers, per-seat memory and random streams, allocated once per block), calls
:func:`start_game` before each game, :func:`ask` at each decision of a seat whose strategy
code is :data:`USER`, and :func:`end_block` after its last game. ``ask`` returns the index into
``legal`` the strategy chose, or -1 when the strategy returned an index outside ``legal``: the
game then stops, and so does its block (:func:`stopped`). Every one of these is a no-op, or
compiled out, when ``user`` is None.

Faults. The blocks run on Python threads (``engine.kernel.run_blocks``), where an exception
raised inside a user strategy comes out of its block, but it does not say which seat and game
raised it: ``faults[block]`` says, at every moment, which game the block plays and whether it
is inside a strategy call. After the run, a block that did not reach
:data:`DONE` stopped on a bad index (``BAD_INDEX``, with the index and the number of legal
moves) or inside a call (``IN_CALL``: the strategy raised), and the Python side
(``engine.user_strategies.check_faults``) replays that one game serially to show the real exception.
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.extending import overload

from montecards.engine.borrow import borrow
from montecards.rng import seed_stream

# numba labels first-class function types experimental; montecards relies on them knowingly
# (pinned numba, and tests/test_user_strategies.py guards an upgrade).
warnings.filterwarnings("ignore", message="First-class function type", category=NumbaExperimentalFeatureWarning)

MAX_SEATS = 6
"""Seats of the largest game (every game has at most six)."""

USER = 99
"""The strategy code of a seat played by a user strategy, the same in every game."""

USER_STREAM = 16
"""Seat ``s``'s random stream is substream ``USER_STREAM + s`` of its game: a user seat's draws
never shift the deck's or the built-in strategies' streams."""

RO_INT = types.Array(types.int64, 1, "C", readonly=True)
RO_FLOAT = types.Array(types.float64, 1, "C", readonly=True)
SIG = types.int64(RO_INT, RO_INT, RO_FLOAT, types.float64[::1], types.uint64[::1])
"""``choose(obs, legal, params, memory, rng) -> int``: the one signature of a user strategy.
``obs``, ``legal`` and ``params`` are read-only: a strategy that writes to them fails to compile."""

# faults[block, field]
FAULT_STATE = 0
FAULT_GAME = 1
FAULT_SEAT = 2
FAULT_VALUE = 3
FAULT_LEGAL = 4
FAULT_FIELDS = 5

# states of a block
RUNNING = 1
IN_CALL = 2
BAD_INDEX = 3
DONE = 4


def _no_strategy(obs, legal, params, memory, rng):
    return 0


_PADDING = []


def no_strategy():
    """The function that pads the tuple (a seat no user strategy plays never calls it),
    compiled on first use (not at import: runs of built-ins never need it)."""
    if not _PADDING:
        _PADDING.append(njit(SIG, cache=True)(_no_strategy))
    return _PADDING[0]


def new_faults(blocks: int) -> np.ndarray:
    """One fault record per block of a chunk."""
    return np.zeros((blocks, FAULT_FIELDS), dtype=np.int64)


def user_parts(user):
    """``(fns, data)`` of ``engine.user_strategies.kernel_arg``'s pair, or ``(None, None)`` when
    ``user`` is None, each with its own type. (Written ``(None, None) if user is None else
    user`` in jitted code, both come out Optional: the game then compiled once more, for
    Optional seats, besides ``play_block``'s plain ones.) Jitted code only."""
    raise NotImplementedError("user_parts is only callable from jitted code")


@overload(user_parts, jit_options={"cache": True})
def _user_parts(user):
    if isinstance(user, types.NoneType):
        return lambda user: (None, None)
    return lambda user: user


def open_seats(fns, data, block, obs_size, max_legal):
    """Block ``block``'s user seats: the functions and data with the block's buffers
    (observation, legal moves, per-seat memory and streams) and its index, or None when
    ``fns`` is None. Marks the block as running. Jitted code only."""
    raise NotImplementedError("open_seats is only callable from jitted code")


@overload(open_seats, jit_options={"cache": True})
def _open_seats(fns, data, block, obs_size, max_legal):
    if isinstance(fns, types.NoneType):
        return lambda fns, data, block, obs_size, max_legal: None

    def build(fns, data, block, obs_size, max_legal):
        params, counts, memory_size, faults = data
        faults[block, FAULT_STATE] = RUNNING
        return (
            fns, params, counts, faults,
            np.zeros(max(obs_size, 1), np.int64),
            np.zeros(max(max_legal, 1), np.int64),
            np.zeros((MAX_SEATS, max(memory_size, 1)), np.float64),
            np.zeros((MAX_SEATS, 4), np.uint64),
            block,
        )

    return build


def borrow_seats(seats):
    """``seats`` (:func:`open_seats`) with borrowed views (``engine.borrow``) of its arrays, or
    None when ``seats`` is None: no reference counting of them in the per-decision calls (Wig
    Out! measured its twin at 0.25 -> 0.33 of greedy with it). The caller keeps ``seats`` alive
    while the views are used. Jitted code only."""
    raise NotImplementedError("borrow_seats is only callable from jitted code")


@overload(borrow_seats, jit_options={"cache": True})
def _borrow_seats(seats):
    if isinstance(seats, types.NoneType):
        return lambda seats: None

    def build(seats):
        fns, params, counts, faults, obs, legal, memory, rngs, block = seats
        return (fns, borrow(params), borrow(counts), borrow(faults), borrow(obs), borrow(legal),
                borrow(memory), borrow(rngs), block)

    return build


@njit(cache=True, inline="always")
def obs_buffer(seats):
    """Where the game writes the deciding seat's observation."""
    return seats[4]


@njit(cache=True, inline="always")
def legal_buffer(seats):
    """Where the game writes the deciding seat's legal moves."""
    return seats[5]


@njit(cache=True)
def start_game(seats, seed, index, players, strategies):
    """Before game ``index``: note it in the block's fault record, zero the memory of every
    user seat and seed its random stream."""
    if seats is not None:
        faults, memory, rngs, block = seats[3], seats[6], seats[7], seats[8]
        faults[block, FAULT_GAME] = index
        for seat in range(players):
            if strategies[seat] == USER:
                memory[seat, :] = 0.0
                seed_stream(rngs[seat], seed, index, USER_STREAM + seat)


@njit(cache=True)
def end_block(seats):
    """Mark the block as done, unless it stopped on a fault."""
    if seats is not None:
        faults, block = seats[3], seats[8]
        if faults[block, FAULT_STATE] == RUNNING:
            faults[block, FAULT_STATE] = DONE


@njit(cache=True)
def stopped(seats):
    """True when the block stopped on a fault (its remaining games are not played)."""
    return seats is not None and seats[3][seats[8], FAULT_STATE] != RUNNING


@njit(cache=True)
def ask(seats, seat, n_legal):
    """The index into the legal moves (``legal_buffer(seats)[:n_legal]``, written by the game
    with the seat's observation in ``obs_buffer(seats)``) that seat ``seat``'s strategy
    chooses; -1 (and the block's fault record says why) when it is outside them."""
    fns, params, counts, faults, obs, legal, memory, rngs, block = seats
    faults[block, FAULT_SEAT] = seat
    faults[block, FAULT_STATE] = IN_CALL
    k = fns[seat](obs, legal[:n_legal], params[seat, : counts[seat]], memory[seat], rngs[seat])
    faults[block, FAULT_STATE] = RUNNING
    if k < 0 or k >= n_legal:
        faults[block, FAULT_STATE] = BAD_INDEX
        faults[block, FAULT_VALUE] = k
        faults[block, FAULT_LEGAL] = n_legal
        return -1
    return k

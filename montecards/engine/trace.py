"""Trace buffers: one rule for every game's event recording, and for a buffer that overflows.

A trace buffer is a 2-D int64 (or float64, for a game that records times) array: row 0,
column 0 counts the events of the game; event ``k`` (from 0) is row ``k + 1``. Runs pass None,
and a game's ``record`` (testing ``trace is None`` on its argument, which numba prunes)
compiles to nothing; a decision log passes an empty ``(0, width)`` buffer, into which nothing
is recorded either (:func:`tracing`). When a game records more events than the buffer holds,
the count goes on (so the overflow is known) and the events that do not fit are dropped;
reading the buffer (:func:`events_of`) then raises :class:`TraceOverflowError` saying how many
events the game had — never a silently cut trace.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload


@njit(cache=True, inline="always")
def trace_slot(trace):
    """The row the next event goes to (counting it), or -1 when not tracing or the buffer is full."""
    if trace.shape[0] == 0:
        return -1
    k = np.int64(trace[0, 0]) + 1  # an int64 row also for a float64 buffer (Wig Out!'s times)
    trace[0, 0] = k
    return k if k < trace.shape[0] else np.int64(-1)


def tracing(trace):
    """True when ``trace`` records events: False for None (tracing off, as a constant: runs
    compile the test out) and for an empty buffer (a decision log's). Jitted code only; a
    block that writes into ``trace`` itself still needs ``if trace is not None`` (numba types
    the code a constant False skips)."""
    raise NotImplementedError("only callable from jitted code")


@overload(tracing, inline="always")
def _tracing(trace):
    if isinstance(trace, types.NoneType):
        return lambda trace: False
    return lambda trace: trace.shape[0] > 0


class TraceOverflowError(RuntimeError):
    """A game recorded more events than its trace buffer holds."""


def new_trace(events: int, width: int) -> np.ndarray:
    """A buffer for up to ``events`` events of ``width`` fields."""
    return np.zeros((events + 1, width), dtype=np.int64)


def events_of(buffer: np.ndarray) -> np.ndarray:
    """The recorded events (one row each); raises if the game overflowed the buffer."""
    n = int(buffer[0, 0])
    if n >= buffer.shape[0]:
        raise TraceOverflowError(
            f"the game recorded {n} events, more than its trace buffer's {buffer.shape[0] - 1}"
        )
    return buffer[1 : n + 1]

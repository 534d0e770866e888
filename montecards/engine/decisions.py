"""The decision log: every decision of one game, as the decision interface shows it.

At each decision a seat makes, a game's ``view.py`` can build the seat's **observation** (a
flat int64 array of the game's ``OBS_SIZE``: only what that seat may know at the table) and
the **legal moves** (int64 move ids, at most the game's ``MAX_LEGAL``, in a fixed order).
Every strategy — built-in, user-written, tuned or search — chooses an index into that list.

A game's kernel fills a log (``new_log``) while it plays one game exactly as a run plays it
(same streams, same result): for each decision, the seat, the observation, the legal moves
and the index the seat's strategy chose. Runs pass ``None`` instead of a log, and the kernels
compile the logging out, so they keep their speed. ``Decision`` and ``read_log`` turn a log
into Python objects (``<game>.decisions(...)``); the tests replay logged decisions through
strategies written only over ``obs`` and ``legal`` and demand the built-ins' choices.

Layout of a log, a tuple of arrays ``(count, seats, obs, legal, n_legal, choices)``:
``count[0]`` the number of decisions played (it keeps counting past the capacity, so an
overflow is seen and reported, never silently cut), then one row per decision.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

NO_CHOICE = -1
"""Logged when a seat's move is not in the legal list (a bug the tests look for)."""


@dataclass(frozen=True)
class Decision:
    """One decision of one game: who decided, what they saw, what they could do, what they did."""

    number: int
    seat: int
    obs: np.ndarray
    legal: np.ndarray
    choice: int

    @property
    def move(self) -> int:
        """The move id chosen (``legal[choice]``)."""
        return int(self.legal[self.choice])


def new_log(capacity: int, obs_size: int, max_legal: int):
    """An empty log for up to ``capacity`` decisions of a game with these sizes."""
    return (
        np.zeros(1, np.int64),
        np.zeros(capacity, np.int64),
        np.zeros((capacity, obs_size), np.int64),
        np.zeros((capacity, max_legal), np.int64),
        np.zeros(capacity, np.int64),
        np.zeros(capacity, np.int64),
    )


@njit(cache=True)
def log_slot(log):
    """The row the next decision goes to (and count it), or -1 once the log is full."""
    count = log[0]
    k = count[0]
    count[0] = k + 1
    return k if k < log[1].shape[0] else -1


@njit(cache=True)
def choice_index(legal, n_legal, move):
    """The index of ``move`` among ``legal[:n_legal]`` (``NO_CHOICE`` if it is not there)."""
    for i in range(n_legal):
        if legal[i] == move:
            return i
    return NO_CHOICE


@njit(cache=True)
def log_choice(log, slot, move):
    """Log the index of ``move`` among row ``slot``'s legal moves (``NO_CHOICE`` if it is not
    there); a no-op for ``slot`` -1 (a full log): for games that log a decision before it is
    made (``log_slot`` first, the choice when it is known)."""
    if slot >= 0:
        log[5][slot] = choice_index(log[3][slot], log[4][slot], move)


class LogOverflowError(RuntimeError):
    """A game made more decisions than its log holds (raise the game's capacity)."""


def read_log(log) -> list[Decision]:
    """The logged decisions as ``Decision`` objects; raises if the log overflowed."""
    count, seats, obs, legal, n_legal, choices = log
    n = int(count[0])
    if n > seats.shape[0]:
        raise LogOverflowError(f"the game made {n} decisions, more than the log's {seats.shape[0]}")
    return [
        Decision(k, int(seats[k]), obs[k].copy(), legal[k, : n_legal[k]].copy(), int(choices[k]))
        for k in range(n)
    ]

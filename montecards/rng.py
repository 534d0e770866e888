"""Counter-based random streams: one independent generator per (seed, game, substream).

Game ``i`` of a run with seed ``s`` draws only from generators seeded from ``(s, i, k)``,
where ``k`` names a substream of the game (e.g. the deck and the players' choices). The
seed material goes through splitmix64 and feeds a xoshiro256** generator whose 4-word state
lives in a caller-provided ``uint64`` array, so kernels allocate nothing per game.

Because no state is shared between games, a run's per-game results do not depend on the
thread count, the chunk size or the backend, and any single game can be replayed alone.
The generator is frozen by golden vectors in ``tests/test_rng.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

STATE_WORDS = 4

_GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_S17 = np.uint64(17)
_S45 = np.uint64(45)
_S32 = np.uint64(32)
_ROT7 = np.uint64(7)
_ROT57 = np.uint64(57)
_FIVE = np.uint64(5)
_NINE = np.uint64(9)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def mix64(z):
    """The splitmix64 finaliser: a bijection of uint64 with full avalanche."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def seed_stream(state, seed, index, substream):
    """Fill ``state`` (4 x uint64) with the generator of game ``index``, ``substream`` of ``seed``."""
    x = mix64(mix64(mix64(np.uint64(seed)) + np.uint64(index)) + np.uint64(substream))
    for k in range(STATE_WORDS):
        x = x + _GOLDEN_GAMMA
        state[k] = mix64(x)


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << k) | (x >> (np.uint64(64) - k))


@njit(cache=True, inline="always")
def next_u64(state):
    """Next 64-bit output of xoshiro256** (advances ``state``)."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * _FIVE, _ROT7) * _NINE
    t = s1 << _S17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, _S45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@njit(cache=True, inline="always")
def bounded(state, n):
    """A uniform integer in ``[0, n)`` for ``0 < n < 2**32`` by multiply-shift (no modulo)."""
    return np.int64(((next_u64(state) >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True, inline="always")
def uniform(state):
    """A uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> _S11) * _TO_UNIT


@njit(cache=True, inline="always")
def exponential(state, rate):
    """An exponential waiting time with the given rate (inverse transform of ``1 - u``)."""
    return -np.log(1.0 - uniform(state)) / rate


@njit(cache=True, inline="always")
def draw_lazy(cards, drawn, state):
    """Lazy Fisher–Yates: the next card of a deck whose first ``drawn`` cards are already fixed.

    ``cards[drawn:]`` holds the undrawn cards; one uniform choice among them is swapped into
    position ``drawn`` and returned. Drawing all ``n`` cards gives a uniform permutation, and
    games that stop early pay only for the cards they use.
    """
    j = drawn + bounded(state, cards.shape[0] - drawn)
    card = cards[j]
    cards[j] = cards[drawn]
    cards[drawn] = card
    return card


@njit(cache=True)
def shuffle(cards, state):
    """Shuffle ``cards`` in place (a complete Fisher–Yates, same draws as ``draw_lazy``)."""
    for k in range(cards.shape[0] - 1):
        draw_lazy(cards, k, state)


def new_state() -> np.ndarray:
    """An empty generator state for use with :func:`seed_stream`."""
    return np.zeros(STATE_WORDS, dtype=np.uint64)

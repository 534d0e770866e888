"""The fixed calibration kernel: a same-run reference speed that never changes.

Every benchmark figure is also given as ``game_speed / calibration_speed`` measured in the
same process, on the same threads, moments apart. On a shared, loaded machine both speeds
move together, so the ratio is far steadier than either; a kernel regression moves only the
numerator.

DO NOT EDIT the kernels below: the recorded history is only comparable while they stay the
same. If they (or the way they are timed) must change, bump ``CALIBRATION_VERSION``:
comparisons then skip older entries.

The workload looks like a short card game: per "deal", seed a xoshiro256** stream from
``(seed, index)`` by splitmix64, shuffle a 66-card deck by Fisher-Yates (multiply-shift bounded
integers), then walk it keeping per-colour counts and sums with data-dependent branches.
It is self-contained (no montecards import) so a change in the library cannot move it.
"""

from __future__ import annotations

import time

import numba
import numpy as np
from numba import njit, prange

CALIBRATION_VERSION = 2
# 1: first entries, calibration run on the case's thread count; 2: always on one thread
DECK = 66
COLOURS = 6
BLOCK = 256

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GAMMA = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def _next(s):
    s0 = s[0]
    s1 = s[1]
    s2 = s[2]
    s3 = s[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    s[0] = s0
    s[1] = s1
    s[2] = s2
    s[3] = s3
    return result


@njit(cache=True)
def _deal(seed, index, state, deck, counts, sums):
    x = _mix(_mix(np.uint64(seed)) + np.uint64(index))
    for k in range(4):
        x = x + _GAMMA
        state[k] = _mix(x)
    for k in range(DECK):
        deck[k] = k
    for k in range(DECK - 1):
        j = k + np.int64(((_next(state) >> np.uint64(32)) * np.uint64(DECK - k)) >> np.uint64(32))
        c = deck[j]
        deck[j] = deck[k]
        deck[k] = c
    for c in range(COLOURS):
        counts[c] = 0
        sums[c] = 0
    top = 0
    acc = 0
    for k in range(DECK):
        card = deck[k]
        colour = card // 11
        value = card % 11
        if value >= top:
            counts[colour] += 1
            sums[colour] += value
            top = value
        else:
            top -= 1
            if counts[colour] > 2:
                acc += sums[colour]
    return acc


@njit(cache=True, parallel=True)
def deal_chunk(seed, n, out):
    """Play ``n`` calibration deals in blocks over the numba threads; ``out[b]`` = block checksum."""
    blocks = max(1, (n + BLOCK - 1) // BLOCK)
    for b in prange(blocks):
        state = np.zeros(4, np.uint64)
        deck = np.zeros(DECK, np.int64)
        counts = np.zeros(COLOURS, np.int64)
        sums = np.zeros(COLOURS, np.int64)
        acc = 0
        for i in range(n * b // blocks, n * (b + 1) // blocks):
            acc += _deal(seed, i, state, deck, counts, sums)
        out[b] = acc


def warm_up() -> None:
    deal_chunk(np.uint64(1), 2 * BLOCK, np.zeros(2, np.int64))


def time_deals(n: int, seed: int = 12345) -> float:
    """Seconds to play ``n`` calibration deals on the current numba thread count."""
    out = np.zeros(max(1, (n + BLOCK - 1) // BLOCK), np.int64)
    start = time.perf_counter()
    deal_chunk(np.uint64(seed), n, out)
    return time.perf_counter() - start


def rate(n: int) -> float:
    """Calibration deals per second over one timing of ``n`` deals."""
    return n / time_deals(n)


def threads() -> int:
    return numba.get_num_threads()

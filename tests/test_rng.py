"""The random streams: frozen by golden vectors and by an independent pure-Python reference."""

import numpy as np
import pytest

from montecards import rng

MASK = (1 << 64) - 1


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def reference_stream(seed, index, substream, count):
    """splitmix64 seeding + xoshiro256** written from their published definitions."""
    x = mix64((mix64((mix64(seed) + index) & MASK) + substream) & MASK)
    state = []
    for _ in range(4):
        x = (x + 0x9E3779B97F4A7C15) & MASK
        state.append(mix64(x))
    out = []
    rotl = lambda v, k: ((v << k) | (v >> (64 - k))) & MASK  # noqa: E731
    s0, s1, s2, s3 = state
    for _ in range(count):
        out.append((rotl((s1 * 5) & MASK, 7) * 9) & MASK)
        t = (s1 << 17) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
    return out


GOLDEN = {
    (7, 0, 0): [0x69C213CC4383BBB2, 0xCDF6394635A7C10F, 0x72A2C150AB39E7A6],
}


def kernel_stream(seed, index, substream, count):
    state = rng.new_state()
    rng.seed_stream(state, np.uint64(seed), index, substream)
    return [int(rng.next_u64(state)) for _ in range(count)]


def test_golden_vectors():
    for key, expected in GOLDEN.items():
        assert kernel_stream(*key, 3) == expected


@pytest.mark.parametrize("seed,index,substream", [(0, 0, 0), (1, 0, 0), (7, 123456789, 1), (MASK, (1 << 62) + 5, 3)])
def test_matches_reference_implementation(seed, index, substream):
    assert kernel_stream(seed, index, substream, 50) == reference_stream(seed, index, substream, 50)


def test_streams_differ_by_seed_index_and_substream():
    first = {tuple(kernel_stream(s, i, k, 4)) for s in range(3) for i in range(3) for k in range(2)}
    assert len(first) == 18


def test_bounded_is_uniform_and_in_range():
    state = rng.new_state()
    rng.seed_stream(state, np.uint64(3), 0, 0)
    draws = np.array([rng.bounded(state, 6) for _ in range(60000)])
    assert draws.min() == 0 and draws.max() == 5
    counts = np.bincount(draws, minlength=6)
    expected = 10000
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 25  # 5 degrees of freedom: p < 0.0002 to fail by chance


def test_uniform_mean_and_shuffle_is_a_permutation():
    state = rng.new_state()
    rng.seed_stream(state, np.uint64(11), 5, 0)
    u = np.array([rng.uniform(state) for _ in range(40000)])
    assert 0.0 <= u.min() and u.max() < 1.0
    assert abs(u.mean() - 0.5) < 0.01
    cards = np.arange(66)
    rng.shuffle(cards, state)
    assert sorted(cards.tolist()) == list(range(66)) and cards.tolist() != list(range(66))

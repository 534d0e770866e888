"""engine.kernel.run_blocks: the Python thread pool that replaced the parallel kernels."""

import numba
import numpy as np
import pytest

from montecards.engine.kernel import BLOCK_GAMES, block_bounds, block_count, block_start, run_blocks


def test_block_bounds_are_the_jitted_ones():
    for n in (1, 255, 256, 257, 1000, 131072, 131073):
        blocks = block_count(n)
        assert block_bounds(n) == [(block_start(n, blocks, b), block_start(n, blocks, b + 1))
                                   for b in range(blocks)]


def _recorder(seen):
    def play_block(seed, start, players, params, strategies, rows, options, fns, user, block):
        seen.append((block, start, rows.shape[0]))
        rows[:, 0] = np.arange(start, start + rows.shape[0])
        rows[:, 1] = block
    return play_block


@pytest.mark.parametrize("threads", [1, 2])
def test_every_block_once_with_its_index(threads):
    n = 5 * BLOCK_GAMES + 3
    seen = []
    rows = np.zeros((n, 2), np.int64)
    previous = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        run_blocks(_recorder(seen), np.uint64(1), 100, 2, None, None, rows, None, None, None)
    finally:
        numba.set_num_threads(previous)
    assert sorted(b for b, _, _ in seen) == list(range(block_count(n)))
    assert rows[:, 0].tolist() == list(range(100, 100 + n))
    for b, (lo, hi) in enumerate(block_bounds(n)):
        assert (rows[lo:hi, 1] == b).all()


def test_an_exception_in_a_block_comes_out_as_itself():
    def play_block(seed, start, players, params, strategies, rows, options, fns, user, block):
        if block == 3:
            raise KeyError("block three")

    with pytest.raises(KeyError, match="block three"):
        run_blocks(play_block, np.uint64(1), 0, 2, None, None, np.zeros((10 * BLOCK_GAMES, 1)),
                   None, None, None)

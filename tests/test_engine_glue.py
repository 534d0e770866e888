"""The glue every game shares: trace buffers (one overflow rule) and the decision log."""

import numpy as np
import pytest
from numba import njit

from montecards.engine import decisions, trace
from montecards.engine.rows import share_win


@njit(cache=True)
def _record(buffer, n):
    for i in range(n):
        k = trace.trace_slot(buffer)
        if k >= 0:
            buffer[k, 0] = i


def test_events_are_kept_in_order():
    buffer = trace.new_trace(5, 1)
    _record(buffer, 4)
    assert trace.events_of(buffer)[:, 0].tolist() == [0, 1, 2, 3]


def test_a_full_buffer_is_reported_never_cut_silently():
    buffer = trace.new_trace(3, 1)
    _record(buffer, 7)
    assert buffer[0, 0] == 7
    with pytest.raises(trace.TraceOverflowError, match="7 events"):
        trace.events_of(buffer)


def test_recording_without_a_buffer_does_nothing():
    _record(np.zeros((0, 1), np.int64), 5)


@njit(cache=True)
def _log(log, n):
    for i in range(n):
        k = decisions.log_slot(log)
        if k >= 0:
            log[1][k] = i % 2
            log[2][k, 0] = i
            log[3][k, 0] = 10 + i
            log[3][k, 1] = 20 + i
            log[4][k] = 2
            log[5][k] = decisions.choice_index(log[3][k], 2, 20 + i)


def test_the_decision_log_reads_back():
    log = decisions.new_log(4, 1, 3)
    _log(log, 3)
    read = decisions.read_log(log)
    assert [d.seat for d in read] == [0, 1, 0]
    assert [d.choice for d in read] == [1, 1, 1]
    assert [d.move for d in read] == [20, 21, 22]
    assert read[2].legal.tolist() == [12, 22]


def test_a_move_outside_legal_is_no_choice_and_overflow_raises():
    assert decisions.choice_index(np.array([1, 2, 3]), 2, 3) == decisions.NO_CHOICE
    log = decisions.new_log(2, 1, 3)
    _log(log, 5)
    with pytest.raises(decisions.LogOverflowError, match="5 decisions"):
        decisions.read_log(log)


@njit(cache=True)
def _share(keys, finished):
    shares = np.zeros(keys.shape[0], np.int64)
    share_win(keys, keys.shape[0], finished, shares)
    return shares


def test_the_lowest_keys_share_the_win():
    from montecards.engine.spec import WIN_UNIT

    assert _share(np.array([5, 3, 7]), True).tolist() == [0, WIN_UNIT, 0]
    assert _share(np.array([3, 3, 7, 3]), True).tolist() == [WIN_UNIT // 3] * 2 + [0, WIN_UNIT // 3]
    assert _share(np.array([-2, -2]), True).tolist() == [WIN_UNIT // 2] * 2
    assert _share(np.array([1, 2]), False).tolist() == [0, 0]


def test_every_game_has_the_same_chunk_glue():
    """Every game keeps a copy of ``run_chunk`` (engine/CONTRACT.md: it names the game's own
    ``play_block`` and ``kernel_options``): the copies must stay identical, text and all (the
    template too), and ``play_block`` releases the GIL (``engine.kernel.run_blocks`` plays
    blocks on Python threads)."""
    import inspect
    from importlib import import_module

    from montecards import games

    modules = [import_module(f"{games.GAME_MODULES[name]}.kernel") for name in games.names()]
    modules.append(import_module("montecards.games.template.kernel"))
    texts = {}
    for module in modules:
        assert module.play_block.targetoptions.get("nogil"), module.__name__
        assert not hasattr(module, "run_games"), module.__name__  # no parallel kernel any more
        for name in ("run_chunk",):
            function = getattr(module, name)
            texts.setdefault(name, {})[module.__name__] = inspect.getsource(getattr(function, "py_func", function))
    for name, by_module in texts.items():
        first = next(iter(by_module.values()))
        differ = [module for module, text in by_module.items() if text != first]
        assert not differ, f"{name} differs from {next(iter(by_module))}'s in {differ}"
    for module in modules:
        spec = import_module(module.__name__.rsplit(".", 1)[0]).SPEC
        assert spec.run_chunk is module.run_chunk, module.__name__

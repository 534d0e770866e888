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
def _recorded(buffer):
    if buffer is None:  # a record's test: numba prunes it on the argument
        return -1
    return trace.trace_slot(buffer)


@njit(cache=True)
def _tracing(buffer):
    return trace.tracing(buffer)


def test_tracing_off_is_none_and_a_log_records_nothing():
    """Runs pass None (the recording compiled out), a decision log an empty buffer; only a
    buffer with rows records (``engine.trace.tracing``)."""
    assert _recorded(None) == -1 and not _tracing(None)
    assert not _tracing(np.zeros((0, 4), np.int64))
    assert _tracing(np.zeros((2, 4), np.float64))


def test_a_game_that_overflows_its_first_buffer_is_traced_again_in_full():
    """``GameSpec.trace_buffer`` plays an overflowing game again in a buffer of its length: the
    same events as in a buffer that was large enough."""
    import dataclasses

    from montecards.games.template.game import SPEC

    full, row = SPEC.trace_buffer(3, 7, 3, None, ["random"])
    small = dataclasses.replace(SPEC, new_trace=lambda players, params: trace.new_trace(2, full.shape[1]))
    grown, grown_row = small.trace_buffer(3, 7, 3, None, ["random"])
    assert grown.shape[0] == full[0, 0] + 1 > 3  # played again, in a buffer of its length
    assert trace.events_of(grown).tolist() == trace.events_of(full).tolist()
    assert grown_row.tolist() == row.tolist()


def test_number_checks_refuse_bools_and_text_in_one_line():
    from montecards.engine.spec import InputError, check_number, check_per_seat_floats

    probability = check_number("p", 0.0, 1.0)
    assert probability(np.float32(0.5), 2) == 0.5 and probability(1, 2) == 1.0
    for bad in (True, "0.5", 1.5, float("nan")):
        with pytest.raises(InputError, match="parameter p must be a"):
            probability(bad, 2)
    with pytest.raises(InputError, match="> 0"):
        check_number("f", 0.0, above=True)(0.0, 2)
    per_seat = check_per_seat_floats("theta")
    assert per_seat(np.float64(0.5), 3) == [0.5] * 3 and per_seat([0, 1], 2) == [0.0, 1.0]
    for bad in (True, "abc", [0, "x"], None):
        with pytest.raises(InputError, match="theta must be numbers"):
            per_seat(bad, 2)


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


def _kernels():
    from importlib import import_module

    from montecards import games

    names = [games.GAME_MODULES[name] for name in games.names()] + ["montecards.games.template"]
    return [(import_module(f"{name}.kernel"), import_module(name).SPEC) for name in names]


def test_the_engine_makes_every_games_chunk_glue():
    """No game writes ``run_chunk``, ``kernel_options`` or ``EVERY_OPTION`` (engine/CONTRACT.md):
    the spec's ``run_chunk`` is the engine's over the game's ``play_block``, which releases the
    GIL (``engine.kernel.run_blocks`` plays blocks on Python threads), and every ``trace_one``
    takes the contract's arguments in the contract's order."""
    import inspect

    for module, spec in _kernels():
        for glue in ("run_chunk", "kernel_options", "EVERY_OPTION", "run_games"):
            assert not hasattr(module, glue), (module.__name__, glue)
        assert module.play_block.targetoptions.get("nogil"), module.__name__
        assert spec.run_chunk.play_block is module.play_block is spec.play_block, module.__name__
        assert spec.options == getattr(module, "OPTIONS", ()), module.__name__
        contract = ["seed", "index", "players", "params", "strategies", "row", "trace", "log", "user",
                    "options"]
        if spec.deal_option:  # the deal option (engine.options): a last argument of both
            contract.append("deal")
            block_args = list(inspect.signature(module.play_block.py_func).parameters)
            assert block_args[-1] == "deal", module.__name__
        assert list(inspect.signature(spec.trace_one.py_func).parameters) == contract, module.__name__


def test_options_are_derived_from_the_declaration():
    from montecards.engine.options import every_option, kernel_options, slot

    declared = (("rollout", {3}), ("weighted", {4, 5}), ("search", {6, 7}))
    assert kernel_options(declared, np.array([0, 1, 2])) is None
    assert kernel_options(declared, np.array([0, 5])) == (None, True, None)
    assert kernel_options(declared, np.array([3, 7, 4])) == (True, True, True)
    assert every_option(declared) == (True, True, True)
    assert every_option(()) is None and kernel_options((), np.array([0, 1])) is None
    assert slot(declared, "search") == 2
    with pytest.raises(ValueError, match="no option 'majority'"):
        slot(declared, "majority")


GATED = """
import numpy as np
from numba import njit

from montecards.engine.options import gated

OPTIONS = (("flag", {1}), ("space", {2}))


@njit(cache=True, inline="always")
def new_space(n):
    return np.zeros(n, np.int64)


flag = gated(OPTIONS, "flag")
space = gated(OPTIONS, "space", new_space)


@njit(cache=True)
def size(s):
    if s is None:  # an argument: pruned
        return -1
    return s.shape[0]


@njit(cache=True)
def kernel(options, n):
    return (flag(options) is not None, size(space(options, n)))
"""


def test_a_kernel_over_the_gates_compiles_what_it_needs_and_loads_from_the_cache(tmp_path):
    """The gates (``engine.options.gated``) are not cached themselves; the kernels calling them
    are, and a second process loads them without compiling anything."""
    import os
    import subprocess
    import sys

    (tmp_path / "gated_kernel.py").write_text(GATED)
    script = (
        "import gated_kernel as k\n"
        "print(k.kernel((True, None), 3), k.kernel((None, True), 3), k.kernel(None, 3))\n"
        "print(sum(k.kernel.stats.cache_hits.values()), sum(k.kernel.stats.cache_misses.values()))\n"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                           check=True).stdout.splitlines() for _ in range(2)]
    assert runs[0][0] == runs[1][0] == "(True, -1) (False, 3) (False, -1)"
    assert runs[0][1] == "0 3"  # compiled: one kernel per options type
    assert runs[1][1] == "3 0"  # loaded, all three

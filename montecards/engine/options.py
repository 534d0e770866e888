"""A game's optional compiled parts, declared once as data (``kernel.OPTIONS``).

A strategy that is much code (Parade's ``rollout``, Gift of Tulips' ``majority``, the weighted
built-ins, the tree searches) is compiled only into the kernels of runs in which a seat plays
it. A game says which in one tuple of ``(name, strategy codes)`` pairs, in its ``kernel.py``::

    OPTIONS = (("rollout", {ROLLOUT}), ("weighted", {WEIGHTED, TUNED}), ("search", {ISMCTS, OMNISCIENT}))

and the engine derives the rest from it:

- :func:`kernel_options`: a run's value, which the chunk glue (``engine.kernel.chunk_runner``)
  hands to ``play_block`` as ``options``: None when no seat plays an optional strategy (runs
  of the small built-ins: no optional part compiled at all), else one slot per option, True
  when a seat plays one of its strategies, else None. Each value is its own numba type, so a
  kernel compiles only what its run plays.
- :func:`every_option`: the value with every option on, which traces and decision logs pass
  (``GameSpec.play_traced``): one trace kernel then serves every lineup (a trace plays one
  game, so the larger kernel costs one compile and no time per game).
- :func:`gated`: the one way jitted code reads an option. ``gated(OPTIONS, name, make)`` is a
  function for jitted code, ``gate(options, *args)``: ``make(*args)`` when the option is on in
  ``options``' numba type, else None (``make`` None: True or None, a flag). Its result, handed
  on as an *argument*, has its ``if x is not None`` pruned by numba in the kernels of runs
  without the option (numba does not prune a test of a local None).

**Caching.** The gates are not cached on their own: their implementation calls the game's
``make``, and a cache entry in the engine's folder would be stamped with the engine's sources
only (``montecards/_cache.py``) and keyed on a pickle of ``make`` that changes with every
process. The kernels that call them are cached, with the game's stamp, and load in a second
process without compiling (``tests/test_engine_glue.py``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Collection, Sequence

import numpy as np
from numba import njit, types
from numba.extending import overload

from montecards.errors import InputError
from montecards.rng import seed_stream

Options = Sequence[tuple[str, Collection[int]]]
"""A game's declaration: ``(name, strategy codes)`` per optional part, in slot order."""


def kernel_options(options: Options, strategies: np.ndarray) -> tuple | None:
    """The optional parts the kernels of a run compile in: None when no seat plays one of
    ``options``' strategies, else per option (slot order) True when a seat plays one, else None."""
    codes = np.asarray(strategies)
    on = tuple(True if np.isin(codes, list(members)).any() else None for _, members in options)
    return on if any(on) else None


def every_option(options: Options) -> tuple | None:
    """:func:`kernel_options`' value with every option on (None for a game without options)."""
    return tuple(True for _ in options) or None


def slot(options: Options, name: str) -> int:
    """The slot of option ``name`` in a :func:`kernel_options` value."""
    names = [n for n, _ in options]
    if name not in names:
        raise ValueError(f"no option {name!r} (options: {', '.join(names) or 'none'})")
    return names.index(name)


def gated(options: Options, name: str, make: Callable | None = None):
    """A function for jitted code, ``gate(options, *args)``: ``make(*args)`` (a jitted
    function of up to two arguments) when option ``name`` is on in ``options`` (a
    :func:`kernel_options` value), else None; with ``make`` None, True or None. Module
    docstring. (One stub per arity: numba inlines no closure call with ``*args``, and ``make``
    may be ``inline="always"``.)"""
    k = slot(options, name)
    arity = 0 if make is None else len(inspect.signature(getattr(make, "py_func", make)).parameters)

    def on(options_type) -> bool:
        return (isinstance(options_type, types.BaseTuple) and len(options_type.types) > k
                and isinstance(options_type.types[k], types.Boolean))

    if arity == 0:
        def gate(options):
            raise NotImplementedError("only callable from jitted code")

        @overload(gate)
        def _gate0(options):
            if not on(options):
                return lambda options: None
            if make is None:
                return lambda options: True
            return lambda options: make()
    elif arity == 1:
        def gate(options, a):
            raise NotImplementedError("only callable from jitted code")

        @overload(gate)
        def _gate1(options, a):
            return (lambda options, a: make(a)) if on(options) else (lambda options, a: None)
    elif arity == 2:
        def gate(options, a, b):
            raise NotImplementedError("only callable from jitted code")

        @overload(gate)
        def _gate2(options, a, b):
            return (lambda options, a, b: make(a, b)) if on(options) else (lambda options, a, b: None)
    else:
        raise ValueError(f"{name}: make takes at most two arguments, not {arity}")

    made = "True" if make is None else f"``{getattr(make, '__name__', 'make')}(...)``"
    gate.__name__ = f"{name}_option"
    gate.__doc__ = (
        f"{made} when option {name!r} (slot {k}) is on in ``options`` (a ``kernel_options`` "
        "value), else None: kernels of runs without it compile without it "
        "(``engine.options.gated``). Jitted code only."
    )
    return gate


# --------------------------------------------------------------------------- the deal option
# Not a strategy's part: a run-level option every game takes the same way (engine/CONTRACT.md,
# "The deal option"). ``play_block`` and ``trace_one`` take it as a last argument ``deal``,
# left out of ordinary runs (numba's ``Omitted``: no argument in machine code, the deal's
# code compiled out, the games identical). ``deal`` is ``(replay, rotation)``:
#
# - ``replay`` k >= 0: replay the deal with independent later draws. What chance decides
#   before the first decision (the game's deal, defined on its rules page's words in its
#   kernel) still comes from the game's streams of ``(seed, index)``; every stream is then
#   reseeded from ``(seed, index, k)`` (:func:`later_stream`), so the replays of one deal
#   share the deal and nothing else. ``replay`` -1: the game's own later draws (the same deck).
# - ``rotation`` r: duplicate deals (bridge's format): the hands of the deal rotate among
#   the seats, the hand dealt to seat s going to seat (s + r) % players; the deck is the same.

LATER_STREAM = 1 << 40
"""First substream of the later draws of the replays: replay k's stream of a game's substream
``s`` (< :data:`LATER_STREAMS`, e.g. Wig Out!'s deck of deal d, ``2 + d``) is
``LATER_STREAM + LATER_STREAMS * k + s``, above every game's own substreams and the searches'
(``engine.search.SEARCH_STREAM`` = 2**32 + ...)."""
LATER_STREAMS = 1 << 20


def check_deal(deal, players: int) -> tuple[int, int] | None:
    """``deal`` as the kernels take it, ``(replay, rotation)`` (two ints), or None; raises
    InputError naming what is allowed."""
    if deal is None:
        return None
    try:
        replay, rotation = (int(v) for v in deal)
    except (TypeError, ValueError):
        raise InputError(f"deal must be a pair (replay, rotation), got {deal!r}") from None
    if replay < -1 or replay >= (1 << 20):
        raise InputError(f"deal replay must be -1 (the game's own draws) or from 0 to 2**20-1, got {replay}")
    if not 0 <= rotation < players:
        raise InputError(
            f"deal rotation must be from 0 to {players - 1} with {players} players, got {rotation}")
    return (replay, rotation)


@njit(cache=True, inline="always")
def game_deal(deal, seed, index):
    """Game ``index``'s deal option, ``(replay, rotation, seed, index)``, from the run's
    ``deal`` (``play_block``'s): what :func:`later_stream` and :func:`rotation` read."""
    return (np.int64(deal[0]), np.int64(deal[1]), np.uint64(seed), np.int64(index))


def dealt(deal, seed, index):
    """Game ``index``'s deal option (:func:`game_deal`) when the run has one (``deal`` a
    tuple), else None (``deal`` None or left out: ordinary runs). Handed on as an argument, its
    None has the deal's code pruned by numba, as :func:`gated`'s. Jitted code only."""
    raise NotImplementedError("only callable from jitted code")


@overload(dealt)
def _dealt(deal, seed, index):
    if isinstance(deal, types.BaseTuple):
        return lambda deal, seed, index: game_deal(deal, seed, index)
    return lambda deal, seed, index: None


@njit(cache=True, inline="always")
def rotation(deal):
    """How far the deal's hands rotate (:func:`game_deal`'s value): seat s's to seat s + r."""
    return deal[1]


@njit(cache=True, inline="always")
def later_stream(deal, rng, substream):
    """After the deal: reseed ``rng``, the game's stream ``substream``, from ``(seed, index,
    replay)`` when the deal is replayed (:func:`game_deal`'s value), else leave it (the same
    deck: duplicate deals alone)."""
    if deal[0] >= 0:
        seed_stream(rng, deal[2], deal[3], np.uint64(LATER_STREAM + LATER_STREAMS * deal[0] + substream))

"""``montecards warmup``: compile every game's kernels into numba's cache, games in parallel.

A first run with an empty numba cache spends most of its time compiling (``benchmarks/
compile_profile.py`` shows where). ``warmup`` does that once, up front: for each game it plays
one game with every built-in strategy (each distinct kernel, e.g. Parade's with and without
``rollout``), traces one (the trace kernel), replays it as a scripted game (the scripted
kernel) and logs its decisions (the decision-log kernel), and with ``user=True`` also plays
and traces one with a user strategy (the run and trace kernels' user paths). (The scripted
and decision-log kernels are compiled here, in the parallel processes, rather than one after
the other by the first tests that need them.) Games compile in separate processes (numba compiles
on one thread per process, and the games share no jitted code but ``engine``'s small helpers),
the largest first; each process writes its kernels to the same cache (``NUMBA_CACHE_DIR``, or
``__pycache__`` beside the sources), which every later process then loads.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Warmed:
    """What warming one game took."""

    game: str
    seconds: float
    cpu_seconds: float
    kernels: list[str]
    error: str = ""


def _first_legal(obs, legal, params, memory, rng):
    """The user strategy ``warmup --user`` plays (any function compiles the same user path)."""
    return 0


KERNELS = ("run", "trace", "script", "decisions")


def warm_game(game: str, user: bool = False, kernels: Sequence[str] = KERNELS) -> Warmed:
    """Compile (or load) ``game``'s kernels in this process: every built-in strategy's run
    kernel, the trace, scripted-game and decision-log kernels (those the game has, of those
    named in ``kernels``), and with ``user`` the run and trace kernels' user-strategy paths."""
    import numba

    from montecards import games
    from montecards.api import simulate, trace
    from montecards.errors import InputError

    numba.set_num_threads(1)
    start, cpu = time.perf_counter(), time.process_time()
    spec = games.get(game)
    done = []
    try:
        if "run" in kernels:
            for strategy in spec.strategies:
                simulate(game, n=1, strategies=strategy, seed=0, jobs=1, progress=False)
            done.append("run")
        events = trace(game, seed=0, index=0) if {"trace", "script"} & set(kernels) else None
        if "trace" in kernels:
            done.append("trace")
        names = [spec.default_strategy] * spec.default_players
        if "script" in kernels and spec.play_scripted is not None and spec.script_from_trace is not None:
            spec.play_scripted(**spec.script_from_trace(events, spec.default_players, names, {}))
            done.append("script")
        if "decisions" in kernels and spec.decisions is not None:
            spec.decisions(0, 0, spec.default_players, None, names)
            done.append("decisions")
        if user:
            try:
                simulate(game, n=1, strategies=_first_legal, seed=0, jobs=1, progress=False)
                done.append("user")
                # the trace kernel's user path: a specialisation of its own, as long to compile
                # as the run's (a first `montecards trace -s mine.py:choose` would pay it)
                trace(game, seed=0, index=0, strategies=_first_legal)
                done.append("user trace")
            except InputError:
                pass  # a game without decisions (Anomia): no user path to compile
    except Exception as error:  # noqa: BLE001 - reported per game; the other games still warm
        return Warmed(game, time.perf_counter() - start, time.process_time() - cpu, done,
                      f"{type(error).__name__}: {error}")
    return Warmed(game, time.perf_counter() - start, time.process_time() - cpu, done)


def largest_first(names: Sequence[str]) -> list[str]:
    """Games by the size of their package's sources, largest first (the longest compiles
    start first, so that the last to finish is a short one)."""
    from montecards import games

    def size(name: str) -> int:
        folder = Path(__import__(games.GAME_MODULES[name], fromlist=["SPEC"]).__file__).parent
        return sum(f.stat().st_size for f in folder.glob("*.py"))

    return sorted(names, key=size, reverse=True)


def default_jobs(n_games: int) -> int:
    """Processes: one per core this process may use, at most one per game."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, n_games))


def warm(names: Sequence[str], jobs: int | None = None, user: bool = False,
         report: Callable[[Warmed, int, int], None] | None = None,
         kernels: Sequence[str] = KERNELS) -> list[Warmed]:
    """Warm ``names`` on ``jobs`` processes (this one when 1); ``report(warmed, k, total)``
    is called as each game finishes; ``kernels`` names the kinds to compile (all by default)."""
    order = largest_first(names)
    jobs = default_jobs(len(order)) if jobs is None else max(1, min(jobs, len(order)))
    results: list[Warmed] = []

    def done(warmed: Warmed) -> None:
        results.append(warmed)
        if report is not None:
            report(warmed, len(results), len(order))

    if jobs == 1:
        for name in order:
            done(warm_game(name, user, kernels))
        return results
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(warm_game, name, user, tuple(kernels)) for name in order]
        for future in as_completed(futures):
            done(future.result())
    return results

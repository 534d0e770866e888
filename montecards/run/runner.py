"""The local backend: split a run into chunks, play them with the game's kernel, merge.

A run is a list of chunks ``(seed, start, count)``; a chunk is a pure function of its inputs,
so the result of a run is identical whatever the chunk size, thread count or backend.
:func:`play_chunks` is the one loop that merges a run's chunks, whichever backend plays them
(this machine's threads here, a Dask cluster in ``dask_backend``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from montecards.engine.spec import GameSpec, InputError, Layout
from montecards.engine.user_strategies import check_faults, kernel_arg
from montecards.run.output import Collector
from montecards.run.summary import Summary

DEFAULT_CHUNK = 1 << 17
MAX_SEED = (1 << 64) - 1


@dataclass(frozen=True)
class RunConfig:
    """A fully resolved run: everything a chunk needs, in kernel form.

    ``spec_module`` names the module whose ``SPEC`` is the game's (the registry's entry): a
    Dask worker imports it by that name, so the engine itself never imports a game.
    """

    game: str
    seed: int
    players: int
    params: np.ndarray
    strategies: np.ndarray
    spec_module: str = ""
    user: tuple = ()
    """Per seat its :class:`~montecards.engine.user_strategies.UserStrategy` or None, or ``()`` when
    no seat plays a user strategy (the kernels then compile the user path out)."""
    deal: tuple[int, int] | None = None
    """The deal option ``(replay, rotation)`` (``engine.options``: each game's deal replayed with
    independent later draws, or its hands rotated among the seats), or None: ordinary games."""
    luck: Any = None
    """The value array of a run with ``--luck`` (``engine.value``; the rows then end in the
    ``luck`` and ``adjusted`` columns), or None."""
    luck_source: str = ""
    """Which value file ``luck`` came from (what a checkpoint records)."""


def config_layout(spec: GameSpec, config: RunConfig) -> Layout:
    """The rows' columns of a run (with ``luck`` and ``adjusted`` when it takes luck)."""
    return spec.layout(config.players, luck=config.luck is not None)


def plan_chunks(n: int, chunk_size: int = DEFAULT_CHUNK, first: int = 0) -> list[tuple[int, int]]:
    """``(start, count)`` of each chunk of games ``first .. first + n - 1`` of a run."""
    if chunk_size <= 0:
        raise InputError(f"chunk size must be > 0, got {chunk_size}")
    end = first + n
    return [(start, min(chunk_size, end - start)) for start in range(first, end, chunk_size)]


def play_chunk(spec: GameSpec, config: RunConfig, start: int, count: int) -> np.ndarray:
    """The per-game rows (int64) of games ``start .. start + count - 1`` of a run.

    With user strategies, a fault of one (an index outside the legal moves, an exception)
    raises :class:`~montecards.errors.StrategyError` naming the strategy, the seat and the
    first game it broke; the rows are then not returned (nothing half-played is kept).
    """
    width = config_layout(spec, config).width
    rows = np.zeros((count, width), dtype=np.int64)
    seed = np.uint64(config.seed)
    deal = {} if config.deal is None else {"deal": config.deal}
    if config.luck is not None:
        spec.run_chunk(seed, start, config.players, config.params, config.strategies, rows, luck=config.luck)
        return rows
    if not config.user:
        spec.run_chunk(seed, start, config.players, config.params, config.strategies, rows, **deal)
        return rows
    user = kernel_arg(config.user, count)
    try:
        spec.run_chunk(seed, start, config.players, config.params, config.strategies, rows, user, **deal)
    except Exception:  # noqa: BLE001 - the fault records say which strategy, seat and game raised it
        failed = True
    else:
        failed = False

    def replay(game: int, alone: tuple) -> None:
        spec.run_chunk(seed, game, config.players, config.params, config.strategies,
                       np.zeros((1, width), dtype=np.int64), alone, serial=True, **deal)

    check_faults(user, config.user, replay)
    if failed:
        raise RuntimeError("the kernel failed although no user strategy reported a fault")
    return rows


def check_jobs(jobs: int | None) -> int:
    """Number of threads to use; ``None`` means every core numba may use."""
    limit = numba.config.NUMBA_NUM_THREADS
    if jobs is None:
        return limit
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or not 1 <= jobs <= limit:
        raise InputError(f"jobs must be an integer from 1 to {limit}, got {jobs!r}")
    return int(jobs)


def warm_up(spec: GameSpec, config: RunConfig) -> None:
    """Compile (or load from cache) the game's kernel by playing one game."""
    play_chunk(spec, config, 0, 1)


def iter_chunks_local(
    spec: GameSpec, config: RunConfig, chunks: list[tuple[int, int]], jobs: int
) -> Iterator[tuple[int, int, np.ndarray]]:
    """Play chunks in order on this machine with ``jobs`` numba threads."""
    previous = numba.get_num_threads()
    numba.set_num_threads(jobs)
    try:
        for start, count in chunks:
            yield start, count, play_chunk(spec, config, start, count)
    finally:
        numba.set_num_threads(previous)


def summaries_local(
    spec: GameSpec, config: RunConfig, chunks: list[tuple[int, int]], jobs: int
) -> Iterator[tuple[Summary, np.ndarray]]:
    """``(summary, rows)`` of each chunk, in order, played on this machine (:func:`play_chunks`'
    ``play`` for the local backend; the Dask backend's is ``dask_backend.summaries_dask``)."""
    layout = config_layout(spec, config)
    for _, _, rows in iter_chunks_local(spec, config, chunks, jobs):
        yield Summary.of_rows(rows, layout), rows


Play = Callable[[list[tuple[int, int]], bool], Iterator[tuple[Summary, "np.ndarray | None"]]]
"""``play(chunks, need_rows)``: each chunk's ``(summary, rows)`` in order, on some backend
(rows may be None when ``need_rows`` is false)."""


def play_chunks(
    plan: list[tuple[int, int]],
    play: Play,
    layout: Layout,
    keep_games: bool = False,
    on_rows: Callable[[int, np.ndarray], None] | None = None,
    advance: Callable[[int], None] | None = None,
    checkpoint=None,
) -> tuple[Summary, np.ndarray | None]:
    """The one loop that runs games, whatever the backend: merge the chunks of ``plan`` in
    order and return the merged summary and, if kept, every row.

    ``play`` plays the chunks (``summaries_local``, ``dask_backend.summaries_dask``);
    ``on_rows(start, rows)`` gets each chunk's rows in order (for streaming them to a file);
    ``advance(count)`` moves a progress bar. ``checkpoint`` (a
    :class:`~montecards.run.checkpoint.Checkpoint`) records every chunk played and hands
    back the chunks it already recorded, so only the missing ones are played.
    """
    collector = Collector(layout, keep_games, on_rows, advance, first=plan[0][0] if plan else 0)
    need_rows = collector.needs_rows
    done = checkpoint.recorded(plan, need_rows) if checkpoint is not None else set()
    played = play([chunk for index, chunk in enumerate(plan) if index not in done], need_rows)
    try:
        for index, (start, count) in enumerate(plan):
            if index in done:
                summary, rows = checkpoint.load(index, start, count, need_rows)
            else:
                summary, rows = next(played)
                rows = rows if need_rows else None
                if checkpoint is not None:
                    checkpoint.record(index, start, count, summary, rows)
            collector.add(start, count, summary, rows)
    finally:
        played.close()  # the local backend's thread count restored, the cluster's leftovers cancelled
    return collector.result()


def progress_bar(total: int, enabled: bool | None) -> Callable[[int], None] | None:
    """A tqdm bar on stderr (shown by default when stderr is a terminal), or None."""
    if enabled is None:
        enabled = sys.stderr.isatty() and not os.environ.get("MONTECARDS_NO_PROGRESS")
    if not enabled:
        return None
    from tqdm import tqdm

    bar = tqdm(total=total, unit="games", unit_scale=True, file=sys.stderr, leave=False)

    def advance(count: int) -> None:
        bar.update(count)
        if bar.n >= total:
            bar.close()

    return advance


def execute(
    spec: GameSpec,
    config: RunConfig,
    n: int,
    jobs: int,
    chunk_size: int = DEFAULT_CHUNK,
    keep_games: bool = False,
    progress: bool | None = None,
    on_rows: Callable[[int, np.ndarray], None] | None = None,
    checkpoint=None,
) -> tuple[Summary, np.ndarray | None]:
    """Play ``n`` games on this machine; return the merged summary and, if kept, every row.

    ``on_rows`` and ``checkpoint`` as in :func:`play_chunks`.
    """
    return play_chunks(
        plan_chunks(n, chunk_size),
        lambda chunks, _: summaries_local(spec, config, chunks, jobs),
        config_layout(spec, config), keep_games, on_rows, progress_bar(n, progress), checkpoint,
    )

"""The Dask backend: the same chunks ``(seed, start, count)`` as the local backend, played on a
``dask.distributed`` cluster.

Each chunk is one task running :func:`play_chunk_task`, a plain module-level function that
looks the game up by name (``montecards.games.get``) on the worker and plays the chunk with
the game's kernel; jitted functions are never pickled, only the run's small
:class:`~montecards.run.runner.RunConfig`. A task returns the chunk's
:class:`~montecards.run.summary.Summary` (a few hundred integers) and, only when the run
keeps or streams rows, its per-game rows.

The client keeps a bounded window of chunks outstanding (submitted or finished but not yet
merged), merges results in chunk order and streams rows in chunk order, so memory does not
grow with ``n`` and the result is bit-identical to the local backend. Tasks are pure
functions of their arguments: when a worker dies, the scheduler plays its chunks again
elsewhere and the result does not change.

Each task sets numba's thread count on its worker thread: 1 by default (a single-threaded
worker plays on one core; run more workers or threads per machine to use more cores), or the
worker's ``MONTECARDS_WORKER_THREADS`` environment variable.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numba
import numpy as np

from montecards.engine.spec import GameSpec, InputError
from montecards.run.runner import (
    DEFAULT_CHUNK,
    RunConfig,
    check_jobs,
    config_layout,
    plan_chunks,
    play_chunk,
    play_chunks,
    progress_bar,
)
from montecards.run.summary import Summary

CONNECT_TIMEOUT = "20s"
WORKER_WAIT_SECONDS = 60
LOCAL_CLUSTER_CONFIG = {
    # Housekeeping of an idle LocalCluster cost ~5 % of a 2-core machine (measured: 3 CPU-s per
    # 30 s); mostly the workers' 10 ms stack-sampling profiler and the 20 ms event-loop ticks.
    # These settings bring it to ~0.5 CPU-s per 30 s. Clusters we do not start are left alone.
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "1s",
}


# --- what runs on the workers ----------------------------------------------------------------


def worker_numba_threads() -> int:
    """Numba threads per task on this worker: ``MONTECARDS_WORKER_THREADS`` or 1."""
    try:
        wanted = int(os.environ.get("MONTECARDS_WORKER_THREADS", "1"))
    except ValueError:
        wanted = 1
    return max(1, min(wanted, numba.config.NUMBA_NUM_THREADS))


def settle_numba_environment() -> None:
    """Make ``NUMBA_NUM_THREADS`` in this worker's environment the thread count numba started
    with. numba re-reads its environment at every compile (a user strategy compiles on the
    worker) and refuses a thread count that differs from the running pool's; a worker's
    environment can differ from the one numba saw at import."""
    os.environ["NUMBA_NUM_THREADS"] = str(numba.config.NUMBA_NUM_THREADS)


def play_chunk_task(
    config: RunConfig, start: int, count: int, want_rows: bool
) -> tuple[Summary, np.ndarray | None]:
    """Play games ``start .. start + count - 1`` of the run ``config`` on this worker.

    Returns the chunk's summary and, if ``want_rows``, its per-game int64 rows.
    """
    if not config.spec_module:
        raise InputError(f"the run of {config.game} names no spec module (RunConfig.spec_module)")
    spec = importlib.import_module(config.spec_module).SPEC
    settle_numba_environment()
    numba.set_num_threads(worker_numba_threads())
    rows = play_chunk(spec, config, start, count)
    summary = Summary.of_rows(rows, config_layout(spec, config))
    return summary, (rows if want_rows else None)


def warm_up_task(config: RunConfig) -> int:
    """Compile (or load from numba's cache) the game's kernel on this worker; returns its pid."""
    play_chunk_task(config, 0, 1, False)
    return os.getpid()


# --- the client side -------------------------------------------------------------------------


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise InputError(
            "the dask backend needs dask[distributed]: pip install 'montecards[dask]'"
        ) from None
    return distributed


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


@contextmanager
def dask_client(client: Any = None, scheduler: str | None = None,
                jobs: int | None = None) -> Iterator[Any]:
    """A ``distributed.Client`` for a run: ``client`` itself (left open), a client of the
    cluster at ``scheduler``, or a ``LocalCluster`` of ``jobs`` single-threaded worker
    processes (closed afterwards)."""
    if client is not None:
        yield client
        return
    distributed = _import_distributed()
    if scheduler:
        try:
            own = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise InputError(
                f"cannot connect to the dask scheduler {scheduler!r}: {_one_line(exc)}"
            ) from None
        try:
            try:
                own.wait_for_workers(1, timeout=WORKER_WAIT_SECONDS)
            except TimeoutError:
                raise InputError(
                    f"the dask scheduler {scheduler} has no workers "
                    f"(start some with: dask worker {scheduler})"
                ) from None
            yield own
        finally:
            own.close()
        return
    workers = check_jobs(jobs)
    import dask

    with dask.config.set(LOCAL_CLUSTER_CONFIG):
        cluster = distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": ":0"},  # no dashboard; its HTTP server on any port
            silence_logs=logging.CRITICAL,  # task errors still reach the caller as exceptions
            env={"NUMBA_NUM_THREADS": "1", "MONTECARDS_WORKER_THREADS": "1",
                 "MONTECARDS_NO_PROGRESS": "1"},
        )
    try:
        own = distributed.Client(cluster)
        try:
            yield own
        finally:
            own.close()
    finally:
        cluster.close()


def worker_threads(client: Any) -> int:
    """Task slots of the cluster (threads over all workers)."""
    return max(1, sum(client.nthreads().values()))


def check_portable(config: RunConfig) -> None:
    """A user strategy travels to the workers as a reference (a file path or a module name)
    with its source hash: one defined only in a notebook or a script's ``__main__`` cannot."""
    for seat in config.user:
        if seat is not None:
            seat.check_portable()


def warm_up_workers(client: Any, config: RunConfig) -> None:
    """Compile (or load) the game's kernel on every worker before a run is timed."""
    check_portable(config)
    workers = list(client.nthreads())
    futures = [
        client.submit(warm_up_task, config, workers=[w], allow_other_workers=False, pure=False)
        for w in workers
    ]
    client.gather(futures)


def iter_chunks_dask(
    client: Any,
    config: RunConfig,
    chunks: list[tuple[int, int]],
    need_rows: bool,
    window: int | None = None,
) -> Iterator[tuple[int, int, Summary, np.ndarray | None]]:
    """Play ``chunks`` (``(start, count)`` each) on the cluster; yield them in order.

    Each yields ``(start, count, summary, rows)`` (rows only if ``need_rows``). At most
    ``window`` chunks are outstanding at once (default: twice the cluster's threads, at least
    4), so memory does not grow with the number of chunks. A lost worker's chunks are played
    again by the scheduler; chunk keys are deterministic, so the result does not change.
    """
    distributed = _import_distributed()
    if window is None:
        window = max(4, 2 * worker_threads(client))
    if window < 1:
        raise InputError(f"window must be >= 1, got {window}")
    from dask.base import tokenize

    check_portable(config)
    users = [seat.identity() if seat is not None else None for seat in config.user]
    token = tokenize(config.game, config.seed, config.players, config.params.tolist(),
                     config.strategies.tolist(), users, need_rows)
    waiting = deque(range(len(chunks)))
    pending = distributed.as_completed(loop=client.loop)
    live: dict[str, tuple[int, Any]] = {}  # submitted, not finished: key -> (index, future)
    finished: dict[int, tuple[Summary, np.ndarray | None]] = {}

    def submit_more() -> None:
        while waiting and len(live) + len(finished) < window:
            index = waiting.popleft()
            start, count = chunks[index]
            future = client.submit(
                play_chunk_task, config, start, count, need_rows,
                key=f"montecards-chunk-{token}-{start}-{count}",
            )
            live[future.key] = (index, future)
            pending.add(future)

    try:
        for index, (start, count) in enumerate(chunks):
            while index not in finished:
                submit_more()
                future = next(pending)
                got, _ = live.pop(future.key)
                finished[got] = future.result()
                del future
            summary, rows = finished.pop(index)
            yield start, count, summary, rows  # merged by the caller before more are submitted
            submit_more()
    finally:
        if live:
            client.cancel([future for _, future in live.values()])


def summaries_dask(
    client: Any, config: RunConfig, chunks: list[tuple[int, int]], need_rows: bool,
    window: int | None = None,
) -> Iterator[tuple[Summary, np.ndarray | None]]:
    """``(summary, rows)`` of each chunk, in order, played on the cluster (``runner.play_chunks``'
    ``play`` for the Dask backend)."""
    for _, _, summary, rows in iter_chunks_dask(client, config, chunks, need_rows, window):
        yield summary, rows


def execute_dask(
    spec: GameSpec,
    config: RunConfig,
    n: int,
    jobs: int | None,
    chunk_size: int = DEFAULT_CHUNK,
    keep_games: bool = False,
    progress: bool | None = None,
    client: Any = None,
    scheduler: str | None = None,
    on_rows: Callable[[int, np.ndarray], None] | None = None,
    checkpoint=None,
    window: int | None = None,
) -> tuple[Summary, np.ndarray | None]:
    """Play ``n`` games on a Dask cluster; the same result as ``runner.execute``.

    ``client``: a ``distributed.Client`` to use; else ``scheduler`` (an address) to connect
    to; else a ``LocalCluster`` of ``jobs`` single-threaded workers is started for the run.
    ``on_rows`` and ``checkpoint`` as in ``runner.play_chunks``. ``window``: at most this many
    chunks outstanding at once (default: twice the cluster's threads, at least 4).
    """
    if client is None:
        with dask_client(None, scheduler, jobs) as own:
            return execute_dask(spec, config, n, jobs, chunk_size, keep_games, progress, own,
                                None, on_rows, checkpoint, window)
    return play_chunks(
        plan_chunks(n, chunk_size),
        lambda chunks, need_rows: summaries_dask(client, config, chunks, need_rows, window),
        config_layout(spec, config), keep_games, on_rows, progress_bar(n, progress), checkpoint,
    )

"""The Python interface: ``simulate`` and ``trace`` (docs/design.md, Public interface)."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

import numpy as np

from montecards import __version__
from montecards.analysis.results import SimulationResult, games_frame
from montecards.analysis.runs import (  # noqa: F401  (public)
    Setup,
    backend_session,
    check_n,
    check_seed,
    kernel_stamp,
    new_seed,
    prepare,
    seat_entries,
    strategy_identities,
)
from montecards.engine.spec import InputError
from montecards.engine.user_strategies import UserStrategy, strategy  # noqa: F401  (public: mc.strategy)
from montecards.engine.user_strategies import parse_params as parse_strategy_weights  # noqa: F401  (the CLI's)
from montecards.run.output import STREAM_FORMATS, RowsWriter  # noqa: F401  (public: the -o suffixes)
from montecards.run.paths import (  # noqa: F401  (public: the CLI checks its -o paths)
    WriteError,
    check_output_file,
    check_output_folder,
    write_failure,
)
from montecards.run.runner import DEFAULT_CHUNK, check_jobs

if TYPE_CHECKING:
    import pandas as pd


def simulate(
    game: str,
    n: int = 100_000,
    players: int | None = None,
    strategies: Sequence[str] | str | None = None,
    params: dict[str, Any] | None = None,
    seed: int | None = None,
    jobs: int | None = None,
    keep_games: bool = False,
    chunk_size: int = DEFAULT_CHUNK,
    progress: bool | None = None,
    backend: str = "local",
    client: Any = None,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    output: str | os.PathLike | None = None,
    strategy_params: Any = None,
    designer: bool = False,
    designer_sample: int = 200,
    luck: bool = False,
) -> SimulationResult:
    """Play ``n`` seeded games of ``game`` and summarise them.

    ``strategies``: one for every seat or one per seat, each a built-in name or a user
    strategy (a function ``choose(obs, legal, params, memory, rng)``, an ``@mc.strategy``, or a
    ``"path/to/file.py:choose"`` / ``"package.module:choose"`` reference; docs/strategies.md);
    ``strategy_params``: per seat the user strategy's weights (a list of floats, or None), or one
    list for every user seat; ``params``: rule and model parameters by name (values or CLI text); ``seed``: drawn at random when omitted (it is
    recorded in the result); ``jobs``: threads (local) or workers (dask); ``keep_games``: also
    return the per-game DataFrame as ``result.games``. The same seed gives the same games
    whatever ``jobs``, ``chunk_size`` or ``backend``.

    ``backend="dask"`` (or a ``client``, a ``dask.distributed.Client``) plays the chunks on a
    Dask cluster: ``client``, else the cluster at ``scheduler``, else a ``LocalCluster`` of
    ``jobs`` single-threaded workers. ``checkpoint``: a directory recording finished chunks;
    a run started again with the same arguments plays only the missing ones (the seed is
    taken from the directory when omitted). ``output``: a ``.parquet`` or ``.csv`` file the
    per-game rows stream to, chunk by chunk (memory independent of ``n``).

    ``designer``: also measure the designer metrics (docs/metrics.md; ``result.extra["designer"]``,
    the JSON key ``designer``): from every game's row, the decision metrics from the decision
    logs of the first ``designer_sample`` games, and lead changes and decisiveness from the luck
    ledgers of those games (where the game has a value for the lineup).

    ``luck=True`` (``--luck``, docs/luck.md): the same games with the luck ledger; the result
    gains ``win_share_adjusted`` (with ``_low``/``_high``) and ``variance_ratio``, its rows the
    per-seat ``luck`` and ``adjusted`` columns. Games with a value only (refused otherwise).

    The games are played by the analyses' :class:`~montecards.analysis.runs.Setup`
    (``Setup.run``): one way to run games.
    """
    n = check_n(n)
    if isinstance(designer_sample, bool) or not isinstance(designer_sample, (int, np.integer)) or designer_sample <= 0:
        raise InputError(f"designer sample must be an integer > 0 (games), got {designer_sample!r}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)) or chunk_size <= 0:
        raise InputError(f"chunk size must be an integer > 0, got {chunk_size!r}")
    chunk_size = int(chunk_size)
    if backend not in ("local", "dask"):
        raise InputError(f"unknown backend {backend!r} (allowed: local, dask)")
    if seed is None and checkpoint is not None:
        from montecards.run.checkpoint import read_manifest

        seed = (read_manifest(checkpoint) or {}).get("seed")  # resume without repeating --seed
    spec, config, names, resolved = prepare(game, players, strategies, params, seed, strategy_params, luck)
    if output is not None:
        check_output_file(output, STREAM_FORMATS, "output")
    if checkpoint is not None:
        check_output_folder(checkpoint, "checkpoint")
    use_dask = backend == "dask" or client is not None
    if not use_dask or (client is None and not scheduler):
        jobs = check_jobs(jobs)  # local threads, or the workers of a LocalCluster
    run = Setup(spec, config, names, resolved, jobs, chunk_size)  # on a cluster: its task slots
    store = run.open_checkpoint(checkpoint, n, __version__) if checkpoint is not None else None
    layout = run.layout
    writer = RowsWriter(output, lambda block: games_frame(block, layout)) if output is not None else None
    on_rows = writer
    if designer:
        from montecards.analysis.designer import DesignerMetrics

        design = DesignerMetrics(layout, spec.score_lower_wins)
        on_rows = design if writer is None else _both(writer, design)
    with (writer if writer is not None else nullcontext(),
          backend_session(backend, client, scheduler, jobs) as cluster):
        run = run.on(cluster)
        run.warm_up()
        start = time.perf_counter()
        summary, rows = run.run(n, keep_games, progress, on_rows=on_rows, checkpoint=store)
        elapsed = time.perf_counter() - start
    extra = {}
    if designer:
        from montecards.analysis.designer import decision_metrics, lead_metrics
        from montecards.analysis.runs import strategy_identities

        sample = min(int(designer_sample), n)
        extra["designer"] = {**design.result(), **decision_metrics(
            spec, config.seed, config.players, resolved, strategy_identities(config, names), sample),
            **lead_metrics(spec, config, names, resolved, sample)}
    if store is not None:
        extra["checkpoint"] = {"directory": str(store.directory), "resumed_chunks": store.resumed,
                               "chunks": -(-n // chunk_size)}
    return run.result(summary, elapsed, rows, extra)


def _both(first: Any, second: Any) -> Any:
    def on_rows(start: int, rows: np.ndarray) -> None:
        first(start, rows)
        second(start, rows)

    return on_rows


def trace(
    game: str,
    seed: int,
    index: int,
    players: int | None = None,
    strategies: Sequence[str] | str | None = None,
    params: dict[str, Any] | None = None,
    strategy_params: Any = None,
) -> pd.DataFrame:
    """Every event of game ``index`` of the run with ``seed`` — the very game that run played.

    The outcome row of the game is attached as ``frame.attrs["outcome"]``. ``strategies`` and
    ``strategy_params`` as in :func:`simulate` (user strategies too).
    """
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or index < 0:
        raise InputError(f"index must be an integer >= 0, got {index!r}")
    spec, config, names, resolved = prepare(game, players, strategies, params, seed, strategy_params)
    events, row = spec.trace(config.seed, int(index), config.players, resolved, seat_entries(config, names))
    layout = spec.layout(config.players)
    outcome = games_frame(row.reshape(1, -1), layout).iloc[0].to_dict()
    events.attrs["outcome"] = outcome
    from montecards.analysis.moves import as_trace

    return as_trace(events, spec.name, config.players, resolved)

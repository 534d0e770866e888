"""Runs for the analysis layer: one configuration played in batches of consecutive games.

A :class:`Setup` is one validated configuration (game, players, strategies, parameters, seed).
``montecards.simulate`` plays it with ``Setup.run(n)``; ``Setup.play(start, count)`` plays
games ``start .. start + count - 1`` of that run, so batches played one after another give
exactly the games of ``montecards.simulate(..., n=start + count, seed=seed)`` — an adaptive
run that stopped at N games is the run ``simulate(n=N)`` would have made. Both go through
``run.runner.play_chunks``, on this machine or a Dask cluster. Game ``i`` draws only from
``(seed, i)``, so two setups that differ only in a rule variant or a strategy deal the same
cards to game ``i`` (common random numbers): per-game rows pair by game index.

Nothing here knows a kernel: it goes through the registry's spec and the run layer.
"""

from __future__ import annotations

import contextvars
import functools
import hashlib
import os
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from montecards import games
from montecards.analysis.results import SimulationResult, games_frame
from montecards.engine.spec import WIN_UNIT, GameSpec, InputError, Layout
from montecards.engine.user_strategies import labels_of, seats_of
from montecards.engine.value import LUCK_OUTPUTS, LUCK_UNIT
from montecards.engine.weights import WeightedSeat
from montecards.run.runner import (
    DEFAULT_CHUNK,
    MAX_SEED,
    RunConfig,
    check_jobs,
    config_layout,
    plan_chunks,
    play_chunks,
    progress_bar,
    summaries_local,
    warm_up,
)
from montecards.run.summary import Summary

if TYPE_CHECKING:
    from montecards.run.checkpoint import Checkpoint

DEFAULT_MAX_GAMES = 50_000_000


@dataclass
class Setup:
    """One validated run configuration: :meth:`run` plays it as ``simulate`` does, :meth:`play`
    in batches of consecutive games (the analyses), both through ``run.runner.play_chunks``
    on this machine or on the Dask cluster of ``client``."""

    spec: GameSpec
    config: RunConfig
    strategies: list[str]
    params: dict[str, Any]
    jobs: int
    """Threads on this machine, or the cluster's task slots (what the result reports)."""
    chunk_size: int = DEFAULT_CHUNK
    client: Any = None
    """A ``dask.distributed.Client`` to play on (``backend_session``), or None: this machine."""
    _warm: bool = field(default=False, repr=False)

    @property
    def game(self) -> str:
        return self.spec.name

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def seed(self) -> int:
        return self.config.seed

    @property
    def layout(self) -> Layout:
        return config_layout(self.spec, self.config)

    def on(self, client: Any) -> Setup:
        """This setup played on the Dask cluster of ``client`` (its task slots are the jobs),
        or itself when ``client`` is None (this machine)."""
        if client is None:
            return self
        from montecards.run.dask_backend import worker_threads

        return replace(self, client=client, jobs=worker_threads(client), _warm=False)

    def warm_up(self) -> None:
        """Compile (or load from cache) the kernel here or on every worker, once per setup (so
        a timed run does not time the compile)."""
        if self._warm:
            return
        if self.client is not None:
            from montecards.run.dask_backend import warm_up_workers

            warm_up_workers(self.client, self.config)
        else:
            warm_up(self.spec, self.config)
        self._warm = True

    def play(self, start: int, count: int, keep: bool = False, checkpoint: Any = None,
             advance: Callable[[int], None] | None = None) -> tuple[Summary, np.ndarray | None]:
        """Games ``start .. start + count - 1``: their merged summary and, if ``keep``, rows.

        ``checkpoint`` (a ``run.checkpoint.Checkpoint`` of this run, ``start`` 0): chunks it
        recorded are read back instead of played, and every chunk played is recorded.
        ``advance(games)``: called after every chunk (a progress bar)."""
        if checkpoint is not None and start != 0:
            raise ValueError("a checkpointed run plays from game 0")
        return play_chunks(plan_chunks(count, self.chunk_size, start), self._chunks, self.layout, keep,
                           advance=advance, checkpoint=checkpoint)

    def run(
        self,
        n: int,
        keep: bool = False,
        progress: bool | None = None,
        on_rows: Callable[[int, np.ndarray], None] | None = None,
        checkpoint: Checkpoint | None = None,
    ) -> tuple[Summary, np.ndarray | None]:
        """Games ``0 .. n - 1`` as ``simulate`` plays them: the merged summary and, if ``keep``,
        the rows; ``progress``: a bar on stderr (None: when it is a terminal); ``on_rows`` and
        ``checkpoint`` as in ``run.runner.play_chunks``."""
        return play_chunks(plan_chunks(n, self.chunk_size), self._chunks, self.layout, keep, on_rows,
                           progress_bar(n, progress), checkpoint)

    def _chunks(self, chunks: list[tuple[int, int]], need_rows: bool) -> Iterator[tuple[Summary, Any]]:
        """``(summary, rows)`` of each chunk, in order, on this machine or the Dask cluster."""
        self.warm_up()
        if self.client is not None:
            from montecards.run.dask_backend import summaries_dask

            return summaries_dask(self.client, self.config, chunks, need_rows)
        return summaries_local(self.spec, self.config, chunks, self.jobs)

    def open_checkpoint(self, directory: str | os.PathLike, n: int, version: str) -> Checkpoint:
        """The checkpoint directory of the run of ``n`` games of this setup (created, or reopened
        when it records this very run: same arguments, montecards ``version`` and kernel sources)."""
        from montecards.run.checkpoint import Checkpoint, run_manifest

        manifest = run_manifest(
            self.spec.name, self.seed, self.players, strategy_identities(self.config, self.strategies),
            self.params, n, self.chunk_size, version=version, kernel=kernel_stamp(self.config.spec_module),
            luck=None if self.config.luck is None else {
                "value": self.config.luck_source,
                "weights_sha256": hashlib.sha256(self.config.luck.tobytes()).hexdigest()[:16],
            },
        )
        return Checkpoint.open(directory, manifest)

    def result(self, summary: Summary, elapsed: float, rows: np.ndarray | None = None,
               extra: dict[str, Any] | None = None) -> SimulationResult:
        """A :class:`SimulationResult` of the games summarised by ``summary`` (with ``--luck``,
        its ``extra["value"]`` names the value file used)."""
        layout = self.layout
        if self.config.luck is not None:
            extra = {"value": self.config.luck_source, **(extra or {})}
        return SimulationResult(
            game=self.spec.name,
            title=self.spec.title,
            layout=layout,
            n_games=summary.n_games,
            players=self.players,
            seed=self.seed,
            strategies=list(self.strategies),
            params=dict(self.params),
            summary_data=summary,
            elapsed_seconds=elapsed,
            rate_metrics=self.spec.rate_metrics,
            score_name=self.spec.score_name,
            turns_name=self.spec.turns_name,
            games=games_frame(rows, layout) if rows is not None else None,
            backend="local" if self.client is None else "dask",
            jobs=self.jobs,
            extra=dict(extra or {}),
        )


def kernel_stamp(spec_module: str) -> str:
    """A hash of the sources the game's kernels are built from (its package, engine, rng)."""
    import importlib.util

    from montecards._cache import source_stamp

    return source_stamp(importlib.util.find_spec(spec_module).origin, jit_mode=False)


def strategy_identities(config: RunConfig, labels: Sequence[str]) -> list[Any]:
    """Per seat what a checkpoint records: a built-in's name, or a user strategy's identity
    (reference, source hash, params, memory): a resume with other code is refused."""
    if not config.user:
        return list(labels)
    return [seat.identity() if seat is not None else label
            for seat, label in zip(config.user, labels, strict=True)]


def deals_for(n: int, n_for: dict[str, int], names: Sequence[str]) -> int:
    """``n``, or the smallest ``n_for`` of the strategies in ``names`` (a key also covers that
    built-in with explicit weights: ``ismcts`` covers ``ismcts[100,0.7,0]``)."""
    return min([n] + [k for s, k in n_for.items() for name in names if name == s or name.startswith(s + "[")])


def new_seed() -> int:
    """A fresh random seed (63 bits, so it prints and round-trips everywhere)."""
    return secrets.randbits(63)


def check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise InputError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
    return int(seed)


def check_n(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
        raise InputError(f"n (number of games) must be an integer > 0, got {n!r}")
    return int(n)


def prepare(
    game: str,
    players: int | None,
    strategies: Any,
    params: dict[str, Any] | None,
    seed: int | None,
    strategy_params: Any = None,
    luck: bool = False,
) -> tuple[GameSpec, RunConfig, list[str], dict[str, Any]]:
    """Validate everything a run needs; raises InputError naming what is allowed.

    ``strategies``: per seat (or one for all) a built-in name or a user strategy (a
    ``file.py:name`` / ``module:name`` reference, a function, a ``UserStrategy``);
    ``strategy_params``: per seat a list of weights or None (or one list for every user
    seat). Returns the spec, the kernel configuration, the seats' labels and the parameters.
    """
    spec = games.get(game)
    players = spec.check_players(spec.default_players if players is None else players)
    entries = bind_params(spec.strategy_codes(players, strategies), strategy_params, spec)
    resolved = spec.resolve_params(players, params)
    seed = new_seed() if seed is None else check_seed(seed)
    seats = seats_of(entries)
    config = RunConfig(
        game=spec.name,
        seed=seed,
        players=players,
        params=spec.kernel_params(players, resolved, entries),
        strategies=spec.strategy_array(entries),
        spec_module=games.GAME_MODULES[spec.name],
        user=tuple(seats) if any(s is not None for s in seats) else (),
    )
    for seat in seats:
        if seat is not None:
            seat.compiled()  # a strategy that does not compile fails here, before any game
    if luck:
        config = with_luck(spec, config, labels_of(entries))  # first: a game without a value says so
        beyond = rules_beyond_ledger(spec, players, resolved)
        if beyond:  # e.g. Joker Marbles' board: V's features read the official one (docs/luck.md)
            served = ledger_rules(spec)
            also = ", and " + ", ".join(served) if served else " only"
            raise InputError(f"--luck is not exact under --param {', '.join(beyond)} (its ledger serves the "
                             f"official rules{also}: docs/luck.md)")
    return spec, config, labels_of(entries), resolved


def changed_rules(spec: GameSpec, players: int, resolved: dict[str, Any]) -> list[str]:
    """The parameters of ``resolved`` (``spec.resolve_params``'s) that differ from the official
    rules at ``players``, sorted: what a value fitted on the official rules cannot serve."""
    official = spec.resolve_params(players, None)
    return sorted(k for k in resolved if resolved[k] != official.get(k))


def ledger_rules(spec: GameSpec) -> tuple[str, ...]:
    """The rule parameters under which the game's luck ledger stays exact: its value module's
    ``LEDGER_RULES`` (every parameter of Parade, Gift of Tulips and Wig Out!; Anomia's but
    ``tie_prob``; Joker Marbles' but the board and teams: docs/luck.md)."""
    import importlib

    try:
        module = importlib.import_module(games.GAME_MODULES[spec.name] + ".value")
    except ModuleNotFoundError:  # a game without a value serves no rules (with_luck says so)
        return ()
    return tuple(getattr(module, "LEDGER_RULES", ()))


def rules_beyond_ledger(spec: GameSpec, players: int, resolved: dict[str, Any]) -> list[str]:
    """The parameters off the official rules (:func:`changed_rules`) under which the game's luck
    ledger is not exact: all of them, but those of :func:`ledger_rules`."""
    served = set(ledger_rules(spec))
    return [k for k in changed_rules(spec, players, resolved) if k not in served]


def seat_defaults(spec: GameSpec) -> dict[str, tuple[float, ...]]:
    """Each parameterised built-in's default parameters (``engine.value.find_value``: a label at
    its defaults finds the value fitted on the bare name)."""
    return {name: w.default for name, w in spec.seat_params.items()}


def with_luck(spec: GameSpec, config: RunConfig, labels: Sequence[str]) -> RunConfig:
    """``config`` taking luck (``--luck``, docs/luck.md): its value array from the game's value
    file for this lineup (``engine.value.find_value``). Refused in one line for a game without
    a value, a user strategy, or a player count without a fitted value."""
    from montecards.engine.value import find_value, load_value, values_folder

    if spec.value is None:
        raise InputError(f"--luck: {spec.name} has no value yet (games with one: "
                         f"{', '.join(g for g in games.names() if games.get(g).value is not None)})")
    if config.user:
        raise InputError("--luck with a user strategy is not supported yet (built-in strategies only)")
    path = find_value(values_folder(config.spec_module), spec.name, config.players, labels,
                      seat_defaults(spec))
    data = load_value(path, spec.name, config.players, spec.value.features)
    array = spec.value.array(data["vstart"], data["weights"])
    return replace(config, luck=array, luck_source=f"{path.parent.parent.name}/values/{path.name}")


def bind_params(entries: list[Any], strategy_params: Any, spec: GameSpec, what: str = "seat") -> list[Any]:
    """``entries`` with each seat's ``params`` bound (``prepare``): a user strategy's, or a
    weighted built-in's weights (``spec.seat_params``). ``what`` an entry is, in messages."""
    if strategy_params is None:
        return entries
    if isinstance(strategy_params, str) or not hasattr(strategy_params, "__len__"):
        raise InputError(f"strategy_params must be a list (per seat, or one for all), got {strategy_params!r}")
    flat = all(isinstance(p, (int, float, np.integer, np.floating)) and not isinstance(p, bool)
               for p in strategy_params)
    per_seat = [strategy_params] * len(entries) if flat and len(strategy_params) else list(strategy_params)
    if len(per_seat) == 1:
        per_seat = per_seat * len(entries)
    if len(per_seat) != len(entries):
        raise InputError(
            f"give strategy params for every {what} or exactly {len(entries)} (one per {what}), "
            f"got {len(per_seat)}"
        )
    bound = []
    for seat, (entry, params) in enumerate(zip(entries, per_seat)):
        if isinstance(entry, WeightedSeat) or (isinstance(entry, str) and entry in spec.seat_params):
            name = entry.name if isinstance(entry, WeightedSeat) else entry
            bound.append(spec.with_weights(name, params) if params is not None and len(params) else entry)
        elif isinstance(entry, str):
            if params is not None and len(params) > 0 and not flat:
                raise InputError(f"{what} {seat} plays the built-in {entry}, which takes no strategy params")
            bound.append(entry)
        else:
            bound.append(entry.bind(params) if params is not None else entry)
    return bound


def bind_labels(game: str, strategies: Sequence[Any], strategy_params: Any) -> list[Any]:
    """``strategies`` (a list, e.g. a matchup's) with ``strategy_params`` bound as in
    ``simulate`` — one list for every strategy that takes weights, or one per strategy in
    order — as their labels (``file.py:choose[1,0.5]``, ``weighted[...]``: valid input)."""
    if strategy_params is None:
        return list(strategies)
    spec = games.get(game)
    entries = spec.strategy_codes(len(strategies), list(strategies))
    bound = bind_params(entries, strategy_params, spec, what="strategy")
    return labels_of([str(b) if isinstance(b, WeightedSeat) else b for b in bound])


def seat_entries(config: RunConfig, labels: Sequence[str]) -> list[Any]:
    """Per seat what a game's ``trace`` takes: the built-in's name or the user strategy."""
    if not config.user:
        return list(labels)
    return [seat if seat is not None else label for seat, label in zip(config.user, labels)]


def setup(
    game: str,
    players: int | None = None,
    strategies: Sequence[str] | str | None = None,
    params: dict[str, Any] | None = None,
    seed: int | None = None,
    jobs: int | None = None,
    strategy_params: Any = None,
    luck: bool = False,
) -> Setup:
    """Validate a configuration (raises InputError naming what is allowed).

    Inside ``backend_session(...)`` on Dask, the setup plays on that session's cluster.
    ``luck``: its runs take luck (``--luck``, ``with_luck``).
    """
    spec, config, names, resolved = prepare(game, players, strategies, params, seed, strategy_params, luck)
    client = _SESSION.get()
    return Setup(spec, config, names, resolved, check_jobs(jobs) if client is None else 1).on(client)


_SESSION: contextvars.ContextVar[Any] = contextvars.ContextVar("montecards_dask_session", default=None)


def with_backend(func: Callable[..., Any]) -> Callable[..., Any]:
    """Give an analysis function the ``backend=``, ``client=`` and ``scheduler=`` keywords of
    ``simulate``: its runs then play in that :func:`backend_session`."""

    @functools.wraps(func)
    def run(*args: Any, backend: str = "local", client: Any = None, scheduler: str | None = None,
            **kwargs: Any) -> Any:
        with backend_session(backend, client, scheduler, kwargs.get("jobs")):
            return func(*args, **kwargs)

    run.__doc__ = (func.__doc__ or "") + (
        "\n\n    ``backend`` (``\"local\"`` or ``\"dask\"``), ``client`` (a ``dask.distributed.Client``)"
        "\n    and ``scheduler`` (an address): where the games are played, as in ``simulate``; the"
        "\n    numbers do not depend on it."
    )
    return run


@contextmanager
def backend_session(backend: str = "local", client: Any = None, scheduler: str | None = None,
                    jobs: int | None = None) -> Iterator[Any]:
    """Where the analyses inside this block play: this machine (``backend="local"``), or a Dask
    cluster — ``client``, else the one at ``scheduler``, else a LocalCluster of ``jobs``
    workers, opened once for the whole block. The numbers are the same either way."""
    if backend not in ("local", "dask"):
        raise InputError(f"unknown backend {backend!r} (allowed: local, dask)")
    if scheduler is not None and backend != "dask" and client is None:
        raise InputError("scheduler needs backend='dask'")
    if backend == "local" and client is None:
        yield None
        return
    from montecards.run.dask_backend import dask_client

    with dask_client(client, scheduler, jobs) as session:
        token = _SESSION.set(session)
        try:
            yield session
        finally:
            _SESSION.reset(token)


def check_count(name: str, value: Any, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise InputError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_precision(precision: Any) -> float | None:
    if precision is None:
        return None
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision < 1:
        raise InputError(f"precision must be a number between 0 and 1 (a 95 % half-width), got {precision!r}")
    return float(precision)


# --- per-game quantities from int64 rows --------------------------------------------------------


def per_game(rows: np.ndarray, layout: Layout) -> dict[str, np.ndarray]:
    """Per-game float columns of a block of rows: ``win_k`` (share), ``score_k``, every other
    seat output ``<name>_k``, ``turns``, each metric, ``shared`` (0/1: a finished game whose win
    was split) and ``unfinished`` (0/1)."""
    out: dict[str, np.ndarray] = {}
    win = rows[:, layout.seat_slice("win")]
    for k in range(layout.players):
        out[f"win_{k}"] = win[:, k] / WIN_UNIT
    for name in layout.seat_block_names[1:]:
        block = rows[:, layout.seat_slice(name)]
        unit = LUCK_UNIT if name in LUCK_OUTPUTS else 1  # --luck: luck and adjusted in wins
        for k in range(layout.players):
            out[f"{name}_{k}"] = block[:, k] / unit if unit != 1 else block[:, k].astype(np.float64)
    out["turns"] = rows[:, 0].astype(np.float64)
    for name in layout.metrics:
        out[name] = rows[:, layout.column(name)].astype(np.float64)
    finished = rows[:, 1] == 0
    out["shared"] = (finished & (win.max(axis=1) < WIN_UNIT)).astype(np.float64)
    out["unfinished"] = (~finished).astype(np.float64)
    return out


def proportion_columns(layout: Layout, rate_metrics: Sequence[str]) -> set[str]:
    """Per-game columns that are shares or 0/1 rates (Wilson intervals); the rest are means."""
    cols = {f"win_{k}" for k in range(layout.players)}
    cols |= {"shared", "unfinished"} | set(rate_metrics)
    return cols


# --- adaptive runs ------------------------------------------------------------------------------


@dataclass
class Adaptive:
    """How an adaptive run went: games played, batches, and the widest interval at the end."""

    precision: float
    n_games: int
    batches: int
    max_half_width: float
    reached: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "precision": self.precision,
            "n_games": self.n_games,
            "batches": self.batches,
            "max_half_width": self.max_half_width,
            "reached": self.reached,
        }

    def sentence(self) -> str:
        verb = "reached" if self.reached else "NOT reached (game cap hit)"
        return (
            f"precision ±{self.precision:g} {verb} after {self.n_games:,} games per configuration "
            f"in {self.batches} batch{'es' if self.batches != 1 else ''} "
            f"(widest interval ±{self.max_half_width:.4g})"
        )


def run_adaptive(
    step: Callable[[int, int], None],
    widest: Callable[[], float],
    precision: float,
    first: int = 20_000,
    max_games: int = DEFAULT_MAX_GAMES,
) -> Adaptive:
    """Play batches of consecutive games until ``widest()`` (the largest 95 % half-width of the
    requested intervals) is at most ``precision``, or ``max_games`` games were played.

    ``step(start, count)`` plays games ``start .. start + count - 1`` of every configuration.
    The next batch is sized from the current width (half-width shrinks as 1/sqrt(n)), with a
    10 % margin, at least a quarter and at most three times the games played so far.
    """
    n = 0
    batches = 0
    count = min(first, max_games)
    while True:
        step(n, count)
        n += count
        batches += 1
        worst = widest()
        if worst <= precision:
            return Adaptive(precision, n, batches, worst, True)
        if n >= max_games:
            return Adaptive(precision, n, batches, worst, False)
        need = int(np.ceil(n * (worst / precision) ** 2 * 1.1)) if np.isfinite(worst) else 4 * n
        count = int(min(max(need - n, n // 4, 1000), 3 * n, max_games - n))
        count = max(1, int(np.ceil(count / 1000.0) * 1000) if count >= 1000 else count)
        count = min(count, max_games - n)


def timed(func: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = func()
    return value, time.perf_counter() - start

"""The game contract: what every game registers so the engine, analysis and CLI can run it.

The engine knows no game. A game describes itself with a :class:`GameSpec`: player range,
parameters (with defaults, parsing and validation), strategy names and its per-game output
columns, and hands over its entry points:

* its ``kernel`` module: ``play_block`` and ``OPTIONS`` (``engine/options.py``), from which
  the engine makes ``run_chunk(seed, start, players, params, strategies, rows)``
  (``engine.kernel.chunk_runner``): it plays games ``start .. start + len(rows) - 1`` of the
  run, game ``i`` drawing only from the stream of ``(seed, i)``, and writes one int64 row per
  game;
* ``trace_one`` (also the kernel's), the one game of a run played with its events and
  decisions recorded, from which the engine plays traces (:meth:`GameSpec.play_traced`, into
  buffers of ``new_trace``, grown when a game overflows one: :meth:`GameSpec.trace_buffer`)
  and decision logs (``decisions``);
* ``trace(seed, index, players, params, strategies)`` — one game of a run, event by event;
* ``pack_params(players, params)`` — the validated parameters as the float64 vector the
  kernel reads.

Row layout (see :class:`Layout`): ``turns, unfinished, <metrics...>`` then one block of
``players`` columns per seat output: ``win`` (the seat's share of the game's win, in
sixtieths so that shares of 1/k for k <= 6 stay integers), ``score``, then the game's own.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from montecards.engine import restricted, user_strategies
from montecards.engine.decisions import new_log, read_log
from montecards.engine.kernel import chunk_runner
from montecards.engine.options import check_deal, every_option, kernel_options
from montecards.engine.user_seats import USER
from montecards.engine.value import LUCK_OUTPUTS
from montecards.engine.weights import WeightedSeat, Weights, append_table, parse_label, seat_weights
from montecards.errors import InputError  # noqa: F401  (re-exported: the engine's bad-input error)

WIN_UNIT = 60
"""A whole win, in the integer unit of the ``win`` columns (divisible by 1..6)."""

GAME_COLUMNS = ("turns", "unfinished")
SEAT_COLUMNS = ("win", "score")


@dataclass(frozen=True)
class Param:
    """One rule or model parameter of a game.

    ``default`` is a value or a function of the player count. ``parse`` turns the CLI text
    (lists comma-separated) into a value; ``check(value, players)`` returns the value in its
    canonical form or raises :class:`InputError` saying what is allowed. ``acts(players)``
    says whether the parameter changes anything at that player count (None: at every count);
    a run still reports it, and the summary table marks it unused.
    """

    name: str
    default: Any
    help: str
    parse: Callable[[str], Any]
    check: Callable[[Any, int], Any]
    acts: Callable[[int], bool] | None = None

    def default_for(self, players: int) -> Any:
        return self.default(players) if callable(self.default) else self.default

    def acts_at(self, players: int) -> bool:
        return self.acts is None or bool(self.acts(players))


@dataclass(frozen=True)
class Layout:
    """Column layout of the int64 per-game rows of one game at one player count."""

    metrics: tuple[str, ...]
    seat_outputs: tuple[str, ...]
    players: int

    @property
    def game_columns(self) -> tuple[str, ...]:
        return GAME_COLUMNS + self.metrics

    @property
    def columns(self) -> list[str]:
        seat_cols = [f"{name}_{k}" for name in self.seat_block_names for k in range(self.players)]
        return list(self.game_columns) + seat_cols

    @property
    def seat_block_names(self) -> tuple[str, ...]:
        return SEAT_COLUMNS + self.seat_outputs

    @property
    def width(self) -> int:
        return len(self.game_columns) + len(self.seat_block_names) * self.players

    def seat_slice(self, name: str) -> slice:
        """The columns of seat output ``name`` (one per seat)."""
        block = self.seat_block_names.index(name)
        first = len(self.game_columns) + block * self.players
        return slice(first, first + self.players)

    def column(self, name: str) -> int:
        return self.columns.index(name)


@dataclass(frozen=True, kw_only=True)
class GameSpec:
    """Everything the engine, analysis and CLI need to know about one game (keyword arguments)."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    strategies: tuple[str, ...]
    default_strategy: str
    params: tuple[Param, ...]
    metrics: tuple[str, ...]
    seat_outputs: tuple[str, ...]
    score_name: str
    turns_name: str
    kernel: Any = field(default=None, repr=False, compare=False)
    """The game's ``kernel`` module, from which the engine takes :attr:`play_block`,
    :attr:`options` (``kernel.OPTIONS``, if it declares any) and :attr:`trace_one`
    (``engine/CONTRACT.md``)."""
    play_block: Callable[..., None] | None = None
    """The game's jitted ``play_block`` (``engine/CONTRACT.md``), from which the engine makes
    :attr:`run_chunk` (``kernel.play_block`` unless given)."""
    pack_params: Callable[[int, dict[str, Any]], np.ndarray]
    trace: Callable[..., Any] | None = None
    """``trace(seed, index, players, params, strategy_names, deal=None)``: ``(events, row)`` of
    one game; the engine's (:meth:`_trace`) for a game that gives :attr:`trace_frame`."""
    trace_frame: Callable[[np.ndarray, dict[str, Any]], Any] | None = None
    """``trace_frame(buffer, resolved params)``: a trace buffer's events as a table."""
    notes: str = ""
    rate_metrics: tuple[str, ...] = field(default=())
    """Metrics that are 0/1 per game, reported as rates with Wilson intervals."""
    play_scripted: Callable[..., dict[str, Any]] | None = None
    """One game from an explicit deal and explicit decisions (the game's keyword arguments);
    returns at least ``scores``, ``win_share`` and ``turns``. Raises ``ValueError`` on an
    illegal script."""
    script_from_trace: Callable[..., dict[str, Any]] | None = None
    """``(events, players, strategies, params) -> kwargs``: the ``play_scripted`` arguments that
    replay a traced game. A game whose replay needs no strategies gives ``(events, players,
    params)``, and the engine adapts it (its signature names no ``strategies``)."""
    decisions: Callable[..., list[Any]] | None = None
    """``(seed, index, players, params, strategy_names) -> [Decision]``: every decision of one
    game through the decision interface (``engine/decisions.py``). Left None, the engine's
    (``_decisions``, over ``trace_one``; an empty list for a game without player decisions)."""
    view: Any = field(default=None, repr=False, compare=False)
    """The game's ``view`` module (the decision interface), from which the engine takes
    :attr:`decision_kinds` (``len(view.DECISION_NAMES)``) and :attr:`log_sizes`
    (``(view.OBS_SIZE, view.MAX_LEGAL)``)."""
    decision_kinds: int = 0
    """How many kinds of decision the game's seats make (0: none, so no user strategy can play)."""
    seat_params: dict[str, Weights] = field(default_factory=dict)
    """The built-ins that read run-time per-seat parameters (``engine/weights.py``), by name:
    ``weighted``'s and ``tuned``'s weights, the searches' iterations; their names, defaults
    and tuning bounds. A seat's values come from ``strategy_params`` or its label."""
    check_params: Callable[[int, dict[str, Any]], None] | None = None
    """A rule between parameters (or between a parameter and the player count) that no single
    ``Param.check`` can see: ``(players, resolved) -> None``, raising ``InputError`` in one
    line. :meth:`resolve_params` calls it after every ``Param.check``, so runs, traces,
    scripted games and ``montecards.testing`` (which finds the player counts a parameter set
    fits through ``resolve_params``) all refuse the same parameters."""
    score_lower_wins: bool = False
    """The score's direction: True when the lowest score wins (Parade, Wig Out!). Ratings order
    the seats that did not win by it (``analysis/ratings.py``)."""
    skill_param: str = ""
    """A per-seat parameter that is a Bradley–Terry skill in natural-log units (Anomia's
    ``theta``), or "": a tournament may take its values as entrants (``theta=0.5``), and the
    skill depth converts a gap in it to face-off rating points."""
    quick_strategies: tuple[str, ...] = ()
    """The labels ``montecards.testing``'s replay checks mix, for a game whose built-ins
    include one that is slow at its defaults (a search at hundreds of iterations a decision):
    the same strategies, the slow ones with cheaper parameters (the replays check the rules;
    a script carries every decision, whatever made it). Left empty, the engine's: each
    built-in at its ``seat_params``' ``quick`` values (``Weights.quick``), if any has them;
    else ``strategies``."""
    options: tuple[tuple[str, Any], ...] = ()
    """The optional compiled parts (``kernel.OPTIONS``: ``(name, strategy codes)`` each,
    ``engine/options.py``); empty: none."""
    trace_one: Callable[..., Any] | None = None
    """The game's jitted ``trace_one(seed, index, players, params, strategies, row, trace, log,
    user, options)`` (``engine/CONTRACT.md``), which :meth:`play_traced` calls
    (``kernel.trace_one`` unless given)."""
    new_trace: Callable[[int, dict[str, Any]], np.ndarray] | None = None
    """``(players, resolved params) -> buffer``: an empty trace buffer (``engine/trace.py``)
    for a game of those parameters (:meth:`trace_buffer` plays a longer game again in a buffer
    of its length). A decision log passes ``new_trace(...)[:0]``, a ``(0, k)`` buffer of the
    same type, so that logs and traces share one compiled ``trace_one``."""
    log_capacity: int | Callable[[int, dict[str, Any]], int] = 0
    """Decisions a log holds at first (or ``(players, resolved params) -> int``); a longer game
    is played again with a log of its length (:meth:`decision_log`)."""
    log_sizes: tuple[int, int] = (0, 0)
    """``(view.OBS_SIZE, view.MAX_LEGAL)``: a logged decision's observation and legal moves."""
    value: Any = field(default=None, compare=False)
    """The game's value and luck ledger (an ``engine.value.ValueParts``, docs/luck.md), or None:
    the game has none yet and refuses ``--luck``."""
    run_chunk: Callable[..., None] = field(init=False, repr=False, compare=False)
    """``run_chunk(seed, start, players, params, strategies, rows, user=None, serial=False,
    luck=None)``: the chunk glue, made by the engine (``engine.kernel.chunk_runner``)."""

    def __post_init__(self) -> None:
        if self.kernel is not None:
            for name, part in (("play_block", "play_block"), ("options", "OPTIONS"),
                               ("trace_one", "trace_one")):
                if not getattr(self, name):  # a kernel without OPTIONS has no optional parts
                    object.__setattr__(self, name, getattr(self.kernel, part, getattr(self, name)))
        if self.view is not None:
            object.__setattr__(self, "decision_kinds", len(self.view.DECISION_NAMES))
            object.__setattr__(self, "log_sizes", (self.view.OBS_SIZE, self.view.MAX_LEGAL))
        if self.play_block is None:
            raise ValueError(f"{self.name}: a GameSpec needs its kernel (or play_block)")
        luck_block = self.value.luck_block if self.value is not None else None
        object.__setattr__(self, "run_chunk", chunk_runner(self.play_block, self.options, luck_block))
        replay = self.script_from_trace
        if replay is not None and "strategies" not in inspect.signature(replay).parameters:
            object.__setattr__(self, "script_from_trace", _with_strategies(replay))
        if not self.quick_strategies and any(w.quick for w in self.seat_params.values()):
            object.__setattr__(self, "quick_strategies", tuple(
                WeightedSeat(s, self.seat_params[s].quick).label
                if s in self.seat_params and self.seat_params[s].quick else s
                for s in self.strategies
            ))
        if self.trace is None or getattr(self.trace, "__func__", None) is GameSpec._trace:
            object.__setattr__(self, "trace", self._trace)  # (a copy by dataclasses.replace: its own)
        engines = self.decisions is None or getattr(self.decisions, "__func__", None) is GameSpec._decisions
        if engines and self.trace_one is not None:  # (also a copy by dataclasses.replace: its own)
            object.__setattr__(self, "decisions", self._decisions)

    def kernel_options(self, strategies: np.ndarray) -> tuple | None:
        """The optional parts a run of these seat strategies compiles in (``engine/options.py``)."""
        return kernel_options(self.options, strategies)

    @property
    def every_option(self) -> tuple | None:
        """:meth:`kernel_options`' value with every option on: what traces and logs pass."""
        return every_option(self.options)

    @property
    def deal_option(self) -> bool:
        """Whether the game's kernels take the deal option (replayed and duplicate deals,
        ``engine.options``): its ``play_block`` and ``trace_one`` end with a ``deal`` argument."""
        return "deal" in inspect.signature(getattr(self.play_block, "py_func", self.play_block)).parameters

    def check_deal(self, deal: Any, players: int) -> tuple[int, int] | None:
        """``deal`` checked for this game (``engine.options.check_deal``); InputError when the game
        has no deal option."""
        if deal is not None and not self.deal_option:
            raise InputError(f"{self.name} cannot replay or rotate its deals (no deal option in its kernel)")
        return check_deal(deal, players)

    def play_traced(self, seed: int, index: int, players: int, params: dict[str, Any] | None,
                    strategy_names: Any, trace: Any, log: Any = None, deal: Any = None) -> np.ndarray:
        """Game ``index`` of the run with ``seed`` through ``trace_one`` (the very game the run
        played), its events into ``trace`` and its decisions into ``log`` (None: none), with
        every option compiled in (:attr:`every_option`: one trace kernel for every lineup);
        returns its row. ``strategy_names``: per seat a built-in name or a user strategy
        (:meth:`strategy_codes`); a user strategy's fault raises ``StrategyError``. ``deal``:
        the deal option ``(replay, rotation)`` (``engine.options``), or None; a trace with a deal
        compiles only the optional parts its lineup plays (:meth:`kernel_options`)."""
        players = self.check_players(players)
        resolved = self.resolve_params(players, params)
        entries = self.strategy_codes(players, strategy_names)
        packed = self.kernel_params(players, resolved, entries)
        codes = self.strategy_array(entries)
        row = np.zeros(self.layout(players).width, dtype=np.int64)
        user = user_strategies.user_arg(entries, 1)
        options = self.every_option
        extra = ()
        if deal is not None:  # rare: a kernel for this lineup's options only (a smaller compile)
            extra = (tuple(np.int64(v) for v in self.check_deal(deal, players)),)
            options = self.kernel_options(codes)
        user_strategies.serial_call(entries, user, lambda: self.trace_one(
            np.uint64(seed), int(index), players, packed, codes, row, trace, log, user, options, *extra,
        ))
        return row

    def trace_buffer(self, seed: int, index: int, players: int, params: dict[str, Any] | None,
                     strategy_names: Any, deal: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """``(buffer, row)``: game ``index`` of the run with ``seed`` traced (:meth:`play_traced`,
        ``deal`` as there) into a ``new_trace`` buffer; a game that overflows it (its count, row 0,
        goes on: ``engine/trace.py``) is played again in a buffer of its length."""
        players = self.check_players(players)
        resolved = self.resolve_params(players, params)
        buffer = self.new_trace(players, resolved)
        while True:
            row = self.play_traced(seed, index, players, resolved, strategy_names, buffer, deal=deal)
            if int(buffer[0, 0]) < buffer.shape[0]:
                return buffer, row
            buffer = np.zeros((int(buffer[0, 0]) + 1, buffer.shape[1]), buffer.dtype)

    def _trace(self, seed: int, index: int, players: int, params: dict[str, Any] | None = None,
               strategy_names: Any = None, deal: Any = None) -> tuple[Any, np.ndarray]:
        """Every event of game ``index`` of the run with ``seed`` (the very game the run played)
        and its row: ``(trace_frame(buffer, resolved params), row)`` (:meth:`trace_buffer`).
        ``strategy_names``: per seat a built-in name or a user strategy (:meth:`strategy_codes`);
        ``deal``: the deal option ``(replay, rotation)`` (docs/luck.md), or None."""
        if self.trace_frame is None:
            raise ValueError(f"{self.name}: a GameSpec needs its trace or trace_frame")
        players = self.check_players(players)
        resolved = self.resolve_params(players, params)
        buffer, row = self.trace_buffer(seed, index, players, resolved, strategy_names, deal)
        return self.trace_frame(buffer, resolved), row

    def decision_log(self, seed: int, index: int, players: int, params: dict[str, Any] | None,
                     strategy_names: Any) -> tuple[Any, np.ndarray]:
        """``(log, row)``: the decision log (``engine.decisions``) and the row of game ``index``
        of the run with ``seed``; a game longer than ``log_capacity`` is played again with a
        log of its length."""
        players = self.check_players(players)
        resolved = self.resolve_params(players, params)
        capacity = self.log_capacity
        capacity = int(capacity(players, resolved) if callable(capacity) else capacity)
        empty_trace = None if self.new_trace is None else self.new_trace(players, resolved)[:0]
        while True:
            log = new_log(capacity, *self.log_sizes)
            row = self.play_traced(seed, index, players, resolved, strategy_names, empty_trace, log)
            if log[0][0] <= capacity:
                return log, row
            capacity = int(log[0][0])

    def _decisions(self, seed: int, index: int, players: int, params: dict[str, Any] | None = None,
                   strategy_names: Any = None) -> list[Any]:
        """Every decision of game ``index`` of the run with ``seed`` (the very game the run
        played), as the decision interface (the game's ``view``) shows it: per decision the
        seat, its observation, its legal moves and the index of the move its strategy chose
        (``decisions.NO_CHOICE`` if it is not legal). Empty for a game without decisions (its
        arguments checked as for a trace)."""
        if not self.has_decisions:
            players = self.check_players(players)
            resolved = self.resolve_params(players, params)
            self.kernel_params(players, resolved, self.strategy_codes(players, strategy_names))
            return []
        return read_log(self.decision_log(seed, index, players, params, strategy_names)[0])

    def layout(self, players: int, luck: bool = False) -> Layout:
        """The rows' columns; ``luck``: a run with ``--luck`` (``engine.value.LUCK_OUTPUTS`` last)."""
        return Layout(self.metrics, self.seat_outputs + (LUCK_OUTPUTS if luck else ()), players)

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        allowed = ", ".join(p.name for p in self.params) or "none"
        raise InputError(f"unknown parameter {name!r} for {self.name} (allowed: {allowed})")

    def check_players(self, players: int) -> int:
        if not isinstance(players, (int, np.integer)) or isinstance(players, bool):
            raise InputError(f"players must be an integer, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise InputError(
                f"{self.name} takes {self.min_players} to {self.max_players} players, got {players}"
            )
        return int(players)

    def resolve_params(self, players: int, given: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with ``given`` (text values parsed), each checked, then checked
        together (``check_params``); raises InputError."""
        given = dict(given or {})
        resolved = {}
        for name in given:
            self.param(name)  # unknown names fail first, with the allowed list
        for p in self.params:
            if p.name in given:
                value = given[p.name]
                if isinstance(value, str):
                    value = parse_text(p, value)
            else:
                value = p.default_for(players)
            resolved[p.name] = p.check(value, players)
        if self.check_params is not None:
            self.check_params(players, resolved)
        return resolved

    @property
    def has_decisions(self) -> bool:
        """True when the game's seats make decisions (a user strategy can play it)."""
        return self.decision_kinds > 0

    def strategy_codes(self, players: int, names: Sequence[Any] | str | None) -> list[Any]:
        """Per-seat strategies: one for every seat, or exactly one per seat.

        Each entry is a built-in name, or a user strategy: a ``path/to/file.py:name`` or
        ``package.module:name`` reference, a function ``choose(obs, legal, params, memory,
        rng)``, or a :class:`~montecards.engine.user_strategies.UserStrategy`. Built-ins come back
        as their names, user strategies as ``UserStrategy`` objects (checked, not compiled).
        """
        if names is None or (not isinstance(names, str) and not callable(names) and len(names) == 0):
            names = [self.default_strategy]
        if isinstance(names, str) or callable(names):
            names = [names]
        entries = [self._strategy_entry(name) for name in names]
        if len(entries) == 1:
            entries = entries * players
        if len(entries) != players:
            raise InputError(
                f"give one strategy for every seat or exactly {players} (one per seat), got {len(entries)}"
            )
        return entries

    def _strategy_entry(self, name: Any) -> Any:
        if isinstance(name, str) and name in self.strategies:
            return name
        if isinstance(name, WeightedSeat):
            return self.with_weights(name.name, name.weights)
        bracketed = parse_label(name) if isinstance(name, str) else None
        if bracketed is not None and bracketed[0] in self.strategies:
            return self.with_weights(*bracketed)
        if isinstance(name, str) and user_strategies.known(name) is not None:
            return user_strategies.known(name).for_game(self.name, self.has_decisions)
        if restricted.is_restricted(name):
            return restricted.build(name, self)
        if isinstance(name, str) and not user_strategies.looks_like_reference(name):
            allowed = ", ".join(self.strategies)
            raise InputError(
                f"unknown strategy {name!r} for {self.name} (allowed: {allowed}, or a user "
                "strategy as path/to/file.py:function or package.module:function)"
            )
        if isinstance(name, str):
            found = user_strategies.load(name, self.name)
        else:
            found = user_strategies.from_function(name)
        return found.for_game(self.name, self.has_decisions)

    def with_weights(self, name: str, weights: Sequence[Any]) -> WeightedSeat:
        """A seat of the weighted built-in ``name`` with ``weights`` (checked: InputError)."""
        if name not in self.seat_params:
            takes = ", ".join(self.seat_params) or "none"
            raise InputError(f"{self.name}'s built-in {name} takes no weights (built-ins that do: {takes})")
        return WeightedSeat(name, self.seat_params[name].check(name, weights))

    def strategy_array(self, names: Sequence[Any]) -> np.ndarray:
        """Per-seat strategy codes for the kernels (``engine.user_seats.USER`` for a user strategy)."""
        return np.array([self._code(n) for n in names], dtype=np.int64)

    def _code(self, entry: Any) -> int:
        if isinstance(entry, str):
            return self.strategies.index(entry)
        if isinstance(entry, WeightedSeat):
            return self.strategies.index(entry.name)
        return USER

    def kernel_params(self, players: int, params: dict[str, Any], entries: Sequence[Any]) -> np.ndarray:
        """The parameter vector a kernel reads: ``pack_params``, and the weights table when a
        seat plays a weighted built-in (``engine/weights.py``; ``entries`` as from
        :meth:`strategy_codes`)."""
        return append_table(self.pack_params(players, params), seat_weights(entries, self.seat_params))


def _with_strategies(script_from_trace: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """A game's ``script_from_trace(events, players, params)`` (its replay needs no strategies)
    as the spec's ``(events, players, strategies, params)``."""

    def replay(events: Any, players: int, strategies: Any, params: dict[str, Any] | None) -> dict[str, Any]:
        return script_from_trace(events, players, params)

    return replay


def parse_text(param: Param, text: str) -> Any:
    try:
        return param.parse(text)
    except (ValueError, TypeError) as exc:
        raise InputError(f"invalid value {text!r} for parameter {param.name}: {exc}") from None


# --- reusable parsers and checks -------------------------------------------------------------


def parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError("expected true or false")


def parse_int_list(text: str) -> list[int]:
    text = text.strip()
    if text in ("", "none", "[]"):
        return []
    return [int(x) for x in text.strip("[]").split(",")]


def parse_float_list(text: str) -> list[float]:
    return [float(x) for x in text.strip().strip("[]").split(",")]


def check_choice(name: str, allowed: Sequence[Any]) -> Callable[[Any, int], Any]:
    def check(value: Any, players: int) -> Any:
        if value not in allowed:
            shown = ", ".join(str(a) for a in allowed)
            raise InputError(f"parameter {name} must be one of {shown}, got {value!r}")
        return value

    return check


def check_int_range(name: str, low: int, high: int | None = None) -> Callable[[Any, int], int]:
    def check(value: Any, players: int) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise InputError(f"parameter {name} must be an integer, got {value!r}")
        if value < low or (high is not None and value > high):
            upper = "" if high is None else f" and <= {high}"
            raise InputError(f"parameter {name} must be >= {low}{upper}, got {value}")
        return int(value)

    return check


def check_number(name: str, low: float, high: float = math.inf, above: bool = False
                 ) -> Callable[[Any, int], float]:
    """A finite number (not a bool) in ``[low, high]`` (``above``: greater than ``low``), as a float."""
    if above:
        allowed = f"> {low:g}"
    else:
        allowed = f"in [{low:g}, {high:g}]" if math.isfinite(high) else f">= {low:g}"

    def check(value: Any, players: int) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise InputError(f"parameter {name} must be a number {allowed}, got {value!r}")
        number = float(value)
        if not (math.isfinite(number) and (number > low if above else number >= low) and number <= high):
            raise InputError(f"parameter {name} must be a finite number {allowed}, got {value!r}")
        return number

    return check


def check_bool(name: str) -> Callable[[Any, int], bool]:
    def check(value: Any, players: int) -> bool:
        if not isinstance(value, (bool, np.bool_)):
            raise InputError(f"parameter {name} must be true or false, got {value!r}")
        return bool(value)

    return check


def check_per_seat_floats(
    name: str, positive: bool = False, finite: bool = True
) -> Callable[[Any, int], list[float]]:
    """Per-seat numbers: one for every seat or exactly one per seat, as floats (a bool, text or
    anything not a number is refused in one line)."""

    def check(value: Any, players: int) -> list[float]:
        if isinstance(value, (np.integer, np.floating)):
            value = float(value)
        try:
            if isinstance(value, (bool, str)):
                raise TypeError(value)
            values = [value] * players if isinstance(value, (int, float)) else list(value)
            out = [float(v) for v in values]
        except (TypeError, ValueError):
            raise InputError(f"parameter {name} must be numbers (one per seat), got {value!r}") from None
        if len(values) != players:
            raise InputError(f"parameter {name} needs {players} values (one per seat), got {len(values)}")
        if finite and not all(np.isfinite(out)):
            raise InputError(f"parameter {name} values must be finite, got {values}")
        if positive and min(out) <= 0:
            raise InputError(f"parameter {name} values must be > 0, got {values}")
        return out

    return check

"""Measuring: the cases of every registered game, timings, compile time, CLI wall time, memory.

Everything here is generic over ``montecards.games.names()``: a newly registered game is
benchmarked at its default and maximum player counts with each of its strategies, unless
``PLAYER_CASES`` below names the configurations its issue asks for.

Noise control (the machine is shared): every figure is the median of ``repeats`` timings,
each sized to take about ``target`` seconds, and every game timing is preceded by a timing of
the fixed calibration kernel (``calibration.py``) on the same threads, so that
``ratio = games/s / calibration deals/s`` cancels the machine's momentary speed.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = ROOT / "benchmarks"
HISTORY_DIR = BENCH_DIR / "history"
SCHEMA = 1
SEED = 20240917  # fixed: every run plays the very same games

# Player configurations named by the games' issues: (players, params). Games not listed use
# their default and maximum player counts with default parameters.
PLAYER_CASES: dict[str, list[tuple[int, dict[str, str]]]] = {
    "parade": [(2, {}), (4, {})],
    "anomia": [(4, {}), (6, {})],
    "wigout": [(4, {}), (6, {})],
    "tulips": [(2, {}), (4, {}), (6, {})],
    "marbles": [(4, {}), (4, {"teams": "pairs"})],
}

# Strategies measured with other run-time parameters than their defaults (the searches at 100
# iterations per decision: at their defaults (1,000; Joker Marbles 300) a case would take
# minutes on all threads;
# ``benchmarks/search.py`` measures them at 1,000).
BENCH_STRATEGIES: dict[tuple[str, str], str] = {
    ("parade", "ismcts"): "ismcts[100,0.7,0]",
    ("parade", "omniscient"): "omniscient[100,0.7,0]",
    ("marbles", "ismcts"): "ismcts[100,0.7,2,40]",
    ("marbles", "omniscient"): "omniscient[100,0.7,2,40]",
}

SLOWDOWN_ENV = "MONTECARDS_BENCH_SLOWDOWN"
"""Test hook: ``2`` makes every measured game do twice the kernel work per counted game
(``parade=2,anomia=1.5`` per game). Used to show that compare/smoke catch a 2x slowdown."""


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    params: tuple[tuple[str, str], ...]
    strategy: str
    threads: str  # "1" or "all"

    @property
    def label(self) -> str:
        extra = "".join(f",{k}={v}" for k, v in self.params)
        return f"{self.players}p{extra}"

    @property
    def key(self) -> str:
        return f"{self.game}/{self.label}/{self.strategy}/t{self.threads}"


@dataclass
class Settings:
    repeats: int = 5
    target: float = 0.8  # seconds per game timing
    calib_target: float = 0.25  # seconds per calibration timing
    max_n: int = 20_000_000
    slices: int = 16  # calibration/game interleaving per timing
    min_repeats: int = 3  # for slow cases
    quick: bool = False
    threads_all: int = 0  # filled from numba
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def full(cls) -> Settings:
        return cls()

    @classmethod
    def quick_settings(cls) -> Settings:
        return cls(repeats=3, target=0.3, calib_target=0.1, slices=6, min_repeats=1, quick=True)


def median(values: list[float]) -> float:
    return float(statistics.median(values)) if values else float("nan")


def rel_spread(values: list[float]) -> float:
    """(max - min) / median: how far apart the repeats of one measurement were."""
    if len(values) < 2:
        return 0.0
    m = median(values)
    return (max(values) - min(values)) / m if m else float("nan")


def round_n(n: float) -> int:
    """``n`` rounded to two significant digits (readable, stable run sizes)."""
    n = max(1, int(n))
    digits = len(str(n)) - 2
    if digits <= 0:
        return n
    return int(round(n, -digits))


def parse_slowdown(text: str | None) -> dict[str, float]:
    """``"2"`` -> {"*": 2.0}; ``"parade=2,anomia=1.5"`` -> per game."""
    if not text:
        return {}
    out: dict[str, float] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition("=")
        if sep:
            out[name.strip()] = float(value)
        else:
            out["*"] = float(name)
    return out


def slowdown_for(game: str, table: dict[str, float]) -> float:
    return float(table.get(game, table.get("*", 1.0)))


# --- cases -------------------------------------------------------------------------------------


def configurations(game: str) -> list[tuple[int, dict[str, str]]]:
    from montecards import games

    spec = games.get(game)
    if game in PLAYER_CASES:
        return [(p, dict(q)) for p, q in PLAYER_CASES[game]]
    players = [spec.default_players]
    if spec.max_players != spec.default_players:
        players.append(spec.max_players)
    return [(p, {}) for p in players]


def cases_for(game: str, threads: tuple[str, ...] = ("1", "all")) -> list[Case]:
    from montecards import games

    spec = games.get(game)
    out = []
    for players, params in configurations(game):
        for strategy in spec.strategies:
            for t in threads:
                out.append(Case(game, players, tuple(sorted(params.items())), strategy, t))
    return out


def smoke_case(game: str) -> Case:
    """The one case the CI smoke measures per game: default players and strategy, 1 thread."""
    from montecards import games

    spec = games.get(game)
    return Case(game, spec.default_players, (), spec.default_strategy, "1")


# --- timing ------------------------------------------------------------------------------------


def thread_count(threads: str) -> int:
    import numba

    return numba.config.NUMBA_NUM_THREADS if threads == "all" else int(threads)


class GameTimer:
    """Plays games ``first .. first + count - 1`` of one case, chunk by chunk as the engine does."""

    def __init__(self, case: Case, slowdown: float = 1.0):
        from montecards.api import prepare
        from montecards.run.runner import warm_up

        self.case = case
        self.slowdown = slowdown
        strategy = BENCH_STRATEGIES.get((case.game, case.strategy), case.strategy)
        self.spec, self.config, _, _ = prepare(
            case.game, case.players, [strategy], dict(case.params), SEED
        )
        self.turns_col = self.spec.layout(case.players).column("turns")
        warm_up(self.spec, self.config)

    def play(self, first: int, count: int) -> tuple[float, float, int]:
        """(wall seconds, process CPU seconds, turns played)."""
        from montecards.run.runner import DEFAULT_CHUNK, play_chunk

        turns = 0
        cpu0 = time.process_time()
        wall0 = time.perf_counter()
        for start in range(first, first + count, DEFAULT_CHUNK):
            size = min(DEFAULT_CHUNK, first + count - start)
            rows = play_chunk(self.spec, self.config, start, size)
            turns += int(rows[:, self.turns_col].sum())
            extra = self.slowdown - 1.0
            while extra > 1e-9:  # the test hook: the same games again, not counted
                play_chunk(self.spec, self.config, start, max(1, int(round(size * min(1.0, extra)))))
                extra -= 1.0
        wall = time.perf_counter() - wall0
        return wall, time.process_time() - cpu0, turns

    def wall(self, n: int) -> float:
        return self.play(0, n)[0]


def size_run(timer, target: float, n_min: int, n_max: int) -> int:
    """A run size whose timing is about ``target`` seconds (grown from ``n_min``)."""
    n = n_min
    t = timer(n)
    while t < 0.2 * target and n < n_max:
        grow = 16.0 if t <= 0 else min(16.0, max(2.0, 0.4 * target / t))
        n = min(n_max, int(n * grow))
        t = timer(n)
    n = round_n(n * target / max(t, 1e-9))
    return int(min(n_max, max(n_min, n)))


class Calibrator:
    """The calibration kernel, always on one thread (so it measures the machine's speed per
    CPU-second; on all threads, waiting threads would make it mostly measure the load)."""

    def __init__(self, settings: Settings):
        from benchmarks import calibration

        self.cal = calibration
        self.settings = settings
        self.n: int | None = None
        calibration.warm_up()

    def size(self) -> int:
        """Deals for one whole calibration timing (about ``calib_target`` seconds, 1 thread)."""
        import numba

        if self.n is None:
            previous = numba.get_num_threads()
            numba.set_num_threads(1)
            try:
                self.n = size_run(self.cal.time_deals, self.settings.calib_target, self.cal.BLOCK, 10**9)
            finally:
                numba.set_num_threads(previous)
        return self.n

    def play(self, n: int) -> tuple[float, float]:
        """(wall seconds, process CPU seconds) of ``n`` deals on 1 thread."""
        import numba

        previous = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            cpu0 = time.process_time()
            wall = self.cal.time_deals(n)
            return wall, time.process_time() - cpu0
        finally:
            numba.set_num_threads(previous)


def split(n: int, parts: int) -> list[tuple[int, int]]:
    """``(first, count)`` of ``parts`` consecutive near-equal slices of ``0 .. n - 1``."""
    bounds = [n * k // parts for k in range(parts + 1)]
    return [(bounds[k], bounds[k + 1] - bounds[k]) for k in range(parts) if bounds[k + 1] > bounds[k]]


def measure_case(
    case: Case, settings: Settings, calibrator: Calibrator, slowdown: float = 1.0
) -> dict[str, Any]:
    """Medians of ``settings.repeats`` timings of one case: games/s, turns/s, calibrated ratio.

    Each timing plays the same ``n`` games in ``slices`` slices, each slice preceded by a
    slice of the calibration kernel (on one thread), so that both see the same machine. The
    calibrated ``ratio`` divides games per CPU-second (all the process's threads) by
    calibration deals per CPU-second: process CPU time does not count the time the machine
    gave to others. ``wall_ratio`` uses wall time instead.
    """
    import numba

    from montecards.engine.kernel import BLOCK_GAMES

    threads = thread_count(case.threads)
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(threads)
        timer = GameTimer(case, slowdown)
        # on all threads every slice gives each thread at least one block of games
        slice_min = 1 if threads == 1 else BLOCK_GAMES * threads
        n = size_run(timer.wall, settings.target, max(16, slice_min), settings.max_n)
        slices = max(1, min(settings.slices, n // slice_min))
        cal_slices = split(max(calibrator.size(), slices * calibrator.cal.BLOCK), slices)
        parts = split(n, slices)
        reps = {k: [] for k in ("games_per_s", "turns_per_s", "cpu_games_per_s", "calib_per_s",
                                "cpu_calib_per_s", "ratio", "wall_ratio", "seconds")}
        repeats = settings.repeats
        done = 0
        turns = 0
        while done < repeats:
            gw = gc = cw = cc = 0.0
            turns = 0
            for (first, count), (_, deals) in zip(parts, cal_slices, strict=True):
                w, c = calibrator.play(deals)
                cw += w
                cc += c
                w, c, t = timer.play(first, count)
                gw += w
                gc += c
                turns += t
            deals_total = sum(d for _, d in cal_slices)
            reps["games_per_s"].append(n / gw)
            reps["turns_per_s"].append(turns / gw)
            reps["cpu_games_per_s"].append(n / gc)
            reps["calib_per_s"].append(deals_total / cw)
            reps["cpu_calib_per_s"].append(deals_total / cc)
            reps["ratio"].append((n / gc) / (deals_total / cc))
            reps["wall_ratio"].append((n / gw) / (deals_total / cw))
            reps["seconds"].append(gw)
            done += 1
            if done == 1 and gw > 3 * settings.target:
                # a slow case (e.g. Parade rollout on all threads, whose minimum run is one
                # block per thread): fewer repeats rather than minutes per figure
                repeats = max(settings.min_repeats, min(repeats, int(3 * settings.target * repeats / gw)))
    finally:
        numba.set_num_threads(previous)
    return {
        "key": case.key,
        "game": case.game,
        "players": case.players,
        "params": dict(case.params),
        "label": case.label,
        "strategy": case.strategy,
        "threads": case.threads,
        "thread_count": threads,
        "n": n,
        "slices": len(parts),
        "games_per_s": median(reps["games_per_s"]),
        "turns_per_s": median(reps["turns_per_s"]),
        "turns_per_game": turns / n,
        "cpu_games_per_s": median(reps["cpu_games_per_s"]),
        "calib_per_s": median(reps["calib_per_s"]),
        "ratio": median(reps["ratio"]),
        "ratio_spread": rel_spread(reps["ratio"]),
        "wall_ratio": median(reps["wall_ratio"]),
        "reps": reps,
        **({"slowdown": slowdown} if slowdown != 1.0 else {}),
    }


# --- compile time, CLI wall time and memory (subprocesses) -----------------------------------

_PROBE = r"""
import json, sys, time
t0 = time.perf_counter()
from montecards.api import prepare
from montecards.run.runner import warm_up
from numba.core import event
t1 = time.perf_counter()
compiled = []
class Count(event.Listener):
    def on_start(self, ev):
        d = ev.data["dispatcher"].py_func
        compiled.append(f"{d.__module__}.{d.__qualname__}")
    def on_end(self, ev):
        pass
spec, config, _, _ = prepare(sys.argv[1], None, None, None, 1)
with event.install_listener("numba:compile", Count()):
    warm_up(spec, config)
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "first_game_s": t2 - t1, "first_result_s": t2 - t0,
                  "specialisations": len(compiled), "functions": len(set(compiled))}))
"""
"""Time to the first game of the game's default run, and what numba compiled for it
(``specialisations``: one per function and argument types; ``functions``: distinct functions)."""


def _run_timed(cmd: list[str], env: dict[str, str], cwd: Path = ROOT,
               usage_out: dict | None = None) -> tuple[float, int, str, str]:
    """(wall seconds, peak RSS in kB of the child, stdout, stderr) of one subprocess;
    ``usage_out`` gets its ``cpu_s`` (user + sys) and the load average before it ran."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        load = load_average()
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=cwd, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode(errors="replace")
        stderr = err.read().decode(errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {stderr.strip()[-500:]}")
    if usage_out is not None:
        usage_out.update(cpu_s=usage.ru_utime + usage.ru_stime, load=load)
    return wall, int(usage.ru_maxrss), stdout, stderr


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["MONTECARDS_NO_PROGRESS"] = "1"
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *paths])
    env.update(extra)
    return env


def compile_times(game: str, warm_repeats: int = 3) -> dict[str, Any]:
    """Time to the first game in a fresh process: with an empty numba cache, then a warm one.

    Wall times (``*_wall_s``, ``*_first_result_s``; ``cold_compile_s`` is the cold process's
    time from its imports to its first game) move with the machine's load; ``*_cpu_s`` (the
    child's user + sys) much less; ``specialisations`` (what numba compiled cold) not at all.
    Each figure comes with the load average before its process (``*_load``)."""
    with tempfile.TemporaryDirectory(prefix="montecards-bench-cache-") as cache:
        env = _env(NUMBA_CACHE_DIR=cache)
        cmd = [sys.executable, "-c", _PROBE, game]
        usage: dict[str, Any] = {}
        wall, _, stdout, _ = _run_timed(cmd, env, usage_out=usage)
        cold = json.loads(stdout.strip().splitlines()[-1])
        cold_cpu, cold_load = usage["cpu_s"], usage["load"]
        warm_walls, warm_first, warm_cpu, warm_load, warm_compiled = [], [], [], [], []
        for _ in range(warm_repeats):
            w, _, out, _ = _run_timed(cmd, env, usage_out=usage)
            warm_walls.append(w)
            probe = json.loads(out.strip().splitlines()[-1])
            warm_first.append(probe["first_result_s"])
            warm_compiled.append(probe.get("specialisations", 0))
            warm_cpu.append(usage["cpu_s"])
            warm_load.append(usage["load"])
    return {
        "cold_wall_s": wall,
        "cold_first_result_s": cold["first_result_s"],
        "cold_compile_s": cold["first_game_s"],
        "cold_cpu_s": cold_cpu,
        "cold_load": cold_load,
        "cold_specialisations": cold.get("specialisations"),
        "cold_functions": cold.get("functions"),
        "warm_wall_s": median(warm_walls),
        "warm_first_result_s": median(warm_first),
        "warm_cpu_s": median(warm_cpu),
        "warm_specialisations": max(warm_compiled),
        "warm_reps_wall_s": warm_walls,
        "warm_reps_cpu_s": warm_cpu,
        "warm_load": warm_load,
    }


def cli_commands(quick: bool = False) -> list[list[str]]:
    """The CLI runs timed: Parade's default (greedy) and ``-s random`` (1e5 games when quick)."""
    n = "100000" if quick else "1000000"
    return [
        ["simulate", "parade", "-n", n, "--seed", "1"],
        ["simulate", "parade", "-n", n, "-s", "random", "--seed", "1"],
    ]


def cli_times(args: list[str], repeats: int = 3) -> dict[str, Any]:
    """Warm wall time and peak RSS of ``montecards ARGS`` (one untimed run first warms caches)."""
    cmd = [sys.executable, "-m", "montecards", *args]
    env = _env()
    warm = [a if a != args[args.index("-n") + 1] else "1000" for a in args] if "-n" in args else args
    _run_timed([sys.executable, "-m", "montecards", *warm], env)
    walls, rss = [], []
    for _ in range(repeats):
        w, kb, _, _ = _run_timed(cmd, env)
        walls.append(w)
        rss.append(kb)
    return {
        "command": "montecards " + " ".join(args),
        "wall_s": median(walls),
        "wall_s_reps": walls,
        "max_rss_mb": median(rss) / 1024.0,
        "max_rss_mb_reps": [k / 1024.0 for k in rss],
    }


# --- provenance --------------------------------------------------------------------------------


def _git(*args: str) -> str:
    try:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.rstrip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def git_info() -> dict[str, Any]:
    status = _git("status", "--porcelain", "--untracked-files=all", "--", "montecards", "pyproject.toml")
    dirty_paths = sorted({line[3:] for line in status.splitlines() if line.strip()})
    return {
        "commit": _git("rev-parse", "HEAD").strip() or "unknown",
        "subject": _git("log", "-1", "--format=%s").strip(),
        "dirty": bool(dirty_paths),
        "dirty_paths": dirty_paths,
    }


def luck_recorder(what: str, dirty_counts: bool = True):
    """A function writing a record ``history/luck/<date>-<commit>[-dirty]-<what>.json`` (the
    luck benchmarks'): it takes the record's fields, adds ``schema``, ``date``, ``commit`` and
    ``dirty`` and writes them, the same file at every call (a long run rewrites it after each
    stage); it returns the path. ``dirty_counts`` False: the script ran the commit itself (a
    worktree of it), so uncommitted changes did not take part."""
    info = git_info()
    commit, dirty = info["commit"], info["dirty"] and dirty_counts
    date = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    folder = HISTORY_DIR / "luck"
    path = folder / f"{date[:10]}-{commit[:10]}{'-dirty' if dirty else ''}-{what}.json"

    def write(fields: dict[str, Any]) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        entry = {"schema": 1, "date": date, "commit": commit, "dirty": dirty, **fields}
        path.write_text(json.dumps(entry, indent=1) + "\n")
        print(f"wrote {path}", flush=True)
        return path

    return write


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_info() -> dict[str, Any]:
    import numba
    import numpy

    try:
        mem_kb = int(next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
                          if line.startswith("MemTotal")))
    except (OSError, StopIteration, ValueError):
        mem_kb = 0
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "threading_layer": _threading_layer(),
        "memory_gb": round(mem_kb / 1024 / 1024, 1),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": numpy.__version__,
    }


def _threading_layer() -> str:
    import numba

    try:
        return numba.threading_layer()
    except ValueError:
        return "not yet chosen"


def load_average() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()


def new_entry(settings: Settings) -> dict[str, Any]:
    from benchmarks.calibration import CALIBRATION_VERSION

    return {
        "schema": SCHEMA,
        "date": now_iso(),
        **git_info(),
        "quick": settings.quick,
        "machine": machine_info(),
        "load": {"before": load_average()},
        "settings": {
            "repeats": settings.repeats,
            "target_seconds": settings.target,
            "calibration_target_seconds": settings.calib_target,
            "seed": SEED,
            "calibration_version": CALIBRATION_VERSION,
            **settings.extra,
        },
        "calibration": {},
        "cases": [],
        "compile": {},
        "cli": [],
        "errors": [],
    }

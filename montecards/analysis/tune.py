"""Tuning a strategy's weights by simulation: CMA-ES, or racing among given candidates.

The strategy tuned is a weighted built-in (``GameSpec.seat_params``: ``weighted``, ``tuned``) or
any user strategy that reads ``params``. It plays one seat against ``opponents`` (built-ins,
user strategies, or earlier winners as ``weighted[...]`` labels) in the other seats.

How a candidate is measured. A candidate's weights play every seat rotation (the tuned
strategy in seat 0, then 1, ..., the opponents in the other seats in their order), all with the
same seed: deal ``i`` is the same cards and the same choice streams in every rotation and for
every candidate (common random numbers). A deal's value is the tuned seat's win share averaged
over the rotations; a candidate's score is the mean over deals, and two candidates compare by
the mean of their per-deal differences (paired), which is far less noisy than either score.

* ``method="cma"``: CMA-ES (the ``cma`` package) over the weights, searched in the unit cube
  of their bounds. Each generation draws a fresh block of seeds: its candidates, the search's
  current mean (the *centre*) and the starting weights (the *baseline*) all play that block, so
  the history shows the centre's paired gain over the baseline with a 95 % interval. The
  winner is the centre after the last generation (the distribution's mean, which noise
  biases far less than the best sample of one generation).
* ``method="race"``: successive halving among ``candidates``: every survivor plays the same
  fresh block of deals, the better half (by mean over every deal played so far) goes on, and
  the block doubles. No p-value decides anything, so repeated looks inflate nothing; the
  claim rests on the held-out measurement.

The winner is then re-measured on **held-out** seeds that no search step used (``holdout``
deals, every rotation), against the baseline on the same deals: its share with a 95 %
interval, and the paired gain.

A ``checkpoint`` file is written after every generation (or round); a run given the same file
and the same configuration resumes where it stopped and ends with exactly the result of an
uninterrupted run (the CMA-ES sampler's state is part of the file).
"""

from __future__ import annotations

import json
import os
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from montecards import games
from montecards.analysis.intervals import mean_interval
from montecards.analysis.runs import check_count, setup, with_backend
from montecards.engine.spec import WIN_UNIT, GameSpec, InputError
from montecards.engine.value import LUCK_UNIT
from montecards.engine.user_strategies import UserStrategy, register
from montecards.engine.weights import WeightedSeat, format_weight
from montecards.run.paths import check_output_file
from montecards.run.runner import progress_bar

METHODS = ("cma", "race")
DEFAULT_BUDGET = 4_000_000
"""Games the search may play (the held-out measurement comes on top)."""
DEFAULT_DEALS = 5_000
"""Deals each candidate plays per generation (times the player count in games)."""
DEFAULT_HOLDOUT = 100_000
"""Held-out deals the winner is re-measured on (times the player count in games)."""
CHECKPOINT_VERSION = 2
"""2: a ``.npz`` of JSON and float arrays (1 was a pickle)."""


class _Normal:
    """CMA-ES's sampler: standard normals from a seeded generator (so the search's random state
    is its own and a checkpoint can record it; ``cma`` would otherwise draw from numpy's global
    one)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, *shape: int) -> np.ndarray:
        return self.rng.standard_normal(shape)


def derived_seed(seed: int, *path: int) -> int:
    """A 63-bit seed for one block of the search (``path``), independent of every other."""
    state = np.random.SeedSequence([seed, *path]).generate_state(2, np.uint32)
    return int((int(state[0]) << 32 | int(state[1])) >> 1)


SEARCH, HOLDOUT, SAMPLER = 1, 2, 3


@dataclass
class Tuned:
    """What is tuned: the strategy (a built-in name or a user strategy), its features, the
    starting weights and the bounds."""

    name: str
    entry: Any
    features: tuple[str, ...]
    x0: np.ndarray
    low: np.ndarray
    high: np.ndarray

    def seat(self, spec: GameSpec, weights: Sequence[float]) -> Any:
        """The seat entry that plays these weights."""
        weights = tuple(float(w) for w in weights)
        if isinstance(self.entry, UserStrategy):
            return self.entry.bind(weights)
        return spec.with_weights(self.name, weights)

    def label(self, weights: Sequence[float]) -> str:
        """What to pass as a strategy to play these weights again (``-s``, ``strategies=``)."""
        if isinstance(self.entry, UserStrategy):
            return register(self.entry.bind(weights))
        return f"{self.name}[{','.join(format_weight(w) for w in weights)}]"


def resolve_tuned(spec: GameSpec, strategy: Any, x0: Any, bounds: Any) -> Tuned:
    if not spec.has_decisions:
        raise InputError(f"{spec.name} has no player decisions, so there is nothing to tune")
    entry = spec.strategy_codes(spec.min_players, [strategy])[0]
    if isinstance(entry, WeightedSeat):
        x0 = entry.weights if x0 is None else x0
        entry = entry.name
    if isinstance(entry, str):
        if entry not in spec.seat_params:
            takes = ", ".join(spec.seat_params) or "none"
            raise InputError(
                f"{spec.name}'s {entry} reads no weights, so it cannot be tuned (built-ins that "
                f"do: {takes}; or a user strategy that reads params)"
            )
        w = spec.seat_params[entry]
        features = w.features
        start = w.check(entry, w.default if x0 is None else x0)
        default_bounds = w.bounds
        name = entry
    else:
        start = tuple(entry.params) if x0 is None else _numbers(x0, "x0")
        if not start:
            raise InputError(
                f"user strategy {entry.label} declares no params to tune: give x0 (the starting "
                "weights) or declare params=[...] on the strategy"
            )
        if entry.declared is not None and len(start) != len(entry.declared):
            names = f" ({', '.join(entry.features)})" if entry.param_names else ""
            raise InputError(
                f"x0 has {len(start)} weights, but {entry.reference} declares {len(entry.declared)} "
                f"params{names}: give one starting weight per param"
            )
        entry.bind(start)  # params the strategy would refuse are refused here
        features = entry.features if entry.declared is not None else tuple(f"w{k}" for k in range(len(start)))
        default_bounds = tuple((v - 2 * max(1.0, abs(v)), v + 2 * max(1.0, abs(v))) for v in start)
        name = register(entry)
    bounds = default_bounds if bounds is None else bounds
    try:
        low = np.array([float(b[0]) for b in bounds])
        high = np.array([float(b[1]) for b in bounds])
    except (TypeError, ValueError, IndexError):
        raise InputError(f"bounds must be one (low, high) pair per weight, got {bounds!r}") from None
    start = np.array(start, dtype=np.float64)
    if low.shape != start.shape:
        raise InputError(f"bounds must be one (low, high) pair per weight ({len(start)}), got {len(low)}")
    if not (np.all(np.isfinite(low)) and np.all(np.isfinite(high)) and np.all(low < high)):
        raise InputError("every bound must be finite with low < high")
    if np.any(start < low) or np.any(start > high):
        raise InputError(f"the starting weights {list(start)} lie outside the bounds")
    return Tuned(name, entry, tuple(features), start, low, high)


def _numbers(values: Any, what: str) -> tuple[float, ...]:
    try:
        return tuple(float(v) for v in values)
    except (TypeError, ValueError):
        raise InputError(f"{what} must be a list of numbers, got {values!r}") from None


def _lineups(tuned_seat: Any, opponents: list[Any], players: int) -> list[list[Any]]:
    """Per rotation ``r`` the lineup: the tuned seat at ``r``, the opponents around it."""
    out = []
    for r in range(players):
        others = iter(opponents)
        out.append([tuned_seat if s == r else next(others) for s in range(players)])
    return out


@dataclass
class TuneResult:
    """A tuning run: its history, the winner and its held-out measurement."""

    game: str
    title: str
    players: int
    strategy: str
    features: tuple[str, ...]
    opponents: list[str]
    method: str
    seed: int
    params: dict[str, Any]
    history: Any
    """pandas DataFrame: one row per candidate measured (``generation``, ``role``: candidate,
    centre or baseline; ``share``; the weights by feature; ``deals``)."""
    best: tuple[float, ...]
    baseline: tuple[float, ...]
    label: str
    holdout: dict[str, Any]
    games_played: int
    elapsed_seconds: float
    fair_share: float = field(init=False)

    def __post_init__(self) -> None:
        self.fair_share = 1.0 / self.players

    @property
    def weights(self) -> dict[str, float]:
        return dict(zip(self.features, self.best, strict=True))

    def __repr__(self) -> str:  # one line, not the history (``text()`` has the numbers)
        return (f"TuneResult({self.game}, {self.label}, players={self.players}, method={self.method}, "
                f"seed={self.seed}, held-out share={self.holdout['share']:.4f})")

    def convergence(self):
        """Per generation (or round): the centre's (or leader's) share and paired gain."""
        h = self.history
        if self.method == "cma":
            c = h[h.role == "centre"].set_index("generation")
            return c[["share", "gain", "gain_low", "gain_high", "best_share", "deals"]]
        leaders = h.sort_values("share", ascending=False).groupby("generation").head(1)
        return leaders.set_index("generation")[["share", "candidate", "survivors", "deals"]]

    def to_dict(self) -> dict[str, Any]:
        from montecards.analysis.results import _jsonable

        return _jsonable({
            "game": self.game,
            "players": self.players,
            "strategy": self.strategy,
            "opponents": self.opponents,
            "method": self.method,
            "seed": self.seed,
            "params": self.params,
            "features": list(self.features),
            "best": list(self.best),
            "weights": self.weights,
            "baseline": list(self.baseline),
            "label": self.label,
            "holdout": self.holdout,
            "fair_share": self.fair_share,
            "games_played": self.games_played,
            "elapsed_seconds": self.elapsed_seconds,
            "history": self.history.to_dict(orient="records"),
        })

    def text(self) -> str:
        h = self.holdout
        width = max(len(f) for f in self.features)
        lines = [
            f"{self.title}, {self.players} players: {self.strategy} tuned by {self.method} against "
            f"{', '.join(self.opponents)} (seed {self.seed}, {self.games_played:,} games, "
            f"{self.elapsed_seconds:.1f} s)",
            "",
            f"  {'feature':<{width}}  {'start':>9}  {'tuned':>9}",
        ]
        for f, a, b in zip(self.features, self.baseline, self.best, strict=True):
            lines.append(f"  {f:<{width}}  {a:>9.4g}  {b:>9.4g}")
        lines += [
            "",
            f"held out ({h['deals']:,} deals x {self.players} seatings, never used in the search):",
            f"  tuned     {100 * h['share']:.2f} %  [{100 * h['low']:.2f}, {100 * h['high']:.2f}]"
            f"  (fair {100 * self.fair_share:.2f} %)",
            f"  start     {100 * h['baseline_share']:.2f} %  [{100 * h['baseline_low']:.2f}, "
            f"{100 * h['baseline_high']:.2f}]",
            f"  gain      {100 * h['gain']:+.2f} points  [{100 * h['gain_low']:+.2f}, "
            f"{100 * h['gain_high']:+.2f}] (paired)",
        ]
        if h.get("luck"):
            lines[-3:] = [line + "  luck-adjusted" for line in lines[-3:]]
            lines.append(f"  plain     {100 * h['gain_plain']:+.2f} points  [{100 * h['gain_plain_low']:+.2f}, "
                         f"{100 * h['gain_plain_high']:+.2f}]; variance ratio of the gain "
                         f"{h['variance_ratio']:.2f} (plain / adjusted)")
        lines += [
            "",
            f"play it: -s {shlex.quote(self.label)}",
        ]
        return "\n".join(lines)

    def plot(self):
        from montecards.plots.figures import tune_figure

        return tune_figure(self)

    def _repr_html_(self) -> str:
        return "<pre>" + self.text().replace("&", "&amp;").replace("<", "&lt;") + "</pre>"


class _Checkpoint:
    """The search's state after each generation (or round), in one ``.npz`` file written
    atomically and read with ``allow_pickle=False``: a JSON text (the run's signature, the
    history rows, the counters, the CMA-ES sampler's random state) and plain float arrays.
    Nothing in it is code, so loading a file from anyone runs nothing (a pickle would run
    whatever it holds: a ``.pkl`` is refused)."""

    def __init__(self, path: str | os.PathLike | None, signature: dict[str, Any]) -> None:
        self.path = None if path is None else Path(path)
        self.signature = json.loads(json.dumps(signature, default=_plain))  # as the file holds it
        if self.path is not None:
            if self.path.suffix.lower() == ".pkl":
                raise InputError(
                    f"checkpoint {path}: tuning checkpoints are no longer pickles (loading a pickle "
                    f"runs whatever code it holds); give a .npz file"
                )
            check_output_file(self.path, (".npz",), "checkpoint")

    @staticmethod
    def read(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """A checkpoint file's JSON part and arrays, read without pickle (InputError if it is
        not a tuning checkpoint of this version)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
            meta = json.loads(str(arrays.pop("meta")))
            if not isinstance(meta, dict) or not isinstance(meta.get("state"), dict):
                raise ValueError("no state")
        except Exception as exc:  # a damaged or foreign file, or one holding pickled objects
            raise InputError(
                f"checkpoint {path} cannot be read ({type(exc).__name__}); delete it to start afresh"
            ) from None
        if meta.get("version") != CHECKPOINT_VERSION or not isinstance(meta.get("signature"), dict):
            raise InputError(f"checkpoint {path} is not a montecards tuning checkpoint")
        return meta, arrays

    @classmethod
    def saved_seed(cls, path: str | os.PathLike | None) -> int | None:
        """The seed of the run an existing checkpoint file holds (a resume needs no --seed)."""
        if path is None or Path(path).suffix.lower() != ".npz" or not Path(path).is_file():
            return None
        seed = cls.read(Path(path))[0]["signature"].get("seed")
        return seed if isinstance(seed, int) else None

    def load(self) -> dict[str, Any] | None:
        """The saved state (the JSON part's ``state`` and the arrays), or None without a file."""
        if self.path is None or not self.path.exists():
            return None
        meta, arrays = self.read(self.path)
        if meta["signature"] != self.signature:
            diff = sorted(k for k in self.signature if meta["signature"].get(k) != self.signature[k])
            raise InputError(
                f"checkpoint {self.path} was written for another tuning run (it differs in "
                f"{', '.join(diff)}); use another file or delete it"
            )
        return {**meta["state"], **arrays}

    def save(self, state: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        """Write ``state`` (JSON-able) and ``arrays`` (numbers only), replacing the file."""
        if self.path is None:
            return
        meta = json.dumps({"version": CHECKPOINT_VERSION, "signature": self.signature, "state": state},
                          default=_plain)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, meta=np.array(meta), **{k: np.asarray(v, np.float64) for k, v in arrays.items()})
        os.replace(tmp, self.path)


def _plain(value: Any) -> Any:
    """JSON for the numpy scalars and arrays a state holds."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON")


@with_backend
def tune(
    game: str,
    strategy: Any = "weighted",
    players: int | None = None,
    opponents: Sequence[Any] | Any = None,
    budget: int = DEFAULT_BUDGET,
    seed: int | None = None,
    method: str = "cma",
    candidates: Sequence[Sequence[float]] | None = None,
    deals: int = DEFAULT_DEALS,
    holdout: int = DEFAULT_HOLDOUT,
    x0: Sequence[float] | None = None,
    bounds: Sequence[tuple[float, float]] | None = None,
    popsize: int | None = None,
    sigma: float = 0.2,
    params: dict[str, Any] | None = None,
    jobs: int | None = None,
    checkpoint: str | os.PathLike | None = None,
    progress: bool | None = None,
    luck: bool = False,
) -> TuneResult:
    """Tune ``strategy``'s weights against ``opponents`` by simulation (module docstring).

    ``budget``: games the search may play; ``deals``: deals per candidate per generation
    (CMA-ES) or in the first round (racing; it doubles each round); ``holdout``: deals of the
    final measurement. ``x0`` and ``bounds``: the starting weights and the box searched
    (default: the built-in's defaults and bounds; for a user strategy its declared params and
    ``x0 +- 2 max(1, |x0|)``). ``sigma``: CMA-ES's initial step, as a fraction of each bound's
    width. ``candidates``: racing's weight vectors (the first is the baseline). ``opponents``:
    one strategy for every other seat, or one per other seat in seat order (default: the
    game's default strategy).

    ``luck=True`` (``--luck``, docs/luck.md): every game is played with the luck ledger and
    judged by its luck-adjusted result (``win - luck``: unbiased, with less variance where the
    game's value sees something), in the search and on the held-out deals; the held-out
    numbers then also give the plain gain and the variance ratio of the paired gain. The game
    needs a value for the player count (``montecards value fit``).
    """
    t0 = time.perf_counter()
    spec = games.get(game)
    if method not in METHODS:
        raise InputError(f"unknown tuning method {method!r} (allowed: {', '.join(METHODS)})")
    players = spec.check_players(spec.default_players if players is None else players)
    if method == "race" and x0 is None and candidates:
        x0 = candidates[0]  # the race's baseline
    tuned = resolve_tuned(spec, strategy, x0, bounds)
    opponents = _opponents(spec, players, opponents)
    budget = check_count("budget", budget)
    deals = check_count("deals", deals)
    holdout = check_count("holdout", holdout)
    if not 0 < float(sigma) <= 1:
        raise InputError(f"sigma is a fraction of each bound's width, in (0, 1], got {sigma}")
    lineup = _lineups(tuned.seat(spec, tuned.x0), opponents, players)[0]
    if seed is None:
        seed = _Checkpoint.saved_seed(checkpoint)  # resuming: the seed the run started with
    first = setup(game, players, lineup, params, seed, jobs, luck=luck)  # with --luck: the ledger serves it
    seed, resolved = first.seed, first.params
    if method == "race":
        race = _candidates(tuned, candidates)
    elif candidates is not None:
        raise InputError("candidates are for method='race'; CMA-ES searches the bounds")

    def measure(weight_rows: list[np.ndarray], block_seed: int, n_deals: int, advance) -> np.ndarray:
        return measure_candidates(spec, tuned, opponents, resolved, jobs, weight_rows, block_seed, n_deals,
                                  advance, luck)[-1]

    signature = {
        "game": spec.name, "players": players, "strategy": _identity(tuned.entry),
        "opponents": [_identity(o) for o in opponents], "method": method, "seed": seed,
        "params": json.dumps(resolved, sort_keys=True, default=str), "budget": budget,
        "deals": deals, "holdout": holdout, "x0": list(tuned.x0), "low": list(tuned.low),
        "high": list(tuned.high), "popsize": popsize, "sigma": float(sigma),
        "candidates": None if method == "cma" else [list(c) for c in race],
    }
    if luck:  # (absent without it: the checkpoints written before --luck stay valid)
        signature["luck"] = True
    store = _Checkpoint(checkpoint, signature)
    state = store.load()
    search = _cma if method == "cma" else _race
    extra = {"popsize": popsize, "sigma": float(sigma)} if method == "cma" else {"candidates": race}
    rows, best, played = search(tuned, measure, seed, budget, deals, players, state, store, progress, **extra)

    advance = progress_bar(2 * holdout * players, progress)
    held = measure_candidates(spec, tuned, opponents, resolved, jobs, [best, tuned.x0], derived_seed(seed, HOLDOUT),
                              holdout, advance, luck)
    holdout_info = _holdout(held[-1], holdout, held[0] if luck else None)
    import pandas as pd

    return TuneResult(
        game=spec.name, title=spec.title, players=players, strategy=tuned.name,
        features=tuned.features, opponents=[_label(o) for o in opponents], method=method,
        seed=seed, params=resolved, history=pd.DataFrame(rows), best=tuple(float(b) for b in best),
        baseline=tuple(float(b) for b in tuned.x0), label=tuned.label(best), holdout=holdout_info,
        games_played=played + 2 * holdout * players, elapsed_seconds=time.perf_counter() - t0,
    )


def measure_candidates(spec: GameSpec, tuned: Tuned, opponents: list[Any], params: dict[str, Any],
                       jobs: int | None, weight_rows: Sequence[Sequence[float]], block_seed: int,
                       n_deals: int, advance=None, luck: bool = False) -> tuple[np.ndarray, ...]:
    """Per candidate (a row of ``weight_rows``), per deal ``0 .. n_deals - 1`` of the run with
    ``block_seed``: the tuned seat's win share averaged over every seat rotation (module
    docstring), as ``(shares,)``; with ``luck``, ``(shares, adjusted shares)`` (the same games
    with the ledger: ``win - luck``). ``advance(games)``: a progress callback, or None."""
    players = len(opponents) + 1
    out = np.zeros((len(weight_rows), n_deals))
    adjusted = np.zeros((len(weight_rows), n_deals))
    for c, w in enumerate(weight_rows):
        for r, lineup in enumerate(_lineups(tuned.seat(spec, w), opponents, players)):
            run = setup(spec.name, players, lineup, params, block_seed, jobs, luck=luck)
            _, rows = run.play(0, n_deals, keep=True)
            out[c] += rows[:, run.layout.seat_slice("win")][:, r] / WIN_UNIT
            if luck:
                adjusted[c] += rows[:, run.layout.seat_slice("adjusted")][:, r] / LUCK_UNIT
            if advance is not None:
                advance(n_deals)
    return (out / players, adjusted / players) if luck else (out / players,)


def _identity(entry: Any) -> Any:
    if isinstance(entry, UserStrategy):
        found = entry.identity()
        return {k: found[k] for k in sorted(found) if k != "params"}
    return str(entry)


def _label(entry: Any) -> str:
    return register(entry) if isinstance(entry, UserStrategy) else str(entry)


def _opponents(spec: GameSpec, players: int, opponents: Any) -> list[Any]:
    if opponents is None or (not isinstance(opponents, str) and not callable(opponents) and len(opponents) == 0):
        opponents = [spec.default_strategy]
    if isinstance(opponents, (str, UserStrategy, WeightedSeat)) or callable(opponents):
        opponents = [opponents]
    entries = [spec.strategy_codes(players, [o])[0] for o in opponents]
    if len(entries) == 1:
        entries = entries * (players - 1)
    if len(entries) != players - 1:
        raise InputError(
            f"give one opponent for every other seat or exactly {players - 1} (one per other seat), "
            f"got {len(entries)}"
        )
    return entries


def _candidates(tuned: Tuned, candidates: Any) -> list[np.ndarray]:
    if candidates is None or len(candidates) < 2:
        raise InputError("racing needs at least 2 candidates (lists of weights)")
    out = []
    for c in candidates:
        try:
            w = np.array([float(v) for v in c])
        except (TypeError, ValueError):
            raise InputError(f"a candidate is a list of {len(tuned.x0)} numbers, got {c!r}") from None
        if w.shape != tuned.x0.shape or not np.all(np.isfinite(w)):
            raise InputError(f"a candidate is a list of {len(tuned.x0)} finite numbers, got {c!r}")
        out.append(w)
    return out


def _holdout(held: np.ndarray, deals: int, plain: np.ndarray | None = None) -> dict[str, Any]:
    """The held-out numbers of the winner (``held[0]``) and the start (``held[1]``), per deal.
    ``plain``: with ``--luck``, ``held`` is luck-adjusted (normal intervals: an adjusted value
    is not a share of wins) and ``plain`` the same deals' plain shares."""
    from montecards.analysis.matchups import share_interval_paired

    interval = share_interval_paired if plain is None else mean_interval
    share, low, high = interval(held[0])
    b_share, b_low, b_high = interval(held[1])
    gain, g_low, g_high = mean_interval(held[0] - held[1])
    out = {"deals": deals, "share": share, "low": low, "high": high, "baseline_share": b_share,
           "baseline_low": b_low, "baseline_high": b_high, "gain": gain, "gain_low": g_low,
           "gain_high": g_high}
    if plain is not None:
        p_gain, p_low, p_high = mean_interval(plain[0] - plain[1])
        adjusted_var = float(np.var(held[0] - held[1], ddof=1))
        out.update({"luck": True, "gain_plain": p_gain, "gain_plain_low": p_low, "gain_plain_high": p_high,
                    "variance_ratio": float(np.var(plain[0] - plain[1], ddof=1)) / adjusted_var
                    if adjusted_var > 0 else float("inf")})
    return out


def _weights_row(tuned: Tuned, w: np.ndarray) -> dict[str, float]:
    return {f"w_{f}": float(v) for f, v in zip(tuned.features, w, strict=True)}


def new_cma(x0: Sequence[float], seed: int, popsize: int | None, sigma: float):
    """CMA-ES at its start: searching the unit cube from ``x0`` (in it), sampling from its own
    stream seeded by ``seed`` (``tune``, ``balance``), stopped only by its caller's budget."""
    import cma

    opts = {"bounds": [0.0, 1.0], "verbose": -9, "randn": _Normal(seed),
            "seed": np.nan, "tolfun": 0, "tolx": 0, "tolflatfitness": 10**9, "tolstagnation": 10**9}
    if popsize is not None:
        opts["popsize"] = check_count("popsize", popsize, 2)
    return cma.CMAEvolutionStrategy(list(x0), sigma, opts)


def _new_es(tuned: Tuned, seed: int, popsize: int | None, sigma: float):
    """CMA-ES at its start: searching the unit cube of the bounds from ``x0``."""
    return new_cma((tuned.x0 - tuned.low) / (tuned.high - tuned.low), derived_seed(seed, SAMPLER), popsize, sigma)


def _es_state(es) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """CMA-ES's state written out: its sampler's random state (JSON) and its mean, step size,
    covariance and evolution paths (arrays)."""
    return ({"sampler": es.opts["randn"].rng.bit_generator.state, "evaluations": int(es.countevals)},
            {"mean": es.mean, "sigma": np.array(es.sigma), "covariance": es.sm.C, "path_c": es.pc,
             "path_sigma": es.adapt_sigma.ps})


def _resume_es(es, state: dict[str, Any], path: Path | None):
    """``es`` (new) brought to the saved state: every saved generation asked and told again
    with its saved fitness values (no game is replayed). ``cma``'s ask and tell are
    deterministic given the sampler's stream, so this restores every internal of the search,
    not only those written out; those written out must then match exactly, or the file was
    written with another ``cma`` (or is damaged) and is refused."""
    fitness = np.asarray(state["fitness"])
    if fitness.ndim != 2 or fitness.shape != (state["generation"], es.popsize):
        raise InputError(f"checkpoint {path} is damaged (its fitness table does not fit); delete it")
    for values in fitness:
        es.tell(es.ask(), list(values))
    now_json, now_arrays = _es_state(es)
    saved_json = json.loads(json.dumps({k: state.get(k) for k in now_json}, default=_plain))
    same = now_json == saved_json and all(
        np.array_equal(np.asarray(v, np.float64), state[k]) for k, v in now_arrays.items()
    )
    if not same:
        raise InputError(
            f"checkpoint {path}: its search does not replay to the saved state (written by another "
            f"version of the cma package?); delete it to start afresh"
        )
    return es


def _cma(tuned, measure, seed, budget, deals, players, state, store, progress, popsize, sigma):
    span = tuned.high - tuned.low
    to_weights = lambda u: tuned.low + np.clip(np.asarray(u), 0.0, 1.0) * span  # noqa: E731
    es = _new_es(tuned, seed, popsize, sigma)
    if state is None:
        rows, generation, played, fitness = [], 0, 0, []
    else:
        rows, generation, played = state["rows"], state["generation"], state["played"]
        es = _resume_es(es, state, store.path)
        fitness = [list(f) for f in state["fitness"]]
    per_generation = (es.popsize + 2) * deals * players
    generations = max(1, budget // per_generation)
    advance = progress_bar(generations * per_generation, progress)
    if advance is not None and played:
        advance(played)
    while generation < generations:
        units = es.ask()
        weights = [to_weights(u) for u in units]
        centre = to_weights(es.mean)
        block_seed = derived_seed(seed, SEARCH, generation)
        shares = measure(weights + [centre, tuned.x0], block_seed, deals, advance)
        fitness.append(list(-shares[:-2].mean(axis=1)))
        es.tell(units, fitness[-1])
        gain, low, high = mean_interval(shares[-2] - shares[-1])
        best_share = float(shares[:-2].mean(axis=1).max())
        for c, w in enumerate(weights):
            rows.append({"generation": generation, "role": "candidate", "candidate": c,
                         "share": float(shares[c].mean()), "deals": deals, **_weights_row(tuned, w)})
        rows.append({"generation": generation, "role": "centre", "candidate": -1,
                     "share": float(shares[-2].mean()), "gain": gain, "gain_low": low, "gain_high": high,
                     "best_share": best_share, "deals": deals, **_weights_row(tuned, centre)})
        rows.append({"generation": generation, "role": "baseline", "candidate": -2,
                     "share": float(shares[-1].mean()), "deals": deals, **_weights_row(tuned, tuned.x0)})
        generation += 1
        played += per_generation
        es_json, es_arrays = _es_state(es)
        store.save({"rows": rows, "generation": generation, "played": played, **es_json},
                   {"fitness": np.array(fitness), **es_arrays})
    return rows, to_weights(es.mean), played


def _race(tuned, measure, seed, budget, deals, players, state, store, progress, candidates):
    n = len(candidates)
    if state is None:
        alive, totals, counted, rows, round_, played = list(range(n)), np.zeros(n), 0, [], 0, 0
    else:
        alive, totals, counted = state["alive"], np.array(state["totals"]), state["counted"]
        rows, round_, played = state["rows"], state["round"], state["played"]
    # the schedule (Karnin et al.'s successive halving): ceil(log2 n) rounds share the budget
    # evenly; a round's survivors each play budget / (rounds * survivors * players) deals (at
    # least ``deals``), the same fresh deals for all
    rounds = max(1, int(np.ceil(np.log2(n))))
    sizes, survivors, spent = [], list(alive), played
    for _ in range(round_, rounds):
        if len(survivors) <= 1:
            break
        block = max(deals, budget // (rounds * len(survivors) * players))
        if spent + len(survivors) * block * players > budget:
            break
        sizes.append(block)
        spent += len(survivors) * block * players
        survivors = survivors[: max(1, (len(survivors) + 1) // 2)]
    advance = progress_bar(max(spent - played, 1), progress)
    for block in sizes:
        shares = measure([candidates[c] for c in alive], derived_seed(seed, SEARCH, round_), block, None)
        if advance is not None:
            advance(len(alive) * block * players)
        totals[alive] += shares.sum(axis=1)
        counted += block
        means = totals[alive] / counted
        order = np.argsort(-means, kind="stable")
        keep = [alive[i] for i in order[: max(1, (len(alive) + 1) // 2)]]
        for i, c in enumerate(alive):
            rows.append({"generation": round_, "role": "candidate", "candidate": c,
                         "share": float(means[i]), "deals": counted, "survivors": len(alive),
                         "kept": c in keep, **_weights_row(tuned, candidates[c])})
        played += len(alive) * block * players
        alive = keep
        round_ += 1
        store.save({"alive": alive, "counted": counted, "rows": rows, "round": round_, "played": played},
                   {"totals": totals})
    if len(alive) > 1 and counted == 0:
        raise InputError(
            f"the budget ({budget:,} games) does not cover one round of {len(alive)} candidates "
            f"({len(alive) * deals * players:,} games): raise budget or lower deals"
        )
    if len(alive) > 1:
        alive = [max(alive, key=lambda c: totals[c])]
    return rows, candidates[alive[0]], played


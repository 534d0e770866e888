"""A search for the fairest rules (issue 33): ``balance``.

A designer names the rule parameters to vary (``vary``: a list of values each; their product
is the search space) and what a good variant is (``targets``). Every variant is played by the
same strategy at every seat (the strength the designer picks: ``greedy``, ``tuned``, a search
player) at every requested player count, on **common random numbers**: game ``i`` of every
variant is dealt from the stream of ``(seed, i)``, so the variants are compared on the same
deals. The search is **successive halving**: every variant plays a first batch of games, the
better half (by score) plays as many games again, and so on until at most ``keep`` remain
(or the budget of games per variant is spent). The survivors and the official rules are then
played again on **held-out** deals (a seed derived from the search's), and only those numbers
decide the best variant: a variant that won the race by luck on the search's deals loses its
lead there.

Targets (a variant's score is the sum of their penalties, each the worst over the player
counts; lower is better, 0 meets every target):

* ``fair``: every seat's win share equal; penalty = the seat spread (largest minus smallest
  seat win share);
* ``first_seat``: the first seat's share fair; penalty = ``|share - 1/players|``;
* ``balance>=x``: Ludii's Balance (1 - the seat spread) at least ``x``; penalty = the shortfall;
* ``length=a:b``: the mean length (the game's turns) within ``[a, b]``; penalty = the distance
  outside, relative to ``b - a`` (to ``a`` when ``a == b``): Ludii's IdealDuration ramp;
* ``ties<=y``: the rate of shared wins at most ``y``; penalty = the excess;
* ``METRIC<=y`` / ``METRIC>=x``: the per-game mean of one of the game's metrics (Wig Out!'s
  ``deadlocks``, Anomia's ``face_offs``, ...) or ``unfinished``; penalty = the excess / shortfall.

The Pareto front is over the targets' penalties (with one target, over it and the change of
length against the official rules: a fairer game that is much longer is a different trade).
**Ranges** (``NAME=A:B``, a parameter that is a number or a list of numbers: every entry in
``[A, B]``, whole numbers for a whole-number parameter) are searched by **CMA-ES** instead (the
``cma`` package, as ``tune`` uses, from its own seeded stream), in the unit cube of the
ranges, starting from the official rules: every candidate plays ``n`` games per player count
on the same deals (common random numbers: a candidate's score is a deterministic function of
its values, and a candidate met again, e.g. rounded to the same whole numbers, is not played
again), ``evaluations`` candidates in all; the ``keep`` best then go to the held-out deals as
above. A search varies listed values or ranges, not both. A candidate outside the game's
rules (each end is checked before any game; a list can still break a rule between its
entries) is not played and scores ``INVALID``.

Strengths are the run's strategies as given; a ``tuned`` strategy is not re-tuned per variant,
unless ``retune`` (``--retune GAMES``) asks for it: then each finalist (and the official rules) is
also played on the held-out deals by a strategy **re-tuned for that variant** at every player
count: ``tune`` (CMA-ES, ``retune`` games, from the strength's own weights, against the strength
itself, under the variant's rules) gives one seat's weights, which then play every seat. The
held-out check then carries a second score (``held_out["retuned"]``), and the result says
whether the re-tuned strength ranks the finalists' best the same (``retuned_best``): a rule
change that only looks fair because the strategy was tuned for the official rules shows there.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from montecards import games
from montecards.analysis.intervals import mean_interval, share_interval
from montecards.analysis.results import _jsonable
from montecards.analysis.runs import (
    check_count,
    check_seed,
    kernel_stamp,
    new_seed,
    per_game,
    setup,
    with_backend,
)
from montecards.analysis.tune import derived_seed
from montecards.engine.spec import InputError, parse_text
from montecards.engine.user_strategies import as_labels

TARGET_NAMES = ("fair", "first_seat", "balance", "length", "ties")
MEASURABLE_LATER = {
    "skill": "skill depth needs the ratings of a tournament per variant: not built in balance yet",
}
MAX_VARIANTS = 2000
HELD_OUT_PATH = 7  # derived_seed(seed, HELD_OUT_PATH): the held-out deals
CMA_PATH = 8  # derived_seed(seed, CMA_PATH): CMA-ES's sampler
RETUNE_PATH = 9  # derived_seed(seed, RETUNE_PATH, k, players): the k-th finalist's re-tuning
RETUNE_GENERATIONS = 4  # a re-tuning's CMA-ES generations: its deals per candidate follow
INVALID = 1e6
"""The score of a CMA-ES candidate the game's rules refuse (not played)."""


@dataclass(frozen=True)
class Range:
    """``NAME=A:B``: a parameter searched by CMA-ES over ``[low, high]`` (each entry of a list
    parameter: ``size`` entries; None: the parameter is one number)."""

    name: str
    low: float
    high: float
    integer: bool
    size: int | None

    @property
    def dims(self) -> int:
        return 1 if self.size is None else self.size

    def value_at(self, u: float) -> int | float:
        """The parameter value at ``u`` in [0, 1] (rounded to a whole number, or to 4 places)."""
        x = self.low + min(max(float(u), 0.0), 1.0) * (self.high - self.low)
        return int(round(x)) if self.integer else round(x, 4)

    def decode(self, units: Sequence[float]) -> Any:
        values = [self.value_at(u) for u in units]
        return values[0] if self.size is None else values

    def unit(self, value: Any) -> list[float]:
        """The official value's place in the unit cube (clipped to the range)."""
        values = [value] if self.size is None else list(value)
        return [min(max((float(v) - self.low) / (self.high - self.low), 0.0), 1.0) for v in values]

    @property
    def text(self) -> str:
        return f"{self.low:g}:{self.high:g}"


@dataclass(frozen=True)
class Target:
    """One target: ``name`` in ``TARGET_NAMES`` and its bounds (``low`` / ``high``)."""

    name: str
    low: float | None = None
    high: float | None = None

    @property
    def text(self) -> str:
        if self.name not in TARGET_NAMES:
            return f"{self.name}>={self.low:g}" if self.low is not None else f"{self.name}<={self.high:g}"
        if self.name == "balance":
            return f"balance>={self.low:g}"
        if self.name == "length":
            return f"length={self.low:g}:{self.high:g}"
        if self.name == "ties":
            return f"ties<={self.high:g}"
        return self.name

    def penalty(self, m: Mapping[str, Any]) -> float:
        """The penalty of one player count's metrics ``m`` (0: target met)."""
        if self.name == "fair":
            return float(m["spread"])
        if self.name == "first_seat":
            return abs(float(m["first_seat"]) - 1.0 / m["players"])
        if self.name == "balance":
            return max(0.0, float(self.low) - float(m["balance"]))
        if self.name == "length":
            low, high = float(self.low), float(self.high)
            turns = float(m["length"])
            outside = max(0.0, low - turns, turns - high)
            return outside / (high - low if high > low else max(low, 1.0))
        if self.name == "ties":
            return max(0.0, float(m["ties"]) - float(self.high))
        mean = float(m["means"][self.name])  # a game's own per-game quantity
        return max(0.0, float(self.low) - mean) if self.low is not None else max(0.0, mean - float(self.high))


_NUMBER = r"([-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)"


def parse_target(text: Any) -> Target:
    """``fair``, ``first_seat``, ``balance>=0.95``, ``length=40:60``, ``ties<=0.02`` (or a Target)."""
    if isinstance(text, Target):
        return text
    t = str(text).strip().replace(" ", "")
    name = re.split(r"[<>=]", t, maxsplit=1)[0]
    if name in MEASURABLE_LATER:
        raise InputError(f"target {name!r} cannot be measured: {MEASURABLE_LATER[name]}")
    if name in ("fair", "first_seat") and t == name:
        return Target(name)
    m = re.fullmatch(r"balance>=" + _NUMBER, t)
    if m and 0 <= float(m.group(1)) <= 1:
        return Target("balance", low=float(m.group(1)))
    m = re.fullmatch(r"ties<=" + _NUMBER, t)
    if m and 0 <= float(m.group(1)) <= 1:
        return Target("ties", high=float(m.group(1)))
    m = re.fullmatch(r"length=" + _NUMBER + r"(?::|\.\.)" + _NUMBER, t)
    if m and 0 <= float(m.group(1)) <= float(m.group(2)):
        return Target("length", low=float(m.group(1)), high=float(m.group(2)))
    m = re.fullmatch(r"([a-z_][a-z0-9_]*)(<=|>=)" + _NUMBER, t)
    if m and m.group(1) not in TARGET_NAMES:  # a game's own quantity (checked by ``balance``)
        value = float(m.group(3))
        return Target(m.group(1), low=value) if m.group(2) == ">=" else Target(m.group(1), high=value)
    raise InputError(
        f"unknown or malformed target {text!r} (allowed: fair, first_seat, balance>=X with X in 0..1, "
        "length=A:B with 0 <= A <= B, ties<=Y with Y in 0..1, METRIC<=Y or METRIC>=X for a game's "
        "metric or unfinished)"
    )


def measure(cols: Mapping[str, np.ndarray], players: int, quantities: Sequence[str] = ()) -> dict[str, Any]:
    """Every designer metric of one variant at one player count, from its per-game columns
    (``runs.per_game``): seat shares, first seat, seat spread and Balance (with intervals from
    the paired per-game difference of the two extreme seats), length, ties, unfinished games."""
    shares = [share_interval(cols[f"win_{k}"]) for k in range(players)]
    means = [s[0] for s in shares]
    hi, lo = int(np.argmax(means)), int(np.argmin(means))
    spread, s_low, s_high = mean_interval(cols[f"win_{hi}"] - cols[f"win_{lo}"])
    if hi == lo:
        spread, s_low, s_high = 0.0, 0.0, 0.0
    turns = mean_interval(cols["turns"])
    ties = share_interval(cols["shared"])
    unfinished = share_interval(cols["unfinished"])
    fair = 1.0 / players
    return {
        "players": players,
        "games": int(cols["turns"].shape[0]),
        "win_share": [s[0] for s in shares],
        "win_share_low": [s[1] for s in shares],
        "win_share_high": [s[2] for s in shares],
        "first_seat": shares[0][0], "first_seat_low": shares[0][1], "first_seat_high": shares[0][2],
        "spread": spread, "spread_low": s_low, "spread_high": s_high,
        "spread_seats": [hi, lo],
        "balance": 1.0 - spread, "balance_low": 1.0 - s_high, "balance_high": min(1.0, 1.0 - s_low),
        "length": turns[0], "length_low": turns[1], "length_high": turns[2],
        "ties": ties[0], "ties_low": ties[1], "ties_high": ties[2],
        "unfinished": unfinished[0],
        "fair_within_interval": all(s[1] <= fair <= s[2] for s in shares),
        "means": {q: float(np.mean(cols[q])) for q in quantities},
        "means_interval": {q: list(mean_interval(cols[q])[1:]) for q in quantities},
    }


@dataclass
class Variant:
    """One point of the search space and what was measured of it."""

    label: str
    params: dict[str, Any]
    cols: dict[int, dict[str, np.ndarray]] = field(default_factory=dict, repr=False)
    metrics: dict[int, dict[str, Any]] = field(default_factory=dict)
    score: float = float("inf")
    penalties: dict[str, float] = field(default_factory=dict)
    rounds: int = 0
    held_out: dict[str, Any] | None = None

    @property
    def games(self) -> int:
        return min((m["games"] for m in self.metrics.values()), default=0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "params": _jsonable(self.params),
            "score": self.score,
            "penalties": self.penalties,
            "games": self.games,
            "rounds": self.rounds,
            "metrics": {str(p): _jsonable(m) for p, m in self.metrics.items()},
            "held_out": _jsonable(self.held_out) if self.held_out is not None else None,
        }


def _score(targets: Sequence[Target],
           metrics: Mapping[int, Mapping[str, Any]]) -> tuple[float, dict[str, float]]:
    penalties = {t.text: max(t.penalty(m) for m in metrics.values()) for t in targets}
    return float(sum(penalties.values())), penalties


def pareto_front(points: Sequence[Sequence[float]]) -> list[int]:
    """Indices of the points no other point dominates (every coordinate <=, one <; lower is better)."""
    front = []
    for i, p in enumerate(points):
        dominated = any(
            all(q[k] <= p[k] for k in range(len(p))) and any(q[k] < p[k] for k in range(len(p)))
            for j, q in enumerate(points) if j != i
        )
        if not dominated:
            front.append(i)
    return front


@dataclass
class BalanceResult:
    """The search: every variant with its metrics, the held-out check, best first."""

    game: str
    title: str
    players: list[int]
    strategies: list[str]
    seed: int
    held_out_seed: int
    targets: list[Target]
    vary: dict[str, list[Any]]
    variants: list[Variant]
    baseline: str
    rounds: list[dict[str, Any]]
    pareto: list[str]
    elapsed_seconds: float = 0.0
    search: str = "halving"
    """``halving`` (listed values) or ``cma`` (ranges)."""
    retune: int = 0
    """Games of each finalist's re-tuning (0: none)."""

    @property
    def retuned_best(self) -> str | None:
        """The finalist whose held-out score is best when every finalist is played by the
        strength re-tuned for it (None without ``retune``)."""
        scored = [v for v in self.variants if v.held_out and v.held_out.get("retuned")]
        if not scored:
            return None
        return min(scored, key=lambda v: v.held_out["retuned"]["score"]).label

    @property
    def best(self) -> Variant:
        return self.variants[0]

    def table(self):
        """One row per variant (best first): score, games, and per player count the first seat's
        share, the seat spread and the length, with 95 % intervals; held-out numbers where played."""
        import pandas as pd

        rows = []
        for v in self.variants:
            row: dict[str, Any] = {"variant": v.label, "score": v.score, "games": v.games,
                                   "held_out_score": v.held_out["score"] if v.held_out else float("nan")}
            for p, m in sorted((v.held_out["metrics"] if v.held_out else v.metrics).items()):
                row[f"{p}p first seat"] = m["first_seat"]
                row[f"{p}p spread"] = m["spread"]
                row[f"{p}p spread ±"] = (m["spread_high"] - m["spread_low"]) / 2
                row[f"{p}p length"] = m["length"]
                row[f"{p}p ties"] = m["ties"]
            if self.retune:
                re = v.held_out.get("retuned") if v.held_out else None
                row["retuned_score"] = re["score"] if re else float("nan")
            rows.append(row)
        return pd.DataFrame(rows).set_index("variant")

    def findings(self) -> list[str]:
        out = []
        base = next(v for v in self.variants if v.label == self.baseline)
        for v in [self.best] + ([base] if base is not self.best else []):
            if v.held_out is None:
                continue
            parts = []
            for p, m in sorted(v.held_out["metrics"].items()):
                parts.append(
                    f"{p}p: first seat {100 * m['first_seat']:.1f} % [{100 * m['first_seat_low']:.1f}, "
                    f"{100 * m['first_seat_high']:.1f}], seat spread {100 * m['spread']:.1f} pp "
                    f"[{100 * m['spread_low']:.1f}, {100 * m['spread_high']:.1f}]"
                    + (" (every seat's interval holds the fair share)" if m["fair_within_interval"] else "")
                    + f", length {m['length']:.1f}"
                    + "".join(f", {q} {m['means'][q]:.3f}" for q in m.get("means", {})
                              if any(t.name == q for t in self.targets))
                )
            who = "official rules" if v.label == self.baseline else f"best: {v.label}"
            out.append(f"{who} on {v.held_out['games']:,} held-out deals — " + "; ".join(parts) + ".")
        if not any(all(m["fair_within_interval"] for m in v.held_out["metrics"].values())
                   for v in self.variants if v.held_out):
            out.append("No variant in the searched space is fair within its interval on the held-out deals.")
        if self.retuned_best is not None:
            finalists = [v for v in self.variants if v.held_out and v.held_out.get("retuned")]
            scores = ", ".join(f"{v.label} {v.held_out['score']:.4f} → {v.held_out['retuned']['score']:.4f}"
                               for v in finalists)
            same = self.retuned_best == self.best.label
            out.append(
                f"Re-tuned per variant ({self.retune:,} games of tuning each): the best is "
                + (f"the same ({self.best.label})" if same else f"{self.retuned_best}, not {self.best.label}")
                + f"; held-out scores fixed → re-tuned: {scores}.")
        return out

    def text(self) -> str:
        head = (
            f"{self.title}: {len(self.variants)} variants of {', '.join(self.vary)} at "
            f"{', '.join(map(str, self.players))} players, {', '.join(dict.fromkeys(self.strategies))}; "
            f"targets {', '.join(t.text for t in self.targets)}; seed {self.seed} "
            f"(held out {self.held_out_seed})"
        )
        if self.search == "cma":
            rounds = (f"CMA-ES: {len(self.rounds)} generations of {self.rounds[0]['variants']} candidates, "
                      f"{sum(r['new'] for r in self.rounds)} distinct played, {self.rounds[0]['games']:,} games "
                      "each per player count") if self.rounds else ""
        else:
            rounds = "; ".join(f"round {r['round']}: {r['variants']} variants x {r['games']:,} games"
                               for r in self.rounds)
        import pandas as pd

        with pd.option_context("display.max_rows", 60, "display.width", 160, "display.max_columns", None):
            table = self.table().head(30).to_string(float_format=lambda x: f"{x:.4f}")
        return "\n".join([head, rounds, "", table, "", "Pareto front: " + ", ".join(self.pareto), ""]
                         + self.findings())

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "analysis": "balance",
            "players": self.players,
            "strategies": self.strategies,
            "seed": self.seed,
            "held_out_seed": self.held_out_seed,
            "search": self.search,
            "targets": [t.text for t in self.targets],
            "vary": _jsonable(self.vary),
            "baseline": self.baseline,
            "rounds": self.rounds,
            "variants": [v.to_dict() for v in self.variants],
            "best": self.best.to_dict(),
            "pareto": self.pareto,
            "findings": self.findings(),
            "retune": self.retune,
            "retuned_best": self.retuned_best,
            "elapsed_seconds": self.elapsed_seconds,
        }

    @property
    def plot(self):
        from montecards.plots import BalancePlots

        return BalancePlots(self)

    def __repr__(self) -> str:
        return f"BalanceResult({self.game}, {len(self.variants)} variants, best={self.best.label!r})"


class _Store:
    """``--checkpoint``: every batch of games played, by what it is, in one folder; a resumed
    search reads them back instead of playing them (the search is deterministic given them).
    The folder's manifest holds what decides a batch's games besides its name (the game,
    strategies, fixed parameters, kernel sources): another search on the same games may share
    the folder."""

    def __init__(self, directory: Any, manifest: dict[str, Any]):
        self.dir = None if directory is None else Path(directory)
        if self.dir is None:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self.dir / "manifest.json"
        text = json.dumps(manifest, sort_keys=True, default=str)
        if path.exists() and path.read_text() != text:
            raise InputError(f"checkpoint {self.dir} holds games of other strategies, parameters or "
                             "kernels; use a new folder")
        path.write_text(text)

    def _path(self, key: str) -> Path:
        assert self.dir is not None
        return self.dir / (hashlib.sha256(key.encode()).hexdigest()[:24] + ".npz")

    def get(self, key: str) -> dict[str, np.ndarray] | None:
        if self.dir is None or not self._path(key).exists():
            return None
        with np.load(self._path(key)) as data:
            return {k: data[k] for k in data.files}

    def put(self, key: str, cols: dict[str, np.ndarray]) -> None:
        if self.dir is not None:
            tmp = self._path(key).with_suffix(".tmp.npz")
            np.savez(tmp, **cols)
            tmp.replace(self._path(key))


def variant_label(params: Mapping[str, Any]) -> str:
    """``"opening_parade=4 wild_pairs=0-1,1-2 start_points=2,1,0"``: a list of pairs joined by
    ``-``, an empty list ``none`` (as ``--param`` reads them back)."""

    def text(v: Any) -> str:
        if isinstance(v, (list, tuple)):
            if not v:
                return "none"
            return ",".join("-".join(map(text, x)) if isinstance(x, (list, tuple)) else text(x) for x in v)
        if isinstance(v, bool):
            return str(v).lower()
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        return str(v)

    return " ".join(f"{k}={text(v)}" for k, v in params.items()) or "default"


_RANGE = re.compile(r"\s*" + _NUMBER + r"\s*:\s*" + _NUMBER + r"\s*")


def _range(spec: Any, name: str, text: str, counts: Sequence[int]) -> Range:
    """``NAME=A:B`` checked: a number or a list of numbers (of one length at every player
    count), ``A < B``, whole ends for whole numbers, both ends within the game's rules."""
    p = spec.param(name)
    m = _RANGE.fullmatch(text)
    assert m is not None
    low, high = float(m.group(1)), float(m.group(2))
    if not low < high:
        raise InputError(f"{name}={text}: a range A:B needs A < B")
    defaults = [p.default_for(c) for c in counts]
    d = defaults[0]

    def number(x: Any) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool)

    if number(d):
        size, integer = None, isinstance(d, int)
    elif isinstance(d, list) and d and all(number(x) for x in d):
        if len({len(x) for x in defaults}) > 1:
            raise InputError(f"{name}={text}: {name} has one entry per seat, so a range is searched at one "
                             "player count at a time (one -p)")
        size, integer = len(d), all(isinstance(x, int) for x in d)
    else:
        raise InputError(f"{name}={text}: a range (CMA-ES) needs a parameter that is a number or a list of "
                         f"numbers; list {name}'s values instead")
    if integer and not (low.is_integer() and high.is_integer()):
        raise InputError(f"{name} is a whole number: its range needs whole ends, got {text}")
    r = Range(name, low, high, integer, size)
    for c in counts:  # each end within the rules, before any game
        for end in (0.0, 1.0):
            spec.resolve_params(c, {name: r.decode([end] * r.dims)})
    return r


def _space(spec: Any, vary: Mapping[str, Sequence[Any]], counts: Sequence[int] = ()
           ) -> tuple[dict[str, list[Any]], list[dict[str, Any]], list[Range]]:
    """The listed values (their product: the variants) or the ranges (CMA-ES) of ``vary``."""
    if not vary:
        raise InputError("balance needs at least one parameter to vary (--vary NAME=V1/V2/...)")
    parsed: dict[str, list[Any]] = {}
    ranges: list[Range] = []
    for name, values in vary.items():
        p = spec.param(name)  # unknown names fail with the allowed list
        if isinstance(values, str):
            values = [values]
        values = list(values)
        if not isinstance(p.default_for(spec.default_players), (list, tuple)):
            # a parameter that is one value: "4,5,6" is three values
            values = [part for v in values for part in (v.split(",") if isinstance(v, str) else [v])]
            values = [v.strip() if isinstance(v, str) else v for v in values]
            values = [v for v in values if v != ""]
        if not values:
            raise InputError(f"empty search space: no values for {name}")
        if any(isinstance(v, str) and _RANGE.fullmatch(v) for v in values):
            if len(values) > 1:
                raise InputError(f"{name}: a range is the parameter's only value (NAME=A:B), got {values}")
            ranges.append(_range(spec, name, values[0], counts or [spec.default_players]))
            continue
        parsed[name] = [parse_text(p, v) if isinstance(v, str) else v for v in values]
    if ranges and parsed:
        raise InputError(f"a search varies listed values ({', '.join(parsed)}) or ranges "
                         f"({', '.join(r.name for r in ranges)}), not both: fix the listed ones with --param")
    if ranges:
        return {r.name: [r.text] for r in ranges}, [], ranges
    combos = [dict(zip(parsed, c, strict=True)) for c in itertools.product(*parsed.values())]
    if len(combos) > MAX_VARIANTS:
        raise InputError(f"{len(combos)} variants: at most {MAX_VARIANTS} (vary fewer values)")
    return parsed, combos, []


@with_backend
def balance(
    game: str,
    vary: Mapping[str, Sequence[Any]],
    targets: Sequence[Any] = ("fair",),
    players: int | Sequence[int] | None = None,
    strategies: Sequence[str] | str | None = None,
    params: Mapping[str, Any] | None = None,
    n: int = 4000,
    budget: int = 64_000,
    keep: int = 3,
    held_out: int = 40_000,
    seed: int | None = None,
    jobs: int | None = None,
    checkpoint: Any = None,
    strategy_params: Any = None,
    evaluations: int = 48,
    popsize: int | None = None,
    sigma: float = 0.3,
    retune: int = 0,
) -> BalanceResult:
    """Search the values of the ``vary`` parameters (``{name: [values]}``, text values parsed
    as on the command line; the product is the space) for the variant that best meets
    ``targets`` (``parse_target``'s forms) at every player count in ``players``.

    Successive halving on common random numbers: ``n`` games per variant and player count in
    the first round, doubled each round for the better half, until at most ``keep`` variants
    remain or a variant has played ``budget`` games; the survivors and the official rules
    (the defaults of the varied parameters, over ``params``) then play ``held_out`` games on
    deals of a derived seed, which rank them. ``checkpoint``: a folder; a search stopped
    part way resumes there. ``strategies``: the strength (every seat's strategy).

    A range (``{"start_points": "0:12"}``) is searched by CMA-ES instead: ``evaluations``
    candidates of ``n`` games each per player count (``popsize`` per generation, default
    CMA-ES's; ``sigma``: its first step, a fraction of each range), the ``keep`` best then
    confirmed on held-out deals as above.

    ``retune``: games of tuning per finalist and player count (0: none; module docstring): the
    finalists are also played on the held-out deals by the strength re-tuned for each."""
    import time

    started = time.perf_counter()
    spec = games.get(game)
    strategies = as_labels(strategies)
    counts = [spec.default_players] if players is None else (
        [players] if isinstance(players, (int, np.integer)) else list(players))
    if not counts:
        raise InputError("balance needs at least one player count")
    counts = [spec.check_players(p) for p in dict.fromkeys(counts)]
    parsed_targets = [parse_target(t) for t in ([targets] if isinstance(targets, str) else targets)]
    own = [*spec.metrics, "unfinished"]
    for t in parsed_targets:
        if t.name not in TARGET_NAMES and t.name not in own:
            raise InputError(f"target {t.text!r} cannot be measured for {spec.name} (its quantities: "
                             f"{', '.join(own)}; and fair, first_seat, balance, length, ties)")
    if not parsed_targets:
        raise InputError(
            "balance needs at least one target (fair, first_seat, balance>=X, length=A:B, ties<=Y)")
    n = check_count("n", n, 100)
    budget = check_count("budget", budget, n)
    keep = check_count("keep", keep)
    held_out = check_count("held_out", held_out, 100)
    seed = new_seed() if seed is None else check_seed(seed)
    base = dict(params or {})
    for name in base:
        spec.param(name)
    vary_values, combos, ranges = _space(spec, vary, counts)
    if ranges:
        evaluations = check_count("evaluations", evaluations, 1)
        if not 0 < float(sigma) <= 1:
            raise InputError(f"sigma is a fraction of each range, in (0, 1], got {sigma}")
    first = setup(game, counts[0], strategies, base, seed, jobs, strategy_params)  # checks the strategies
    retune = 0 if not retune else check_count("retune", retune, 100)
    if retune:
        _check_retunable(spec, first.strategies, strategy_params)
    official = {name: spec.param(name).default_for(counts[0]) for name in vary_values}
    variants: dict[str, Variant] = {}
    for overlay in combos:
        for p in counts:  # a value outside its domain fails here, before any game
            spec.resolve_params(p, {**base, **overlay})
        variants.setdefault(variant_label(overlay), Variant(variant_label(overlay), overlay))
    official_label = "official rules"
    setups: dict[tuple[str, int, int], Any] = {}
    # a batch is named by its variant, player count, seed and games: what else decides its
    # games is here (a search with other targets, space or budget reuses the batches it shares)
    store = _Store(checkpoint, {
        "game": spec.name, "strategies": list(first.strategies), "params": _jsonable(base),
        "strategy_params": _jsonable(strategy_params), "kernel": kernel_stamp(first.config.spec_module),
    })
    held_seed = derived_seed(seed, HELD_OUT_PATH)

    def play(v: Variant, p: int, run_seed: int, start: int, count: int) -> dict[str, np.ndarray]:
        key = json.dumps([v.label, p, run_seed, start, count])
        got = store.get(key)
        if got is not None:
            return got
        overlay = v.params if v.label != official_label else {}
        s = setups.get((v.label, p, run_seed))
        if s is None:
            s = setup(game, p, strategies, {**base, **overlay}, run_seed, jobs, strategy_params)
            setups[(v.label, p, run_seed)] = s
        _, rows = s.play(start, count, keep=True)
        cols = per_game(rows, s.layout)
        store.put(key, cols)
        return cols

    def add(v: Variant, p: int, cols: dict[str, np.ndarray]) -> None:
        if p in v.cols:
            v.cols[p] = {k: np.concatenate([v.cols[p][k], cols[k]]) for k in cols}
        else:
            v.cols[p] = cols
        v.metrics[p] = measure(v.cols[p], p, own)

    rounds: list[dict[str, Any]] = []
    if ranges:
        invalid: dict[str, str] = {}

        def evaluate(overlay: dict[str, Any], generation: int) -> tuple[float, bool]:
            """A candidate's score on the search's deals, and whether it was played now."""
            label = variant_label(overlay)
            if label in invalid:
                return INVALID, False
            if label in variants:
                return variants[label].score, False
            try:
                for p in counts:
                    spec.resolve_params(p, {**base, **overlay})
            except InputError as error:
                invalid[label] = str(error)
                return INVALID, False
            v = variants[label] = Variant(label, overlay)
            for p in counts:
                add(v, p, play(v, p, seed, 0, n))
            v.score, v.penalties = _score(parsed_targets, v.metrics)
            v.rounds = generation + 1
            return v.score, True

        rounds = _cma_search(ranges, official, derived_seed(seed, CMA_PATH), evaluations, popsize,
                             float(sigma), evaluate, n)
        alive = sorted(variants.values(), key=lambda v: v.score)
    else:
        alive = _halving(list(variants.values()), counts, seed, n, budget, keep, play, add,
                         parsed_targets, rounds)
    # the official rules: the defaults of the varied parameters (per player count for defaults
    # that depend on it), measured as the reference even when the space does not hold them
    match = [v for v in variants.values()
             if all(_same(v.params[k], spec.param(k).default_for(p)) for k in vary_values for p in counts)]
    baseline = match[0].label if match else official_label
    finalists = alive[:keep]
    if baseline == official_label:
        variants[official_label] = Variant(official_label, dict(official))
    if variants[baseline] not in finalists:
        finalists.append(variants[baseline])
    for v in finalists:
        metrics = {p: measure(play(v, p, held_seed, 0, held_out), p, own) for p in counts}
        score, penalties = _score(parsed_targets, metrics)
        v.held_out = {"games": held_out, "seed": held_seed, "score": score, "penalties": penalties,
                      "metrics": metrics}
        if not v.metrics:  # the official rules outside the space: measured on held-out deals only
            v.metrics, v.score, v.penalties = metrics, score, penalties
    for k, v in enumerate(finalists if retune else []):
        overlay = v.params if v.label != official_label else dict(official)
        v.held_out["retuned"] = _retuned(game, first.strategies[0], v, k, overlay, counts, base, seed, held_seed,
                                         held_out, retune, jobs, store, parsed_targets, own)
    for v in variants.values():
        v.cols = {}
    ranked = sorted(variants.values(), key=lambda v: (
        v.held_out is None, v.held_out["score"] if v.held_out else v.score, v.score))
    base_len = {p: m["length"] for p, m in variants[baseline].metrics.items()}

    def objectives(v: Variant) -> list[float]:
        obj = list(v.penalties.values())
        if len(obj) == 1 and not any(t.name == "length" for t in parsed_targets):
            obj.append(max(abs(m["length"] / base_len[p] - 1) for p, m in v.metrics.items() if p in base_len))
        return obj

    front = pareto_front([objectives(v) for v in ranked])
    return BalanceResult(
        game=spec.name, title=spec.title, players=counts, strategies=list(first.strategies),
        seed=seed, held_out_seed=held_seed, targets=parsed_targets, vary=vary_values, variants=ranked,
        baseline=baseline, rounds=rounds, pareto=[ranked[i].label for i in front],
        elapsed_seconds=time.perf_counter() - started, search="cma" if ranges else "halving", retune=retune,
    )


def _check_retunable(spec: Any, strategies: Sequence[str], strategy_params: Any) -> None:
    """``retune`` needs one strategy that reads weights (``tuned``, ``weighted``, ...) at every seat."""
    from montecards.analysis.tune import resolve_tuned

    if len(set(strategies)) != 1 or strategy_params:
        raise InputError("--retune needs one strategy at every seat (the strength re-tuned per variant), "
                         f"without --strategy-param; got {', '.join(dict.fromkeys(strategies))}")
    resolve_tuned(spec, strategies[0], None, None)  # a strategy that reads no weights is refused here


def _retuned(game: str, strength: str, v: Variant, k: int, overlay: dict[str, Any], counts: Sequence[int],
             base: dict[str, Any], seed: int, held_seed: int, held_out: int, retune: int, jobs: int | None,
             store: Any, targets: Sequence[Target], own: Sequence[str]) -> dict[str, Any]:
    """A finalist played on the held-out deals by ``strength`` re-tuned under its rules: per
    player count, ``tune`` from the strength's weights against the strength itself, then the
    tuned weights at every seat."""
    from montecards.analysis.tune import resolve_tuned, tune

    spec = games.get(game)
    resolved = resolve_tuned(spec, strength, None, None)
    popsize = 4 + int(3 * math.log(len(resolved.x0)))  # CMA-ES's default size, given to tune to fix the deals
    metrics, labels = {}, {}
    for p in counts:
        tuning_seed = derived_seed(seed, RETUNE_PATH, k, p)
        tuning_key = json.dumps(["retuning", v.label, p, tuning_seed, retune])
        got = store.get(tuning_key)  # a resumed search does not tune again
        if got is None:
            deals = max(20, retune // (RETUNE_GENERATIONS * (popsize + 2) * p))
            tuned = tune(game, strength, players=p, opponents=strength, budget=retune, seed=tuning_seed,
                         deals=deals, popsize=popsize, holdout=100, params={**base, **overlay}, jobs=jobs,
                         progress=False)
            got = {"weights": np.array(tuned.best)}
            store.put(tuning_key, got)
        labels[p] = resolved.label(got["weights"])
        key = json.dumps(["retuned", v.label, p, labels[p], held_seed, held_out])
        cols = store.get(key)
        if cols is None:
            s = setup(game, p, [labels[p]] * p, {**base, **overlay}, held_seed, jobs, None)
            _, rows = s.play(0, held_out, keep=True)
            cols = per_game(rows, s.layout)
            store.put(key, cols)
        metrics[p] = measure(cols, p, own)
    score, penalties = _score(targets, metrics)
    return {"games": held_out, "tuning_games": retune, "strategies": {str(p): labels[p] for p in counts},
            "score": score, "penalties": penalties, "metrics": metrics}


def _halving(alive: list[Variant], counts: Sequence[int], seed: int, n: int, budget: int, keep: int,
             play: Any, add: Any, targets: Sequence[Target], rounds: list[dict[str, Any]]) -> list[Variant]:
    """Successive halving: every variant plays ``n`` games per player count, the better half as
    many again, until at most ``keep`` remain or the next round would pass ``budget``; the
    survivors best first (``rounds`` gains one entry per round)."""
    played, count, r = 0, n, 0
    while True:
        for v in alive:
            for p in counts:
                add(v, p, play(v, p, seed, played, count))
            v.score, v.penalties = _score(targets, v.metrics)
            v.rounds = r + 1
        played += count
        rounds.append({"round": r + 1, "variants": len(alive), "games": played})
        alive.sort(key=lambda v: v.score)
        if len(alive) <= keep or played * 2 > budget:
            return alive
        alive = alive[: max(keep, math.ceil(len(alive) / 2))]
        count = played  # the survivors play as many games again
        r += 1


def _cma_search(ranges: Sequence[Range], official: Mapping[str, Any], sampler_seed: int, evaluations: int,
                popsize: int | None, sigma: float, evaluate: Any, n: int) -> list[dict[str, Any]]:
    """CMA-ES over the unit cube of ``ranges`` from the official rules, minimising
    ``evaluate(overlay, generation)``, until ``evaluations`` candidates have been asked; one
    round per generation: its candidates and how many were new (played, not met before)."""
    from montecards.analysis.tune import new_cma

    x0 = [u for r in ranges for u in r.unit(official[r.name])]
    if len(x0) == 1:  # cma searches one dimension poorly: a second, ignored coordinate
        x0.append(0.5)
    es = new_cma(x0, sampler_seed, popsize, sigma)
    rounds = []
    asked, generation = 0, 0
    while asked < evaluations:
        units = es.ask()
        scores, new = [], 0
        for u in units:
            overlay, at = {}, 0
            for r in ranges:
                overlay[r.name] = r.decode(u[at: at + r.dims])
                at += r.dims
            score, played = evaluate(overlay, generation)
            scores.append(score)
            new += played
        es.tell(units, scores)
        asked += len(units)
        rounds.append({"round": generation + 1, "variants": len(units), "new": new, "games": n})
        generation += 1
    return rounds


def _same(a: Any, b: Any) -> bool:
    return json.dumps(_jsonable(a)) == json.dumps(_jsonable(b))

"""Tournaments: entrants played in many lineups, every lineup in every seat rotation on the same
deals, and rated on one Elo scale (``analysis/ratings.py``).

Designs (``design=``):

* ``"round_robin"``: every lineup of ``players`` distinct entrants; with fewer entrants than
  seats, every lineup in which each entrant sits at least once; ``repeats=True``: every
  multiset of entrants (an entrant may take several seats) except the mirror lineups.
* ``"field"``: one against the field — each entrant in one seat, the fixed ``opponents`` in
  the others (one name for every other seat, or one per other seat). The opponents are rated
  too.
* ``"sample"``: a random sample of the lineups of ``repeats=True``, as many as ``budget`` games
  allow (drawn from the seed; every entrant sits in at least one lineup when the budget
  allows).
* ``"lineups"``: the ``lineups`` given, each a list of ``players`` entrants.

Every lineup plays every cyclic seat rotation (``matchups.rotations``) on deals ``0 .. n - 1``
of one seed: deal ``i`` is the same cards in every lineup and rotation (common random numbers),
so seat effects cancel and the bootstrap resamples whole deals. ``budget`` (games) caps any
design: the deals per lineup shrink to fit, and a budget that cannot play every rotation of
every lineup once is refused.

Entrants are built-in names, weighted variants (``weighted[1,0.5]``), user strategies
(``file.py:choose``, with ``strategy_params`` per entrant), search players (``ismcts``; give
them fewer deals with ``n_for``), and for a game with a skill parameter (Anomia's ``theta``)
skill levels such as ``theta=0.5``, which play the game's default strategy with that skill.

``checkpoint`` (a directory) records every finished chunk of every lineup and rotation
(``run/checkpoint.py``: one sub-directory per run); the same call again plays only what is
missing and gives the same result. The seed is taken from the directory when omitted.
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from montecards import games
from montecards.analysis.matchups import rotation_setups, rotations
from montecards.analysis.ratings import (
    CLASS_STEP,
    DEFAULT_BOOTSTRAP,
    ELO,
    MODELS,
    Observations,
    Ratings,
    fit,
    places_of,
)
from montecards.analysis.runs import (
    bind_params,
    check_count,
    check_seed,
    deals_for,
    kernel_stamp,
    new_seed,
    strategy_identities,
    with_backend,
)
from montecards.engine.spec import GameSpec, InputError
from montecards.engine.user_strategies import as_labels

DESIGNS = ("round_robin", "field", "sample", "lineups")
_VERSION = sys.modules["montecards"].__version__
"""Recorded in checkpoints (the package above this layer, which is always imported first)."""
DEFAULT_DEALS = 20_000


@dataclass
class TournamentResult:
    """A tournament's lineups, the games behind them and the ratings fitted to them."""

    game: str
    title: str
    players: int
    design: str
    entrants: list[str]
    lineups: list[tuple[str, ...]]
    deals: list[int]
    seed: int
    params: dict[str, Any]
    ratings: Ratings
    games_played: int
    elapsed_seconds: float
    skill_param: str = ""

    @property
    def model(self) -> str:
        return self.ratings.observations.model

    def table(self) -> pd.DataFrame:
        """Entrants best first, with ratings, 95 % intervals and the Nash-averaged payoff."""
        t = self.ratings.table()
        nash = self.ratings.nash().set_index("strategy")
        t["nash_weight"] = t["strategy"].map(nash["nash_weight"])
        t["nash_payoff"] = t["strategy"].map(nash["nash_payoff"])
        return t

    def matrix(self, what: str = "observed") -> pd.DataFrame:
        return self.ratings.matrix(what)

    def depth(self) -> dict[str, Any]:
        """Skill depth from the baseline to the strongest entrant (``Ratings.depth``). For skill
        levels of a skill parameter, also the gap in that parameter and the face-off rating gap
        it means (Bradley–Terry in natural-log units: ``ELO * gap`` points)."""
        d = self.ratings.depth()
        if self.skill_param:
            low, high = (_skill_value(self.skill_param, d[k]) for k in ("from", "to"))
            if low is not None and high is not None:
                d["skill_gap"] = high - low
                d["face_off_points"] = ELO * (high - low)
                d["skill_per_step"] = (high - low) / d["steps"] if d["steps"] > 0 else float("nan")
        return d

    def cycles(self) -> list[list[str]]:
        return self.ratings.cycles()

    def verdict(self) -> str:
        """One sentence on the order: the ratings', or the cycle that no order describes."""
        cycles = self.cycles()
        nash = self.ratings.nash()
        if cycles:
            shown = "; ".join(" > ".join(c + [c[0]]) for c in cycles[:3])
            support = ", ".join(f"{r.strategy} {r.nash_weight:.2f}"
                                for r in nash.itertuples() if r.nash_weight > 0)
            return (f"The results are cyclic ({shown}): the ratings' order is the best transitive fit, "
                    f"not the truth; Nash averaging mixes {support} and ranks by payoff against that mix.")
        t = self.ratings.table()
        order = " > ".join(t["strategy"])
        return f"Order by rating: {order} (no significant cycle among the 'finishes ahead' shares)."

    def findings(self) -> list[str]:
        d = self.depth()
        out = [
            f"Skill depth at {self.players} players: {d['points']:.0f} rating points from {d['from']} to "
            f"{d['to']} (95 % interval {d['points_low']:.0f} to {d['points_high']:.0f}), "
            f"{d['steps']:.2f} class steps of {CLASS_STEP:.0f} points (each step: 75 % head to head).",
        ]
        if "face_off_points" in d:
            out.append(
                f"A face-off edge of {self.skill_param} {d['skill_gap']:g} is {d['face_off_points']:.0f} "
                f"face-off rating points; it makes {d['points']:.0f} game rating points "
                f"({d['skill_per_step']:.2f} of {self.skill_param} per class step)."
            )
        out.append(self.verdict())
        return out

    def to_dict(self) -> dict[str, Any]:
        from montecards.analysis.results import _jsonable

        rated = self.ratings.to_dict()
        return _no_nan(_jsonable({
            "game": self.game,
            "analysis": "tournament",
            "players": self.players,
            "design": self.design,
            "model": self.model,
            "seed": self.seed,
            "params": self.params,
            "entrants": self.entrants,
            "lineups": [list(lineup) for lineup in self.lineups],
            "deals": self.deals,
            "games": self.games_played,
            "ratings": rated["ratings"],
            "baseline": rated["baseline"],
            "depth": self.depth(),
            "cycles": rated["cycles"],
            "nash": rated["nash"],
            "bootstrap": rated["bootstrap"],
            "ahead": self.ratings.ahead().to_dict(orient="records"),
            "verdict": self.verdict(),
            "elapsed_seconds": self.elapsed_seconds,
        }))

    def text(self) -> str:
        head = (f"{self.title}: {self.design.replace('_', ' ')} tournament at {self.players} players, "
                f"{len(self.lineups)} lineups x {self.players} rotations, {self.games_played:,} games, "
                f"seed {self.seed}; {self.model} model, ratings (Elo scale) relative to "
                f"{self.ratings.baseline}, 95 % bootstrap intervals over deals")
        with pd.option_context("display.max_rows", None, "display.width", 140, "display.max_columns", None):
            ratings = self.table().to_string(float_format=lambda x: f"{x:.3f}")
            obs = self.matrix("observed").to_string(float_format=lambda x: f"{x:.3f}")
            pred = self.matrix("predicted").to_string(float_format=lambda x: f"{x:.3f}")
        return "\n".join([head, "", ratings, "", "finishes ahead of column (observed):", obs, "",
                          "finishes ahead of column (predicted by the ratings):", pred, ""] + self.findings())

    @property
    def plot(self):
        from montecards.plots import TournamentPlots

        return TournamentPlots(self)

    def _repr_html_(self) -> str:
        return (f"<p><b>{self.title}</b>: tournament at {self.players} players</p>" + self.table().to_html()
                + "".join(f"<p>{line}</p>" for line in self.findings()))


def _no_nan(value: Any) -> Any:
    """NaN (an interval without bootstrap draws) as null: the JSON stays standard."""
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_nan(v) for v in value]
    if isinstance(value, float) and value != value:
        return None
    return value


def _skill_value(skill_param: str, label: str) -> float | None:
    """The skill of a ``theta=0.5`` entrant, or None for a strategy entrant."""
    if not skill_param or not isinstance(label, str) or not label.startswith(f"{skill_param}="):
        return None
    try:
        return float(label.split("=", 1)[1])
    except ValueError:
        raise InputError(f"entrant {label!r}: {skill_param}= takes a number, e.g. {skill_param}=0.5"
                         ) from None


def resolve_entrants(spec: GameSpec, entrants: Any, strategy_params: Any = None) -> list[str]:
    """Entrant labels in order, without repeats: built-ins, weighted variants and user
    strategies (``strategy_params``: one list for every entrant that takes weights, or one per
    entrant), and skill levels (``theta=0.5``)."""
    if entrants is None:
        return []
    if isinstance(entrants, str) or callable(entrants):
        entrants = [entrants]
    entrants = list(entrants)
    skills = [_skill_value(spec.skill_param, e) for e in entrants]
    others = [e for e, v in zip(entrants, skills, strict=True) if v is None]
    labels: list[str] = []
    if others:
        entries = spec.strategy_codes(len(others), others)
        if strategy_params is not None:
            entries = bind_params(entries, strategy_params, spec)
        labels = list(as_labels(entries))
    elif strategy_params is not None:
        raise InputError("strategy params are for strategy entrants, and every entrant is a skill level")
    out, it = [], iter(labels)
    for v in skills:
        out.append(next(it) if v is None else f"{spec.skill_param}={v:g}")
    return list(dict.fromkeys(out))


def design_lineups(entrants: Sequence[str], players: int, design: str, opponents: Sequence[str] = (),
                   repeats: bool = False, lineups: Sequence[Sequence[str]] = (), sample: int | None = None,
                   seed: int = 0) -> list[tuple[str, ...]]:
    """The lineups of a design (module docstring), each a tuple of ``players`` entrants."""
    if design == "round_robin":
        if repeats or len(entrants) < players:
            every = [c for c in itertools.combinations_with_replacement(entrants, players) if len(set(c)) > 1]
            if not repeats:
                every = [c for c in every if set(c) == set(entrants)]
            return every
        return list(itertools.combinations(entrants, players))
    if design == "field":
        field = list(opponents)
        if len(field) == 1:
            field = field * (players - 1)
        if len(field) != players - 1:
            raise InputError(f"the field at {players} players is 1 opponent (for every other seat) or "
                             f"{players - 1} (one per other seat), got {len(opponents)}")
        return [tuple([e] + field) for e in entrants if len({e, *field}) > 1]
    if design == "lineups":
        out = []
        for lineup in lineups:
            lineup = tuple(lineup)
            if len(lineup) != players:
                raise InputError(f"lineup {', '.join(lineup)} has {len(lineup)} seats, the game is "
                                 f"played at {players} players")
            if len(set(lineup)) < 2:
                raise InputError(f"lineup {', '.join(lineup)} is a mirror: it rates nobody")
            out.append(lineup)
        return list(dict.fromkeys(out))
    if design == "sample":
        every = [c for c in itertools.combinations_with_replacement(entrants, players) if len(set(c)) > 1]
        if sample is None or sample >= len(every):
            return every
        rng = np.random.default_rng([seed, 31])
        order = [every[i] for i in rng.permutation(len(every))]
        chosen: list[tuple[str, ...]] = []
        for e in entrants:  # every entrant sits somewhere, when the budget allows
            if len(chosen) < sample and not any(e in c for c in chosen):
                chosen.append(next(c for c in order if e in c and c not in chosen))
        chosen += [c for c in order if c not in chosen][: sample - len(chosen)]
        return sorted(chosen, key=every.index)
    raise InputError(f"unknown tournament design {design!r} (allowed: {', '.join(DESIGNS)})")


def _store(checkpoint: Any, name: str, manifest: dict[str, Any]) -> Any:
    if checkpoint is None:
        return None
    from montecards.run.checkpoint import Checkpoint

    return Checkpoint.open(os.path.join(checkpoint, name), manifest)


@with_backend
def tournament(
    game: str,
    entrants: Sequence[Any],
    players: int | None = None,
    design: str = "round_robin",
    n: int = DEFAULT_DEALS,
    opponents: Sequence[Any] | Any = None,
    lineups: Sequence[Sequence[Any]] | None = None,
    repeats: bool = False,
    budget: int | None = None,
    n_for: Mapping[str, int] | None = None,
    params: dict[str, Any] | None = None,
    seed: int | None = None,
    jobs: int | None = None,
    strategy_params: Any = None,
    model: str = "finish",
    bootstrap: int = DEFAULT_BOOTSTRAP,
    baseline: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    progress: bool | None = None,
) -> TournamentResult:
    """Play ``entrants`` against each other in the lineups of ``design`` (module docstring) and
    rate them (``analysis/ratings.py``).

    ``n``: deals per lineup (each played in every rotation: ``players`` games a deal);
    ``n_for``: fewer deals for lineups with a slow entrant (``{"ismcts": 500}``); ``budget``:
    at most this many games in all; ``model``: ``"finish"`` (Plackett–Luce on finishing orders)
    or ``"winner"`` (who won only); ``bootstrap``: resamples of the deals for the intervals;
    ``baseline``: the entrant rated 0 (default ``random``, else the lowest skill level, else the
    first entrant); ``progress``: a bar on stderr (default: on a terminal).
    """
    t0 = time.perf_counter()
    spec = games.get(game)
    players = spec.check_players(spec.default_players if players is None else players)
    if design not in DESIGNS:
        raise InputError(f"unknown tournament design {design!r} (allowed: {', '.join(DESIGNS)})")
    if model not in MODELS:
        raise InputError(f"unknown rating model {model!r} (allowed: {', '.join(MODELS)})")
    n = check_count("n", n)
    bootstrap = check_count("bootstrap", bootstrap, minimum=0)
    names = resolve_entrants(spec, entrants, strategy_params)
    if opponents is not None and (isinstance(opponents, str) or callable(opponents)):
        opponents = [opponents]
    field = [resolve_entrants(spec, [o])[0] for o in (opponents or [])]
    if design == "lineups":
        lineups = [[resolve_entrants(spec, [x])[0] for x in lineup] for lineup in (lineups or [])]
        names = list(dict.fromkeys(names + [e for lineup in lineups for e in lineup]))
    if design == "field" and not field:
        raise InputError("the field design needs opponents (one for every other seat, or one per other seat)")
    items = list(dict.fromkeys(names + field))
    if len(items) < 2:
        shown = ", ".join(items) or "none"
        raise InputError(f"a tournament needs at least 2 different entrants, got {shown} "
                         f"(allowed strategies for {spec.name}: {', '.join(spec.strategies)})")
    if spec.skill_param and spec.skill_param in (params or {}) and any(_skill_value(spec.skill_param, e)
                                                                       is not None for e in items):
        raise InputError(f"give {spec.skill_param} either as entrants ({spec.skill_param}=0.5) or as "
                         "--param, not both")
    if baseline is None:
        levels = {e: _skill_value(spec.skill_param, e) for e in items}
        if "random" in items:
            baseline = "random"
        elif all(v is not None for v in levels.values()):
            baseline = min(levels, key=lambda e: levels[e])
        else:
            baseline = items[0]
    if baseline not in items:
        raise InputError(f"baseline {baseline!r} is not an entrant (entrants: {', '.join(items)})")
    if seed is None and checkpoint is not None:
        from montecards.run.checkpoint import read_manifest

        seed = (read_manifest(checkpoint) or {}).get("seed")
    seed = new_seed() if seed is None else check_seed(seed)
    budget = None if budget is None else check_count("budget", budget)
    n_for = {str(k): check_count(f"n_for[{k}]", v) for k, v in (n_for or {}).items()}
    sample = None
    if design == "sample":
        if budget is None:
            raise InputError("the sample design needs a budget (games in all)")
        sample = budget // (players * n)
        if sample < 1:
            raise InputError(f"a budget of {budget:,} games cannot play one lineup in all {players} "
                             f"rotations on {n:,} deals ({players * n:,} games): raise the budget or lower n")
    plan = design_lineups(names, players, design, field, repeats, lineups or (), sample, seed)
    if not plan:
        raise InputError(f"the {design} design gives no lineup of {players} players from {', '.join(items)}")
    deals = [deals_for(n, n_for, lineup) for lineup in plan]
    if budget is not None and design != "sample":
        per = budget // (players * len(plan))
        if per < 1:
            raise InputError(f"a budget of {budget:,} games cannot play every rotation of the {len(plan)} "
                             f"lineups once (needs {players * len(plan):,} games)")
        deals = [min(d, per) for d in deals]
    skill_default = spec.param(spec.skill_param).default_for(players) if spec.skill_param else None

    def seats_of(lineup: Sequence[str]) -> tuple[list[str], dict[str, list[Any]]]:
        values = [_skill_value(spec.skill_param, e) for e in lineup]
        if all(v is None for v in values):
            return list(lineup), {}
        strategies = [spec.default_strategy if v is not None else e
                      for e, v in zip(lineup, values, strict=True)]
        skill = [skill_default[k] if v is None else v for k, v in enumerate(values)]
        return strategies, {spec.skill_param: skill}

    setups = []
    for lineup in plan:
        strategies, seat_params = seats_of(lineup)
        setups.append(rotation_setups(game, strategies, params, seed, jobs, seat_params))
    resolved = setups[0][0].params
    if any(_skill_value(spec.skill_param, e) is not None for e in items):
        resolved = {k: v for k, v in resolved.items() if k != spec.skill_param}  # the entrants' own
    chunk = setups[0][0].chunk_size
    stamp = kernel_stamp(setups[0][0].config.spec_module)
    top = None
    if checkpoint is not None:
        from montecards.run.checkpoint import Checkpoint, run_manifest
        from montecards.run.paths import check_output_folder

        check_output_folder(checkpoint, "checkpoint")
        top = Checkpoint.open(checkpoint, run_manifest(
            spec.name, seed, players, [list(lineup) for lineup in plan], resolved, max(deals), chunk,
            version=_VERSION, kernel=stamp))

    from montecards.run.runner import progress_bar

    advance = progress_bar(players * sum(deals), progress)
    index = {name: i for i, name in enumerate(items)}
    obs = Observations(items, players, model)
    layout = spec.layout(players)
    for li, (lineup, runs) in enumerate(zip(plan, setups, strict=True)):
        for r, (seats, run) in enumerate(zip(rotations(lineup), runs, strict=True)):
            store = None
            if top is not None:
                store = _store(checkpoint, f"lineup-{li:04d}-rotation-{r}", run_manifest(
                    spec.name, seed, players, strategy_identities(run.config, run.strategies), run.params,
                    deals[li], chunk, version=_VERSION, kernel=stamp))
            _, rows = run.play(0, deals[li], keep=True, checkpoint=store, advance=advance)
            finished = rows[:, layout.column("unfinished")] == 0
            places = places_of(rows[finished][:, layout.seat_slice("win")],
                               rows[finished][:, layout.seat_slice("score")], spec.score_lower_wins)
            obs.add([index[s] for s in seats], places, np.flatnonzero(finished))
    rated = fit(obs, bootstrap=bootstrap, seed=seed % (2**32), baseline=baseline)
    return TournamentResult(
        game=spec.name, title=spec.title, players=players, design=design, entrants=items, lineups=plan,
        deals=deals, seed=seed, params=resolved, ratings=rated, games_played=players * sum(deals),
        elapsed_seconds=time.perf_counter() - t0, skill_param=spec.skill_param,
    )

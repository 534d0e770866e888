"""Strategy matchups over all seat rotations.

For strategies A and B at P players, the lineup is one seat of A against P - 1 seats of B.
The lineup is played in every rotation (A in seat 0, 1, ..., P - 1) with the **same seed**,
so deal ``i`` is the same in every rotation (common random numbers): seat effects cancel and
each deal contributes A's share averaged over the rotations. ``matrix[A][B]`` is that share,
with a normal 95 % interval over deals (exact under the pairing); the fair share is 1/P. At two
players the same games give both ``matrix[A][B]`` and ``matrix[B][A]``.

The ranking counts significant wins and losses (interval entirely above or below the fair
share) and says so when the "beats" relation has a cycle: then no ranking is honest.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from montecards import games
from montecards.analysis.intervals import half_width, mean_interval
from montecards.analysis.results import luck_estimates
from montecards.analysis.runs import (
    DEFAULT_MAX_GAMES,
    Adaptive,
    bind_labels,
    check_count,
    check_precision,
    run_adaptive,
    setup,
    timed,
    with_backend,
)
from montecards.engine.spec import WIN_UNIT, InputError
from montecards.engine.user_strategies import as_labels
from montecards.engine.value import LUCK_UNIT


@dataclass
class Matchup:
    """Per-deal shares of one lineup (``a`` in one seat, ``b`` in the others), all rotations."""

    a: str
    b: str
    players: int
    a_share: list[np.ndarray] = field(default_factory=list)
    b_share: list[np.ndarray] = field(default_factory=list)
    a_adjusted: list[np.ndarray] = field(default_factory=list)
    """With ``--luck``: per deal ``a``'s luck-adjusted share over the rotations (docs/luck.md)."""
    b_adjusted: list[np.ndarray] = field(default_factory=list)
    value: str = ""
    """With ``--luck``: the value file of the ledger (the lineup's, else the greedy lineup's)."""

    @property
    def n_deals(self) -> int:
        return int(sum(x.shape[0] for x in self.a_share))

    def values(self, who: str, adjusted: bool = False) -> np.ndarray:
        """Per deal the share of ``who`` (``"a"`` or ``"b"``), or its luck-adjusted share."""
        if adjusted:
            parts = self.a_adjusted if who == "a" else self.b_adjusted
        else:
            parts = self.a_share if who == "a" else self.b_share
        return np.concatenate(parts) if parts else np.zeros(0)

    def luck(self, who: str) -> dict[str, Any]:
        """The ``--luck`` keys of ``who``'s share: adjusted share, interval, variance ratio."""
        return luck_estimates(self.values(who), self.values(who, adjusted=True))

    def __repr__(self) -> str:  # not the per-deal arrays
        return f"Matchup({self.a!r} vs {self.b!r}, players={self.players}, deals={self.n_deals:,})"


@dataclass
class MatchupResult:
    """Win-rate matrix with intervals, ranking, and the runs behind them."""

    game: str
    title: str
    players: int
    strategies: list[str]
    seed: int
    params: dict[str, Any]
    matchups: list[Matchup]
    elapsed_seconds: float = 0.0
    adaptive: Adaptive | None = None
    observations: Any = None
    """Every game's finishing order by seat and deal (``analysis.ratings.Observations``), for
    :meth:`ratings`."""
    value: str = ""
    """With ``--luck``: the value file of the ledger (docs/luck.md); empty without."""

    @property
    def takes_luck(self) -> bool:
        return bool(self.value)

    def ratings(self, bootstrap: int = 200, baseline: str | None = None) -> Any:
        """Every strategy on one Elo scale, fitted to the finishing orders of all the matchups'
        games (Bradley–Terry at 2 players, Plackett–Luce above), with 95 % intervals by bootstrap
        over deals (``analysis/ratings.py``). Unlike :meth:`ranking`, a count of significant
        one-against-the-rest results, the ratings have a magnitude and predict any lineup."""
        from montecards.analysis.ratings import fit

        if self.observations is None or self.observations.n_games == 0:
            raise ValueError("these matchups kept no finishing orders to rate")
        return fit(self.observations, bootstrap=bootstrap, seed=self.seed % (2**32),
                   baseline=baseline or ("random" if "random" in self.strategies else self.strategies[0]))

    @property
    def fair_share(self) -> float:
        return 1.0 / self.players

    def _entries(self) -> dict[tuple[str, str], tuple[float, float, float, int]]:
        out: dict[tuple[str, str], tuple[float, float, float, int]] = {}
        for m in self.matchups:
            out[(m.a, m.b)] = (*share_interval_paired(m.values("a")), m.n_deals * self.players)
            if self.players == 2:
                out[(m.b, m.a)] = (*share_interval_paired(m.values("b")), m.n_deals * self.players)
        return out

    def luck_entries(self) -> dict[tuple[str, str], dict[str, Any]]:
        """With ``--luck``: per ordered pair the row strategy's luck-adjusted share (normal 95 %
        interval over deals) and the variance ratio over deals (docs/luck.md)."""
        out: dict[tuple[str, str], dict[str, Any]] = {}
        for m in self.matchups if self.takes_luck else ():
            out[(m.a, m.b)] = m.luck("a")
            if self.players == 2:
                out[(m.b, m.a)] = m.luck("b")
        return out

    def table(self) -> pd.DataFrame:
        """Long form: one row per ordered pair (row strategy vs column strategy); with
        ``--luck`` also ``win_share_adjusted`` (``_low``, ``_high``) and ``variance_ratio``."""
        rows = []
        adjusted = self.luck_entries()
        for (a, b), (share, low, high, games_played) in self._entries().items():
            rows.append(
                {
                    "strategy": a,
                    "opponent": b,
                    "win_share": share,
                    "low": low,
                    "high": high,
                    "fair_share": self.fair_share,
                    "games": games_played,
                    "verdict": self._verdict(low, high),
                    **adjusted.get((a, b), {}),
                }
            )
        return pd.DataFrame(rows)

    def _verdict(self, low: float, high: float) -> str:
        if low > self.fair_share:
            return "wins"
        if high < self.fair_share:
            return "loses"
        return "undecided"

    def matrix(self, what: str = "win_share") -> pd.DataFrame:
        """Strategy × opponent matrix of ``win_share``, ``low`` or ``high`` (NaN on the diagonal
        and where a pair was not played)."""
        m = pd.DataFrame(np.nan, index=self.strategies, columns=self.strategies, dtype=float)
        m.index.name = "strategy"
        m.columns.name = "opponent"
        t = self.table()
        for row in t.itertuples():
            m.loc[row.strategy, row.opponent] = getattr(row, what)
        return m

    def beats(self) -> dict[str, set[str]]:
        """``beats()[A]``: the opponents A beats significantly.

        Two players: A's head-to-head share is above 1/2 (interval entirely). More players:
        a seat of A among B's does better than a seat of B among A's — the paired difference
        ``matrix[A][B] - matrix[B][A]`` over the same deals is above 0 (interval entirely).
        """
        out: dict[str, set[str]] = {s: set() for s in self.strategies}
        if self.players == 2:
            for row in self.table().itertuples():
                if row.verdict == "wins":
                    out[row.strategy].add(row.opponent)
            return out
        for (a, b), (_, low, _high) in self.head_to_head().items():
            if low > 0:
                out[a].add(b)
        return out

    def head_to_head(self) -> dict[tuple[str, str], tuple[float, float, float]]:
        """``(A, B)``: the paired difference of A's share among B's and B's share among A's,
        with its 95 % interval (more than 2 players; at 2 it is ``2 * share - 1``)."""
        by_pair = {(m.a, m.b): m for m in self.matchups}
        out: dict[tuple[str, str], tuple[float, float, float]] = {}
        for (a, b), m in by_pair.items():
            if self.players == 2:
                share, low, high = mean_interval(m.values("a"))
                out[(a, b)] = (2 * share - 1, 2 * low - 1, 2 * high - 1)
                out[(b, a)] = (1 - 2 * share, 1 - 2 * high, 1 - 2 * low)
            elif (b, a) in by_pair:
                x, y = m.values("a"), by_pair[(b, a)].values("a")
                k = min(x.shape[0], y.shape[0])
                out[(a, b)] = mean_interval(x[:k] - y[:k])
        return out

    def cycles(self) -> list[list[str]]:
        """Cycles of the significant "beats" relation (A beats B beats ... beats A)."""
        from montecards.analysis.ratings import find_cycles

        return find_cycles(self.strategies, self.beats())

    @property
    def transitive(self) -> bool:
        return not self.cycles()

    def ranking(self) -> pd.DataFrame:
        """Strategies by significant wins minus losses, then mean share against the others.

        ``rank`` is shared by strategies with the same wins-minus-losses; the column
        ``in_cycle`` marks strategies caught in a non-transitive cycle (their order is not
        meaningful)."""
        t = self.table()
        in_cycle = {s for c in self.cycles() for s in c}
        beats = self.beats()
        rows = []
        for s in self.strategies:
            mine = t[t["strategy"] == s]
            wins = len(beats[s])
            losses = sum(s in beats[o] for o in self.strategies if o != s)
            rows.append(
                {
                    "strategy": s,
                    "wins": wins,
                    "losses": losses,
                    "undecided": len(self.strategies) - 1 - wins - losses,
                    "mean_share": float(mine["win_share"].mean()) if len(mine) else float("nan"),
                    "in_cycle": s in in_cycle,
                }
            )
        r = pd.DataFrame(rows)
        r["net"] = r["wins"] - r["losses"]
        r = r.sort_values(["net", "mean_share"], ascending=[False, False]).reset_index(drop=True)
        r["rank"] = r["net"].rank(method="min", ascending=False).astype(int)
        return r.set_index("rank")[["strategy", "wins", "losses", "undecided", "mean_share", "in_cycle"]]

    def verdict(self) -> str:
        """One honest sentence about the order of the strategies."""
        cycles = self.cycles()
        if cycles:
            shown = "; ".join(" > ".join(c + [c[0]]) for c in cycles[:3])
            return f"The matchups are non-transitive ({shown}): no single ranking describes them."
        r = self.ranking()
        groups: dict[int, list[str]] = {}
        for rank, row in r.iterrows():
            groups.setdefault(int(rank), []).append(row["strategy"])
        order = " > ".join(" = ".join(g) for _, g in sorted(groups.items()))
        undecided = int(r["undecided"].sum()) // 2
        tail = f" ({undecided} pair(s) undecided at this size)" if undecided else ""
        return f"Ranking by significant head-to-head results: {order}{tail}."

    def findings(self) -> list[str]:
        out = []
        for (a, b), (share, low, high, games_played) in self._entries().items():
            if self.players == 2 and self.strategies.index(a) > self.strategies.index(b):
                continue
            out.append(
                f"{a} against {b}: {a} wins {100 * share:.1f} % ± {100 * half_width((low, high)):.1f} % "
                f"of the games (fair {100 * self.fair_share:.1f} %; {games_played:,} games over "
                "all seat rotations)."
            )
            if self.takes_luck:
                est = self.luck_entries()[(a, b)]
                hw = half_width((est["win_share_adjusted_low"], est["win_share_adjusted_high"]))
                out.append(
                    f"Luck-adjusted ({self.value}): {a} wins {100 * est['win_share_adjusted']:.1f} % ± "
                    f"{100 * hw:.1f} % (variance ratio {est['variance_ratio']:.2f} over deals)."
                )
        if self.players > 2:
            for (a, b), (d, low, high) in self.head_to_head().items():
                if self.strategies.index(a) < self.strategies.index(b):
                    out.append(
                        f"Head to head: one {a} among {b} wins {100 * d:+.1f} ± "
                        f"{100 * half_width((low, high)):.1f} pp more often than one {b} among {a} "
                        "(paired over the same deals)."
                    )
        out.append(self.verdict())
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "analysis": "matchups",
            "players": self.players,
            "seed": self.seed,
            "params": _plain(self.params),
            "strategies": self.strategies,
            "fair_share": self.fair_share,
            "matchups": self.table().to_dict(orient="records"),
            "ranking": self.ranking().reset_index().to_dict(orient="records"),
            "transitive": self.transitive,
            "cycles": self.cycles(),
            "verdict": self.verdict(),
            "elapsed_seconds": self.elapsed_seconds,
            **({"adaptive": self.adaptive.to_dict()} if self.adaptive else {}),
            **({"value": self.value} if self.takes_luck else {}),
        }

    @property
    def plot(self):
        from montecards.plots import MatchupPlots

        return MatchupPlots(self)

    def __repr__(self) -> str:  # one line, not every per-deal array (``findings()`` has the numbers)
        deals = max((m.n_deals for m in self.matchups), default=0)
        return (f"MatchupResult({self.game}, strategies={self.strategies!r}, players={self.players}, "
                f"seed={self.seed}, deals={deals:,} per matchup)")

    def _repr_html_(self) -> str:
        head = (
            f"<p><b>{self.title}</b>: matchups at {self.players} players over all seat rotations "
            f"(fair share {100 * self.fair_share:.1f} %)</p>"
        )
        return head + self.matrix().to_html(float_format=lambda x: f"{x:.4f}") + self.ranking().to_html()


def rotations(lineup: Sequence[Any]) -> list[list[Any]]:
    """Every cyclic seat rotation of ``lineup``: in rotation ``r`` seat ``k`` plays
    ``lineup[(k - r) % P]``, so ``lineup[0]`` sits in seat ``r`` (A among B's: A in seat r)."""
    p = len(lineup)
    return [[lineup[(k - r) % p] for k in range(p)] for r in range(p)]


def rotation_setups(game: str, lineup: Sequence[Any], params: dict[str, Any] | None, seed: int,
                    jobs: int | None, seat_params: Mapping[str, Sequence[Any]] | None = None,
                    luck: bool = False) -> list[Any]:
    """One :class:`~montecards.analysis.runs.Setup` per rotation of ``lineup``, all on ``seed``
    (deal ``i`` is the same cards in every rotation: common random numbers). ``seat_params``:
    per-seat parameters given per lineup position (``{"theta": [...]}``), rotated with it.
    ``luck``: played with the luck ledger (``--luck``)."""
    runs = []
    for r, seats in enumerate(rotations(lineup)):
        run_params = dict(params or {})
        for name, values in (seat_params or {}).items():
            run_params[name] = rotations(list(values))[r]
        runs.append(setup(game, len(lineup), seats, run_params, seed, jobs, luck=luck))
    return runs


def share_interval_paired(values: np.ndarray) -> tuple[float, float, float]:
    """A share averaged over rotations per deal, with its 95 % interval: normal over deals
    (exact under the pairing), or — when fewer than 5 deals fall on either side (a share near 0
    or 1, where the normal interval collapses) — the conservative Wilson interval over deals."""
    from montecards.analysis.intervals import wilson

    n = values.shape[0]
    mean, low, high = mean_interval(values)
    if n and (mean * n < 5 or (1 - mean) * n < 5):
        low, high = wilson(mean, n)
    return mean, low, high


def _plain(value: Any) -> Any:
    from montecards.analysis.results import _jsonable

    return _jsonable(value)


@with_backend
def matchups(
    game: str,
    strategies: Sequence[str],
    players: int = 2,
    n: int = 20_000,
    params: dict[str, Any] | None = None,
    seed: int | None = None,
    jobs: int | None = None,
    n_for: Mapping[str, int] | None = None,
    precision: float | None = None,
    max_games: int = DEFAULT_MAX_GAMES,
    strategy_params: Any = None,
    luck: bool = False,
) -> MatchupResult:
    """Every pair of ``strategies`` head to head over all seat rotations.

    ``n``: deals per pair (each deal is played once per rotation, i.e. ``players`` games).
    ``n_for``: a smaller number of deals for pairs involving a slow strategy, e.g.
    ``{"rollout": 500}``. ``precision``: instead of ``n``, add deals until every matrix entry's
    95 % half-width is at most this (capped at ``max_games`` deals per pair).
    ``strategy_params``: weights as in ``simulate``, one list for every strategy that takes
    weights or one per strategy in order (bound into their labels).

    ``luck=True`` (``--luck``, docs/luck.md): every game is played with the luck ledger; the
    table gains each row strategy's luck-adjusted share (``win_share_adjusted`` with ``_low``,
    ``_high``, normal over deals) and ``variance_ratio`` (plain over adjusted per-deal variance).
    Refused in one line where the ledger cannot serve (a game or player count without a value,
    changed rules, user strategies). The intervals of ``precision`` stay the plain shares'.
    """
    spec = games.get(game)
    # user strategies are keyed by their labels, with their params bound
    strategies = as_labels(bind_labels(game, as_labels(strategies), strategy_params))
    names = list(dict.fromkeys(strategies))
    if len(names) < 2:
        raise InputError(
            f"a matchup needs at least 2 different strategies (allowed: {', '.join(spec.strategies)})"
        )
    for s in names:
        spec.strategy_codes(spec.check_players(players), [s])
    n = check_count("n", n)
    precision = check_precision(precision)
    n_for = dict(n_for or {})
    first = setup(game, players, names[0], params, seed, jobs, luck=luck)
    seed = first.seed
    if players == 2:
        pairs = list(itertools.combinations(names, 2))
    else:
        pairs = list(itertools.permutations(names, 2))
    from montecards.analysis.ratings import Observations, places_of

    observations = Observations(list(names), players)
    item = {name: i for i, name in enumerate(names)}
    plans = []
    for a, b in pairs:
        runs = list(enumerate(rotation_setups(game, [a] + [b] * (players - 1), params, seed, jobs, luck=luck)))
        deals = min([n] + [n_for[s] for s in (a, b) if s in n_for])
        plans.append((Matchup(a, b, players, value=runs[0][1].config.luck_source), runs,
                      check_count("n_for", deals)))

    def step_pair(plan, start: int, count: int) -> None:
        m, runs, _ = plan
        a_sum, b_sum = np.zeros(count), np.zeros(count)
        a_adj, b_adj = np.zeros(count), np.zeros(count)
        for r, run in runs:
            _, rows = run.play(start, count, keep=True)
            finished = rows[:, run.layout.column("unfinished")] == 0
            places = places_of(rows[finished][:, run.layout.seat_slice("win")],
                               rows[finished][:, run.layout.seat_slice("score")], spec.score_lower_wins)
            seats = rotations([m.a] + [m.b] * (players - 1))[r]
            observations.add([item[s] for s in seats], places, start + np.flatnonzero(finished))
            win = rows[:, run.layout.seat_slice("win")] / WIN_UNIT
            a_sum += win[:, r]
            b_sum += (win.sum(axis=1) - win[:, r]) / (players - 1)
            if luck:
                adj = rows[:, run.layout.seat_slice("adjusted")] / LUCK_UNIT
                a_adj += adj[:, r]
                b_adj += (adj.sum(axis=1) - adj[:, r]) / (players - 1)
        m.a_share.append(a_sum / players)
        m.b_share.append(b_sum / players)
        if luck:
            m.a_adjusted.append(a_adj / players)
            m.b_adjusted.append(b_adj / players)

    def widest() -> float:
        worst = 0.0
        for m, _, _ in plans:
            for who in ("a", "b") if players == 2 else ("a",):
                _, low, high = share_interval_paired(m.values(who))
                worst = max(worst, half_width((low, high)) if np.isfinite(low) else np.inf)
        return worst

    def play_all() -> Adaptive | None:
        if precision is None:
            for plan in plans:
                step_pair(plan, 0, plan[2])
            return None
        return run_adaptive(
            lambda start, count: [step_pair(plan, start, count) for plan in plans],
            widest,
            precision,
            first=min(2_000, max_games),
            max_games=max_games,
        )

    info, elapsed = timed(play_all)
    return MatchupResult(
        spec.name, spec.title, players, names, seed, first.params, [p[0] for p in plans], elapsed, info,
        observations, ", ".join(dict.fromkeys(p[0].value for p in plans)) if luck else "",
    )

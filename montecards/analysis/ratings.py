"""Ratings: every entrant on one Elo scale, from finishing orders of any number of players.

The model. Entrant ``i`` has a strength ``gamma_i = 10 ** (R_i / 400)`` (``R_i``: its rating
on the Elo scale). A game's finishing order is drawn as in **Plackett–Luce**: the winner is
seat ``k`` with probability ``gamma_k / sum(gamma of the seats)``, then second place among the
rest the same way, and so on. At two players this is **Bradley–Terry**:
``P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))``; at any player count, the chance that
``i`` finishes ahead of ``j`` is that same number (Plackett–Luce keeps pairwise odds whatever
else sits at the table), so a rating gap means the same thing at every player count.

Places. A game's places come from its win shares first (every seat with a share of the win
shares first place), then from the score (``GameSpec.score_lower_wins`` says which way);
seats with equal win share and score share a place. **Shared places** are split: a group of
``m`` tied seats stands for every one of its ``m!`` orders, each with weight ``1/m!`` (at two
players, a shared win is half a win for each side). Unfinished games carry no order and are
left out. ``model="winner"`` uses only who won (Luce's choice model: the first stage of
Plackett–Luce), for games whose later places mean little.

Fitting. Games are aggregated into *patterns* (the entrants of each place group, in place
order): a tournament of millions of games has a few hundred. Bradley–Terry is fitted by
``choix.ilsr_pairwise_dense`` (Hunter's MM / Maystre's ILSR, on the matrix of wins); Plackett–
Luce by maximum likelihood over the aggregated choice stages (Newton's method on the concave
log-likelihood). ``choix`` fits rankings one by one in Python loops (0.77 s for 15,000
rankings of 4, so about a minute for the 1.2 million games of a 6-entrant round robin at 4
players, and once more per bootstrap draw) and has no weights or repeated entrants, which tied
places and ``A + 3 x B`` lineups need; the aggregated fit takes about a millisecond and equals
choix's on distinct-entrant rankings (tests). Both add ``prior`` virtual drawn games between
every two entrants, so an entrant that never won still gets a finite rating (negligible beside
thousands of games).

Intervals: bootstrap over **deals**. Deal ``i`` of a tournament is the same cards in every
lineup and rotation (common random numbers), so a deal and all its seatings are one unit:
each bootstrap draw resamples deals and refits. Ratings are anchored: the ``baseline``
entrant (``random`` when present) has rating 0, so a rating is "points above the baseline".

Cycles and an honest order. Plackett–Luce forces a transitive order. The observed "finishes
ahead" shares may not be: when A > B > C > A significantly, :meth:`Ratings.cycles` names it,
and :meth:`Ratings.nash` gives **Nash averaging** (Balduzzi et al. 2018, as in OpenSpiel):
the maximum-entropy Nash equilibrium of the symmetric zero-sum game whose payoffs are the
observed ahead shares minus 1/2, and every entrant's payoff against that equilibrium
mixture — a ranking that no redundant or cyclic entrant can game.

Skill depth (Cauwet, Teytaud et al. 2015): the rating distance from the baseline (``random``)
to the strongest entrant, with its bootstrap interval, and the same distance in *class
steps*: a step is the gap at which one player beats the next 75 % of the time head to head,
``400 log10 3 = 190.8`` points, so the depth in steps is the length of such a chain.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

ELO = 400.0 / math.log(10.0)
"""Rating points per unit of natural log-strength."""
CLASS_STEP = 400.0 * math.log10(3.0)
"""The rating gap at which the stronger player finishes ahead 75 % of the time."""
MODELS = ("finish", "winner")
DEFAULT_BOOTSTRAP = 200


def elo_share(gap: float | np.ndarray) -> float | np.ndarray:
    """The head-to-head share of a player ``gap`` rating points above its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-np.asarray(gap, dtype=float) / 400.0))


def places_of(win: np.ndarray, score: np.ndarray, lower_score_wins: bool) -> np.ndarray:
    """Per game and seat, the place (0 = first): seats with a larger win share first, then the
    better score; equal win share and score share a place. ``win``, ``score``: games x seats."""
    w = np.asarray(win, dtype=np.float64)
    s = np.asarray(score, dtype=np.float64)
    key = np.stack([w, -s if lower_score_wins else s], axis=-1)
    better = (key[:, None, :, 0] > key[:, :, None, 0]) | (
        (key[:, None, :, 0] == key[:, :, None, 0]) & (key[:, None, :, 1] > key[:, :, None, 1])
    )
    return better.sum(axis=2).astype(np.int64)


def _groups(items: Sequence[int], places: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The entrants of each place group, in place order (the canonical, seat-free pattern)."""
    by_place: dict[int, list[int]] = {}
    for item, place in zip(items, places, strict=True):
        by_place.setdefault(int(place), []).append(int(item))
    return tuple(tuple(sorted(by_place[p])) for p in sorted(by_place))


def _stages(groups: tuple[tuple[int, ...], ...], k: int,
            model: str) -> dict[tuple[tuple[int, ...], int], float]:
    """The choice stages of one pattern: ``(remaining multiset as counts, chosen) -> weight``.

    A group of ``m`` tied seats stands for each of its ``m!`` orders with weight ``1/m!``;
    ``model="winner"`` keeps only the choice of the winner (a shared win: ``1/m`` each)."""
    remaining = np.zeros(k, dtype=np.int64)
    for g in groups:
        for item in g:
            remaining[item] += 1
    out: dict[tuple[tuple[int, ...], int], float] = {}

    def add(counts: np.ndarray, chosen: int, weight: float) -> None:
        if counts.sum() > 1:
            key = (tuple(int(c) for c in counts), chosen)
            out[key] = out.get(key, 0.0) + weight

    for g in groups:
        if model == "winner":
            for item in g:
                add(remaining, item, 1.0 / len(g))
            break
        orders = list(itertools.permutations(g))
        for order in orders:
            counts = remaining.copy()
            for item in order:
                add(counts, item, 1.0 / len(orders))
                counts[item] -= 1
        for item in g:
            remaining[item] -= 1
    return out


@dataclass
class Observations:
    """Finishing results of many games, aggregated into patterns (see the module docstring).

    Add games with :meth:`add`; every game belongs to a deal (its index in the tournament's
    common random numbers) and a lineup (the multiset of its entrants)."""

    items: list[str]
    players: int
    model: str = "finish"
    patterns: list[tuple[tuple[int, ...], ...]] = field(default_factory=list)
    _index: dict[tuple[tuple[int, ...], ...], int] = field(default_factory=dict)
    _pattern_of: list[np.ndarray] = field(default_factory=list)
    _deal_of: list[np.ndarray] = field(default_factory=list)
    _tables: Any = None

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise ValueError(f"unknown rating model {self.model!r} (allowed: {', '.join(MODELS)})")

    def add(self, seat_items: Sequence[int], places: np.ndarray, deals: np.ndarray | None = None) -> None:
        """Games with entrant ``seat_items[k]`` in seat ``k``; ``places``: games x seats (0 = first);
        ``deals``: each game's deal index (default ``0 .. n - 1``)."""
        places = np.asarray(places, dtype=np.int64)
        n, p = places.shape
        if p != len(seat_items):
            raise ValueError(f"{p} places per game for {len(seat_items)} seats")
        keys = (places * (p ** np.arange(p))).sum(axis=1)
        uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        ids = np.empty(uniq.shape[0], dtype=np.int64)
        for j, row in enumerate(first):
            pattern = _groups(seat_items, places[row])
            if pattern not in self._index:
                self._index[pattern] = len(self.patterns)
                self.patterns.append(pattern)
            ids[j] = self._index[pattern]
        self._pattern_of.append(ids[inverse.ravel()])
        self._deal_of.append(np.arange(n, dtype=np.int64) if deals is None else np.asarray(deals, np.int64))
        self._tables = None

    @property
    def n_games(self) -> int:
        return int(sum(a.shape[0] for a in self._pattern_of))

    @property
    def n_deals(self) -> int:
        return int(max((d.max() + 1 for d in self._deal_of if d.size), default=0))

    def lineup_of(self, pattern: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
        return tuple(sorted(i for g in pattern for i in g))

    def tables(self) -> _Tables:
        if self._tables is None:
            self._tables = _Tables.build(self)
        return self._tables


@dataclass
class _Tables:
    """Dense per-pattern tables (patterns x stage sets, x entrants, x pairs) and the sparse
    deal x pattern counts that turn bootstrap weights on deals into weights on patterns."""

    sets: np.ndarray  # stage sets x entrants: counts of each entrant still unplaced
    stage: np.ndarray  # patterns x stage sets: weight of each choice stage
    chosen: np.ndarray  # patterns x entrants: weight of being chosen
    ahead: np.ndarray  # patterns x K x K: seat pairs where i finished ahead of j (ties 1/2)
    meet: np.ndarray  # patterns x K x K: seat pairs of i and j
    win: np.ndarray  # patterns x K: win shares summed over i's seats
    seats: np.ndarray  # patterns x K: seats of i
    lineup: np.ndarray  # pattern -> lineup index
    lineups: list[tuple[int, ...]]
    deal_pattern: Any  # scipy.sparse csr, deals x patterns

    @classmethod
    def build(cls, obs: Observations) -> _Tables:
        from scipy import sparse

        k = len(obs.items)
        n_p = len(obs.patterns)
        set_index: dict[tuple[int, ...], int] = {}
        entries: list[tuple[int, int, float]] = []
        chosen = np.zeros((n_p, k))
        ahead = np.zeros((n_p, k, k))
        meet = np.zeros((n_p, k, k))
        win = np.zeros((n_p, k))
        seats = np.zeros((n_p, k))
        lineups: dict[tuple[int, ...], int] = {}
        lineup = np.zeros(n_p, dtype=np.int64)
        for p, pattern in enumerate(obs.patterns):
            for (counts, item), weight in _stages(pattern, k, obs.model).items():
                s = set_index.setdefault(counts, len(set_index))
                entries.append((p, s, weight))
                chosen[p, item] += weight
            flat = [(place, item) for place, g in enumerate(pattern) for item in g]
            for (pa, a), (pb, b) in itertools.combinations(flat, 2):
                meet[p, a, b] += 1
                meet[p, b, a] += 1
                share = 1.0 if pa < pb else 0.5
                ahead[p, a, b] += share
                ahead[p, b, a] += 1.0 - share
            for item in pattern[0]:
                win[p, item] += 1.0 / len(pattern[0])
            for _, item in flat:
                seats[p, item] += 1
            lineup[p] = lineups.setdefault(obs.lineup_of(pattern), len(lineups))
        sets = np.array([list(c) for c in set_index], dtype=np.float64).reshape(len(set_index), k)
        stage = np.zeros((n_p, len(set_index)))
        for p, s, weight in entries:
            stage[p, s] += weight
        pattern_of = np.concatenate(obs._pattern_of) if obs._pattern_of else np.zeros(0, np.int64)
        deal_of = np.concatenate(obs._deal_of) if obs._deal_of else np.zeros(0, np.int64)
        deal_pattern = sparse.csr_matrix(
            (np.ones(pattern_of.shape[0]), (deal_of, pattern_of)), shape=(obs.n_deals, n_p)
        )
        return cls(sets, stage, chosen, ahead, meet, win, seats, lineup, list(lineups), deal_pattern)

    def weights(self, deal_weights: np.ndarray | None = None) -> np.ndarray:
        """Pattern weights: game counts, or under bootstrap weights on deals."""
        if deal_weights is None:
            return np.asarray(self.deal_pattern.sum(axis=0)).ravel()
        return np.asarray(self.deal_pattern.T @ deal_weights).ravel()


def fit_strengths(tables: _Tables, pattern_weights: np.ndarray, prior: float = 1.0) -> np.ndarray:
    """Maximum-likelihood log-strengths (natural log, mean 0) under Plackett–Luce, with
    ``prior`` virtual drawn games between every two entrants. Two-player data (every choice
    between two seats) go to ``choix``'s Bradley–Terry fit."""
    k = tables.chosen.shape[1]
    c = pattern_weights @ tables.stage
    wins = pattern_weights @ tables.chosen
    live = c > 0
    sets, c = tables.sets[live], c[live]
    if np.all(sets.sum(axis=1) == 2) and np.all(sets.max(axis=1) == 1):
        return _fit_pairwise(np.einsum("p,pij->ij", pattern_weights, tables.ahead), prior)
    pairs = np.array([[i, j] for i, j in itertools.combinations(range(k), 2)], dtype=np.int64)
    if prior > 0 and len(pairs):
        extra = np.zeros((len(pairs), k))
        extra[np.arange(len(pairs)), pairs[:, 0]] = 1
        extra[np.arange(len(pairs)), pairs[:, 1]] = 1
        sets = np.vstack([sets, extra])
        c = np.concatenate([c, np.full(len(pairs), float(prior))])
        wins = wins + prior * (k - 1) / 2.0
    return _fit_choices(sets, c, wins)


def _fit_pairwise(ahead: np.ndarray, prior: float) -> np.ndarray:
    import choix

    comp = ahead.copy()
    np.fill_diagonal(comp, 0.0)
    comp += prior / 2.0
    np.fill_diagonal(comp, 0.0)
    theta = choix.ilsr_pairwise_dense(comp, max_iter=1000, tol=1e-10)
    return theta - theta.mean()


def _fit_choices(sets: np.ndarray, c: np.ndarray, wins: np.ndarray) -> np.ndarray:
    """Maximise ``sum(wins * theta) - sum_s c_s log(sets_s . exp(theta))`` (concave) by Newton's
    method with step halving; the strengths' common scale is fixed by the mean-zero gauge."""
    k = sets.shape[1]

    def loglik(theta: np.ndarray) -> float:
        t = theta - theta.max()
        return float(wins @ t - c @ np.log(sets @ np.exp(t)))

    theta = np.zeros(k)
    value = loglik(theta)
    gauge = np.ones((k, k)) / k
    for _ in range(200):
        e = np.exp(theta - theta.max())
        pi = sets * e / (sets @ e)[:, None]
        grad = wins - c @ pi
        hess = np.diag(c @ pi) - (pi * c[:, None]).T @ pi
        step = np.linalg.solve(hess + gauge, grad)
        step -= step.mean()
        scale = 1.0
        while scale > 1e-6:
            trial = theta + scale * step
            new = loglik(trial)
            if new >= value - 1e-12 * abs(value):
                break
            scale /= 2
        theta, value = trial, new
        if np.abs(scale * step).max() < 1e-10:
            break
    return theta - theta.mean()


def fit(obs: Observations, bootstrap: int = DEFAULT_BOOTSTRAP, seed: int = 0, prior: float = 1.0,
        baseline: str | None = None, exclude: Sequence[Sequence[str]] = ()) -> Ratings:
    """Ratings of ``obs``'s entrants with bootstrap intervals over deals.

    ``baseline``: the entrant rated 0 (default: ``random`` when present, else the first);
    ``exclude``: lineups (as lists of entrants) left out of the fit, e.g. to check its
    predictions on pairings it has not seen."""
    tables = obs.tables()
    keep = np.ones(len(obs.patterns))
    excluded = {tuple(sorted(obs.items.index(s) for s in lineup)) for lineup in exclude}
    for p, pattern in enumerate(obs.patterns):
        if obs.lineup_of(pattern) in excluded:
            keep[p] = 0.0
    if baseline is None:
        baseline = "random" if "random" in obs.items else obs.items[0]
    if baseline not in obs.items:
        raise ValueError(f"baseline {baseline!r} is not an entrant (entrants: {', '.join(obs.items)})")
    point = fit_strengths(tables, tables.weights() * keep, prior)
    rng = np.random.default_rng(seed)
    n_deals = obs.n_deals
    draws = np.zeros((bootstrap, len(obs.items)))
    for b in range(bootstrap):
        deal_weights = rng.multinomial(n_deals, np.full(n_deals, 1.0 / n_deals)).astype(np.float64)
        draws[b] = fit_strengths(tables, tables.weights(deal_weights) * keep, prior)
    return Ratings(obs, point, draws, baseline, prior, [list(x) for x in exclude], seed)


@dataclass
class Ratings:
    """Fitted ratings, their bootstrap draws, and what follows from them."""

    observations: Observations
    theta: np.ndarray
    """Natural log-strengths of the point fit (mean 0)."""
    draws: np.ndarray
    """Bootstrap draws of ``theta`` (one row per draw)."""
    baseline: str
    prior: float
    excluded: list[list[str]]
    seed: int

    @property
    def items(self) -> list[str]:
        return self.observations.items

    def _elo(self, theta: np.ndarray) -> np.ndarray:
        b = self.items.index(self.baseline)
        return ELO * (theta - theta[..., b : b + 1] if theta.ndim > 1 else theta - theta[b])

    @property
    def rating(self) -> np.ndarray:
        return self._elo(self.theta)

    def intervals(self, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        d = self._elo(self.draws)
        if d.shape[0] == 0:  # no bootstrap asked for
            return np.full(len(self.items), np.nan), np.full(len(self.items), np.nan)
        tail = (1 - level) / 2 * 100
        return np.percentile(d, tail, axis=0), np.percentile(d, 100 - tail, axis=0)

    def table(self) -> pd.DataFrame:
        """Entrants best first: rating with its 95 % interval, and the head-to-head share
        against the baseline that the rating means."""
        low, high = self.intervals()
        t = pd.DataFrame({"strategy": self.items, "rating": self.rating, "rating_low": low,
                          "rating_high": high, "vs_baseline": elo_share(self.rating)})
        t = t.sort_values("rating", ascending=False).reset_index(drop=True)
        t.index = pd.RangeIndex(1, len(t) + 1, name="rank")
        return t

    def predict(self, lineup: Sequence[str]) -> list[float]:
        """Predicted win share of each seat of ``lineup`` (a list of entrants, one per seat)."""
        idx = [self._item(s) for s in lineup]
        g = np.exp(self.theta[idx] - self.theta[idx].max())
        return list(g / g.sum())

    def _item(self, name: str) -> int:
        if name not in self.items:
            raise ValueError(f"{name!r} is not rated (rated: {', '.join(self.items)})")
        return self.items.index(name)

    # --- observed against predicted -------------------------------------------------------

    def _boot_weights(self, draws: int) -> list[np.ndarray]:
        obs, tables = self.observations, self.observations.tables()
        rng = np.random.default_rng(self.seed)  # the fit's resamples: draw b pairs with draws[b]
        n = obs.n_deals
        return [tables.weights(rng.multinomial(n, np.full(n, 1.0 / n)).astype(np.float64))
                for _ in range(draws)]

    def ahead(self, draws: int = 100) -> pd.DataFrame:
        """Long table of every pair that met: the observed share of their meetings in which
        ``strategy`` finished ahead of ``opponent`` (ties 1/2) with a bootstrap 95 % interval
        over deals, and the share the ratings predict."""
        tables = self.observations.tables()
        w = tables.weights()
        meet = np.einsum("p,pij->ij", w, tables.meet)
        share = np.einsum("p,pij->ij", w, tables.ahead) / np.where(meet > 0, meet, np.nan)
        boots = []
        for bw in self._boot_weights(draws):
            m = np.einsum("p,pij->ij", bw, tables.meet)
            boots.append(np.einsum("p,pij->ij", bw, tables.ahead) / np.where(m > 0, m, np.nan))
        if boots:
            low, high = (_nanpercentile(np.array(boots), q) for q in (2.5, 97.5))
        else:
            low = high = np.full_like(share, np.nan)
        rows = []
        for i, a in enumerate(self.items):
            for j, b in enumerate(self.items):
                if i != j and meet[i, j] > 0:
                    predicted = float(elo_share(self.rating[i] - self.rating[j]))
                    rows.append({"strategy": a, "opponent": b, "observed": share[i, j], "low": low[i, j],
                                 "high": high[i, j], "predicted": predicted, "meetings": int(meet[i, j])})
        return pd.DataFrame(rows)

    def matrix(self, what: str = "observed") -> pd.DataFrame:
        """Strategy x opponent matrix of the ahead shares (``observed``, ``low``, ``high``) or
        of the ratings' ``predicted`` shares (for every pair, played or not)."""
        m = pd.DataFrame(np.nan, index=self.items, columns=self.items, dtype=float)
        m.index.name, m.columns.name = "strategy", "opponent"
        if what == "predicted":
            for i, a in enumerate(self.items):
                for j, b in enumerate(self.items):
                    if i != j:
                        m.loc[a, b] = float(elo_share(self.rating[i] - self.rating[j]))
            return m
        for row in self.ahead(draws=0 if what == "observed" else 100).itertuples():
            m.loc[row.strategy, row.opponent] = getattr(row, what)
        return m

    def lineups(self, draws: int = 100) -> pd.DataFrame:
        """Per lineup played and entrant in it: the observed win share per seat and the share
        the ratings predict, each with a 95 % bootstrap interval over deals, and their gap
        (observed - predicted) with its interval — paired: bootstrap draw ``b`` refits on the
        very deals it observes on, so a gap interval holding 0 says the ratings fit that lineup.
        ``held_out`` marks lineups left out of the fit (their gap tests a true prediction)."""
        tables = self.observations.tables()
        n_l = len(tables.lineups)
        onehot = np.zeros((len(self.observations.patterns), n_l))
        onehot[np.arange(onehot.shape[0]), tables.lineup] = 1.0

        def shares(w: np.ndarray) -> np.ndarray:
            won = (w[:, None] * onehot).T @ tables.win
            seats = (w[:, None] * onehot).T @ tables.seats
            return won / np.where(seats > 0, seats, np.nan)

        def predicted(theta: np.ndarray) -> np.ndarray:
            out = np.full((n_l, len(self.items)), np.nan)
            for li, lineup in enumerate(tables.lineups):
                g = np.exp(theta[list(lineup)] - theta.max())
                for i in set(lineup):
                    out[li, i] = np.exp(theta[i] - theta.max()) / g.sum()
            return out

        point, pred = shares(tables.weights()), predicted(self.theta)
        draws = min(draws, self.draws.shape[0])
        boots = np.array([shares(bw) for bw in self._boot_weights(draws)]) if draws else None
        boot_pred = np.array([predicted(t) for t in self.draws[:draws]]) if draws else None
        held = {tuple(sorted(x)) for x in self.excluded}
        rows = []

        def interval(values: np.ndarray | None) -> tuple[float, float]:
            if values is None:
                return np.nan, np.nan
            return float(_nanpercentile(values, 2.5)), float(_nanpercentile(values, 97.5))

        for li, lineup in enumerate(tables.lineups):
            names = [self.items[i] for i in lineup]
            for i in sorted(set(lineup)):
                obs_b = boots[:, li, i] if boots is not None else None
                pred_b = boot_pred[:, li, i] if boot_pred is not None else None
                low, high = interval(obs_b)
                pred_low, pred_high = interval(pred_b)
                gap_low, gap_high = interval(None if obs_b is None else obs_b - pred_b)
                rows.append({"lineup": " + ".join(names), "strategy": self.items[i], "seats": lineup.count(i),
                             "observed": point[li, i], "low": low, "high": high, "predicted": pred[li, i],
                             "predicted_low": pred_low, "predicted_high": pred_high,
                             "gap": point[li, i] - pred[li, i], "gap_low": gap_low, "gap_high": gap_high,
                             "held_out": tuple(sorted(names)) in held})
        return pd.DataFrame(rows)

    # --- cycles and Nash averaging ----------------------------------------------------------

    def beats(self, draws: int = 100) -> dict[str, set[str]]:
        """``beats()[A]``: entrants A finishes ahead of in significantly more than half of
        their meetings (bootstrap interval entirely above 1/2)."""
        out: dict[str, set[str]] = {s: set() for s in self.items}
        for row in self.ahead(draws).itertuples():
            if row.low > 0.5:
                out[row.strategy].add(row.opponent)
        return out

    def cycles(self, draws: int = 100) -> list[list[str]]:
        return find_cycles(self.items, self.beats(draws))

    def nash(self) -> pd.DataFrame:
        """Nash averaging (Balduzzi et al. 2018): the maximum-entropy equilibrium mixture of
        the symmetric zero-sum game with payoff ``ahead share - 1/2`` (observed; the ratings'
        prediction for pairs never met), and each entrant's payoff against it, best first."""
        a = self.matrix("observed").to_numpy() - 0.5
        predicted = self.matrix("predicted").to_numpy() - 0.5
        a = np.where(np.isnan(a), predicted, a)
        np.fill_diagonal(a, 0.0)
        a = (a - a.T) / 2.0  # antisymmetric (ties make the two halves differ slightly)
        p = maxent_nash(a)
        t = pd.DataFrame({"strategy": self.items, "nash_weight": p, "nash_payoff": a @ p})
        t = t.sort_values(["nash_payoff", "nash_weight"], ascending=False).reset_index(drop=True)
        t.index = pd.RangeIndex(1, len(t) + 1, name="rank")
        return t

    # --- depth ------------------------------------------------------------------------------

    def depth(self, top: str | None = None) -> dict[str, Any]:
        """Skill depth: rating points from the baseline to ``top`` (default: the best rated),
        with a 95 % bootstrap interval, and in class steps of ``CLASS_STEP`` points."""
        top = self.items[int(np.argmax(self.rating))] if top is None else top
        i, b = self._item(top), self._item(self.baseline)
        gaps = ELO * (self.draws[:, i] - self.draws[:, b])
        points = float(ELO * (self.theta[i] - self.theta[b]))
        low, high = (float(np.percentile(gaps, q)) for q in (2.5, 97.5)) if len(gaps) else (np.nan, np.nan)
        return {"from": self.baseline, "to": top, "points": points, "points_low": low, "points_high": high,
                "steps": points / CLASS_STEP, "steps_low": low / CLASS_STEP, "steps_high": high / CLASS_STEP,
                "class_step_points": CLASS_STEP}

    def to_dict(self) -> dict[str, Any]:
        t = self.table()
        return {
            "ratings": [{"strategy": r.strategy, "rating": float(r.rating), "rating_low": float(r.rating_low),
                         "rating_high": float(r.rating_high)} for r in t.itertuples()],
            "baseline": self.baseline,
            "model": self.observations.model,
            "depth": self.depth(),
            "cycles": self.cycles(),
            "nash": self.nash().reset_index().to_dict(orient="records"),
            "bootstrap": int(self.draws.shape[0]),
        }


def _nanpercentile(values: np.ndarray, q: float) -> np.ndarray:
    """``np.nanpercentile`` over the first axis, NaN (without a warning) where all are NaN."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanpercentile(values, q, axis=0)


def find_cycles(names: Sequence[str], beats: dict[str, set[str]], limit: int = 10) -> list[list[str]]:
    """Cycles of a "beats" relation (A beats B beats ... beats A), each listed once from its
    smallest name, shortest first; at most ``limit``."""
    found: list[list[str]] = []
    names = list(names)
    for size in range(2, len(names) + 1):
        for combo in itertools.permutations(names, size):
            if combo[0] != min(combo):
                continue
            if all(combo[(i + 1) % size] in beats.get(combo[i], ()) for i in range(size)):
                found.append(list(combo))
        if len(found) >= limit:
            break
    return found


def maxent_nash(payoff: np.ndarray) -> np.ndarray:
    """The maximum-entropy Nash equilibrium of the symmetric zero-sum game ``payoff``
    (antisymmetric): a mixture ``p`` with ``p @ payoff >= 0`` against every pure strategy."""
    from scipy.optimize import linprog, minimize

    k = payoff.shape[0]
    if k == 1:
        return np.ones(1)
    # one equilibrium (the game's value is 0): maximise v s.t. p @ payoff >= v
    res = linprog(np.r_[np.zeros(k), -1.0], A_ub=np.c_[-payoff.T, np.ones(k)], b_ub=np.zeros(k),
                  A_eq=np.r_[np.ones(k), 0.0][None, :], b_eq=[1.0], bounds=[(0, 1)] * k + [(None, None)])
    p0 = res.x[:k] if res.success else np.full(k, 1.0 / k)
    slack = 1e-9

    def neg_entropy(p: np.ndarray) -> float:
        q = np.clip(p, 1e-12, 1.0)
        return float(np.sum(q * np.log(q)))

    cons = [{"type": "eq", "fun": lambda p: p.sum() - 1.0},
            {"type": "ineq", "fun": lambda p: p @ payoff + slack}]
    best = minimize(neg_entropy, p0, method="SLSQP", bounds=[(0, 1)] * k, constraints=cons,
                    options={"maxiter": 500, "ftol": 1e-12})
    p = best.x if best.success and np.all(best.x @ payoff >= -1e-6) else p0
    p = np.clip(p, 0.0, None)
    p[p < 1e-6] = 0.0
    return p / p.sum()

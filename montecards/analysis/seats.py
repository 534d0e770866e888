"""Seat advantage per player count: every seat plays the same strategy, so any difference
between seats' win shares is the seat's own advantage."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from montecards import games
from montecards.analysis.intervals import half_width, mean_interval
from montecards.analysis.results import SimulationResult
from montecards.analysis.runs import (
    DEFAULT_MAX_GAMES,
    Adaptive,
    Setup,
    check_count,
    check_precision,
    run_adaptive,
    setup,
    timed,
    with_backend,
)
from montecards.engine.spec import WIN_UNIT, InputError
from montecards.engine.user_strategies import as_labels

DUPLICATE_BY_DEFAULT = frozenset({"wigout"})
"""The games whose seat advantage plays duplicate deals unless told otherwise: where they paid.
Variance ratio of the first seat's win share, plain / duplicate on the same number of games, at
the default player count, greedy (``python benchmarks/luck.py duplicate --n 24000``,
``benchmarks/history/luck/``): Wig Out! 1.22 [1.17, 1.27]; Joker Marbles 0.96, Parade 0.97,
Anomia 0.77 and Gift of Tulips 0.35 (there the later draws, the same deck's in every rotation,
decide more than the hands, and the rotations' results go together)."""


@dataclass
class SeatAdvantage:
    """One :class:`SimulationResult` per player count (``results[players]``)."""

    game: str
    title: str
    results: dict[int, SimulationResult]
    adaptive: dict[int, Adaptive] = field(default_factory=dict)

    @property
    def player_counts(self) -> list[int]:
        return sorted(self.results)

    def __repr__(self) -> str:
        seed = next(iter(self.results.values())).seed if self.results else None
        return f"SeatAdvantage({self.game}, players={self.player_counts}, seed={seed})"

    def table(self) -> pd.DataFrame:
        """One row per (players, seat): win share with its Wilson interval, the fair share
        1/players, the share relative to fair, and the mean score with its interval."""
        rows = []
        for p in self.player_counts:
            res = self.results[p]
            summary = res.summary()
            for seat, row in summary.iterrows():
                rows.append(
                    {
                        "players": p,
                        "seat": seat,
                        "strategy": row["strategy"],
                        "n_games": res.n_games,
                        "win_share": row["win_share"],
                        "win_low": row["win_low"],
                        "win_high": row["win_high"],
                        "fair_share": 1.0 / p,
                        "relative": row["win_share"] * p,
                        "mean_score": row["mean_score"],
                        "score_low": row["score_low"],
                        "score_high": row["score_high"],
                        **(luck_columns(res, seat) if res.takes_luck else {}),
                    }
                )
        return pd.DataFrame(rows).set_index(["players", "seat"])

    def game_table(self) -> pd.DataFrame:
        """One row per player count: games, game length, shared wins, unfinished and the
        game's own metrics, each with its interval."""
        rows = []
        for p in self.player_counts:
            res = self.results[p]
            row: dict[str, Any] = {"players": p, "n_games": res.n_games, "unfinished": res.unfinished}
            for name, m in res.metrics().items():
                row[name] = m["mean"]
                row[f"{name}_low"] = m["ci95"][0]
                row[f"{name}_high"] = m["ci95"][1]
            rows.append(row)
        return pd.DataFrame(rows).set_index("players")

    @property
    def takes_luck(self) -> bool:
        """Played with ``--luck``: every result has the luck-adjusted win shares."""
        return bool(self.results) and all(r.takes_luck for r in self.results.values())

    def first_seat(self, players: int) -> tuple[float, float, float]:
        """Seat 0's win share with its interval at ``players``."""
        res = self.results[players]
        low, high = res.win_share_ci95[0]
        return res.win_share[0], low, high

    def findings(self) -> list[str]:
        """Plain sentences: the first seat's share against the fair share per player count."""
        out = []
        for p in self.player_counts:
            share, low, high = self.first_seat(p)
            fair = 1.0 / p
            if low > fair:
                verdict = "an advantage"
            elif high < fair:
                verdict = "a disadvantage"
            else:
                verdict = "no detectable advantage"
            res = self.results[p]
            best = max(range(p), key=lambda k: res.win_share[k])
            hw = half_width((low, high))
            digits = 1 if hw >= 0.0005 else 2
            out.append(
                f"With {p} players the first seat wins {pct(share, digits)} ± {pct(hw, digits)} "
                f"(fair share {pct(fair)}: {verdict}); the best seat is seat {best + 1} with "
                f"{pct(res.win_share[best])} ({res.n_games:,} games)."
            )
            if res.takes_luck:
                out.append(luck_sentence(res, p))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "analysis": "seats",
            "players": {
                str(p): {
                    **self.results[p].to_dict(),
                    **({"adaptive": self.adaptive[p].to_dict()} if p in self.adaptive else {}),
                    **({"duplicate": self.results[p].extra["duplicate"]}
                       if "duplicate" in self.results[p].extra else {}),
                }
                for p in self.player_counts
            },
        }

    @property
    def plot(self):
        from montecards.plots import SeatPlots

        return SeatPlots(self)

    def _repr_html_(self) -> str:
        head = (
            f"<p><b>{self.title}</b>: seat advantage for "
            f"{', '.join(map(str, self.player_counts))} players</p>"
        )
        return head + self.table().to_html(float_format=lambda x: f"{x:.4f}")


def luck_columns(res: SimulationResult, seat: int) -> dict[str, float]:
    """A seat's ``--luck`` columns of :meth:`SeatAdvantage.table` (docs/luck.md)."""
    low, high = res.win_share_adjusted_ci95[seat]
    return {"win_share_adjusted": res.win_share_adjusted[seat], "adjusted_low": low, "adjusted_high": high,
            "variance_ratio": res.variance_ratio[seat]}


def luck_sentence(res: SimulationResult, players: int) -> str:
    """The first seat's luck-adjusted win share and variance ratio, in words."""
    low, high = res.win_share_adjusted_ci95[0]
    hw = half_width((low, high))
    digits = 1 if hw >= 0.0005 else 2
    return (f"Luck-adjusted ({res.extra.get('value', 'value')}), the first seat wins "
            f"{pct(res.win_share_adjusted[0], digits)} ± {pct(hw, digits)} with {players} players "
            f"(variance ratio {res.variance_ratio[0]:.2f}: the adjusted interval is the plain one's "
            f"width / {np.sqrt(res.variance_ratio[0]):.2f}).")


def pct(x: float, digits: int = 1) -> str:
    """A share as a percentage with ``digits`` decimals ("35.1 %")."""
    return f"{100 * x:.{digits}f} %"


@with_backend
def seat_advantage(
    game: str,
    players: Sequence[int] | int | None = None,
    n: int = 100_000,
    strategy: str | None = None,
    params: dict[str, Any] | None = None,
    seed: int | None = None,
    jobs: int | None = None,
    precision: float | None = None,
    max_games: int = DEFAULT_MAX_GAMES,
    keep_games: bool = False,
    strategy_params: Any = None,
    duplicate: bool | None = None,
    luck: bool = False,
) -> SeatAdvantage:
    """Win share of every seat for each player count, every seat playing ``strategy``.

    ``players``: one count, a list, or every count the game allows. ``precision``: play
    batches until every seat's 95 % half-width is at most this (``n`` is then ignored and the
    games it took are recorded in ``adaptive``). Player count ``p`` uses seed ``seed`` too.
    ``keep_games``: also keep each run's per-game rows as ``results[p].games`` (not with
    ``precision``). ``strategy_params``: the weights of a strategy that takes them, as in
    ``simulate`` (one list for every seat, or one per seat).

    ``duplicate``: duplicate deals (docs/luck.md): ``ceil(n / players)`` deals, each played with
    its hands in every rotation among the seats (the same deck), so every seat holds every
    hand once; the win shares' intervals are then normal over deals (a deal's rotations are
    one unit). Not with ``precision``. None (the default): duplicate deals for the games of
    :data:`DUPLICATE_BY_DEFAULT`, where they were measured to pay (not with ``precision``),
    plain games for the others.

    ``luck=True`` (``--luck``, docs/luck.md): the games are played with the luck ledger, as
    ``simulate(luck=True)``; every result gains the luck-adjusted win shares with their
    intervals and the variance ratio (``table()``'s ``win_share_adjusted``, ``adjusted_low``,
    ``adjusted_high`` and ``variance_ratio``). Refused in one line where the ledger cannot serve:
    a game or player count without a value, changed rules, user strategies, duplicate deals.
    With ``precision``, the batches stop on the plain win shares' intervals, as without luck.
    """
    spec = games.get(game)
    strategy = as_labels(strategy)  # user strategies are keyed by their labels
    if players is None:
        counts = list(range(spec.min_players, spec.max_players + 1))
    elif isinstance(players, int):
        counts = [players]
    else:
        counts = list(players)
    if not counts:
        raise InputError("give at least one player count")
    precision = check_precision(precision)
    n = check_count("n", n)
    if strategy is not None and not isinstance(strategy, str):
        raise InputError("seat advantage takes one strategy for every seat")
    if duplicate and precision is not None:
        raise InputError("duplicate deals take a number of games (-n), not a precision")
    if duplicate and luck:
        raise InputError("--luck with duplicate deals is not supported (the ledger plays ordinary "
                         "deals): drop --duplicate or --luck")
    if duplicate is None:
        duplicate = spec.name in DUPLICATE_BY_DEFAULT and precision is None and not luck
    results: dict[int, SimulationResult] = {}
    adaptive: dict[int, Adaptive] = {}
    runs = []
    for p in counts:  # every count validated (with --luck: has a value) before any game
        runs.append(setup(game, p, strategy, params, seed, jobs, strategy_params, luck))
        seed = runs[0].seed
    for p, run in zip(counts, runs, strict=True):
        rows = None
        if duplicate:
            spec.check_deal((-1, 0), p)
            (summary, rows, extra), elapsed = timed(lambda run=run: play_duplicate(run, n, keep_games))
            results[p] = run.result(summary, elapsed, rows, extra)
            continue
        if precision is None:
            (summary, rows), elapsed = timed(lambda run=run: run.play(0, n, keep=keep_games))
        else:
            state: dict[str, Any] = {"summary": None}

            def step(start: int, count: int, run=run, state=state) -> None:
                s, _ = run.play(start, count)
                state["summary"] = s if state["summary"] is None else state["summary"].merge(s)

            def widest(run=run, state=state) -> float:
                res = run.result(state["summary"], 0.0)
                return max(half_width(ci) for ci in res.win_share_ci95)

            adaptive[p], elapsed = timed(
                lambda step=step, widest=widest: run_adaptive(step, widest, precision, max_games=max_games)
            )
            summary = state["summary"]
        results[p] = run.result(summary, elapsed, rows)
    return SeatAdvantage(spec.name, spec.title, results, adaptive)


def play_duplicate(run: Setup, n: int, keep: bool = False) -> tuple[Any, np.ndarray | None, dict[str, Any]]:
    """Duplicate deals of ``run`` (:func:`seat_advantage`): ``ceil(n / players)`` deals, each in
    every rotation of its hands. Returns the merged summary, the rows if ``keep`` (rotation by
    rotation), and the result's ``extra``: the win shares' intervals over deals and what was
    played."""
    players = run.players
    deals = -(-n // players)
    win = run.layout.seat_slice("win")
    summary, kept, per_deal = None, [], np.zeros((deals, players))
    for r in range(players):
        rotated = replace(run, config=replace(run.config, deal=(-1, r)), _warm=False)
        s, rows = rotated.play(0, deals, keep=True)
        summary = s if summary is None else summary.merge(s)
        per_deal += rows[:, win] / WIN_UNIT / players
        if keep:
            kept.append(rows)
    intervals = [list(mean_interval(per_deal[:, k])[1:]) for k in range(players)]
    extra = {"win_share_ci95": intervals, "duplicate": {"deals": deals, "rotations": players}}
    return summary, np.concatenate(kept) if keep else None, extra


@with_backend
def simulate_adaptive(
    game: str,
    precision: float,
    players: int | None = None,
    strategies: Sequence[str] | str | None = None,
    params: dict[str, Any] | None = None,
    seed: int | None = None,
    jobs: int | None = None,
    max_games: int = DEFAULT_MAX_GAMES,
    first: int = 20_000,
) -> SimulationResult:
    """Like ``montecards.simulate`` but plays until every seat's win-share 95 % half-width is at
    most ``precision``. The result equals ``simulate(n=result.n_games, seed=result.seed)``;
    ``result.extra["adaptive"]`` says how it went."""
    precision = check_precision(precision)
    if precision is None:
        raise InputError("simulate_adaptive needs a precision")
    run = setup(game, players, strategies, params, seed, jobs)
    state: dict[str, Any] = {"summary": None}

    def step(start: int, count: int) -> None:
        s, _ = run.play(start, count)
        state["summary"] = s if state["summary"] is None else state["summary"].merge(s)

    def widest() -> float:
        res = run.result(state["summary"], 0.0)
        return max(half_width(ci) for ci in res.win_share_ci95)

    info, elapsed = timed(lambda: run_adaptive(step, widest, precision, first=first, max_games=max_games))
    res = run.result(state["summary"], elapsed)
    res.extra["adaptive"] = info.to_dict()
    return res

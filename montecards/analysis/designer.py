"""Designer metrics of a run (issue 33, docs/metrics.md): ``simulate(..., designer=True)``.

Ludii's and Isaksen et al.'s measures of a game as a design, from the run's own games:

* from every game's row, accumulated chunk by chunk (``DesignerMetrics``, an ``on_rows``
  callback: memory independent of ``n``): Balance (1 - the largest gap in win share between two
  seats, its interval the paired per-game difference of those two seats), the first seat's
  bias, the final score margin between the winner and the runner-up (mean, interval,
  quantiles, Isaksen's closeness 1/sqrt(E[margin^2])) and the length per player;
* from the decision logs of the run's first ``sample`` games (the very games the run
  played): decision density (the share of decisions with more than one distinct legal move)
  and choices per decision (distinct legal moves).

* from the luck ledger of the run's first ``sample`` games (the very games: the ledger draws
  from its own stream), where the game has a value for the lineup (docs/luck.md): lead changes
  and when the game was decided, the lead read from V after every chance event
  (``engine.value.lead``). Elsewhere no key, and ``lead_note`` says why.

Decision density and choices per decision are not measured for a game without decisions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from montecards.analysis.intervals import mean_interval, normal_mean, t_quantile
from montecards.engine.spec import WIN_UNIT, Layout
from montecards.errors import InputError

DEFAULT_SAMPLE = 200
"""Games whose decision logs give decision density and choices per decision."""


def _interval(total: float, squares: float, n: int) -> tuple[float, float, float]:
    if n == 0:
        return (float("nan"),) * 3
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1) if n > 1 else 0.0
    if n == 1:
        return (mean, float("-inf"), float("inf"))
    low, high = normal_mean(mean, var, n, t_quantile(n - 1) if n < 200 else 1.959963984540054)
    return (mean, low, high)


class DesignerMetrics:
    """Sums over the rows of a run, chunk by chunk (``on_rows(start, rows)``)."""

    def __init__(self, layout: Layout, lower_wins: bool):
        self.layout = layout
        self.lower_wins = lower_wins
        p = layout.players
        self.n = 0
        self.finished = 0
        self.win = np.zeros(p)
        self.cross = np.zeros((p, p))  # sum over games of win_a * win_b
        self.margin_sum = 0.0
        self.margin_sq = 0.0
        self.margin_hist = np.zeros(0, np.int64)
        self.turns_sum = 0.0
        self.turns_sq = 0.0

    def __call__(self, start: int, rows: np.ndarray) -> None:
        layout = self.layout
        win = rows[:, layout.seat_slice("win")].astype(np.float64) / WIN_UNIT
        finished = rows[:, 1] == 0
        self.n += rows.shape[0]
        self.win += win.sum(axis=0)
        self.cross += win.T @ win
        turns = rows[:, 0].astype(np.float64)
        self.turns_sum += float(turns.sum())
        self.turns_sq += float((turns * turns).sum())
        if layout.players > 1:
            scores = rows[:, layout.seat_slice("score")]
            scores = np.sort(scores if finished.all() else scores[finished], axis=1)
            margin = scores[:, 1] - scores[:, 0] if self.lower_wins else scores[:, -1] - scores[:, -2]
            self.finished += int(margin.shape[0])
            self.margin_sum += float(margin.sum())
            self.margin_sq += float((margin.astype(np.float64) ** 2).sum())
            if margin.shape[0] and margin.min() >= 0:
                h = np.bincount(margin)
                if h.shape[0] > self.margin_hist.shape[0]:
                    h[: self.margin_hist.shape[0]] += self.margin_hist
                    self.margin_hist = h
                else:
                    self.margin_hist[: h.shape[0]] += h

    def result(self) -> dict[str, Any]:
        p = self.layout.players
        n = self.n
        share = self.win / n if n else np.full(p, np.nan)
        hi, lo = int(np.argmax(share)), int(np.argmin(share))
        c = self.cross  # sum (win_hi - win_lo)^2 = sum win_hi^2 + sum win_lo^2 - 2 sum win_hi win_lo
        squares = c[hi, hi] + c[lo, lo] - 2 * c[hi, lo]
        gap = _interval(self.win[hi] - self.win[lo], squares, n) if hi != lo else (0.0, 0.0, 0.0)
        out: dict[str, Any] = {
            "balance": 1.0 - gap[0], "balance_low": 1.0 - gap[2], "balance_high": min(1.0, 1.0 - gap[1]),
            "balance_seats": [hi, lo],
        }
        first = _interval(self.win[0], c[0, 0], n)
        out.update({"first_seat_bias": first[0] - 1.0 / p, "first_seat_bias_low": first[1] - 1.0 / p,
                    "first_seat_bias_high": first[2] - 1.0 / p})
        margin = _interval(self.margin_sum, self.margin_sq, self.finished)
        out.update({"score_margin": margin[0], "score_margin_low": margin[1], "score_margin_high": margin[2]})
        if self.margin_hist.sum():
            cdf = np.cumsum(self.margin_hist) / self.margin_hist.sum()
            out["score_margin_quantiles"] = {
                str(q): int(np.searchsorted(cdf, q)) for q in (0.1, 0.25, 0.5, 0.75, 0.9)
            }
        # Isaksen et al.'s closeness; None when every game ended level (no finite value)
        out["closeness"] = (float(1.0 / np.sqrt(self.margin_sq / self.finished))
                            if self.margin_sq > 0 else None)
        rounds = _interval(self.turns_sum / p, self.turns_sq / (p * p), n)
        out.update({"length_per_player": rounds[0], "length_per_player_low": rounds[1],
                    "length_per_player_high": rounds[2]})
        return out


def decision_metrics(spec: Any, seed: int, players: int, params: dict[str, Any], strategies: list[Any],
                     sample: int) -> dict[str, Any]:
    """Decision density and choices per decision over the decision logs of games
    ``0 .. sample - 1`` of the run (empty for a game without decisions)."""
    if spec.decisions is None or sample <= 0:
        return {}
    several = []
    choices = []
    for index in range(sample):
        for d in spec.decisions(seed, index, players, params, strategies):
            k = len(np.unique(d.legal))
            several.append(1.0 if k > 1 else 0.0)
            choices.append(float(k))
    if not choices:
        return {}
    dens = mean_interval(np.array(several))
    cpd = mean_interval(np.array(choices))
    return {
        "decision_density": dens[0], "decision_density_low": dens[1], "decision_density_high": dens[2],
        "choices_per_decision": cpd[0], "choices_per_decision_low": cpd[1],
        "choices_per_decision_high": cpd[2], "decisions_sampled_games": sample,
    }


def lead_metrics(spec: Any, config: Any, labels: list[str], resolved: dict[str, Any], sample: int) -> dict[str, Any]:
    """Lead changes and decisiveness (Ludii's LeadChange and DecisivenessMoves, by V) over the
    luck ledgers of games ``0 .. sample - 1`` of the run (``config``'s seed: the very games).

    The leader after each chance event is the seat of the highest V (the game's value for this
    lineup, docs/luck.md); the result is the last step. ``lead_changes``: changes of leader per
    game; ``decided_at``: the share of the game's chance events after which its winner did not
    lead yet (0: it led from the first event on, 1: only the result gave it the lead). Finished
    games only. A game or lineup without a value, other rules than the official ones, or a user
    strategy: no key, and ``lead_note`` says why."""
    from montecards.analysis.runs import changed_rules, with_luck
    from montecards.engine.value import ACC_CHANGES, ACC_DECIDED

    if sample <= 0:
        return {}
    # any rule off the official ones, even where the ledger stays exact (``LEDGER_RULES``): the
    # leader by a V fitted under other rules is not a reading of this game's lead
    changed = changed_rules(spec, config.players, resolved)
    if changed:
        return {"lead_note": f"lead changes follow the value, fitted under the official rules only "
                             f"(this run sets {', '.join(changed)})"}
    try:
        lucky = with_luck(spec, config, labels)
    except InputError as err:
        return {"lead_note": f"no lead changes: {str(err).removeprefix('--luck: ')}"}
    layout = spec.layout(config.players, luck=True)
    rows = np.zeros((sample, layout.width), np.int64)
    ledgers = np.zeros((sample, spec.value.ledger_width), np.float64)
    spec.value.luck_block(np.uint64(config.seed), 0, config.players, lucky.params, lucky.strategies, rows,
                          spec.kernel_options(lucky.strategies), lucky.luck, 0, ledgers)
    finished = rows[:, 1] == 0
    if not finished.any():
        return {"lead_note": "no lead changes: none of the sampled games finished"}
    changes = mean_interval(ledgers[finished, ACC_CHANGES])
    decided = mean_interval(ledgers[finished, ACC_DECIDED])
    return {
        "lead_changes": changes[0], "lead_changes_low": changes[1], "lead_changes_high": changes[2],
        "decided_at": decided[0], "decided_at_low": decided[1], "decided_at_high": decided[2],
        "lead_sampled_games": int(finished.sum()), "lead_value": lucky.luck_source,
    }

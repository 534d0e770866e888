"""What each card is worth: restricted play against the unrestricted strategy, on common random
numbers (Jaffe et al., AIIDE 2012; docs/metrics.md, "Restricted play").

:func:`restricted_play` plays, for each pattern, ``restrict(STRATEGY, never=PATTERN)`` (or
``first=``) in the first seat against STRATEGY in the others, and STRATEGY in every seat as the
baseline, all on the same deals; per pattern it gives the first seat's win share and its change
from the baseline, each with a 95 % interval (the change's from the paired per-game differences).
That change is the causal answer: the same player, the same deals, only the card forbidden.

With ``sample`` games it also gives the correlation a reader of game logs would compute: over the
baseline's first ``sample`` games (every seat playing STRATEGY, their decision logs), the win
share of the seats that played a card of the pattern against that of the seats that did not.
It is not the card's worth (a seat that can afford to hold its tens may be winning already), and
the table puts the two side by side so that nobody reads one as the other.

:func:`card_worth` wraps the table with its run (``montecards restrict``, ``mc.card_worth``): text,
JSON and a figure.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from montecards import games
from montecards.analysis.intervals import mean_interval, share_interval
from montecards.analysis.runs import check_count, per_game, setup
from montecards.engine.spec import WIN_UNIT, InputError

CORRELATION_COLUMNS = ("played", "win_if_played", "win_if_not", "correlation", "correlation_low",
                       "correlation_high", "sampled_seats")


def restricted_play(game: str, patterns: Sequence[str], strategy: str = "greedy", players: int | None = None,
                    n: int = 20_000, seed: int | None = 1, key: str = "never",
                    jobs: int | None = None, sample: int = 0) -> pd.DataFrame:
    """One row per pattern (the baseline first, pattern ``-``): ``strategy``, ``win_share`` of
    the first seat with ``low``/``high``, and ``change`` (minus the baseline's, game by game on
    the same deals) with ``change_low``/``change_high``. ``key``: ``never`` or ``first``.

    ``sample`` > 0 adds the correlation columns (:data:`CORRELATION_COLUMNS`, None on the
    baseline's row): ``played``, the share of (game, seat) pairs of the baseline's first
    ``sample`` games in which the seat played a card of the pattern; ``win_if_played`` and
    ``win_if_not``, their win shares; ``correlation``, the first minus the second with its 95 %
    interval (unpaired); ``sampled_seats``."""
    if key not in ("never", "first"):
        raise InputError(f"key must be never or first, got {key!r}")
    patterns = [patterns] if isinstance(patterns, str) else list(patterns)
    if not patterns:
        raise InputError("restricted_play needs at least one pattern")
    n = check_count("n", n)
    sample = int(sample)
    if sample < 0:
        raise InputError(f"sample must be >= 0 games, got {sample}")
    base = setup(game, players, [strategy], None, seed)
    seats = base.players
    _, rows = base.play(0, n, keep=True)
    baseline = per_game(rows, base.layout)["win_0"]
    out = [_row("-", strategy, baseline, np.zeros_like(baseline))]
    for pattern in patterns:
        label = f"restrict({strategy}, {key}={pattern})"
        run = setup(game, seats, [label] + [strategy] * (seats - 1), None, base.seed, jobs)
        _, rows = run.play(0, n, keep=True)
        win = per_game(rows, run.layout)["win_0"]
        out.append(_row(pattern, label, win, win - baseline))
    frame = pd.DataFrame(out).set_index("pattern")
    if sample:
        found = played_correlation(game, patterns, strategy, seats, min(sample, n), base.seed)
        for name in CORRELATION_COLUMNS:
            frame[name] = [None] + [found[p][name] for p in patterns]
    frame.attrs.update(game=base.spec.name, players=seats, seed=base.seed)  # the run, for card_worth
    return frame


def _row(pattern: str, label: str, win: np.ndarray, change: np.ndarray) -> dict:
    share, low, high = share_interval(win)
    diff, diff_low, diff_high = mean_interval(change)
    return {"pattern": pattern, "strategy": label, "win_share": share, "low": low, "high": high,
            "change": diff, "change_low": diff_low, "change_high": diff_high, "games": len(win)}


def played_correlation(game: str, patterns: Sequence[str], strategy: str, players: int, sample: int,
                       seed: int) -> dict[str, dict[str, Any]]:
    """Per pattern, over games ``0 .. sample - 1`` of the run with ``seed`` (``strategy`` in every
    seat, the very games the run plays): which seats played a card of the pattern (the game's
    ``restrict.plays`` on every logged decision's chosen move), and the win shares of those that
    did and those that did not."""
    spec = games.get(game)
    module = importlib.import_module(f"montecards.games.{spec.name}.restrict")
    masks = [module.parse(p) for p in patterns]
    layout = spec.layout(players)
    played = np.zeros((len(patterns), sample, players), dtype=bool)
    wins = np.zeros((sample, players))
    for index in range(sample):
        log, row = spec.decision_log(seed, index, players, None, [strategy] * players)
        count, seat_of, obs, legal, _, choices = log
        wins[index] = row[layout.seat_slice("win")] / WIN_UNIT
        for i in range(int(count[0])):
            move = legal[i, choices[i]]
            for k, mask in enumerate(masks):
                if not played[k, index, seat_of[i]] and module.plays(obs[i], move, mask):
                    played[k, index, seat_of[i]] = True
    out = {}
    for k, pattern in enumerate(patterns):
        yes, no = wins[played[k]], wins[~played[k]]
        gap = low = high = None
        if len(yes) > 1 and len(no) > 1:
            gap = float(yes.mean() - no.mean())
            se = float(np.sqrt(yes.var(ddof=1) / len(yes) + no.var(ddof=1) / len(no)))
            low, high = gap - 1.959964 * se, gap + 1.959964 * se
        out[pattern] = {"played": float(played[k].mean()),
                        "win_if_played": float(yes.mean()) if len(yes) else None,
                        "win_if_not": float(no.mean()) if len(no) else None,
                        "correlation": gap, "correlation_low": low, "correlation_high": high,
                        "sampled_seats": int(played[k].size)}
    return out


@dataclass
class CardWorth:
    """:func:`card_worth`'s answer: the table (``frame``) and the run that made it."""

    game: str
    players: int
    strategy: str
    key: str
    n: int
    seed: int
    sample: int
    frame: pd.DataFrame

    def rows(self) -> list[dict[str, Any]]:
        """The patterns' rows (the baseline first, pattern ``-``), as plain dicts."""
        return [{"pattern": p, **{k: _plain(v) for k, v in row.items()}} for p, row in self.frame.iterrows()]

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "strategy": self.strategy, "key": self.key,
                "games": self.n, "seed": self.seed, "sample": self.sample, "patterns": self.rows()}

    def text(self) -> str:
        title = spec_title(self.game)
        lines = [f"{title}, {self.players} players: what a card is worth to {self.strategy} (restrict, "
                 f"{self.key}=PATTERN, in seat 1; {self.n:,} games on the same deals, seed {self.seed})", ""]
        header = f"{'pattern':<10} {'seat 1 wins':>22} {'change (causal)':>24}"
        if self.sample:
            header += f" {'played by':>10} {'played - not (correlation)':>30}"
        lines.append(header)
        for r in self.rows():
            share = f"{100 * r['win_share']:.2f} % [{100 * r['low']:.2f}, {100 * r['high']:.2f}]"
            change = ("" if r["pattern"] == "-" else
                      f"{100 * r['change']:+.2f} pp [{100 * r['change_low']:+.2f}, {100 * r['change_high']:+.2f}]")
            line = f"{r['pattern']:<10} {share:>22} {change:>24}"
            if self.sample and r["pattern"] != "-":
                corr = ("" if r["correlation"] is None else
                        f"{100 * r['correlation']:+.2f} pp [{100 * r['correlation_low']:+.2f}, "
                        f"{100 * r['correlation_high']:+.2f}]")
                line += f" {100 * r['played']:>8.1f} % {corr:>30}"
            lines.append(line)
        lines += ["", "change: the restricted seat 1's win share minus the unrestricted's, game by game on the "
                  "same deals (the card's worth to this player)."]
        if self.sample:
            lines.append(f"correlation: over the first {self.sample:,} unrestricted games, the win share of "
                         "the seats that played such a card minus that of the seats that did not. It is "
                         "correlation, not worth: read the change.")
        return "\n".join(lines)

    def plot(self, ax: Any = None):
        from montecards.plots.figures import card_worth_bars

        return card_worth_bars(self, ax=ax)

    def _repr_html_(self) -> str:
        return f"<p>{self.text().splitlines()[0]}</p>" + self.frame.to_html(float_format=lambda x: f"{x:.4f}")


def _plain(value: Any) -> Any:
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    if isinstance(value, float) and np.isnan(value):
        return None
    return value


def spec_title(game: str) -> str:
    return games.get(game).title


def card_worth(game: str, patterns: Sequence[str], strategy: str = "greedy", players: int | None = None,
               n: int = 20_000, seed: int | None = 1, key: str = "never", jobs: int | None = None,
               sample: int = 2_000) -> CardWorth:
    """:func:`restricted_play` with the correlation of its first ``sample`` games (0: none), as
    a :class:`CardWorth` (text, ``to_dict``, ``plot``; in Jupyter a table)."""
    frame = restricted_play(game, patterns, strategy, players, n, seed, key, jobs, sample)
    run, games = frame.attrs, int(frame["games"].iloc[0])
    return CardWorth(run["game"], run["players"], strategy, key, games, run["seed"], min(int(sample), games),
                     frame)

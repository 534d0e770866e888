"""The reports' "What a card is worth" section (issue #33, designer metrics per card;
docs/metrics.md, "Restricted play"): for a few patterns of the game (cards, classes of cards or
kinds of play), the game's simple player restricted from them in seat 1 against itself on the same
deals (the causal answer, Jaffe et al.), beside the correlation a reader of game logs would compute
(the seats that played such a card against those that did not)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from montecards.report.base import Report, timed


def _pp(value: float | None, low: float | None, high: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{100 * value:+.1f} pp [{100 * low:+.1f}, {100 * high:+.1f}]"


def card_section(rep: Report, players: int, patterns: Sequence[str], strategy: str = "greedy",
                 why: str = "") -> None:
    """Play ``montecards restrict GAME PATTERN... -p players -s strategy`` and write the section:
    a sentence on what was played, the table, the figure and one finding per pattern."""
    from montecards.analysis.restricted import card_worth

    n, sample = rep.n(20_000, 400), rep.n(2_000, 100)
    res = timed(rep, f"what a card is worth: {strategy} restricted in seat 1, {players} players",
                f"{n:,} deals × {len(patterns) + 1} lineups",
                lambda: card_worth(rep.game, list(patterns), strategy, players, n, rep.seed, "never",
                                   rep.jobs, sample))
    rep.section(
        "What a card is worth",
        f"Restricted play (Jaffe et al.; docs/metrics.md): seat 1 plays `restrict({strategy}, never=PATTERN)` "
        f"— `{strategy}` forbidden the cards or plays the pattern names, unless nothing else is legal — "
        f"against `{strategy}` in the other seats, on the same {n:,} deals as `{strategy}` in every seat; "
        "the change in seat 1's win share, game by game, is what the pattern is worth to this player. "
        f"Beside it, over the first {sample:,} unrestricted games, the win share of the seats that played "
        "such a card minus that of the seats that did not: correlation, which a log reader would compute, "
        "and which is not the card's worth. " + why,
    )
    rows = [r for r in res.rows() if r["pattern"] != "-"]
    base = res.rows()[0]
    table = pd.DataFrame([{
        "pattern": r["pattern"],
        "seat 1 wins": f"{100 * r['win_share']:.1f} % [{100 * r['low']:.1f}, {100 * r['high']:.1f}]",
        "change (worth)": _pp(r["change"], r["change_low"], r["change_high"]),
        "seats that played it": f"{100 * r['played']:.0f} %",
        "played − not played (correlation)": _pp(r["correlation"], r["correlation_low"], r["correlation_high"]),
    } for r in rows])
    rep.text(f"Unrestricted, seat 1 wins {100 * base['win_share']:.1f} % [{100 * base['low']:.1f}, "
             f"{100 * base['high']:.1f}] at {players} players.")
    rep.table(table, index=False)
    rep.figure(res.plot(), f"card_worth_{players}p",
               f"What each pattern is worth to `{strategy}` at {players} players (bars, same deals) and the "
               "correlation of playing it (hollow markers)")
    for r in rows:
        worth = _pp(r["change"], r["change_low"], r["change_high"])
        corr = _pp(r["correlation"], r["correlation_low"], r["correlation_high"])
        rep.finding(f"Forbidding `{r['pattern']}` to `{strategy}` in seat 1 at {players} players changes its win "
                    f"share by {worth} (same deals); the seats that played it won {corr} more than those that "
                    "did not (correlation).")
    rep.end_list()
    rep.facts["card_worth"] = {"players": players, "strategy": strategy, "games": n, "sample": sample,
                               "patterns": res.rows()}

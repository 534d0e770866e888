"""The reports' "How much the deal decides" section (issue 30, part 3; docs/luck.md): the deal's
share of the outcome variance from ``analysis.luck`` (each deal replayed with independent later
draws; no value needed, so every game has it), and where the game has a fitted value at that
player count (docs/luck.md lists the value files) the ledger's luck and drift shares. The figures go to the
page and to ``data.json``'s facts, from which ``reports/SUMMARY.md`` sets the games side by side.
"""

from __future__ import annotations

from typing import Any

from montecards.report.base import Report, pm, timed


def luck_section(rep: Report, players: int, strategy: str | None = None) -> Any:
    """Play the deal-share analysis at ``players`` (every seat ``strategy``: the game's simple
    player by default) and write its section; returns the ``LuckResult``."""
    from montecards.analysis.luck import DEFAULT_DEALS, DEFAULT_REPLAYS, luck

    deals, replays = rep.n(DEFAULT_DEALS, 200), rep.n(DEFAULT_REPLAYS, 2)
    res = timed(rep, f"luck: each deal replayed with independent later draws ({players} players)",
                f"{deals:,} deals × {replays} replays",
                lambda: luck(rep.game, players=players, strategies=strategy, deals=deals, replays=replays,
                             seed=rep.seed, jobs=rep.jobs, progress=False))
    who = ", ".join(f"`{s}`" for s in dict.fromkeys(res.strategies))
    rep.section(
        "How much the deal decides",
        f"Each of {deals:,} deals is played {replays} times at {players} players ({who} in every seat), "
        "the cards dealt before the first decision kept and every later draw independent. The variance "
        "of a seat's result splits into a part between deals (what the deal decides) and a part within "
        "them (later draws and the players' own random choices): the deal's share is the first part "
        "over the whole (docs/luck.md). It is a lower bound on what luck decides: the later draws are "
        "luck too.",
    )
    for sentence in res.findings():
        rep.finding(sentence)
    rep.end_list()
    share = (res.deal_share, res.deal_share_low, res.deal_share_high)
    rep.facts["deal_share"] = {"share": share[0], "low": share[1], "high": share[2], "players": players,
                               "deals": deals, "replays": replays}
    rep.headline(f"The deal decides {100 * share[0]:.1f} {pm(share[1], share[2], 1)} of the variance of a "
                 f"seat's result at {players} players ({who}).")
    if res.luck_share is not None:
        rep.facts["luck_share"] = {"share": res.luck_share[0], "low": res.luck_share[1],
                                   "high": res.luck_share[2], "players": players}
    lead_paragraph(rep, players, list(res.strategies))
    return res


def lead_paragraph(rep: Report, players: int, strategies: list[str]) -> dict[str, Any] | None:
    """Lead changes and when the game is decided, by the value (docs/metrics.md), on the luck
    ledgers of ``rep.n(2000, 100)`` games of this lineup; nothing where it has no value (said)."""
    from montecards.analysis.designer import lead_metrics
    from montecards.analysis.runs import prepare

    n = rep.n(2000, 100)
    spec, config, labels, resolved = prepare(rep.game, players, strategies, None, rep.seed)
    d = timed(rep, f"lead changes by the value ({players} players)", f"{n:,} games",
              lambda: lead_metrics(spec, config, labels, resolved, n))
    if "lead_changes" not in d:
        rep.text(f"Lead changes: not measured ({d.get('lead_note', 'no value')}).")
        return None
    rep.text(
        f"**How the lead moves** ({d['lead_sampled_games']:,} games, docs/metrics.md). Reading the leader "
        f"after every chance event as the seat of the highest value V, the lead changes "
        f"{d['lead_changes']:.1f} {pm(d['lead_changes_low'], d['lead_changes_high'], 1, 1, '')} times a "
        f"game, and the eventual winner takes the lead for good after "
        f"{100 * d['decided_at']:.0f} {pm(d['decided_at_low'], d['decided_at_high'], 0)} of the chance "
        f"events (0 %: it led from the deal on; 100 %: only the result gave it the lead). V's noise "
        "adds changes between seats whose chances are close, so compare these figures between lineups "
        "or rules of this game rather than across games.")
    fact = {k: d[k] for k in ("lead_changes", "lead_changes_low", "lead_changes_high", "decided_at",
                              "decided_at_low", "decided_at_high", "lead_sampled_games")}
    rep.facts["lead"] = {**fact, "players": players}
    return fact

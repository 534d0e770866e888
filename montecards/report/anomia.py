"""Anomia report: first-drawer advantage (3-6 players), what a skill edge is worth, face-offs
and cascades per player count, the 3-player symbol removal, the face-up-winnings variant
(docs/rules/anomia.md, Questions)."""

from __future__ import annotations

from montecards.analysis import compare_variants, sweep
from montecards.report.base import Report, pm, rate, seat_section, timed
from montecards.report.generic import metrics_section


def build(rep: Report) -> None:
    spec = rep.spec
    counts = range(max(3, spec.min_players), spec.max_players + 1)
    n_seats = rep.n(300_000, 2_000)
    sa = seat_section(rep, spec.default_strategy, counts, n_seats)
    metrics_section(rep, sa, ["face_offs", "cascades", "longest_cascade", "wild_face_offs"])

    # --- skill edge -------------------------------------------------------------------------------
    n_sweep = rep.n(200_000, 1_000)
    thetas = ["0,0,0,0", "0.25,0,0,0", "0.5,0,0,0", "1,0,0,0"]
    sw = timed(
        rep,
        "skill edge of seat 1 (4 players, common deals)",
        f"{n_sweep:,} deals × {len(thetas)} skills",
        lambda: sweep("anomia", "theta", thetas, n=n_sweep, players=4, seed=rep.seed, jobs=rep.jobs),
    )
    rep.section(
        "What a skill edge is worth",
        "Face-offs are decided by a Bradley–Terry model: seat i wins a face-off against seat j with "
        "probability e^θi / (e^θi + e^θj). Seat 1 gets skill θ against three players at 0, on the same "
        "deals.",
    )
    for row in sw.table("win_0").itertuples():
        if row.x == 0:
            rep.finding(
                f"4 players, equal skills: seat 1 wins {rate(row.win_0, row.low, row.high)} (fair 25 %)."
            )
        else:
            rep.finding(
                f"4 players, seat 1 with θ = {row.x:g} (wins a single face-off "
                f"{100 * _bt(row.x):.0f} % of the time): it wins the game "
                f"{rate(row.win_0, row.low, row.high)} "
                f"({100 * row.difference:+.1f} {pm(row.diff_low, row.diff_high, 1, unit=' pp')} vs "
                "equal skills)."
            )
    rep.end_list()
    half = sw.table("win_0")
    half = half[half["x"] == 0.5]
    if len(half):
        r = half.iloc[0]
        rep.headline(
            f"A skill edge of θ = 0.5 (a {100 * _bt(0.5):.0f} % chance to win each face-off) turns into "
            f"a {rate(r['win_0'], r['low'], r['high'])} chance to win a 4-player game (fair 25 %)."
        )
    rep.figure(sw.plot.curve(["win_0"]), "skill_edge", "Seat 1's win share against its skill θ (others 0).")

    # --- 3-player symbol removal ------------------------------------------------------------
    n_var = rep.n(300_000, 1_000)
    cmp3 = timed(
        rep,
        "3-player symbol removal (common deals)",
        f"{n_var:,} deals × 2",
        lambda: compare_variants(
            "anomia",
            {
                "remove_symbols=6,7 (rulebook)": {"remove_symbols": [6, 7]},
                "no removal": {"remove_symbols": []},
            },
            n=n_var,
            players=3,
            seed=rep.seed,
            jobs=rep.jobs,
        ),
    )
    rep.section(
        "The 3-player symbol removal",
        "The rulebook suggests removing two symbols with 3 players to keep face-offs frequent. "
        "Both decks are compared on the same seeds (the decks differ, so the pairing is by seed only).",
    )
    for label in cmp3.labels:
        f = cmp3.level(label, "face_offs")
        d = cmp3.level(label, "turns")
        rep.finding(
            f"3 players, {label}: {f[0] / 3:.2f} {pm(f[1] / 3, f[2] / 3, 2, 1)} face-offs per "
            "player per game "
            f"({d[0]:.1f} draws per game, {f[0] / d[0]:.3f} face-offs per draw)."
        )
    diff = cmp3.difference(cmp3.labels[1], "face_offs")
    verdict = "raises" if diff[2] < 0 else "lowers" if diff[1] > 0 else "does not detectably change"
    rep.headline(
        f"With 3 players the rulebook's symbol removal {verdict} face-offs per player "
        f"({-diff[0] / 3:+.2f} {pm(diff[1] / 3, diff[2] / 3, 2, 1)} per player per game)."
    )
    rep.finding(
        f"So the removal {verdict} face-offs per player: removing nothing changes them by "
        f"{diff[0] / 3:+.2f} {pm(diff[1] / 3, diff[2] / 3, 2, 1)} per player per game."
    )
    rep.end_list()

    # --- face-up winnings ---------------------------------------------------------------------
    cmpw = timed(
        rep,
        "face-up winnings variant (4 players, common deals)",
        f"{n_var:,} deals × 2",
        lambda: compare_variants(
            "anomia",
            {
                "winnings face down (rules)": {"winnings_face_up": False},
                "winnings face up": {"winnings_face_up": True},
            },
            n=n_var,
            players=4,
            seed=rep.seed,
            jobs=rep.jobs,
        ),
    )
    rep.section(
        "Face-up winnings (house rule)",
        "Won cards go face up on the winner's play pile and can start face-offs. Same deals, 4 players.",
    )
    label = cmpw.labels[1]
    fo = cmpw.difference(label, "face_offs")
    rep.headline(
        f"Face-up winnings (house rule) change face-offs per 4-player game by {fo[0]:+.1f} "
        f"{pm(fo[1], fo[2], 1, 1)}."
    )
    for q, what in (
        ("face_offs", "face-offs"),
        ("cascades", "cascades"),
        ("turns", "draws"),
        ("win_0", "seat 1 win share"),
    ):
        base = cmpw.level(cmpw.baseline, q)
        d = cmpw.difference(label, q)
        scale, unit = (100, " pp") if q.startswith("win") else (1, "")
        rep.finding(
            f"4 players, winnings face up: {what} {scale * base[0]:.2f} → {scale * (base[0] + d[0]):.2f} "
            f"({scale * d[0]:+.2f} {pm(d[1], d[2], 2, scale, unit)} per game, paired)."
        )
    rep.end_list()
    rep.figure(
        cmpw.plot.differences(["win_0", "face_offs", "cascades", "longest_cascade", "turns"]),
        "face_up_winnings",
        "Face-up winnings minus the rules, paired, 95 % intervals.",
    )


def _bt(theta: float) -> float:
    import math

    return math.exp(theta) / (math.exp(theta) + 1.0)

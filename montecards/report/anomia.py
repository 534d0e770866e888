"""Anomia report: first-drawer advantage (3-6 players), what a skill edge is worth, face-offs
and cascades per player count, the 3-player symbol removal, the face-up-winnings variant
(docs/rules/anomia.md, Questions)."""

from __future__ import annotations

from montecards.analysis import compare_variants, sweep
from montecards.report.base import Report, pm, rate, ratings_block, seat_section, timed
from montecards.report.designer import Imbalance, designer_section, seat_imbalance
from montecards.report.generic import metrics_section
from montecards.report.luck import luck_section


def build(rep: Report) -> None:
    spec = rep.spec
    counts = range(max(3, spec.min_players), spec.max_players + 1)
    n_seats = rep.n(300_000, 2_000)
    sa = seat_section(rep, spec.default_strategy, counts, n_seats)
    seat_pattern(rep)
    metrics_section(rep, sa, ["face_offs", "cascades", "longest_cascade", "wild_face_offs"],
                    length_figure=False)  # every card is drawn: the length is fixed by the deck

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
    # the skill levels on one Elo scale: the game's skill depth, comparable with the other games'
    ratings_block(rep, 4, ["theta=0", "theta=0.5", "theta=1"], rep.n(3_000, 100), shares=None)

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


    designer(rep, sa)

def _bt(theta: float) -> float:
    import math

    return math.exp(theta) / (math.exp(theta) + 1.0)


DECKS = {90: [11, 11, 11, 11, 11, 11, 12, 12], 91: [11, 11, 11, 11, 11, 12, 12, 12],
         92: [11, 11, 11, 11, 12, 12, 12, 12], 93: [11, 11, 11, 12, 12, 12, 12, 12]}
"""Decks of 90 to 93 category cards (the rules' is 92), for the check of the seat pattern."""


def seat_pattern(rep: Report) -> None:
    """Why the first seats win more, and a run that checks it: the turn passes only after a
    category card (after a wild the same player draws again), so with C category cards in play
    the first C mod P seats reveal one more category card than the rest. Played at 5 players
    with 90 to 93 category cards, the step must move with C mod 5."""
    import numpy as np

    from montecards.analysis import mean_interval
    from montecards.report.verdicts import Estimate, claim

    players = 5
    n = rep.n(100_000, 1_000)
    decks = {f"{c} category cards": {"cards_per_symbol": cps} for c, cps in DECKS.items()}
    cmp = timed(rep, "seat pattern: decks of 90-93 category cards (5 players, common seeds)",
                f"{n:,} deals × {len(decks)}",
                lambda: compare_variants("anomia", decks, n=n, players=players, seed=rep.seed, jobs=rep.jobs))
    rep.section(
        "Why the first seats win more",
        "Seats draw in turn, but after a wild card the same player draws again (docs/rules/anomia.md, "
        "Play 2), so the turn passes once per *category* card. With C category cards in play the first "
        "C mod P seats each reveal one more category card than the others: one more chance to match and "
        "win a face-off. The rules' deck has 92 (68 at 3 players, whose removal takes 24), so the first "
        "two seats draw once more at 3, 5 and 6 players (92 mod 5 = 92 mod 6 = 68 mod 3 = 2) and no seat "
        "at 4 (92 mod 4 = 0). The check: the same seeds at 5 players with decks of "
        "90 to 93 category cards; the step (the first C mod 5 seats' mean win share minus the others') "
        "must follow C mod 5.",
    )
    for c, label in zip(DECKS, cmp.labels, strict=True):
        extra = c % players
        shares = [cmp.values(label, f"win_{k}") for k in range(players)]
        split = extra if extra else 2  # with no extra draw, the split the rules' deck shows (2)
        step = np.mean(shares[:split], axis=0) - np.mean(shares[split:], axis=0)
        m, lo, hi = mean_interval(step)
        est = Estimate(m, lo, hi, n, null=0.0, margin=0.005)
        verdict = claim(est, up="a step", down="a step the other way", none="no step beyond ±0.5 pp")
        first = "seat 1" if extra == 1 else f"seats 1–{extra}"
        verb = "draws" if extra == 1 else "draw"
        who = f"{first} {verb} one more category card" if extra else "every seat draws as often"
        level = ", ".join(f"{100 * x.mean():.1f}" for x in shares)
        rep.finding(f"{c} category cards ({c} mod {players} = {extra}: {who}): seat win shares {level} %; "
                    f"{'seat 1' if split == 1 else f'seats 1–{split}'} "
                    f"minus the rest {100 * m:+.2f} {pm(lo, hi, 2, unit=' pp')}: {verdict}.")
    rep.end_list()


def designer(rep: Report, sa) -> None:
    """Rules a designer could change: the seat pattern at 5-6 players (the first seats ahead,
    the seat runs above), searched over the deck (90 category cards give every seat as many
    draws at 5 and at 6 players) and face-up winnings (greedy strength)."""
    counts = [p for p in (5, 6) if p in sa.player_counts]
    if not counts:
        return
    luck_section(rep, 4)
    designer_section(rep, [
        Imbalance(
            "the seat pattern at 5–6 players",
            "in the seat runs above " + "; ".join(seat_imbalance(sa, p, n_note=p == counts[-1]) for p in counts),
            counts, {"cards_per_symbol": list(DECKS.values()), "winnings_face_up": (False, True)}, ["fair"],
            n=10_000, budget=80_000, held_out=100_000,
            why="The first C mod P seats draw one more category card (*Why the first seats win more*); a deck "
                "of 90 makes C mod 5 = C mod 6 = 0.",
        ),
    ])

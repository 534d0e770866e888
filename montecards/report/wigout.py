"""Wig Out! report: deadlocks with 5-6 players and a search for their remedy, the speed edge up to 2×, 7- vs
5-card hands, cards left per loser, strategy matchups, and a one-line check that the seats are
symmetric (docs/rules/wigout.md, Questions). Its real questions lead; the seats are symmetric
by construction, so their section is one line in the answers at every strength."""

from __future__ import annotations

import numpy as np
import pandas as pd

from montecards.analysis import compare_variants, mean_interval, sweep
from montecards.api import trace
from montecards.report.base import Report, pm, rate, seat_runs, skill_section, timed, tuned_section
from montecards.report.cards import card_section
from montecards.report.designer import Imbalance, designer_section
from montecards.report.generic import matchup_section
from montecards.report.luck import luck_section
from montecards.report.strengths import variant_at_strengths


def build(rep: Report) -> None:
    n_seats = rep.n(250_000, 1_500)
    rep.symmetric_seats = ("with equal speeds every seat is symmetric by construction: the dealer only "
                           "matters through who is fastest")
    rep.answers_first = False  # deadlocks and the speed edge lead
    sa = seat_runs(rep, "greedy", range(2, 7), n_seats, keep_games=True)

    # --- cards left per loser and deadlocks -------------------------------------------------
    rep.section(
        "Deadlocks and cards left per loser",
        "Per round, the first player to empty their hand scores 0 and every other player 1 point "
        "per card left. A deadlock (5–6 players) is a tied round with no points. Same runs as above.",
    )
    rounds = sa.results[2].params["rounds"]
    for p in sa.player_counts:
        res = sa.results[p]
        g = res.games
        points = g[[f"score_{k}" for k in range(p)]].to_numpy().sum(axis=1)
        scored_rounds = rounds - g["deadlocks"].to_numpy()
        losers = np.where(scored_rounds > 0, scored_rounds * (p - 1), 0)
        per_loser = points[losers > 0] / losers[losers > 0]
        m, lo, hi = mean_interval(per_loser)
        dl = res.metrics()["deadlocks"]
        rounds_dl = (dl["mean"] / rounds, dl["ci95"][0] / rounds, dl["ci95"][1] / rounds)
        if dl["mean"] == 0:
            deadlock = f"no round deadlocked in {res.n_games:,} games"
        else:
            deadlock = f"{rate(*rounds_dl)} of rounds deadlock"
        rep.finding(
            f"With {p} players a losing seat is left with {m:.2f} {pm(lo, hi, 2, 1)} cards per round "
            f"(hand {res.params['hand_size']}); {deadlock}."
        )
        res.games = None
    rep.end_list()
    dl = {p: sa.results[p].metrics()["deadlocks"] for p in (5, 6) if p in sa.results}
    if dl:
        rep.headline(
            "Deadlocks never happen with 2–4 players and are common with 5–6: "
            + ", ".join(
                f"{rate(d['mean'] / rounds, d['ci95'][0] / rounds, d['ci95'][1] / rounds)} of "
                f"rounds with {p} players"
                for p, d in dl.items()
            )
            + "."
        )
    rep.figure(
        sa.plot.metrics(
            ["deadlocks"], ["deadlocked rounds per game"], f"deadlocked rounds per {rounds}-round game"
        ),
        "deadlocks",
        "Deadlocked rounds per game by player count (impossible below 5 players), 95 % intervals.",
    )
    rep.text("The rules that could remove the deadlocks (more copies of each character, another hand size) "
             "are searched in *Rules a designer could change* below.")

    # --- speed edge -----------------------------------------------------------------------------
    n_sweep = rep.n(200_000, 1_000)
    speeds = ["1,1,1,1", "1.1,1,1,1", "1.25,1,1,1", "1.5,1,1,1", "2,1,1,1"]
    sw = timed(
        rep,
        "speed edge of seat 1 (4 players, greedy, common deals)",
        f"{n_sweep:,} deals × {len(speeds)} speeds",
        lambda: sweep(
            "wigout", "speed", speeds, n=n_sweep, players=4, strategies="greedy", seed=rep.seed, jobs=rep.jobs
        ),
    )
    rep.section(
        "What a speed edge is worth (up to 2×)",
        "Seat 1 acts faster than the three others (speed 1.1 = 10 % faster); every speed is played on "
        "the same deals, and the differences are paired deal by deal.",
    )
    t = sw.table("win_0")
    for row in t.itertuples():
        edge = round(100 * (row.x - 1))
        if edge == 0:
            rep.finding(
                f"4 players, equal speeds: seat 1 wins {rate(row.win_0, row.low, row.high)} (fair 25 %)."
            )
        else:
            rep.finding(
                f"4 players, seat 1 {edge} % faster: it wins {rate(row.win_0, row.low, row.high)} "
                f"({100 * row.difference:+.1f} {pm(row.diff_low, row.diff_high, 1, unit=' pp')} vs "
                "equal speeds)."
            )
    rep.end_list()
    edges = [r for r in t.itertuples() if r.x != 1]
    rep.headline(
        "A speed edge is worth: "
        + ", ".join(
            f"{round(100 * (r.x - 1))} % faster → {100 * r.difference:+.1f} "
            f"{pm(r.diff_low, r.diff_high, 1, unit=' pp')}"
            for r in edges
        )
        + " of win share at 4 players (fair 25 %)."
    )
    rep.figure(sw.plot.curve(["win_0"]), "speed_edge", "Seat 1's win share against its speed (others 1.0).")

    # --- 7- vs 5-card hands -----------------------------------------------------------------------
    n_hand = rep.n(200_000, 1_000)
    rep.section(
        "7-card vs 5-card hands",
        "The rules deal 7 cards with 2–4 players and 5 with 5–6. Both hand sizes are played on the "
        "same deals at 4 and at 6 players.",
    )
    for p, base, other in ((4, 7, 5), (6, 5, 7)):
        cmp = timed(
            rep,
            f"hand size {base} vs {other} ({p} players, greedy)",
            f"{n_hand:,} deals × 2",
            lambda p=p, base=base, other=other: compare_variants(
                "wigout",
                {
                    f"hand_size={base} (rules)": {"hand_size": base},
                    f"hand_size={other}": {"hand_size": other},
                },
                n=n_hand,
                players=p,
                strategies="greedy",
                seed=rep.seed,
                jobs=rep.jobs,
            ),
        )
        label = cmp.labels[1]
        tl = cmp.difference(label, "turns")
        rep.headline(
            f"At {p} players a hand of {other} instead of {base} changes the game length by "
            f"{tl[0]:+.1f} {pm(tl[1], tl[2], 1, 1)} actions."
        )
        for q, what, unit, scale in (
            ("turns", "actions per game", "", 1),
            ("score_0", "seat-1 points", "", 1),
            ("deadlocks", "deadlocked rounds per game", "", 1),
            ("shared", "shared wins", " pp", 100),
        ):
            base_level = cmp.level(cmp.baseline, q)
            d = cmp.difference(label, q)
            rep.finding(
                f"{p} players, {label} instead of {base}: {what} {scale * base_level[0]:.2f} → "
                f"{scale * (base_level[0] + d[0]):.2f} ({scale * d[0]:+.2f} "
                f"{pm(d[1], d[2], 2, scale, unit)})."
            )
        rep.figure(
            cmp.plot.differences(["win_0", "shared", "turns", "deadlocks", "score_0"]),
            f"hand_size_{p}p",
            f"{p} players: hand of {other} minus hand of {base}, paired, 95 % intervals.",
        )
    rep.end_list()
    variant_at_strengths(rep, "7-card instead of 5-card hands at 6 players, at every strength",
                         {"hand_size=5 (rules)": {"hand_size": 5}, "hand_size=7": {"hand_size": 7}}, 6,
                         {"simple": ("greedy", n_hand), "tuned": ("tuned", rep.n(50_000, 300))},
                         {"win_0": "seat 1's win share", "shared": "ties (shared wins)"})

    minutes_section(rep)

    # --- matchups -------------------------------------------------------------------------------
    matchup_section(rep, ["greedy", "singles_first", "random"], 4, rep.n(50_000, 300))

    # --- tuned players and skill ------------------------------------------------------------
    tuned_section(rep, 4, ["greedy", "singles_first"], rep.n(50_000, 300))
    skill_section(rep, 4, ["random", "greedy", "tuned"], rep.n(50_000, 300), seat_players=range(2, 7),
                  n_seats=rep.n(50_000, 300))

    designer(rep, sa)


def designer(rep: Report, sa) -> None:
    """Rules a designer could change: the deadlocks at 5-6 players (the seat runs above),
    searched over the copies of each character and the hand size (greedy strength). A deadlock
    needs every copy of a stuck character one per hand, so more copies than players make it
    impossible; a smaller hand makes it rarer."""
    counts = [p for p in (5, 6) if p in sa.player_counts]
    parts = []
    for p in counts:
        d = sa.results[p].metrics()["deadlocks"]
        parts.append(f"{d['mean']:.3f} {pm(*d['ci95'], 3, 1)} deadlocked rounds per game at {p} players")
    luck_section(rep, 4)
    card_section(rep, 4, ["start", "add"], why="A pattern here is a kind of play: starting a new pile, or adding to one.")
    designer_section(rep, [
        Imbalance(
            "deadlocks at 5–6 players",
            f"in the seat runs above (`greedy` in every seat, {sa.results[counts[0]].n_games:,} games per player "
            f"count): " + ", ".join(parts) + f" (a game is {sa.results[counts[0]].params['rounds']} rounds; "
            "none below 5 players)",
            counts, {"hand_size": range(3, 8), "copies": range(5, 9)}, ["deadlocks<=0.01"],
            n=4_000, budget=64_000, held_out=100_000,
            why="A deadlock needs every copy of a stuck character one per hand, so with more copies than "
                "players it cannot happen; a smaller hand holds fewer characters to get stuck on. The seats "
                "are symmetric by construction, so fairness is not a target here (the table still shows it).",
        ),
    ])


SECONDS_PER_ACTION = 2.0
"""The assumption behind the minutes: a player at speed 1 who has a play makes it in 2 seconds
on average (see a match, reach, lay the card). The rules' timing model (docs/rules/wigout.md,
Timing model) measures time in that unit: each seat with a play acts at rate ``speed`` per unit.
The estimate scales linearly with this number: time one round at your table to calibrate it."""


def race_minutes(players: int, strategy: str, n: int, seed: int) -> tuple[np.ndarray, int]:
    """Each of games ``0 .. n-1``'s race time in the timing model's unit (the time of its last
    event: the sum of its exponential waits, which only a trace draws), and the rounds."""
    times = np.empty(n)
    for i in range(n):
        events = trace("wigout", seed=seed, index=i, players=players, strategies=strategy)
        times[i] = events["time"].iloc[-1]
    return times, int(events["round"].max()) + 1


def minutes_section(rep: Report) -> None:
    """Wig Out! is the one game whose model has time (a race): its length in minutes, from the
    traced games' race times under ``SECONDS_PER_ACTION``, at each player count and strength."""
    n = rep.n(400, 10)
    rows = []
    for strategy in ("greedy", "tuned"):
        for p in range(2, 7):
            times, rounds = timed(rep, f"race time ({p} players, {strategy}, traced games)", f"{n:,} games",
                                  lambda p=p, strategy=strategy: race_minutes(p, strategy, n, rep.seed))
            m, lo, hi = mean_interval(times * SECONDS_PER_ACTION / 60)
            rows.append({"strategy": strategy, "players": p, "model time per game": times.mean(),
                         "minutes per game": m, "low": lo, "high": hi,
                         "seconds per round": 60 * m / rounds})
    table = pd.DataFrame(rows)
    rep.section(
        "How long a game takes, in minutes",
        "Wig Out! is a race, and its model keeps time: a seat with a play acts at rate `speed` per "
        f"unit of time. **Assumption:** one unit is {SECONDS_PER_ACTION:g} s, the mean time a player at "
        "speed 1 takes for an action; shuffling and dealing between rounds are not counted. The minutes "
        "scale linearly with that assumption: time one round at your table to calibrate it. "
        f"{n:,} traced games per row (the race time is drawn in traces only).",
    )
    rep.table(table.set_index(["strategy", "players"]), digits=2)
    for p in (2, 4, 6):
        g = table[(table.strategy == "greedy") & (table.players == p)].iloc[0]
        rep.finding(f"{p} players (greedy): a game lasts {g['minutes per game']:.1f} "
                    f"{pm(g['low'], g['high'], 1, 1)} minutes of play at {SECONDS_PER_ACTION:g} s per action.")
    rep.end_list()
    g4 = table[(table.strategy == "greedy") & (table.players == 4)].iloc[0]
    rep.headline(f"A 4-player game lasts about {g4['minutes per game']:.1f} {pm(g4['low'], g4['high'], 1, 1)} "
                 f"minutes of play, assuming {SECONDS_PER_ACTION:g} s per action (shuffling not counted).")

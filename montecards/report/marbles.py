"""Joker Marbles report: seat advantage, team vs individual play, which strategy wins, game
length, the variants (nine split, joker from track, decks) (docs/rules/marbles.md, Questions)."""

from __future__ import annotations

from montecards.analysis import compare_variants, share_interval
from montecards.report.base import Report, pm, rate, seat_section, skill_section, timed, tuned_section
from montecards.report.cards import card_section
from montecards.report.designer import Imbalance, designer_section, seat_imbalance
from montecards.report.generic import matchup_section, metrics_section
from montecards.report.luck import luck_section
from montecards.report.strengths import variant_at_strengths


def build(rep: Report) -> None:
    spec = rep.spec
    n_seats = rep.n(20_000, 300)
    sa = seat_section(rep, spec.default_strategy, range(spec.min_players, spec.max_players + 1), n_seats)
    odd = [p for p in sa.player_counts if p in (3, 5)]
    if odd:
        rep.text(
            "Note: seat k sits on side floor(k · sides / players) of a board with 4 sides (2–4 players) or 6 "
            "(5–6), so with 3 or 5 players the seats are not evenly spaced: with 3 players, seats 1–3 sit on "
            "sides 0, 1, 2 and the side behind seat 1 is empty. The seat differences at those counts most "
            "likely reflect that geometry (nobody close behind to bump seat 1) rather than the order of play."
        )
    metrics_section(rep, sa)

    # --- teams ------------------------------------------------------------------------------------
    n_var = rep.n(20_000, 300)
    teams = timed(
        rep,
        "team vs individual play (4 players, common deals)",
        f"{n_var:,} deals × 2",
        lambda: compare_variants(
            "marbles",
            {"individual (rules)": {"teams": "none"}, "teams of partners": {"teams": "pairs"}},
            n=n_var,
            players=4,
            seed=rep.seed,
            jobs=rep.jobs,
        ),
    )
    rep.section(
        "Team vs individual play",
        "4 players, partners opposite ({seat 1, seat 3} vs {seat 2, seat 4}); a team's win is shared "
        "by its two seats. Played on the same deals as individual play.",
    )
    for label in teams.labels:
        w = teams.level(label, "win_0")
        t = teams.level(label, "turns")
        rep.finding(
            f"4 players, {label}: seat 1 wins {rate(*w)}; a game lasts {t[0]:.0f} "
            f"{pm(t[1], t[2], 1, 1)} turns."
        )
    first_team = teams.values(teams.labels[1], "win_0") + teams.values(teams.labels[1], "win_2")
    team = share_interval(first_team)
    rep.finding(f"With teams, the first team (seats 1 and 3) wins {rate(*team)} of the games (fair 50 %).")
    rep.headline(f"In teams of partners (4 players) the first team wins {rate(*team)} of the games.")
    tt = teams.difference(teams.labels[1], "turns")
    rep.headline(
        f"Playing in teams of partners changes the game length by {tt[0]:+.0f} "
        f"{pm(tt[1], tt[2], 0, 1)} turns."
    )
    rep.end_list()

    # --- strategies -----------------------------------------------------------------------------
    matchup_section(rep, ["random", "greedy", "aggressive"], 4, rep.n(2_000, 100))

    # --- tuned players and skill ------------------------------------------------------------
    tuned_section(rep, 4, ["greedy", "aggressive"], rep.n(5_000, 60))
    # ismcts (search.py) with its defaults' play-outs (tuned, cut off after 40 turns and scored by
    # progress); the searching rungs are sized to ~13 min of one loaded core together (one
    # ismcts[300] seat plays ~2.4 games per CPU-second against tuned, four ~0.3:
    # benchmarks/search.py --game marbles)
    ismcts = [f"ismcts[{k},0.7,2,40]" for k in (300, 1000)]
    skill_section(
        rep, 4, ["random", "greedy", "tuned", *ismcts], rep.n(3_000, 60),
        n_for={"ismcts[300,0.7,2,40]": rep.n(15, 1), "ismcts[1000,0.7,2,40]": rep.n(4, 1),
               "omniscient": rep.n(6, 1)},
        hidden=("omniscient[300,0.7,2,40]", "ismcts[300,0.7,2,40]"),
        seat_strategy="ismcts[300,0.7,2,40]", seat_players=[4], n_seats=rep.n(48, 4),
        note="`ismcts[k,0.7,2,40]`: information-set MCTS with k iterations per decision, `tuned` "
             "play-outs cut off after 40 turns and scored by the teams' remaining distance "
             "(docs/strategies/marbles.md). A rung's pair is played both ways (one seat of each "
             "against the other in the rest), so the searching rungs are small runs.",
    )

    # --- variants -------------------------------------------------------------------------------
    variants = {
        "rules": {},
        "nine_split": {"nine_split": True},
        "joker_from_track": {"joker_from_track": True},
        "decks=2": {"decks": 2},
    }
    cmp = timed(
        rep,
        "variants (4 players, common seeds)",
        f"{n_var:,} deals × {len(variants)}",
        lambda: compare_variants("marbles", variants, n=n_var, players=4, seed=rep.seed, jobs=rep.jobs),
    )
    rep.section("Variants", "Each variant against the rules, 4 players, same seeds, paired by game.")
    for label in cmp.labels[1:]:
        d = cmp.difference(label, "turns")
        w = cmp.difference(label, "win_0")
        b = cmp.difference(label, "bumps")
        rep.finding(
            f"{label}: game length {d[0]:+.1f} {pm(d[1], d[2], 1, 1)} turns, bumps {b[0]:+.2f} "
            f"{pm(b[1], b[2], 2, 1)} per game, seat 1 win share {100 * w[0]:+.1f} "
            f"{pm(w[1], w[2], 1, unit=' pp')}."
        )
    rep.end_list()
    parts = []
    for label in cmp.labels[1:]:
        d = cmp.difference(label, "turns")
        parts.append(f"{label} {d[0]:+.0f} {pm(d[1], d[2], 0, 1)}")
    moved = [
        label
        for label in cmp.labels[1:]
        if not (cmp.difference(label, "win_0")[1] < 0 < cmp.difference(label, "win_0")[2])
    ]
    rep.headline(
        "Variants change the length of a 4-player game (turns: "
        + ", ".join(parts)
        + "); "
        + (
            "none moves seat 1's win share detectably."
            if not moved
            else "seat 1's win share moves detectably with " + ", ".join(moved) + "."
        )
    )
    rep.figure(
        cmp.plot.differences(["win_0", "turns", "bumps", "discards"]),
        "variants",
        "Variants minus the rules, paired, 95 % intervals.",
    )
    variant_at_strengths(rep, "Variants at every strength", variants, 4,
                         {"simple": (spec.default_strategy, n_var), "tuned": ("tuned", rep.n(5_000, 60))},
                         {"win_0": "seat 1's win share", "shared": "ties (shared wins)"})

    designer(rep, sa)


def designer(rep: Report, sa) -> None:
    """Rules a designer could change: the first seat ahead at 3 and 5 players (the seat runs
    above), searched over the board's sides (with as many sides as players the seats are evenly
    spaced; greedy strength)."""
    found = [Imbalance(
        f"the first seat at {p} players",
        "in the seat runs above " + seat_imbalance(sa, p),
        [p], {"sides": sides}, ["fair"], n=2_000, budget=8_000, held_out=40_000,
        why="Seat k sits on side floor(k · sides / players): with as many sides as players, every seat has "
            "a neighbour behind it.",
    ) for p, sides in ((3, (3, 4, 5, 6)), (5, (5, 6, 7))) if p in sa.player_counts]
    luck_section(rep, 4)
    card_section(rep, 4, ["joker", "7", "4", "A"], why="A pattern is a rank (every suit) or the jokers; only the plays are restricted, not a discard when nothing is playable.")
    if found:
        designer_section(rep, found)

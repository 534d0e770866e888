"""Parade report: seat advantage 2-6 players, the 2-player majority margin (2 official vs 1
and 0), end triggers, game length, strategy matchups (docs/rules/parade.md, Questions)."""

from __future__ import annotations

from montecards.analysis import compare_variants, seat_advantage
from montecards.analysis.matchups import matchups
from montecards.report.base import (
    SEAT_MARGIN,
    Report,
    pm,
    rate,
    seat_section,
    skill_section,
    timed,
    tuned_section,
)
from montecards.report.cards import card_section
from montecards.report.designer import Imbalance, designer_section, seat_imbalance, worst_seat
from montecards.report.generic import matchup_ratings
from montecards.report.luck import luck_section
from montecards.report.strengths import variant_at_strengths
from montecards.report.verdicts import Estimate, claim


def build(rep: Report) -> None:
    n_seats = rep.n(300_000, 3_000)
    sa = seat_section(rep, "greedy", range(2, 7), n_seats)

    # --- end triggers and game length ---------------------------------------------------
    rep.section(
        "End triggers and game length",
        "A game ends either when a player has collected all six colours or when the draw pile "
        "runs out (then every seat plays one more turn). Same runs as above.",
    )
    for p in sa.player_counts:
        m = sa.results[p].metrics()
        six = m["six_colours"]
        turns = m["turns"]
        rep.finding(
            f"With {p} players the six-colour trigger ends {rate(six['mean'], *six['ci95'])} of "
            f"the games (deck empty: the rest); a game lasts {turns['mean']:.2f} "
            f"{pm(*turns['ci95'], 2, 1)} turns (all seats together)."
        )
    rep.end_list()
    six = {p: sa.results[p].metrics()["six_colours"] for p in sa.player_counts}
    lo_p, hi_p = min(six), max(six)
    rep.headline(
        f"The six-colour trigger ends {rate(six[lo_p]['mean'], *six[lo_p]['ci95'])} of {lo_p}-player games "
        f"but {rate(six[hi_p]['mean'], *six[hi_p]['ci95'])} of {hi_p}-player games; otherwise the "
        "deck runs out."
    )
    rep.figure(
        sa.plot.metrics(["six_colours"], ["six-colour trigger"], "games ended by six colours (%)"),
        "end_triggers",
        "Share of games ended by the six-colour trigger (the rest: deck empty), 95 % intervals.",
    )
    rep.figure(
        sa.plot.length(),
        "game_length",
        "Game length in turns; the spike is the deck-empty length 60 − 4P (docs/rules/parade.md).",
    )
    rep.figure(sa.plot.scores(), "scores", "Final score by seat (lower wins).")
    rep.table(
        sa.game_table()[
            [
                "turns",
                "turns_low",
                "turns_high",
                "six_colours",
                "six_colours_low",
                "six_colours_high",
                "shared_wins",
                "shared_wins_low",
                "shared_wins_high",
            ]
        ]
    )

    # --- 2-player majority margin -------------------------------------------------------
    n_var = rep.n(200_000, 2_000)
    variants = {
        "margin=2 (official)": {"two_player_margin": 2},
        "margin=1": {"two_player_margin": 1},
        "margin=0": {"two_player_margin": 0},
    }
    cmp = timed(
        rep,
        "2-player majority margin (greedy, 3 variants, common deals)",
        f"{n_var:,} deals × 3 variants",
        lambda: compare_variants(
            "parade", variants, n=n_var, players=2, strategies="greedy", seed=rep.seed, jobs=rep.jobs
        ),
    )
    rep.section(
        "Two-player majority margin",
        "With two players a colour's majority needs `count − opponent ≥ margin` (2 is the official "
        "rule, 1 means strictly more, 0 is the 3–6-player rule). All three variants are played on "
        f"the same {n_var:,} deals (common random numbers) and compared deal by deal.",
    )
    for label in cmp.labels:
        w0 = cmp.level(label, "win_0")
        sc = cmp.level(label, "score_0")
        sh = cmp.level(label, "shared")
        rep.finding(
            f"2 players, {label}: the first seat wins {rate(*w0)}, mean score "
            f"(seat 1) {sc[0]:.2f} {pm(sc[1], sc[2], 2, 1)}, shared wins (ties) {rate(*sh, 2)}."
        )
    for label in cmp.labels[1:]:
        d_sc = cmp.difference(label, "score_0")
        d_w = cmp.difference(label, "win_0")
        d_sh = cmp.difference(label, "shared")
        rep.finding(
            f"{label} vs official: seat-1 score {d_sc[0]:+.2f} {pm(d_sc[1], d_sc[2], 2, 1)} points, "
            f"first-seat win share {100 * d_w[0]:+.2f} {pm(d_w[1], d_w[2], 2, unit=' pp')}, ties "
            f"{100 * d_sh[0]:+.2f} {pm(d_sh[1], d_sh[2], 2, unit=' pp')} (paired differences)."
        )
    rep.end_list()
    d1 = cmp.difference("margin=1", "score_0")
    w1 = cmp.difference("margin=1", "win_0")
    t1 = cmp.difference("margin=1", "shared")
    quiet = w1[1] < 0 < w1[2] and t1[1] < 0 < t1[2]
    rep.headline(
        f"With 2 players, margin 1 instead of the official 2 lowers scores by {-d1[0]:.2f} "
        f"{pm(d1[1], d1[2], 2, 1)} points per seat; its effect on the first seat's win share "
        f"({100 * w1[0]:+.2f} {pm(w1[1], w1[2], 2, unit=' pp')}) and on ties "
        f"({100 * t1[0]:+.2f} {pm(t1[1], t1[2], 2, unit=' pp')}) is "
        + ("within the noise." if quiet else "small but detectable.")
    )
    rep.figure(
        cmp.plot.differences(),
        "margin_variants",
        "Paired differences from the official margin 2, 95 % intervals.",
    )
    lv = cmp.levels().reset_index()
    lv = lv[lv["quantity"].isin(["win_0", "win_1", "score_0", "score_1", "shared", "six_colours", "turns"])]
    rep.table(lv.set_index(["variant", "quantity"]))
    variant_at_strengths(rep, "Two-player majority margin at every strength", variants, 2,
                         {"simple": ("greedy", n_var), "tuned": ("tuned", rep.n(100_000, 1_000)),
                          "strong": ("ismcts[100,0.7,0]", rep.n(2_000, 20))},
                         {"win_0": "first seat's win share", "shared": "ties (shared wins)"})

    # --- strategy matchups --------------------------------------------------------------
    n_fast = rep.n(50_000, 1_000)
    n_slow = rep.n(600, 10)
    mu = timed(
        rep,
        "strategy matchups, 2 players, all seat rotations",
        f"{n_fast:,} deals per pair ({n_slow:,} for pairs with rollout) × 2 rotations",
        lambda: matchups(
            "parade",
            ["random", "greedy", "rollout"],
            players=2,
            n=n_fast,
            n_for={"rollout": n_slow},
            seed=rep.seed,
            jobs=rep.jobs,
        ),
    )
    rep.section(
        "Strategy matchups",
        "Two-player head-to-head games; each deal is played in both seatings so the seats' "
        "effect cancels. `rollout` (determinized Monte Carlo look-ahead) is about 1,000× "
        "slower than `greedy`, so its pairs use fewer deals.",
    )
    for sentence in mu.findings()[:-1]:  # the shares (the Copeland order gives way to the ratings)
        rep.finding(sentence)
    rep.end_list()
    parts = []
    for a, b in (("rollout", "greedy"), ("greedy", "random")):
        share, low, high, games_played = mu._entries()[(a, b)]
        est = Estimate(share, low, high, games_played // 2, null=0.5, margin=SEAT_MARGIN)
        parts.append(f"`{a}` against `{b}` wins {rate(share, low, high)} of {games_played:,} games: "
                     + claim(est, up=f"`{a}` beats `{b}`", down=f"`{b}` beats `{a}`",
                             none=f"no effect beyond ±{100 * SEAT_MARGIN:g} pp"))
    rep.headline("Head to head, " + "; ".join(parts) + ".")
    rep.figure(mu.plot.heatmap(), "matchups", "Win share of the row strategy against the column strategy.")
    matchup_ratings(rep, mu)

    # --- tuned players and skill ------------------------------------------------------------
    tuned_section(rep, 2, ["greedy", "rollout"], rep.n(100_000, 1_000), n_for={"rollout": rep.n(600, 10)})
    ismcts = [f"ismcts[{k},0.7,0]" for k in (100, 1000, 10000)]
    skill_section(
        rep, 2, ["random", "greedy", "tuned", *ismcts], rep.n(50_000, 500),
        n_for={"ismcts[100,0.7,0]": rep.n(2_000, 20), "ismcts[1000,0.7,0]": rep.n(500, 6),
               "ismcts[10000,0.7,0]": rep.n(400, 2), "omniscient": rep.n(500, 6)},
        hidden=("omniscient[1000,0.7,0]", "ismcts[1000,0.7,0]"),
        seat_strategy="ismcts[1000,0.7,0]", seat_players=range(2, 7), n_seats=rep.n(3_000, 6),
        note="`ismcts[k,0.7,0]`: information-set MCTS with k iterations per decision, random play-outs.",
    )

    # --- adaptive run ---------------------------------------------------------------------------
    precision = 0.02 if rep.quick else 0.002
    ad = timed(
        rep,
        f"adaptive run to ±{100 * precision:g} pp (3 players, greedy)",
        "until precision reached",
        lambda: seat_advantage(
            "parade", players=[3], strategy="greedy", seed=rep.seed + 1, jobs=rep.jobs, precision=precision
        ),
    )
    info = ad.adaptive[3]
    rep.sizes[-1] = (rep.sizes[-1][0], f"{info.n_games:,} (stopped by precision)", rep.sizes[-1][2])
    res = ad.results[3]
    rep.section(
        "Adaptive precision",
        f"`montecards seats parade -p 3 --precision {precision:g} --seed {rep.seed + 1}` plays batches "
        f"until every seat's 95 % interval is at most ±{100 * precision:g} pp (a separate seed from the "
        "runs above).",
    )
    rep.finding(
        f"Reaching ±{100 * precision:g} pp on every seat's win share at 3 players took "
        f"{info.n_games:,} games in {info.batches} batch{'es' if info.batches != 1 else ''}; "
        "the first seat then wins "
        f"{rate(res.win_share[0], *res.win_share_ci95[0])}."
    )
    rep.end_list()

    designer(rep, sa)


def designer(rep: Report, sa) -> None:
    """Rules a designer could change: the first seat below its share at 3-6 players and the
    lowest seat at 6 (the seat runs above), each player count searched on its own (a rule may
    depend on the player count, as the 2-player margin does) over the opening parade and the
    colours that end the game, the game's length kept within 10 % of the rules'; greedy
    strength, as the seat runs."""
    space = {"opening_parade": range(0, 13), "end_colours": (4, 5, 6)}
    why = ("The first seat plays first onto the opening parade: its size and how soon the last round "
           "starts are the rules that decide what the first seats can take.")
    found = []
    for p in (3, 4, 5, 6):
        if p not in sa.player_counts:
            continue
        text = "in the seat runs above (`greedy` in every seat) " + seat_imbalance(sa, p)
        low = worst_seat(sa, p)
        if low != 0:
            text += "; the lowest seat, " + seat_imbalance(sa, p, low, n_note=False)
        name = f"the first seat at {p} players" + (" and its lowest seat" if p == 6 and low != 0 else "")
        turns = sa.results[p].metrics()["turns"]["mean"]  # the length may move by 10 % at most
        length = f"length={round(0.9 * turns)}:{round(1.1 * turns)}"
        found.append(Imbalance(name, text, [p], space, ["fair", length], n=10_000, budget=160_000,
                               held_out=200_000, why=why if p == 3 else ""))
    luck_section(rep, 2)
    card_section(rep, 2, ["red-0", "0", "10", "red"], why="A pattern is a card (`red-0`), a value or a colour; only the plays are restricted, not the final discard.")
    designer_section(rep, found, intro="A remedy may not change the game's length by more than about 10 % "
                                       "(the target `length=A:B`, from the official rules' mean length in "
                                       "the seat runs above).")

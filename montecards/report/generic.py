"""The report of a game without its own recipe: seat advantage over every player count,
game length, scores, the game's metrics by player count, and matchups of all strategies."""

from __future__ import annotations

from montecards.analysis.matchups import matchups
from montecards.report.base import Report, one_against_rest, pm, rate, rating_order, seat_section, timed


def build(
    rep: Report, n_seats: tuple[int, int] = (100_000, 2_000), n_matchup: tuple[int, int] = (20_000, 500)
) -> None:
    spec = rep.spec
    counts = range(spec.min_players, spec.max_players + 1)
    sa = seat_section(rep, spec.default_strategy, counts, rep.n(*n_seats))
    metrics_section(rep, sa)
    if len(spec.strategies) >= 2:
        matchup_section(rep, list(spec.strategies), spec.default_players, rep.n(*n_matchup))


def metrics_section(rep: Report, sa, names=None, length_figure: bool = True) -> None:
    """Game length and the game's metrics by player count; ``length_figure=False`` for a game
    whose length is fixed by its deck (a constant figure says nothing)."""
    spec = rep.spec
    rep.section("Game length and the game's own outputs", "Same runs as the seat runs above.")
    for p in sa.player_counts:
        m = sa.results[p].metrics()
        parts = [f"{spec.turns_name} {m['turns']['mean']:.2f} {pm(*m['turns']['ci95'], 2, 1)}"]
        for name in names or spec.metrics:
            v = m[name]
            if name in spec.rate_metrics:
                parts.append(f"{name.replace('_', ' ')} {rate(v['mean'], *v['ci95'])}")
            else:
                parts.append(f"{name.replace('_', ' ')} {v['mean']:.3f} {pm(*v['ci95'], 3, 1)}")
        sh = m["shared_wins"]
        parts.append(f"shared wins {rate(sh['mean'], *sh['ci95'])}")
        rep.finding(f"With {p} players, per game: " + "; ".join(parts) + ".")
    rep.end_list()
    if length_figure:
        rep.figure(sa.plot.length(), "game_length", f"Game length ({spec.turns_name} per game).")
    rep.figure(sa.plot.scores(), "scores", f"Final {spec.score_name} by seat.")
    for name in names or spec.metrics:
        rep.figure(
            sa.plot.metrics([name]),
            f"metric_{name}",
            f"{name.replace('_', ' ')} per game by player count, 95 % intervals.",
        )
    rep.table(sa.game_table())


def matchup_section(rep: Report, strategies, players: int, n: int, n_for=None):
    mu = timed(
        rep,
        f"strategy matchups, {players} players, all seat rotations",
        f"{n:,} deals per pair × {players} rotations",
        lambda: matchups(
            rep.game, strategies, players=players, n=n, n_for=n_for, seed=rep.seed, jobs=rep.jobs
        ),
    )
    lineup = (
        "head to head"
        if players == 2
        else f"one seat of the row strategy against {players - 1} of the column strategy"
    )
    rep.section(
        "Strategy matchups",
        f"{players} players, {lineup}; each deal is played in every seat rotation so seat effects cancel "
        f"(fair share {100 / players:.1f} %).",
    )
    for sentence in mu.findings()[:-1]:  # the shares (the last sentence, a Copeland order, gives way)
        rep.finding(sentence)
    rep.end_list()
    rep.figure(
        mu.plot.heatmap(),
        f"matchups_{players}p",
        "Win share of the row strategy against the column strategy.",
    )
    matchup_ratings(rep, mu)
    return mu


def matchup_ratings(rep: Report, mu) -> None:
    """The matchups on one Elo scale (``MatchupResult.ratings``): the table, the one order it
    gives (or the cycle no order describes), and at 3+ players what the shares do not say."""
    r = timed(rep, f"ratings of the matchups, {mu.players} players", "200 bootstrap draws over deals",
              lambda: mu.ratings(bootstrap=200))
    model = "Bradley–Terry" if mu.players == 2 else "Plackett–Luce on finishing orders"
    rep.text(f"**Ratings.** The same games on one Elo scale ({model}; docs/ratings.md), relative to "
             f"`{r.baseline}`, 95 % bootstrap intervals over deals:")
    t = r.table()
    rep.table(t[["strategy", "rating", "rating_low", "rating_high"]], digits=1)
    cycles = r.cycles()
    if cycles:
        shown = "; ".join(" > ".join(c + [c[0]]) for c in cycles[:3])
        order = f"The results are cyclic ({shown}): no order describes them; the ratings are the best " \
                "transitive fit."
    else:
        order = rating_order(t)
    rep.finding(order)
    if mu.players > 2:
        rep.finding(one_against_rest(mu.players, "the one-seat shares above"))
    rep.end_list()
    rep.headline(f"Strategies at {mu.players} players, rated from the matchups: "
                 f"{order.removeprefix('Order by rating: ')}")

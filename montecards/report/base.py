"""The report builder's parts that every recipe uses: :class:`Report` and the formatting helpers."""

from __future__ import annotations

import datetime as _dt
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from montecards.report.strengths import SEAT_MARGIN, record
from montecards.report.verdicts import claim

DEFAULT_SEED = 20_240_607


class Report:
    """A report being built: Markdown blocks, findings, figures and run sizes."""

    def __init__(self, game: str, out_dir: Path, quick: bool, seed: int, jobs: int | None, command: str):
        from montecards import games

        self.spec = games.get(game)
        self.game = self.spec.name
        self.out_dir = Path(out_dir)
        self.quick = quick
        self.seed = seed
        self.jobs = jobs
        self.command = command
        self.blocks: list[str] = []
        self.findings: list[str] = []
        self.sizes: list[tuple[str, str, float]] = []
        self.figures: list[Path] = []
        self.cpu_seconds = 0.0
        self.checkpoint: Any = None  # report/checkpoint.py (build_report sets it)
        self.headlines: list[str] = []
        self.tables: list[pd.DataFrame] = []
        self.strength_runs: dict[str, tuple[str, Any]] = {}  # report/strengths.py
        self.summary: list[dict[str, Any]] = []
        self.facts: dict[str, Any] = {}  # for reports/SUMMARY.md: skill depth, luck share
        self.variant_answers: list[list[str]] = []  # strengths.variant_at_strengths
        self.symmetric_seats = ""  # why the seats are symmetric by construction (then one line)
        self.answers_first = True  # the answers at every strength lead the page

    # --- sizes ---------------------------------------------------------------------------
    def n(self, full: int, quick: int) -> int:
        """The run size of this mode."""
        return quick if self.quick else full

    def run_size(self, what: str, size: str, seconds: float) -> None:
        """Record one analysis's run size (shown in the table at the top)."""
        self.sizes.append((what, size, seconds))

    # --- content -------------------------------------------------------------------------
    def section(self, title: str, text: str | None = None) -> None:
        self.blocks.append(f"## {title}\n")
        if text:
            self.text(text)

    def text(self, markdown: str) -> None:
        self.blocks.append(markdown.strip() + "\n")

    def finding(self, sentence: str, in_section: bool = True) -> None:
        """A plain sentence with its interval, printed once, in its section (``findings`` keeps
        them all for the JSON download)."""
        self.findings.append(sentence)
        if in_section:
            self.blocks.append(f"- {sentence}")

    def headline(self, sentence: str) -> None:
        """A sentence for the short answer at the top of the page ("In short")."""
        self.headlines.append(sentence)

    def end_list(self) -> None:
        self.blocks.append("")

    def figure(self, fig: Any, name: str, caption: str) -> Path:
        """The figure as PNG (shown on the page) and SVG (the HTML site's, ``report/site.py``)."""
        from montecards.plots import save

        save(fig, self.out_dir / f"{name}.svg")
        path = save(fig, self.out_dir / f"{name}.png")
        self.figures.append(path)
        self.blocks.append(f"\n![{caption}]({name}.png)\n\n*{caption}*\n")
        return path

    def table(self, frame: pd.DataFrame, digits: int = 4, index: bool = True) -> None:
        """A Markdown table on the page; its full-precision numbers go to ``table_<k>.csv``."""
        self.tables.append(frame.reset_index() if index else frame)
        name = f"table_{len(self.tables)}.csv"
        self.blocks.append(markdown_table(frame, digits, index) + f"\n\n[numbers as CSV]({name})\n")

    # --- output --------------------------------------------------------------------------
    def write(self, elapsed: float) -> Path:
        """Write README.md and provenance.json (``report/provenance.py``) into the folder."""
        import json

        from montecards.report.provenance import PROVENANCE_FILE, provenance
        from montecards.report.strengths import answers, deviation_figure

        lead = answers(self)
        if self.strength_runs and not self.symmetric_seats:
            self.figure(deviation_figure(self), "seats_by_strength",
                        "Every seat's win share minus the fair share at each strength, 95 % intervals "
                        "(hollow: under 100 games, inconclusive).")
            lead.append(self.blocks.pop())
        record = provenance(self.game, self.command, self.seed, self.quick, self.jobs, elapsed,
                            self.cpu_seconds)
        resumed = self.checkpoint.loaded if self.checkpoint is not None else 0
        if resumed:
            record["resumed_analyses"] = resumed
        self.provenance = record
        mode = "quick (test-sized)" if self.quick else "full"
        commit = record["commit"][:12] if record["commit"] else "no git checkout"
        if record["dirty"]:
            commit += " with uncommitted changes"
        head = [
            f"# {self.spec.title} — simulation report\n",
            f"Generated by `{self.command}` — montecards {record['montecards']}, commit {commit}, "
            f"kernel hash {record['kernel_hash'][:12]}, seed {self.seed}, "
            f"{mode} size, {self.jobs or 'all'} threads, {elapsed:.0f} s wall-clock "
            f"({self.cpu_seconds:.0f} s of CPU) on {_dt.date.today().isoformat()}. Every rate is "
            "given with its 95 % interval "
            "(Wilson for shares and rates, normal for means and for paired differences)."
            + (f" This run resumed an interrupted one: {resumed} of its {self.checkpoint.count} analyses came "
               "from that run's checkpoint (their seconds are the ones it took; the wall-clock and CPU "
               "times are this sitting's)." if resumed else "") + "\n",
            "Rerun the command to regenerate this page and its figures (the same seed gives the "
            f"same games, whatever the thread count); [{PROVENANCE_FILE}]({PROVENANCE_FILE}) holds "
            "this record, and the tests compare its kernel hash with today's sources. Every sentence and "
            "run size is in [data.json](data.json), every table's numbers in its CSV file.\n",
            "## Run sizes\n",
            markdown_table(
                pd.DataFrame(self.sizes, columns=["analysis", "games", "seconds"]).assign(
                    seconds=lambda d: d["seconds"].round(1)
                ),
                digits=1,
                index=False,
            )
            + "\n",
            *(["## In short\n", " ".join(self.headlines) + "\n"] if self.headlines else []),
        ]
        body = lead + self.blocks if self.answers_first else self.blocks + lead
        page = "\n".join(head + body) + "\n"
        path = self.out_dir / "README.md"
        path.write_text(page)
        (self.out_dir / PROVENANCE_FILE).write_text(json.dumps(record, indent=2) + "\n")
        for k, frame in enumerate(self.tables, 1):
            frame.to_csv(self.out_dir / f"table_{k}.csv", index=False)
        data = {"provenance": record, "headlines": [_plain_text(h) for h in self.headlines],
                "findings": [_plain_text(f) for f in self.findings],
                "run_sizes": [{"analysis": a, "games": g, "seconds": round(t, 1)} for a, g, t in self.sizes],
                "tables": [f"table_{k}.csv" for k in range(1, len(self.tables) + 1)],
                "figures": [p.name for p in self.figures], "summary": self.summary, "facts": self.facts}
        (self.out_dir / "data.json").write_text(json.dumps(data, indent=2, default=str) + "\n")
        return path


def _plain_text(markdown: str) -> str:
    """A sentence without the verdict markers (``report/verdicts.py``)."""
    import re

    return re.sub(r"<!--.*?-->", "", markdown)


def markdown_table(frame: pd.DataFrame, digits: int = 4, index: bool = True) -> str:
    """A GitHub Markdown table (no extra dependency)."""
    df = frame.reset_index() if index else frame
    cols = [str(c) for c in df.columns]

    def cell(v: Any) -> str:
        if isinstance(v, float):
            return f"{v:.{digits}f}"
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10_000:
            return f"{v:,}"
        return str(v)

    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines)


def timed(rep: Report, what: str, size: str, func):
    """Run ``func()``, record its run size and time in ``rep``, return its value; through the
    report's checkpoint when it has one (``report/checkpoint.py``: a resumed report loads the
    analyses its interrupted run finished, with the seconds they took then)."""
    if rep.checkpoint is not None:
        value, seconds, _ = rep.checkpoint.run(what, size, func)
        rep.run_size(what, size, seconds)
        return value
    start = time.perf_counter()
    value = func()
    rep.run_size(what, size, time.perf_counter() - start)
    return value


def pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f} %"


def rate(value: float, low: float, high: float, digits: int | None = None) -> str:
    """A share with its interval: "35.1 % ± 0.1 %", or "0.05 % (0.01–0.19 %)" when the
    Wilson interval is clearly asymmetric (rare events). Digits follow the interval's width."""
    below, above = value - low, high - value
    if digits is None:
        hw = 100 * (high - low) / 2
        digits = 1 if hw >= 0.05 else 2 if hw >= 0.005 else 3
    if min(below, above) < 0.8 * max(below, above):
        return f"{100 * value:.{digits}f} % (95 % CI {100 * low:.{digits}f}–{100 * high:.{digits}f} %)"
    return f"{100 * value:.{digits}f} % {pm(low, high, digits)}"


def pm(low: float, high: float, digits: int = 1, scale: float = 100, unit: str | None = None) -> str:
    """ "± 1.2 %" from an interval (``scale`` 100: shares in %; 1: the value's own unit)."""
    if unit is None:
        unit = " %" if scale == 100 else ""
    hw = scale * (high - low) / 2
    while 0 < hw < 0.5 * 10.0**-digits and digits < 4:
        digits += 1  # never print "± 0.00" for a nonzero width
    return f"± {hw:.{digits}f}{unit}"


def seat_runs(rep: Report, strategy: str | None, players: Sequence[int], n: int, params=None,
              keep_games: bool = False, label: str = "simple") -> Any:
    """The seat runs (every seat ``strategy``) at every player count, recorded as strength
    ``label`` for the answers at every strength; no section of their own."""
    from montecards.analysis import seat_advantage

    strategy = strategy or rep.spec.default_strategy
    sa = timed(rep, f"seats ({strategy} in every seat)", f"{n:,} per player count × {len(players)}",
               lambda: seat_advantage(rep.game, players=list(players), n=n, strategy=strategy, params=params,
                                      seed=rep.seed, jobs=rep.jobs, keep_games=keep_games))
    record(rep, label, strategy, sa)
    return sa


def seat_section(
    rep: Report, strategy: str | None, players: Sequence[int], n: int, params=None, keep_games: bool = False
) -> Any:
    """The standard seat-advantage section: the seat runs (:func:`seat_runs`), their figure and
    every seat's table; the verdicts are in the answers at every strength."""
    strategy = strategy or rep.spec.default_strategy
    sa = seat_runs(rep, strategy, players, n, params, keep_games)
    rep.section(
        "Seat advantage",
        f"Every seat plays `{strategy}`, so differences between seats are the seats' own "
        f"effect. {n:,} games per player count (seed {rep.seed}). A seat's verdict needs its 95 % "
        f"interval clear of the fair share; an interval within ±{100 * SEAT_MARGIN:g} pp of it "
        "counts as a null result (`montecards/report/verdicts.py`).",
    )
    rep.text("The first seat's verdict at every strength is in *Answers at every strength* above; "
             "every seat of this run:")
    rep.figure(
        sa.plot.win_share(), "seat_advantage", "Win share by seat, 95 % intervals; dashed: fair share."
    )
    t = sa.table()[["win_share", "win_low", "win_high", "relative", "mean_score"]].reset_index()
    t["seat"] += 1
    rep.text(
        "Seats are numbered from 1 (the first to play); `relative` is the win share divided by the "
        "fair share."
    )
    rep.table(t, index=False)
    return sa


def tuned_section(
    rep: Report, players: int, rivals: Sequence[str], n: int, n_for: dict[str, int] | None = None,
    seat_players: Sequence[int] | None = None, n_seats: int | None = None, params=None,
) -> None:
    """The "Tuned players" section: the shipped ``tuned`` weights, their head-to-head share
    against each of ``rivals`` (one ``tuned`` seat against the rival in every other seat, over
    every seat rotation, on the report's seed, which no tuning run used), and the seat
    advantage when every seat plays ``tuned``."""
    from montecards.analysis import seat_advantage

    spec = rep.spec
    tuned = spec.seat_params["tuned"]
    rep.section(
        "Tuned players",
        f"`tuned` is the `weighted` player with the weights the project's tuning run found "
        f"(`scripts/tune_builtins.py`, [docs/tuning.md](../../docs/tuning.md)); its features are "
        f"in `docs/strategies/{spec.name}.md`. Every figure below is on the report's seed, which no "
        "tuning run used (held out).",
    )
    default = spec.seat_params["weighted"].default
    rep.table(pd.DataFrame({"feature": tuned.features, "weighted (default)": default,
                            "tuned": tuned.default}), digits=3, index=False)
    from montecards.analysis.runs import deals_for

    n_for = dict(n_for or {})
    for rival in rivals:
        deals = deals_for(n, n_for, ("tuned", rival))
        row = _one_seat_share(rep, "tuned", rival, players, deals, params)
        others = f"{players - 1} seats of `{rival}`" if players > 2 else f"`{rival}`"
        verdict = claim(_row_estimate(row, deals, players), up="more than the fair share",
                        down="less than the fair share",
                        none=f"no effect beyond ±{100 * SEAT_MARGIN:g} pp of the fair share")
        rep.finding(
            f"One `tuned` seat against {others} ({players} players, every seating, {deals:,} deals) "
            f"wins {rate(row.win_share, row.low, row.high)} (fair {100 / players:.1f} %): {verdict}."
        )
        if rival == rivals[0]:
            rep.headline(
                f"The tuned player wins {rate(row.win_share, row.low, row.high)} against `{rival}` "
                f"at {players} players (fair {100 / players:.1f} %)."
            )
    rep.end_list()
    counts = list(seat_players or [players])
    n_seats = n_seats or n
    sa = timed(rep, "seats (tuned in every seat)", f"{n_seats:,} per player count × {len(counts)}",
               lambda: seat_advantage(rep.game, players=counts, n=n_seats, strategy="tuned", params=params,
                                      seed=rep.seed, jobs=rep.jobs))
    record(rep, "tuned", "tuned", sa)


def _row_estimate(row: Any, deals: int, players: int) -> Any:
    """A matchups table row (one seat against the rest) as an Estimate against the fair share."""
    from montecards.report.verdicts import Estimate

    return Estimate(float(row.win_share), float(row.low), float(row.high), int(deals), null=1 / players,
                    margin=SEAT_MARGIN)


SKILL_PAYS = 0.05
"""The top rung's edge over the fair share (one seat against the bottom rung in every other)
below which a report does not say "skill pays": Wig Out!'s +1.3 pp was called so (issue 34)."""


def skill_verdict(gap: Any) -> str:
    """The verdict on the top rung against the bottom rung (``gap``: an Estimate against the fair
    share): "skill pays" only when the whole interval is more than :data:`SKILL_PAYS` above fair;
    a measurable edge below that is named as small, with the bound its interval supports."""
    edge = 100 * SKILL_PAYS
    if gap.direction == 1 and gap.low - gap.null < SKILL_PAYS:
        if gap.high - gap.null < SKILL_PAYS:
            return f"a measurable edge, but under {edge:g} pp: skill matters little here"
        return f"a measurable edge, not resolved whether above {edge:g} pp"
    return claim(gap, up="skill pays", down="the top rung loses", none="no effect of skill beyond ±1 pp")


def _one_seat_share(rep: Report, strong: str, weak: str, players: int, deals: int, params=None):
    """``strong`` in one seat against ``weak`` in every other, every rotation: the table row."""
    from montecards.analysis.matchups import matchups

    res = timed(rep, f"{strong} vs {weak}, {players} players", f"{deals:,} deals × {players} seatings",
                lambda: matchups(rep.game, [strong, weak], players=players, n=deals, params=params,
                                 seed=rep.seed, jobs=rep.jobs))
    return res.table().set_index(["strategy", "opponent"]).loc[(strong, weak)]


def rating_order(table: pd.DataFrame) -> str:
    """The order a ratings table (best first) supports: ``>`` between neighbours whose 95 %
    intervals are apart, ``≈`` where they overlap (that step is not resolved at this size)."""
    rows = list(table.itertuples())
    text = f"`{rows[0].strategy}` {rows[0].rating:.0f} [{rows[0].rating_low:.0f}, {rows[0].rating_high:.0f}]"
    unresolved = False
    for upper, lower in zip(rows[:-1], rows[1:], strict=True):
        apart = lower.rating_high < upper.rating_low
        unresolved |= not apart
        text += (" > " if apart else " ≈ ") + (f"`{lower.strategy}` {lower.rating:.0f} "
                                               f"[{lower.rating_low:.0f}, {lower.rating_high:.0f}]")
    tail = " (≈: intervals overlap, that step is not resolved at this size)" if unresolved else ""
    return f"Order by rating: {text}{tail}."


def one_against_rest(players: int, what: str) -> str:
    """What a one-against-the-rest share does and does not say (issue 31: Gift of Tulips'
    matchups and ladder once gave two contradictory orders)."""
    return (f"{what[0].upper() + what[1:]} are not an order: each is one seat among {players - 1} copies of "
            "another player, so it says how a player does in that company (what it gains from the others' "
            "mistakes, or loses to the table they make), not which of two players finishes ahead of the "
            "other in a mixed game. The order on this page is the ratings', fitted to every lineup's "
            "finishing orders at once.")


def ratings_block(rep: Report, players: int, entrants: Sequence[str], n: int, params=None,
                  shares: str | None = "the ladder's rung shares above") -> Any:
    """The rungs on one Elo scale: a round-robin tournament (every lineup, every rotation, the
    same deals; ``analysis/tournament.py``), the ratings table with 95 % bootstrap intervals, the
    skill depth from the weakest rung, the order it gives and what a one-against-the-rest share
    does not say. Returns the tournament."""
    from montecards.analysis.tournament import tournament

    res = timed(rep, f"ratings: round robin of {', '.join(entrants)}, {players} players",
                f"{n:,} deals per lineup × {players} rotations",
                lambda: tournament(rep.game, list(entrants), players=players, n=n, params=params,
                                   seed=rep.seed, jobs=rep.jobs, baseline=entrants[0], progress=False))
    model = "Bradley–Terry" if players == 2 else "Plackett–Luce on finishing orders"
    rep.text(f"**Ratings.** The same players on one Elo scale (`montecards tournament`, docs/ratings.md): "
             f"a round robin of {len(res.lineups)} lineup(s) at {players} players, every seat rotation on "
             f"the same {n:,} deals, {model}; ratings relative to `{entrants[0]}`, 95 % bootstrap "
             "intervals over deals. A gap of 191 points (one class step) means finishing ahead 75 % of "
             "the time.")
    table = res.table()[["strategy", "rating", "rating_low", "rating_high", "nash_weight"]]
    rep.table(table, digits=1)
    d = res.depth()
    rep.facts["skill_depth"] = {"players": players, "entrants": list(entrants), "deals": n,
                                **{k: d[k] for k in ("from", "to", "points", "points_low", "points_high",
                                                     "steps")}}
    rep.finding(f"Skill depth at {players} players: `{d['to']}` is {d['points']:.0f} "
                f"[{d['points_low']:.0f}, {d['points_high']:.0f}] rating points above `{d['from']}`, "
                f"{d['steps']:.2f} class steps.")
    rep.headline(f"Skill depth ({players} players): {d['points']:.0f} [{d['points_low']:.0f}, "
                 f"{d['points_high']:.0f}] rating points from `{d['from']}` to `{d['to']}` "
                 f"({d['steps']:.2f} class steps of 75 %).")
    rep.finding(res.verdict() if res.cycles() else rating_order(res.ratings.table()))
    if players > 2 and shares:
        rep.finding(one_against_rest(players, shares))
    rep.end_list()
    rep.figure(res.plot(), "ratings", "Left: ratings with 95 % bootstrap intervals (dotted: class steps). "
               "Right: every pair's observed share of finishing ahead against the ratings' prediction.")
    return res


def skill_section(
    rep: Report, players: int, ladder: Sequence[str], n: int, n_for: dict[str, int] | None = None,
    hidden: tuple[str, str] | None = None, seat_players: Sequence[int] | None = None,
    n_seats: int | None = None, params=None, note: str = "", seat_strategy: str | None = None,
) -> None:
    """"How much skill pays" (the topic; its verdict comes from ``verdicts.claim``): a strength
    ladder (weakest first), each rung in one seat against
    the rung below in every other seat over every rotation; the skill gap (the strongest
    against the weakest); the seat advantage, shared wins and game length when every seat
    plays the strongest rung; and, with ``hidden=(omniscient, honest)``, what seeing the hidden
    cards is worth."""
    from montecards.analysis import seat_advantage
    from montecards.analysis.runs import deals_for
    from montecards.plots.figures import ladder_figure

    n_for = dict(n_for or {})

    def deals(*names: str) -> int:
        return deals_for(n, n_for, names)

    fair = 1 / players
    rep.section(
        "How much skill pays",
        "A ladder of players, each rung meant to play better than the one below "
        f"({', '.join(f'`{s}`' for s in ladder)}). Each "
        f"rung plays one seat against the rung below in the other seats, {players} players, every "
        f"seating on the same deals (fair share {100 * fair:.1f} %). {note}".strip(),
    )
    rungs = []
    flat = []
    for weak, strong in zip(ladder[:-1], ladder[1:], strict=True):
        k = deals(strong, weak)
        row = _one_seat_share(rep, strong, weak, players, k, params)
        rungs.append((strong, weak, row.win_share, row.low, row.high, k))
        est = _row_estimate(row, k, players)
        verdict = claim(est, up=f"`{strong}` beats `{weak}`", down=f"`{strong}` loses to `{weak}`",
                        none=f"no effect beyond ±{100 * SEAT_MARGIN:g} pp")
        rep.finding(f"`{strong}` in one seat against `{weak}`: wins {rate(row.win_share, row.low, row.high)} "
                    f"(fair {100 * fair:.1f} %, {players} players, {k:,} deals): {verdict}.")
        if est.direction != 1:
            flat.append(f"`{strong}` over `{weak}`")
    if flat:
        rep.finding("Where the ladder does not climb: " + "; ".join(flat) + " is not a significant step "
                    "up at these run sizes (see each rung's verdict above).")
    top, bottom = ladder[-1], ladder[0]
    k_gap = deals(top, bottom)
    gap = _one_seat_share(rep, top, bottom, players, k_gap, params)
    gap_verdict = skill_verdict(_row_estimate(gap, k_gap, players))
    rep.finding(f"Top rung against bottom rung: one `{top}` seat against `{bottom}` in every other wins "
                f"{rate(gap.win_share, gap.low, gap.high)}, {100 * (gap.win_share - fair):+.1f} pp from the "
                f"fair share ({k_gap:,} deals): {gap_verdict}.")
    rep.headline(f"Top rung against bottom rung at {players} players: one `{top}` seat against `{bottom}` "
                 "wins "
                 f"{rate(gap.win_share, gap.low, gap.high)} (fair {100 * fair:.1f} %, {k_gap:,} deals): "
                 f"{gap_verdict}.")
    if hidden is not None:
        seer, honest = hidden
        row = _one_seat_share(rep, seer, honest, players, deals(seer, honest), params)
        rep.finding(f"Hidden information: `{seer}` (sees every card) against `{honest}` wins "
                    f"{rate(row.win_share, row.low, row.high)} (fair {100 * fair:.1f} %): what seeing the "
                    "hidden cards is worth to the same search.")
    rep.end_list()
    rep.figure(ladder_figure(rep.spec.title, players, rungs, gap, k_gap), "skill_ladder",
               "Each rung's win share in one seat against the rung below (last: the top rung against "
               "the bottom rung), 95 % intervals; dashed: fair share; hollow markers: under 100 deals, "
               "inconclusive.")
    rated = [s for s in ladder if s not in n_for and not any(s.startswith(k + "[") for k in n_for)]
    if len(rated) >= 2:
        ratings_block(rep, players, rated, n, params)
    counts = list(seat_players or [players])
    strong = seat_strategy or top  # the best search player affordable in every seat
    n_seats = n_seats or deals(strong)
    sa = timed(rep, f"seats ({strong} in every seat)", f"{n_seats:,} per player count × {len(counts)}",
               lambda: seat_advantage(rep.game, players=counts, n=n_seats, strategy=strong, params=params,
                                      seed=rep.seed, jobs=rep.jobs))
    # a game without a search player: its strongest affordable player is `tuned` (one column)
    record(rep, "tuned" if strong == "tuned" else "strong", strong, sa)

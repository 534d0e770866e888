"""Write and execute one analysis notebook per game: reports/<game>/<game>.ipynb.

    python scripts/make_game_notebooks.py [GAME ...] [--no-execute] [--timeout SECONDS]

Each notebook asks the questions a designer or a player asks of its game (docs/rules/<game>.md,
"Questions"; issues 30, 31, 33 and 34): the first seat's edge per player count and whether it
holds for stronger players, the rule variants, the length in the game's own unit, skill and luck.
Every question is a heading, then the code that answers it with the Python API (tables as
DataFrames, figures inline), then an answer computed from the run's 95 % intervals by
``montecards.report.verdicts`` when the notebook executes: no number and no verdict word is
written here by hand. ``N`` (first code cell) is small so a notebook runs in a few minutes;
raise it for narrower intervals.

The script writes the cells, executes them (nbclient, the kernel in the repository root, as
tests/test_notebook.py does, so it imports this checkout's montecards) and writes the notebook
with its outputs, printing each notebook's execution time. tests/test_notebook.py checks, without
executing them, that every committed notebook was executed without errors, shows a table and a
figure, and holds exactly the cells this script writes today (a stale notebook fails).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("parade", "anomia", "wigout", "tulips", "marbles")


def path_of(game: str) -> Path:
    return ROOT / "reports" / game / f"{game}.ipynb"


# --------------------------------------------------------------------------- shared cells

INTRO = (
    "Each question below is answered by a run made when this notebook was executed. The answer "
    "under each question is computed from that run's 95 % intervals (`montecards/report/verdicts.py`): "
    "a verdict is named only where its interval supports it, an effect inside ±1 pp (or the margin "
    "given) is called negligible only where the interval lies inside it, and anything else is "
    "\"not resolved at this size\", with about how many games would resolve it. A run of fewer than "
    "100 games is inconclusive whatever its interval.\n\n"
    "`N` (next cell) is small so the notebook runs in a few minutes; raise it for narrower intervals. "
    "The full report, [README.md](README.md), answers the same questions on larger runs. "
    "Regenerate this notebook with `python scripts/make_game_notebooks.py {game}`."
)

HELPERS = '''\
def say(text):
    """Show an answer as Markdown (its verdict words carry their numbers in hidden comments)."""
    display(Markdown(text))


def pp(e):
    """An estimate's distance from its null, in percentage points."""
    return f"{100 * (e.value - e.null):+.1f} pp"


def seat_estimate(res, seat=0, margin=0.01):
    """One seat's win share in a run, against the fair share."""
    low, high = res.win_share_ci95[seat]
    p = len(res.win_share)
    return Estimate(res.win_share[seat], low, high, res.n_games, null=1 / p, margin=margin)


def seat_table(runs):
    """Per player count and strength: the first seat's win share and the worst seat."""
    rows = []
    for label, sa in runs.items():
        for p in sa.player_counts:
            res = sa.results[p]
            shares = np.array(res.win_share)
            worst = int(np.argmin(shares))
            low, high = res.win_share_ci95[0]
            rows.append({"players": p, "strength": label, "strategy": STRENGTHS[label], "games": res.n_games,
                         "fair": 1 / p, "first_seat": shares[0], "low": low, "high": high,
                         "worst_seat": worst + 1, "worst_share": shares[worst]})
    return pd.DataFrame(rows).set_index(["players", "strength"])


def deviation_plot(runs):
    """Every seat's win share minus the fair share (pp), one panel per strength; hollow: < 100 games."""
    fig, axes = plt.subplots(1, len(runs), figsize=(4.3 * len(runs), 3.4), sharey=True, squeeze=False)
    for ax, (label, sa) in zip(axes[0], runs.items()):
        for i, p in enumerate(sa.player_counts):
            res = sa.results[p]
            dev = 100 * (np.array(res.win_share) - 1 / p)
            ci = 100 * (np.array(res.win_share_ci95) - 1 / p)
            err = np.clip([dev - ci[:, 0], ci[:, 1] - dev], 0, None)
            ax.errorbar(np.arange(1, p + 1) + 0.06 * (i - 2), dev, yerr=err, fmt="o-", ms=4, lw=1, capsize=2,
                        color=f"C{i}", mfc="none" if res.n_games < 100 else f"C{i}", label=f"{p} players")
        ax.axhline(0, color="grey", ls="--", lw=1)
        ax.set_title(f"{label}: {STRENGTHS[label]}", fontsize=10)
        ax.set_xlabel("seat")
    axes[0][0].set_ylabel("win share − fair share (pp)")
    axes[0][-1].legend(fontsize=8)
    plt.show()


def length_table(runs, per=1):
    """Per player count and strength: the game's length in its own unit, per player, and ties."""
    rows = []
    for label, sa in runs.items():
        for p in sa.player_counts:
            m = sa.results[p].metrics()
            turns, ties = m["turns"], m["shared_wins"]
            rows.append({"players": p, "strength": label, "length": turns["mean"] / per,
                         "low": turns["ci95"][0] / per, "high": turns["ci95"][1] / per,
                         "per_player": turns["mean"] / per / p, "ties": ties["mean"],
                         "ties_low": ties["ci95"][0], "ties_high": ties["ci95"][1]})
    return pd.DataFrame(rows).set_index(["players", "strength"])


def length_answers(table, unit, margin=0.05):
    """Each stronger player's game length against the simple player's (relative, ±5 % is no change)."""
    lines = []
    for p, rows in table.groupby(level="players"):
        rows = rows.droplevel("players")
        base = rows.loc["simple", "length"]
        parts = [f"simple {base:.1f} [{rows.loc['simple', 'low']:.1f}, {rows.loc['simple', 'high']:.1f}] {unit} "
                 f"({rows.loc['simple', 'per_player']:.1f} per player)"]
        for label in rows.index.drop("simple"):
            r = rows.loc[label]
            e = Estimate(r["length"] / base - 1, r["low"] / base - 1, r["high"] / base - 1,
                         int(SIZE[label]), null=0.0, margin=margin)
            word = claim(e, up="longer", down="shorter", none=f"the same within ±{100 * margin:g} %")
            parts.append(f"{label} {r['length']:.1f} [{r['low']:.1f}, {r['high']:.1f}] "
                         f"({r['per_player']:.1f} per player; {100 * e.value:+.1f} %: {word})")
        lines.append(f"- **{p} players**: " + "; ".join(parts) + ".")
    say("\\n".join(lines))


def variant_table(runs, quantities):
    """Each variant minus the first (paired on the same deals), per quantity and strength."""
    rows = []
    for label, cmp in runs.items():
        for variant in cmp.labels[1:]:
            for q, (what, unit, _) in quantities.items():
                d, low, high = cmp.difference(variant, q)
                scale = 100 if unit == "pp" else 1
                rows.append({"variant": variant, "quantity": what, "strength": label, "unit": unit,
                             "difference": scale * d, "low": scale * low, "high": scale * high,
                             "games": cmp.n_games})
    return pd.DataFrame(rows).set_index(["variant", "quantity", "strength"])


def variant_answers(runs, quantities):
    """One verdict per variant and quantity over the strengths."""
    lines = []
    first = next(iter(runs.values()))
    for variant in first.labels[1:]:
        for q, (what, unit, margin) in quantities.items():
            ests = {}
            for label, cmp in runs.items():
                d, low, high = cmp.difference(variant, q)
                ests[label] = Estimate(d, low, high, cmp.n_games, null=0.0, margin=margin)
            scale = 100 if unit == "pp" else 1
            words = dict(up="raises it", down="lowers it", none=f"no effect beyond ±{scale * margin:g} {unit}")
            if len(ests) == 1:  # one strength: the claim and its interval
                e = next(iter(ests.values()))
                text = (f"{scale * e.value:+.2f} {unit} [{scale * e.low:+.2f}, {scale * e.high:+.2f}]: "
                        + claim(e, **words))
            else:
                text = across_strengths(ests, lambda e: f"{scale * e.value:+.2f} {unit}", **words).text
            lines.append(f"- `{variant}` instead of `{first.baseline}`, {what}: {text}.")
    say("\\n".join(lines))


def variant_plot(runs, quantity, what):
    """One quantity's paired difference from the first variant, per variant and strength."""
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    first = next(iter(runs.values()))
    for i, (label, cmp) in enumerate(runs.items()):
        for j, variant in enumerate(first.labels[1:]):
            d, low, high = (100 * x for x in cmp.difference(variant, quantity))
            ax.errorbar(j + 0.15 * (i - 1), d, yerr=[[d - low], [high - d]], fmt="o", capsize=3, color=f"C{i}",
                        mfc="none" if cmp.n_games < 100 else f"C{i}", label=label if j == 0 else None)
    ax.axhline(0, color="grey", ls="--", lw=1)
    ax.set_xticks(range(len(first.labels) - 1), first.labels[1:])
    ax.set_ylabel(f"{what}: difference (pp)")
    ax.set_title(f"each variant minus {first.baseline}, 95 % intervals", fontsize=10)
    ax.legend(fontsize=8)
    plt.show()


def ladder_answers(t, players):
    """The rating order, each neighbour pair's head-to-head share, and the skill depth."""
    table = t.table()
    ahead = t.ratings.ahead().set_index(["strategy", "opponent"])
    names = list(table["strategy"])
    lines = [f"- {t.verdict()}"]
    for strong, weak in zip(names, names[1:]):
        if (strong, weak) not in ahead.index:
            continue
        r = ahead.loc[(strong, weak)]
        deals = int(r["meetings"]) // players
        e = Estimate(r["observed"], r["low"], r["high"], deals, null=0.5, margin=0.01)
        word = claim(e, up=f"`{strong}` beats `{weak}`", down=f"`{weak}` beats `{strong}`",
                     none="no effect beyond ±1 pp")
        lines.append(f"- `{strong}` finishes ahead of `{weak}` in {100 * r['observed']:.1f} % "
                     f"[{100 * r['low']:.1f}, {100 * r['high']:.1f}] of their meetings "
                     f"({int(r['meetings']):,}): {word}.")
    d = t.depth()
    small = 50  # Elo points: a 57 % head-to-head share; a depth surely under it is named small
    e = Estimate(d["points"], d["points_low"], d["points_high"], min(t.deals), null=0.0, margin=small)
    word = claim(e, up="skill pays", down="the order is reversed", none=f"no effect beyond ±{small} points")
    if e.direction == 1 and e.high < small:
        word = f"a measurable but small edge (the whole interval under {small} points)"
    lines.append(f"- Skill depth from `{d['from']}` to `{d['to']}`: {d['points']:.0f} Elo points "
                 f"[{d['points_low']:.0f}, {d['points_high']:.0f}], {d['steps']:.1f} class steps of "
                 f"{d['class_step_points']:.0f} points: {word}.")
    say("\\n".join(lines))


def luck_table(lk):
    """The deal's share of the outcome variance, and the luck share where the game has a value."""
    rows = [{"measure": "deal's share of the variance", "share": lk.deal_share, "low": lk.deal_share_low,
             "high": lk.deal_share_high}]
    if lk.luck_share is not None:
        rows.append({"measure": "luck share (value function)", "share": lk.luck_share[0],
                     "low": lk.luck_share[1], "high": lk.luck_share[2]})
    return pd.DataFrame(rows).set_index("measure")


def luck_answer(lk):
    text = (f"The deal ({lk.players} players, {', '.join(dict.fromkeys(lk.strategies))} in every seat) decides "
            f"{100 * lk.deal_share:.1f} % [{100 * lk.deal_share_low:.1f}, {100 * lk.deal_share_high:.1f}] "
            f"of the variance of a seat's result ({lk.deals:,} deals × {lk.replays} replays); the rest is "
            "what happens after the deal: later draws and the players' decisions.")
    if lk.clipped:
        text += " (The between-deal estimate came out negative and was clipped to 0: no deal effect is detectable.)"
    if lk.luck_share is not None:
        text += (f" With the value function, the luck share is {100 * lk.luck_share[0]:.1f} % "
                 f"[{100 * lk.luck_share[1]:.1f}, {100 * lk.luck_share[2]:.1f}]: the part of the outcome's "
                 "variance that the draws, not the decisions, move (docs/luck.md).")
    say(text)
'''


def setup_cell(game: str, sizes: str) -> str:
    return (
        "import time\n\n"
        "import matplotlib.pyplot as plt\n"
        "import numpy as np\n"
        "import pandas as pd\n"
        "from IPython.display import Markdown, display\n\n"
        "import montecards as mc\n"
        "from montecards import analysis\n"
        "from montecards.report.verdicts import Estimate, across_strengths, claim\n\n"
        f"GAME = {game!r}\n"
        + sizes.strip() + "\n"
        "pd.set_option(\"display.precision\", 4)\n"
        "started = time.perf_counter()"
    )


def question(title: str, text: str = "") -> object:
    return new_markdown_cell(f"## {title}\n" + (f"\n{text}" if text else ""))


def seat_cells(intro: str, players: str = "PLAYERS") -> list:
    return [
        question("Does the first seat win more or less than its fair share, and does it hold for stronger "
                 "players?", intro),
        new_code_cell(
            "runs = {label: analysis.seat_advantage(GAME, players=" + players + ", n=SIZE[label], strategy=strategy,\n"
            "                                       seed=SEED)\n"
            "        for label, strategy in STRENGTHS.items()}\n"
            "seat_table(runs)"
        ),
        new_code_cell("deviation_plot(runs)"),
        new_code_cell(
            "say(\"\\n\".join(\n"
            "    f\"- **{p} players** (fair {100 / p:.1f} %): \" + across_strengths(\n"
            "        {label: seat_estimate(sa.results[p]) for label, sa in runs.items() if p in sa.results}, pp,\n"
            "        up=\"first-seat advantage\", down=\"first-seat disadvantage\", none=\"no effect beyond ±1 pp\").text\n"
            "    for p in " + players + "))"
        ),
    ]


def length_cells(unit_text: str, per: str = "1", figure: bool = True) -> list:
    cells = [
        question("How long is a game, in the game's own unit, and does stronger play change it?", unit_text),
        new_code_cell(f"length = length_table(runs, per={per})\nlength"),
        new_code_cell(
            "fig, ax = plt.subplots(figsize=(6, 3.2))\n"
            "for i, (label, rows) in enumerate(length.groupby(level=\"strength\", sort=False)):\n"
            "    rows = rows.droplevel(\"strength\")\n"
            "    ax.errorbar(rows.index, rows[\"length\"], yerr=[rows[\"length\"] - rows[\"low\"], rows[\"high\"] - rows[\"length\"]],\n"
            "                fmt=\"o-\", capsize=3, color=f\"C{i}\", label=f\"{label}: {STRENGTHS[label]}\")\n"
            "ax.set_xlabel(\"players\")\n"
            "ax.set_ylabel(UNIT + \" per game\")\n"
            "ax.legend(fontsize=8)\n"
            "plt.show()"
        ),
        new_code_cell("length_answers(length, UNIT)"),
    ]
    return cells if figure else cells[:2] + cells[3:]


def skill_cells(text: str, call: str, players: str) -> list:
    return [
        question("How much does skill pay?", text),
        new_code_cell(f"t = {call}\nt.table()"),
        new_code_cell("t.plot()"),
        new_code_cell(f"ladder_answers(t, {players})"),
    ]


def luck_cells(text: str, call: str) -> list:
    return [
        question("How much does the deal decide?", text),
        new_code_cell(f"lk = {call}\nluck_table(lk)"),
        new_code_cell("lk.plot.deal_rates()"),
        new_code_cell("luck_answer(lk)"),
    ]


def closing() -> list:
    return [
        new_markdown_cell("## Run time"),
        new_code_cell("print(f\"This notebook's runs took {time.perf_counter() - started:.0f} s.\")"),
    ]


def head(game: str, title: str, lead: str, sizes: str) -> list:
    return [
        new_markdown_cell(f"# {title}: the questions, answered\n\n{lead}\n\n" + INTRO.format(game=game)),
        new_code_cell(setup_cell(game, sizes)),
        new_markdown_cell("The helpers every answer below uses: tables, figures and the verdicts from the intervals."),
        new_code_cell(HELPERS.rstrip()),
    ]


# --------------------------------------------------------------------------- the games


def parade() -> list:
    sizes = '''
N = 50_000        # games per player count with greedy and with tuned in every seat: raise for real answers
N_SEARCH = 800    # games per player count with the search player in every seat (about 100x slower)
SEED = 20240607
PLAYERS = [2, 3, 4, 5, 6]
UNIT = "turns"    # one card played by one seat
STRENGTHS = {"simple": "greedy", "tuned": "tuned", "strong": "ismcts[100,0.7,0]"}
SIZE = {"simple": N, "tuned": N, "strong": N_SEARCH}
'''
    return [
        *head("parade", "Parade",
              "Parade for 2–6 players (rules: [docs/rules/parade.md](../../docs/rules/parade.md)): the seat order, "
              "the 2-player majority rule, how games end and how long they last, what skill is worth and how "
              "much the deal decides. Lower score wins.", sizes),
        *seat_cells("Every seat plays the same player, so any difference between seats is the seat's own. Three "
                    "strengths: `greedy` (the simple player), `tuned` (greedy's weights tuned by simulation) and "
                    "information-set MCTS with 100 iterations per decision (a small search budget)."),
        question("With 2 players, what does the majority margin change?",
                 "With two players a colour's majority needs `count − opponent ≥ margin`: 2 is the official rule, "
                 "1 means strictly more, 0 is the 3–6-player rule. The three margins are played on the same deals "
                 "(common random numbers) and compared deal by deal, at each strength."),
        new_code_cell(
            "MARGINS = {\"margin=2 (official)\": {\"two_player_margin\": 2}, \"margin=1\": {\"two_player_margin\": 1},\n"
            "           \"margin=0\": {\"two_player_margin\": 0}}\n"
            "QUANTITIES = {\"win_0\": (\"first seat's win share\", \"pp\", 0.01), \"shared\": (\"ties\", \"pp\", 0.01),\n"
            "              \"score_0\": (\"first seat's score\", \"points\", 0.5)}\n"
            "margins = {label: analysis.compare_variants(GAME, MARGINS, n=SIZE[label], players=2, strategies=strategy,\n"
            "                                            seed=SEED)\n"
            "           for label, strategy in STRENGTHS.items()}\n"
            "variant_table(margins, QUANTITIES)"
        ),
        new_code_cell("variant_plot(margins, \"win_0\", \"first seat's win share\")"),
        new_code_cell("variant_answers(margins, QUANTITIES)"),
        question("How do games end?",
                 "A game ends when a player has collected all six colours, or when the draw pile runs out (then "
                 "every seat plays one more turn). The share of games the six-colour trigger ends, from the seat "
                 "runs above:"),
        new_code_cell(
            "six = pd.DataFrame([{\"players\": p, \"strength\": label, \"six_colours\": m[\"mean\"],\n"
            "                     \"low\": m[\"ci95\"][0], \"high\": m[\"ci95\"][1]}\n"
            "                    for label, sa in runs.items() for p in sa.player_counts\n"
            "                    for m in [sa.results[p].metrics()[\"six_colours\"]]])\n"
            "six.pivot(index=\"players\", columns=\"strength\", values=\"six_colours\")"
        ),
        new_code_cell(
            "say(\"\\n\".join(\n"
            "    f\"- {r.players} players, {r.strength}: the six-colour trigger ends {100 * r.six_colours:.1f} % \"\n"
            "    f\"[{100 * r.low:.1f}, {100 * r.high:.1f}] of the games; the deck runs out in the rest.\"\n"
            "    for r in six.itertuples()))"
        ),
        *length_cells("A turn is one card played by one seat; the turns of all seats are counted together. "
                      "Shared wins (ties) are in the same table."),
        *skill_cells(
            "A round robin at 2 players: every pair of players meets on the same deals in both seatings, and "
            "the results are fitted to one Elo scale (Bradley–Terry; docs/ratings.md). The search player "
            "plays fewer deals (`n_for`).",
            "mc.tournament(GAME, [\"random\", \"greedy\", \"tuned\", STRENGTHS[\"strong\"]], players=2, n=N // 4,\n"
            "                  n_for={STRENGTHS[\"strong\"]: N_SEARCH}, seed=SEED, bootstrap=100, progress=False)",
            "2"),
        *luck_cells(
            "Each deal (the hands and the opening parade) is replayed with independent later draws: the "
            "spread between deals, against the spread within a deal's replays, is the deal's share of the "
            "outcome (docs/luck.md). Parade at 2 players also has a fitted value function, which gives the "
            "luck share of the whole game.",
            "mc.luck(GAME, players=2, strategies=\"greedy\", deals=N // 20, replays=8, seed=SEED, progress=False)"),
        *closing(),
    ]


def anomia() -> list:
    sizes = '''
N = 300_000       # games per run: raise for real answers
SEED = 20240607
PLAYERS = [3, 4, 5, 6]
UNIT = "draws"    # one card drawn; every card of the deck is drawn, so the length is set by the deck
STRENGTHS = {"equal skills": "default"}  # no card choices: players differ only in face-off skill (theta)
SIZE = {"equal skills": N}
'''
    return [
        *head("anomia", "Anomia",
              "Anomia for 3–6 players (rules: [docs/rules/anomia.md](../../docs/rules/anomia.md)) has no card "
              "choices: who answers a face-off first decides, modelled by a face-off skill θ per seat "
              "(Bradley–Terry). So \"better players\" here means a higher θ, and the questions are the seat "
              "order, what a skill edge is worth, the deck's variants and how much the deal decides.", sizes),
        question("Does the first seat win more or less than its fair share?",
                 "Every seat has the same skill (θ = 0), so any difference between seats comes from the order "
                 "of the draws."),
        new_code_cell(
            "runs = {\"equal skills\": analysis.seat_advantage(GAME, players=PLAYERS, n=N, seed=SEED)}\n"
            "seat_table(runs)"
        ),
        new_code_cell("deviation_plot(runs)"),
        new_code_cell(
            "say(\"\\n\".join(\n"
            "    f\"- **{p} players** (fair {100 / p:.1f} %): the first seat wins \"\n"
            "    f\"{100 * seat_estimate(runs['equal skills'].results[p]).value:.1f} % \"\n"
            "    f\"[{100 * seat_estimate(runs['equal skills'].results[p]).low:.1f}, \"\n"
            "    f\"{100 * seat_estimate(runs['equal skills'].results[p]).high:.1f}]: \"\n"
            "    + claim(seat_estimate(runs[\"equal skills\"].results[p]), up=\"a first-seat advantage\",\n"
            "            down=\"a first-seat disadvantage\", none=\"no effect beyond ±1 pp\")\n"
            "    for p in PLAYERS))"
        ),
        question("Why do the first seats win more? A check of the 92 mod P explanation",
                 "The turn passes once per *category* card (after a wild the same player draws again), so with "
                 "C category cards in play the first C mod P seats each reveal one more category card than the "
                 "others. The rules' deck has 92 (68 at 3 players), so the first two seats draw once more at 3, "
                 "5 and 6 players and no seat at 4. The check: the same seeds at 5 players with decks of 90 to 93 "
                 "category cards; the step (the first C mod 5 seats' mean win share minus the others') must "
                 "follow C mod 5."),
        new_code_cell(
            "DECKS = {90: [11, 11, 11, 11, 11, 11, 12, 12], 91: [11, 11, 11, 11, 11, 12, 12, 12],\n"
            "         92: [11, 11, 11, 11, 12, 12, 12, 12], 93: [11, 11, 11, 12, 12, 12, 12, 12]}\n"
            "decks = analysis.compare_variants(GAME, {f\"{c} category cards\": {\"cards_per_symbol\": cps}\n"
            "                                         for c, cps in DECKS.items()}, n=N, players=5, seed=SEED)\n"
            "rows = []\n"
            "for c, label in zip(DECKS, decks.labels):\n"
            "    shares = [decks.values(label, f\"win_{k}\") for k in range(5)]\n"
            "    split = c % 5 or 2  # with no extra draw: the split of the rules' deck (2)\n"
            "    step = analysis.mean_interval(np.mean(shares[:split], axis=0) - np.mean(shares[split:], axis=0))\n"
            "    rows.append({\"category cards\": c, \"extra draws (C mod 5)\": c % 5, \"split after seat\": split,\n"
            "                 **{f\"seat {k + 1}\": s.mean() for k, s in enumerate(shares)},\n"
            "                 \"step\": step[0], \"low\": step[1], \"high\": step[2]})\n"
            "pattern = pd.DataFrame(rows).set_index(\"category cards\")\n"
            "pattern"
        ),
        new_code_cell(
            "fig, ax = plt.subplots(figsize=(6, 3.2))\n"
            "for i, (c, r) in enumerate(pattern.iterrows()):\n"
            "    ax.plot(range(1, 6), [100 * r[f\"seat {k}\"] for k in range(1, 6)], \"o-\", color=f\"C{i}\",\n"
            "            label=f\"{c} cards ({c % 5} extra)\")\n"
            "ax.axhline(20, color=\"grey\", ls=\"--\", lw=1)\n"
            "ax.set_xlabel(\"seat\")\n"
            "ax.set_ylabel(\"win share (%), 5 players\")\n"
            "ax.legend(fontsize=8)\n"
            "plt.show()"
        ),
        new_code_cell(
            "say(\"\\n\".join(\n"
            "    f\"- {c} category cards ({c % 5} extra draw{'s' if c % 5 != 1 else ''}): \"\n"
            "    + (\"seat 1\" if c % 5 == 1 else f\"seats 1–{c % 5 or 2}\")\n"
            "    + f\" minus the rest {100 * r.step:+.2f} pp [{100 * r.low:+.2f}, {100 * r.high:+.2f}]: \"\n"
            "    + claim(Estimate(r.step, r.low, r.high, N, null=0.0, margin=0.005), up=\"a step\",\n"
            "            down=\"a step the other way\", none=\"no step beyond ±0.5 pp\")\n"
            "    for c, r in pattern.iterrows()))"
        ),
        new_code_cell(
            "# the explanation's test: the step with extra draws (91-93 cards) against the step without (90)\n"
            "extra, plain = pattern[pattern[\"extra draws (C mod 5)\"] > 0], pattern.loc[90]\n"
            "se = lambda r: (r[\"high\"] - r[\"low\"]) / 3.92  # noqa: E731\n"
            "d = extra[\"step\"].mean() - plain[\"step\"]\n"
            "half = 1.96 * np.sqrt((se(extra) ** 2).sum() / len(extra) ** 2 + se(plain) ** 2)\n"
            "say(f\"With extra draws the step is {100 * d:+.2f} pp [{100 * (d - half):+.2f}, {100 * (d + half):+.2f}] \"\n"
            "    \"away from the step without: \" + claim(Estimate(d, d - half, d + half, N, null=0.0, margin=0.005),\n"
            "    up=\"larger with the extra draws, as the explanation predicts\",\n"
            "    down=\"smaller with the extra draws: the explanation fails\", none=\"no difference beyond ±0.5 pp\") + \".\")"
        ),
        question("What is a skill edge worth?",
                 "Seat 1 wins a face-off against seat j with probability e^θ1 / (e^θ1 + e^θj). Seat 1 gets θ "
                 "against three players at 0, on the same deals (4 players)."),
        new_code_cell(
            "edge = analysis.sweep(GAME, \"theta\", [\"0,0,0,0\", \"0.25,0,0,0\", \"0.5,0,0,0\", \"1,0,0,0\"], n=N,\n"
            "                      players=4, seed=SEED)\n"
            "edge_table = edge.table(\"win_0\")\n"
            "edge_table[\"face_off_win\"] = 1 / (1 + np.exp(-edge_table[\"x\"]))\n"
            "edge_table"
        ),
        new_code_cell("edge.plot.curve([\"win_0\"])"),
        new_code_cell(
            "say(\"\\n\".join(\n"
            "    f\"- θ = {r.x:g} (wins {100 * r.face_off_win:.0f} % of its face-offs): seat 1 wins the game \"\n"
            "    f\"{100 * r.win_0:.1f} % [{100 * r.low:.1f}, {100 * r.high:.1f}], \"\n"
            "    f\"{100 * r.difference:+.1f} pp [{100 * r.diff_low:+.1f}, {100 * r.diff_high:+.1f}] against equal skills: \"\n"
            "    + claim(Estimate(r.difference, r.diff_low, r.diff_high, N, null=0.0, margin=0.01),\n"
            "            up=\"an advantage\", down=\"a disadvantage\", none=\"no effect beyond ±1 pp\")\n"
            "    for r in edge_table.itertuples() if r.x > 0))"
        ),
        *skill_cells(
            "Skill levels θ = 0, 0.5 and 1 as entrants of a 4-player round robin (every lineup in every "
            "seat rotation, the same deals), rated on one Elo scale: the game's skill depth, comparable "
            "with the other games'.",
            "mc.tournament(GAME, [\"theta=0\", \"theta=0.5\", \"theta=1\"], players=4, n=N // 50, seed=SEED,\n"
            "                  bootstrap=100, progress=False)",
            "4"),
        question("How many face-offs and cascades, and how long is a game?",
                 "A face-off is a match of two top cards; a cascade is a chain of face-offs without a draw "
                 "between them. Every card is drawn, so a game's length in draws is set by the deck (68 cards "
                 "plus wilds at 3 players, 100 otherwise)."),
        new_code_cell(
            "metrics = runs[\"equal skills\"].game_table()\n"
            "cols = [\"turns\", \"face_offs\", \"face_offs_low\", \"face_offs_high\", \"cascades\", \"longest_cascade\", \"shared_wins\"]\n"
            "metrics = metrics[cols].assign(face_offs_per_player=metrics[\"face_offs\"] / metrics.index)\n"
            "metrics"
        ),
        new_code_cell("runs[\"equal skills\"].plot.metrics([\"face_offs\", \"cascades\"], [\"face-offs\", \"cascades\"], \"per game\")"),
        new_code_cell(
            "say(\"\\n\".join(\n"
            "    f\"- {p} players: {r.turns:.0f} {UNIT}, {r.face_offs:.1f} [{r.face_offs_low:.1f}, {r.face_offs_high:.1f}] \"\n"
            "    f\"face-offs per game ({r.face_offs_per_player:.1f} per player), {r.cascades:.1f} cascades, the longest \"\n"
            "    f\"{r.longest_cascade:.1f} face-offs on average; {100 * r.shared_wins:.1f} % of games are shared wins.\"\n"
            "    for p, r in metrics.iterrows()))"
        ),
        question("Does the rulebook's 3-player symbol removal raise face-offs per player?",
                 "With 3 players the rulebook removes two symbols (and every card showing them). Both decks on "
                 "the same seeds (the decks differ, so the pairing is by seed only)."),
        new_code_cell(
            "removal = analysis.compare_variants(GAME, {\"remove_symbols=6,7 (rulebook)\": {\"remove_symbols\": [6, 7]},\n"
            "                                           \"no removal\": {\"remove_symbols\": []}}, n=N, players=3, seed=SEED)\n"
            "removal.levels().loc[(slice(None), [\"face_offs\", \"turns\", \"win_0\"]), :]"
        ),
        new_code_cell(
            "d, low, high = (x / 3 for x in removal.difference(\"no removal\", \"face_offs\"))\n"
            "say(f\"Without the removal, face-offs per player per game change by {d:+.2f} [{low:+.2f}, {high:+.2f}]: \"\n"
            "    + claim(Estimate(-d, -high, -low, N, null=0.0, margin=0.1),\n"
            "            up=\"the removal raises them, as the rulebook says\", down=\"the removal lowers them\",\n"
            "            none=\"no effect beyond ±0.1 per player\") + \".\")"
        ),
        question("What does the face-up-winnings house rule change?",
                 "Won cards go face up on the winner's play pile and can start face-offs. Same deals, 4 players, "
                 "each quantity paired deal by deal."),
        new_code_cell(
            "faceup = analysis.compare_variants(GAME, {\"winnings face down (rules)\": {\"winnings_face_up\": False},\n"
            "                                          \"winnings face up\": {\"winnings_face_up\": True}},\n"
            "                                   n=N, players=4, seed=SEED)\n"
            "faceup.differences().loc[(slice(None), [\"face_offs\", \"cascades\", \"longest_cascade\", \"win_0\", \"shared\"]), :]"
        ),
        new_code_cell("faceup.plot.differences([\"win_0\", \"face_offs\", \"cascades\", \"longest_cascade\"])"),
        new_code_cell(
            "variant_answers({\"equal skills\": faceup},\n"
            "                {\"face_offs\": (\"face-offs per game\", \"face-offs\", 1.0),\n"
            "                 \"win_0\": (\"the first seat's win share\", \"pp\", 0.01)})"
        ),
        *luck_cells(
            "Anomia's deal is the order of the whole deck; the face-offs (the players' part, by the skill "
            "model) come later. Each deal is replayed with independent face-offs (docs/luck.md).",
            "mc.luck(GAME, players=4, deals=N // 50, replays=8, seed=SEED, progress=False)"),
        *closing(),
    ]


def wigout() -> list:
    sizes = '''
N = 50_000        # games per run (greedy; tuned plays half as many): raise for real answers
SEED = 20240607
PLAYERS = [2, 3, 4, 5, 6]
UNIT = "actions"  # a play or a draw by any seat, over the game's 5 rounds
STRENGTHS = {"simple": "greedy", "tuned": "tuned"}
SIZE = {"simple": N, "tuned": N // 2}
SECONDS_PER_ACTION = 3.0  # the assumption behind the minutes: one seat's play or draw takes this long
'''
    return [
        *head("wigout", "Wig Out!",
              "Wig Out! for 2–6 players (rules: [docs/rules/wigout.md](../../docs/rules/wigout.md)) is a real-time "
              "race: every seat sheds cards as fast as it can, modelled as a continuous-time simulation with a "
              "speed per seat. Its real questions are the deadlocks with 5–6 players and their remedies, and "
              "what being faster is worth; with equal speeds the seats are symmetric by construction, so the "
              "seat question is a one-line check. Lower score wins.", sizes),
        question("How often do rounds deadlock, and what would remove the deadlocks?",
                 "A deadlock is a round in which the draw pile is empty and no player can play: it scores no "
                 "points. It needs every copy of a stuck character spread one per hand, so it cannot happen with "
                 "fewer players than copies (5). Seat runs at every player count and both strengths:"),
        new_code_cell(
            "runs = {label: analysis.seat_advantage(GAME, players=PLAYERS, n=SIZE[label], strategy=strategy,\n"
            "                                       seed=SEED, keep_games=True)\n"
            "        for label, strategy in STRENGTHS.items()}\n"
            "ROUNDS = runs[\"simple\"].results[2].params[\"rounds\"]\n"
            "deadlocks = pd.DataFrame([{\"players\": p, \"strength\": label, \"rounds_deadlocked\": m[\"mean\"] / ROUNDS,\n"
            "                           \"low\": m[\"ci95\"][0] / ROUNDS, \"high\": m[\"ci95\"][1] / ROUNDS}\n"
            "                          for label, sa in runs.items() for p in sa.player_counts\n"
            "                          for m in [sa.results[p].metrics()[\"deadlocks\"]]]).set_index([\"players\", \"strength\"])\n"
            "deadlocks"
        ),
        new_code_cell(
            "say(\"\\n\".join(\n"
            "    f\"- {p} players, {label}: \" + (\"no round deadlocked\" if r.rounds_deadlocked == 0 else\n"
            "        f\"{100 * r.rounds_deadlocked:.1f} % [{100 * r.low:.1f}, {100 * r.high:.1f}] of rounds deadlock\")\n"
            "    for (p, label), r in deadlocks.iterrows()))"
        ),
        new_markdown_cell("The remedies at 6 players, where deadlocks are most common: a 7-card hand, or 6 or 7 copies "
                          "of each character (the same seeds; the decks differ with `copies`, so the pairing is by "
                          "seed only)."),
        new_code_cell(
            "REMEDIES = {\"rules (5 copies, hand 5)\": {}, \"hand_size=7\": {\"hand_size\": 7}, \"copies=6\": {\"copies\": 6},\n"
            "            \"copies=7\": {\"copies\": 7}}\n"
            "remedies = {label: analysis.compare_variants(GAME, REMEDIES, n=SIZE[label], players=6, strategies=strategy,\n"
            "                                             seed=SEED)\n"
            "            for label, strategy in STRENGTHS.items()}\n"
            "variant_table(remedies, {\"deadlocks\": (\"deadlocked rounds per game\", \"rounds\", 0.05),\n"
            "                         \"turns\": (\"actions per game\", \"actions\", 1.0)})"
        ),
        new_code_cell(
            "fig, ax = plt.subplots(figsize=(6.5, 3.2))\n"
            "for i, (label, cmp) in enumerate(remedies.items()):\n"
            "    levels = [cmp.level(v, \"deadlocks\") for v in cmp.labels]\n"
            "    ax.errorbar(np.arange(len(levels)) + 0.1 * i, [100 * m / ROUNDS for m, _, _ in levels],\n"
            "                yerr=[[100 * (m - lo) / ROUNDS for m, lo, _ in levels], [100 * (hi - m) / ROUNDS for m, _, hi in levels]],\n"
            "                fmt=\"o\", capsize=3, color=f\"C{i}\", label=f\"{label}: {STRENGTHS[label]}\")\n"
            "ax.set_xticks(range(len(REMEDIES)), list(REMEDIES))\n"
            "ax.set_ylabel(\"rounds deadlocked (%), 6 players\")\n"
            "ax.legend(fontsize=8)\n"
            "plt.show()"
        ),
        new_code_cell(
            "variant_answers(remedies, {\"deadlocks\": (\"deadlocked rounds per game\", \"rounds\", 0.05)})"
        ),
        question("What is a speed edge worth, up to twice as fast?",
                 "Seat 1 acts faster than the three others (speed 1.25 = 25 % faster); every speed is played on the "
                 "same deals and compared deal by deal (4 players)."),
        new_code_cell(
            "speeds = {label: analysis.sweep(GAME, \"speed\", [\"1,1,1,1\", \"1.1,1,1,1\", \"1.25,1,1,1\", \"1.5,1,1,1\", \"2,1,1,1\"],\n"
            "                                n=SIZE[label], players=4, strategies=strategy, seed=SEED)\n"
            "          for label, strategy in STRENGTHS.items()}\n"
            "speed_table = pd.concat({label: sw.table(\"win_0\") for label, sw in speeds.items()}, names=[\"strength\", \"row\"])\n"
            "speed_table"
        ),
        new_code_cell(
            "fig, ax = plt.subplots(figsize=(6, 3.2))\n"
            "for i, (label, rows) in enumerate(speed_table.groupby(level=\"strength\", sort=False)):\n"
            "    ax.errorbar(rows[\"x\"], 100 * rows[\"win_0\"], yerr=[100 * (rows[\"win_0\"] - rows[\"low\"]), 100 * (rows[\"high\"] - rows[\"win_0\"])],\n"
            "                fmt=\"o-\", capsize=3, color=f\"C{i}\", label=f\"{label}: {STRENGTHS[label]}\")\n"
            "ax.axhline(25, color=\"grey\", ls=\"--\", lw=1)\n"
            "ax.set_xlabel(\"seat 1's speed (others 1.0)\")\n"
            "ax.set_ylabel(\"seat 1's win share (%)\")\n"
            "ax.legend(fontsize=8)\n"
            "plt.show()"
        ),
        new_code_cell(
            "lines = []\n"
            "for x in sorted(set(speed_table[\"x\"]) - {1.0}):\n"
            "    ests = {}\n"
            "    for label, rows in speed_table.groupby(level=\"strength\", sort=False):\n"
            "        r = rows[rows[\"x\"] == x].iloc[0]\n"
            "        ests[label] = Estimate(r[\"difference\"], r[\"diff_low\"], r[\"diff_high\"], SIZE[label], null=0.0, margin=0.01)\n"
            "    lines.append(f\"- {100 * (x - 1):.0f} % faster: \" + across_strengths(\n"
            "        ests, pp, up=\"an advantage\", down=\"a disadvantage\", none=\"no effect beyond ±1 pp\").text)\n"
            "say(\"\\n\".join(lines))"
        ),
        question("Does a 7-card hand instead of 5 change the game at 6 players?",
                 "The rules deal 5 cards with 5–6 players. Both hand sizes on the same deals, at each strength."),
        new_code_cell(
            "HANDS = {\"hand_size=5 (rules)\": {\"hand_size\": 5}, \"hand_size=7\": {\"hand_size\": 7}}\n"
            "HAND_Q = {\"win_0\": (\"seat 1's win share\", \"pp\", 0.01), \"shared\": (\"ties\", \"pp\", 0.01),\n"
            "          \"turns\": (\"actions per game\", \"actions\", 1.0)}\n"
            "hands = {label: analysis.compare_variants(GAME, HANDS, n=SIZE[label], players=6, strategies=strategy, seed=SEED)\n"
            "         for label, strategy in STRENGTHS.items()}\n"
            "variant_table(hands, HAND_Q)"
        ),
        new_code_cell("variant_answers(hands, HAND_Q)"),
        question("How many cards does a losing seat keep per round?",
                 "The first seat to empty its hand scores 0; every other seat 1 point per card left."),
        new_code_cell(
            "rows = []\n"
            "for label, sa in runs.items():\n"
            "    for p in sa.player_counts:\n"
            "        g = sa.results[p].games\n"
            "        points = g[[f\"score_{k}\" for k in range(p)]].to_numpy().sum(axis=1)\n"
            "        losers = (ROUNDS - g[\"deadlocks\"].to_numpy()) * (p - 1)\n"
            "        m, low, high = analysis.mean_interval(points[losers > 0] / losers[losers > 0])\n"
            "        rows.append({\"players\": p, \"strength\": label, \"hand\": sa.results[p].params[\"hand_size\"],\n"
            "                     \"cards_left\": m, \"low\": low, \"high\": high})\n"
            "left = pd.DataFrame(rows).set_index([\"players\", \"strength\"])\n"
            "left.unstack(\"strength\")[\"cards_left\"]"
        ),
        *length_cells(
            "An action is one play or one draw by any seat, over the game's 5 rounds. Wig Out! is played in "
            "real time; the minutes assume every seat acts at the same pace, `SECONDS_PER_ACTION` seconds per "
            "play or draw, in parallel (an assumption, not a measurement: change it above)."),
        new_code_cell(
            "minutes = length[\"per_player\"] * SECONDS_PER_ACTION / 60\n"
            "say(\"\\n\".join(f\"- {p} players, {label}: about {m:.1f} minutes (at {SECONDS_PER_ACTION:g} s per action)\"\n"
            "                for (p, label), m in minutes.items()))"
        ),
        question("Are the seats symmetric, as the model says they must be?",
                 "With equal speeds the seats are symmetric by construction; the check counts the seat intervals "
                 "that miss the fair share, against the one in twenty expected by chance."),
        new_code_cell(
            "from scipy.stats import binom\n\n"
            "cis = [(lo, hi, 1 / p) for sa in runs.values() for p in sa.player_counts for lo, hi in sa.results[p].win_share_ci95]\n"
            "missed = sum(not (lo <= fair <= hi) for lo, hi, fair in cis)\n"
            "chance = binom.sf(missed - 1, len(cis), 0.05) if missed else 1.0\n"
            "say(f\"{missed} of {len(cis)} seat win-share intervals miss the fair share (about {0.05 * len(cis):.1f} \"\n"
            "    f\"expected by chance; the probability of {missed} or more is {chance:.2f}): \"\n"
            "    + (\"consistent with symmetric seats.\" if chance >= 0.05 else \"more than chance allows: look for a seat effect.\"))"
        ),
        new_code_cell("seat_table(runs).loc[(slice(None), \"simple\"), :]"),
        *skill_cells(
            "A 4-player round robin of the built-in players (every lineup in every seat rotation, the same "
            "deals), rated on one Elo scale (Plackett–Luce on the finishing orders; docs/ratings.md).",
            "mc.tournament(GAME, [\"random\", \"singles_first\", \"greedy\", \"tuned\"], players=4, n=N // 5,\n"
            "                  seed=SEED, bootstrap=100, progress=False)",
            "4"),
        *luck_cells(
            "Wig Out!'s deal is the first round's hands and starters; the later rounds' decks and the race "
            "itself come later. Each deal is replayed with independent later draws (docs/luck.md).",
            "mc.luck(GAME, players=4, strategies=\"greedy\", deals=N // 20, replays=8, seed=SEED, progress=False)"),
        *closing(),
    ]


def tulips() -> list:
    sizes = '''
N = 20_000        # games per player count with greedy in every seat (tuned: half): raise for real answers
N_SEARCH = 300    # games per player count with the search player in every seat (much slower)
SEED = 20240607
PLAYERS = [2, 3, 4, 5, 6]
UNIT = "player turns"  # one seat's turn
STRENGTHS = {"simple": "greedy", "tuned": "tuned", "strong": "ismcts[100,0.7,0]"}
SIZE = {"simple": N, "tuned": N // 2, "strong": N_SEARCH}
'''
    return [
        *head("tulips", "Gift of Tulips",
              "Gift of Tulips for 2–6 players (rules: [docs/rules/tulips.md](../../docs/rules/tulips.md)): the "
              "seat order at every strength, which player wins and by how much, where a winner's points come "
              "from, and how much the card-value model (which the rulebook does not print) matters. Higher "
              "score wins.", sizes),
        *seat_cells("Every seat plays the same player, so any difference between seats is the seat's own. Three "
                    "strengths: `greedy`, `tuned` and information-set MCTS with 100 iterations per decision (a "
                    "small budget: its runs are small, and their verdicts say so)."),
        question("Where does a winner's score come from: giving, keeping or majorities?",
                 "For every game, the winning seat's points split into keeping (keep bonus), giving (card value "
                 "plus give bonus) and the end-of-game majorities; shared wins count each winner."),
        new_code_cell(
            "SOURCES = (\"keep_points\", \"give_points\", \"majority_points\")\n"
            "sources = {label: analysis.seat_advantage(GAME, players=PLAYERS, n=SIZE[label], strategy=STRENGTHS[label],\n"
            "                                          seed=SEED, keep_games=True) for label in (\"simple\", \"tuned\")}\n"
            "rows = []\n"
            "for label, sa in sources.items():\n"
            "    for p in sa.player_counts:\n"
            "        g = sa.results[p].games\n"
            "        win = g[[f\"win_{k}\" for k in range(p)]].to_numpy()\n"
            "        total = (win * g[[f\"score_{k}\" for k in range(p)]].to_numpy()).sum(axis=1)\n"
            "        ok = win.sum(axis=1) > 0\n"
            "        row = {\"players\": p, \"strength\": label}\n"
            "        for src in SOURCES:\n"
            "            part = (win * g[[f\"{src}_{k}\" for k in range(p)]].to_numpy()).sum(axis=1)\n"
            "            row[src.split(\"_\")[0]], row[src.split(\"_\")[0] + \"_low\"], row[src.split(\"_\")[0] + \"_high\"] = \\\n"
            "                analysis.mean_interval(part[ok] / np.maximum(total[ok], 1))\n"
            "        rows.append(row)\n"
            "points = pd.DataFrame(rows).set_index([\"players\", \"strength\"])\n"
            "points"
        ),
        new_code_cell(
            "fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), sharey=True)\n"
            "for ax, (label, rows) in zip(axes, points.groupby(level=\"strength\", sort=False)):\n"
            "    rows = rows.droplevel(\"strength\")\n"
            "    bottom = np.zeros(len(rows))\n"
            "    for i, part in enumerate([\"give\", \"majority\", \"keep\"]):\n"
            "        ax.bar(rows.index, 100 * rows[part], bottom=bottom, color=f\"C{i}\", label=part)\n"
            "        bottom += 100 * rows[part].to_numpy()\n"
            "    ax.set_title(f\"{label}: {STRENGTHS[label]}\", fontsize=10)\n"
            "    ax.set_xlabel(\"players\")\n"
            "axes[0].set_ylabel(\"share of the winner's points (%)\")\n"
            "axes[-1].legend(fontsize=8)\n"
            "plt.show()"
        ),
        new_code_cell(
            "say(\"\\n\".join(\n"
            "    f\"- {p} players, {label}: giving {100 * r.give:.0f} % [{100 * r.give_low:.0f}, {100 * r.give_high:.0f}], \"\n"
            "    f\"majorities {100 * r.majority:.0f} % [{100 * r.majority_low:.0f}, {100 * r.majority_high:.0f}], \"\n"
            "    f\"keeping {100 * r.keep:.0f} % [{100 * r.keep_low:.0f}, {100 * r.keep_high:.0f}] of a winner's points.\"\n"
            "    for (p, label), r in points.iterrows()))"
        ),
        *length_cells("A player turn is one seat's turn; the turns of all seats are counted together. The "
                      "rules fix the number of turns for each player count, so the length is the same at every "
                      "strength (no figure); the ties (shared wins) in the same table do change.", figure=False),
        *skill_cells(
            "Which player wins? One 4-player round robin of the built-in players (every lineup in every seat "
            "rotation, the same deals), rated on one Elo scale, so the page gives one order (Plackett–Luce "
            "on the finishing orders; docs/ratings.md).",
            "mc.tournament(GAME, [\"random\", \"majority\", \"greedy\", \"tuned\"], players=4, n=N // 20,\n"
            "                  seed=SEED, bootstrap=100, progress=False)",
            "4"),
        question("Does the order depend on who else is at the table?",
                 "The round robin seats every player once per game. A designer also asks how one player does alone "
                 "against a table of another: one `tuned` seat against three `greedy`, and one `greedy` seat "
                 "against three `tuned`, on the same deals in every seat rotation (fair share 25 %)."),
        new_code_cell(
            "from montecards.analysis.matchups import matchups\n\n"
            "duel = matchups(GAME, [\"tuned\", \"greedy\"], players=4, n=N // 10, seed=SEED)\n"
            "duel_table = duel.table().drop(columns=\"verdict\")\n"
            "duel_table"
        ),
        new_code_cell(
            "say(\"\\n\".join(\n"
            "    f\"- One `{r.strategy}` seat against three `{r.opponent}` wins {100 * r.win_share:.1f} % \"\n"
            "    f\"[{100 * r.low:.1f}, {100 * r.high:.1f}] (fair {100 * r.fair_share:.0f} %): \"\n"
            "    + claim(Estimate(r.win_share, r.low, r.high, r.games // 4, null=r.fair_share, margin=0.01),\n"
            "            up=f\"`{r.strategy}` beats the table\", down=\"below its fair share\", none=\"no effect beyond ±1 pp\")\n"
            "    for r in duel_table.itertuples()))"
        ),
        new_code_cell(
            "# the two views side by side: greedy against tuned in the mixed table, and each alone at the other's table\n"
            "mixed = t.ratings.ahead().set_index([\"strategy\", \"opponent\"]).loc[(\"greedy\", \"tuned\")]\n"
            "alone = duel_table.set_index(\"strategy\")\n"
            "first = Estimate(mixed[\"observed\"], mixed[\"low\"], mixed[\"high\"], int(mixed[\"meetings\"]) // 4, null=0.5)\n"
            "second = Estimate(*alone.loc[\"tuned\", [\"win_share\", \"low\", \"high\"]], int(alone.loc[\"tuned\", \"games\"]) // 4,\n"
            "                  null=0.25)\n"
            "if first.direction == 1 and second.direction == 1:\n"
            "    say(\"The order depends on the table: in the mixed round robin `greedy` finishes ahead of `tuned`, \"\n"
            "        \"but alone at a table of `greedy` players `tuned` wins more than its fair share. \"\n"
            "        \"Each order holds for its own table; neither is the whole answer.\")\n"
            "elif first.direction == -1 and second.direction == 1:\n"
            "    say(\"The two views agree: `tuned` finishes ahead of `greedy` in the mixed table and wins more than its \"\n"
            "        \"share alone at a table of `greedy`.\")\n"
            "else:\n"
            "    say(\"At this size the two views do not both resolve; raise `N` to compare them.\")"
        ),
        question("How much do the results depend on the card-value model?",
                 "The rulebook does not print the card values; the project's default is 2, 3, 4 per colour. "
                 "Other models on the same deals (4 players), at each strength: each seat's win share, paired."),
        new_code_cell(
            "MODELS = {\"values=2,3,4 (default)\": {\"values\": [2, 3, 4]}, \"values=1,2,3\": {\"values\": [1, 2, 3]},\n"
            "          \"values=2,4,6\": {\"values\": [2, 4, 6]}, \"values=3,3,3\": {\"values\": [3, 3, 3]}}\n"
            "MODEL_Q = {f\"win_{k}\": (f\"seat {k + 1}'s win share\", \"pp\", 0.01) for k in range(4)}\n"
            "models = {label: analysis.compare_variants(GAME, MODELS, n=SIZE[label], players=4, strategies=STRENGTHS[label],\n"
            "                                           seed=SEED) for label in (\"simple\", \"tuned\")}\n"
            "variant_table(models, MODEL_Q).unstack(\"strength\")[\"difference\"]"
        ),
        new_code_cell("variant_plot(models, \"win_0\", \"seat 1's win share\")"),
        new_code_cell("variant_answers(models, MODEL_Q)"),
        *luck_cells(
            "Gift of Tulips' deal is the setup up to the bouquet and secret choice; the later draws and the "
            "secret reveal come later. Each deal is replayed with independent later draws (docs/luck.md).",
            "mc.luck(GAME, players=4, strategies=\"greedy\", deals=N // 10, replays=8, seed=SEED, progress=False)"),
        *closing(),
    ]


def marbles() -> list:
    sizes = '''
N = 8_000         # games per player count and strength (a game is hundreds of turns): raise for real answers
SEED = 20240607
PLAYERS = [2, 3, 4, 5, 6]
UNIT = "turns"    # one card played (or discarded) by one seat
STRENGTHS = {"simple": "greedy", "tuned": "tuned"}
SIZE = {"simple": N, "tuned": N}
'''
    return [
        *head("marbles", "Joker Marbles",
              "Joker Marbles (Pegs and Jokers) for 2–6 players (rules: [docs/rules/marbles.md](../../docs/rules/marbles.md)): "
              "the seat order at two strengths, how long a game lasts (greedy dawdles: strong play is much "
              "shorter), team against individual play, the variants, and which player wins. A search player "
              "is too slow for this notebook's budget (the full report has one).", sizes),
        *seat_cells("Every seat plays the same player. With 3 or 5 players the seats are not evenly spaced around "
                    "the board (seat k sits on side floor(k · sides / players)), so seat differences there may "
                    "come from the geometry rather than the order of play."),
        *length_cells("A turn is one card played (or discarded) by one seat; all seats' turns are counted "
                      "together. Shared wins (ties) are in the same table."),
        question("What changes when partners play in teams?",
                 "4 players, partners opposite ({seat 1, seat 3} against {seat 2, seat 4}); a team's win is shared "
                 "by its two seats. Played on the same deals as individual play, at each strength."),
        new_code_cell(
            "TEAMS = {\"individual (rules)\": {\"teams\": \"none\"}, \"teams of partners\": {\"teams\": \"pairs\"}}\n"
            "teams = {label: analysis.compare_variants(GAME, TEAMS, n=SIZE[label], players=4, strategies=strategy, seed=SEED)\n"
            "         for label, strategy in STRENGTHS.items()}\n"
            "rows = []\n"
            "for label, cmp in teams.items():\n"
            "    team = analysis.share_interval(cmp.values(\"teams of partners\", \"win_0\") + cmp.values(\"teams of partners\", \"win_2\"))\n"
            "    d = cmp.difference(\"teams of partners\", \"turns\")\n"
            "    rows.append({\"strength\": label, \"first_team\": team[0], \"low\": team[1], \"high\": team[2],\n"
            "                 \"turns_individual\": cmp.level(\"individual (rules)\", \"turns\")[0],\n"
            "                 \"turns_change\": d[0], \"change_low\": d[1], \"change_high\": d[2]})\n"
            "team_table = pd.DataFrame(rows).set_index(\"strength\")\n"
            "team_table"
        ),
        new_code_cell(
            "say(\"\\n\".join(\n"
            "    f\"- {label}: the first team (seats 1 and 3) wins {100 * r.first_team:.1f} % [{100 * r.low:.1f}, {100 * r.high:.1f}] \"\n"
            "    f\"(fair 50 %: \" + claim(Estimate(r.first_team, r.low, r.high, SIZE[label], null=0.5, margin=0.01),\n"
            "                            up=\"a first-team advantage\", down=\"a first-team disadvantage\",\n"
            "                            none=\"no effect beyond ±1 pp\")\n"
            "    + f\"); teams change a game's length by {r.turns_change:+.0f} [{r.change_low:+.0f}, {r.change_high:+.0f}] {UNIT}.\"\n"
            "    for label, r in team_table.iterrows()))"
        ),
        question("What do the variants change: the nine split, the joker from the track, two decks?",
                 "Each variant against the rules, 4 players, the same seeds, paired game by game, at each strength."),
        new_code_cell(
            "VARIANTS = {\"rules\": {}, \"nine_split\": {\"nine_split\": True}, \"joker_from_track\": {\"joker_from_track\": True},\n"
            "            \"decks=2\": {\"decks\": 2}}\n"
            "VAR_Q = {\"win_0\": (\"seat 1's win share\", \"pp\", 0.01), \"turns\": (\"turns per game\", \"turns\", 5.0),\n"
            "         \"bumps\": (\"bumps per game\", \"bumps\", 0.5)}\n"
            "variants = {label: analysis.compare_variants(GAME, VARIANTS, n=SIZE[label], players=4, strategies=strategy,\n"
            "                                             seed=SEED)\n"
            "            for label, strategy in STRENGTHS.items()}\n"
            "variant_table(variants, VAR_Q)"
        ),
        new_code_cell("variant_plot(variants, \"win_0\", \"seat 1's win share\")"),
        new_code_cell("variant_answers(variants, VAR_Q)"),
        *skill_cells(
            "Which player wins? A 4-player round robin of the built-in players (every lineup in every seat "
            "rotation, the same deals), rated on one Elo scale (Plackett–Luce on the finishing orders; "
            "docs/ratings.md).",
            "mc.tournament(GAME, [\"random\", \"greedy\", \"aggressive\", \"tuned\"], players=4, n=N // 10,\n"
            "                  seed=SEED, bootstrap=100, progress=False)",
            "4"),
        *luck_cells(
            "Joker Marbles' deal is the five cards dealt to every seat (the board starts empty); the "
            "reshuffles and later draws come later. Each deal is replayed with independent later draws "
            "(docs/luck.md).",
            "mc.luck(GAME, players=4, strategies=\"greedy\", deals=N // 4, replays=4, seed=SEED, progress=False)"),
        *closing(),
    ]


BUILDERS = {"parade": parade, "anomia": anomia, "wigout": wigout, "tulips": tulips, "marbles": marbles}


def notebook(game: str):
    """The notebook of ``game`` as this script writes it, without outputs."""
    return new_notebook(cells=BUILDERS[game](), metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})


def execute(nb, timeout: int) -> float:
    """Run every cell in the repository root (so the kernel imports this checkout); the seconds taken."""
    import nbclient

    start = time.perf_counter()
    nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT)}}).execute()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"default: all ({', '.join(GAMES)})")
    parser.add_argument("--no-execute", action="store_true", help="write the cells without running them")
    parser.add_argument("--timeout", type=int, default=1800, help="seconds per cell (default 1800)")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in BUILDERS]
    if unknown:
        print(f"error: unknown game {unknown[0]!r} (allowed: {', '.join(GAMES)})", file=sys.stderr)
        return 2
    for game in args.games or GAMES:
        nb = notebook(game)
        seconds = 0.0 if args.no_execute else execute(nb, args.timeout)
        nbformat.write(nb, path_of(game))
        ran = "not executed" if args.no_execute else f"executed in {seconds:.0f} s"
        print(f"wrote {path_of(game).relative_to(ROOT)} ({ran})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Analysis commands of ``montecards``: ``seats``, ``compare``, ``sweep``, ``tournament``,
``tune``, ``luck``, ``balance`` and ``report``.

They only parse arguments, call :mod:`montecards.analysis` / :mod:`montecards.report` and
print (a readable table, or exactly one JSON object with ``--json``). Bad input raises
InputError, which ``montecards.cli.main`` turns into one line on stderr and exit status 2.
They are registered on the ``cli`` group by ``montecards/cli.py``.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import click

from montecards.cli_common import (
    luck_option,
    parse_params,
    parse_strategy_params,
    split_names,
    strategy_params_option,
)
from montecards.errors import InputError


def _params(pairs: tuple[str, ...]) -> dict[str, str]:
    return parse_params(pairs)


def _check_plot(ctx, param, value):
    """``--plot``: a .png in a writable folder, checked before the analysis runs."""
    if value is not None:
        from montecards.api import check_output_file

        check_output_file(value, (".png",), "--plot")
    return value


def _check_out_dir(ctx, param, value):
    """``report -o``: a folder (new or existing) under an existing, writable folder."""
    if value is not None:
        from montecards.api import check_output_folder

        check_output_folder(value, "--output")
    return value


def _backend_options(func):
    """``--backend local|dask`` and ``--scheduler ADDR``: the whole command plays there (as
    ``simulate`` does; the numbers do not change)."""

    @functools.wraps(func)
    def run(*args, backend, scheduler, **kwargs):
        from montecards.analysis import backend_session

        with backend_session(backend, None, scheduler, kwargs.get("jobs")):
            return func(*args, **kwargs)

    run = click.option("--scheduler", default=None, help="Dask scheduler address (tcp://host:port).")(run)
    return click.option("--backend", type=click.Choice(["local", "dask"]), default="local",
                        help="local (numba threads) or dask (a cluster; -j workers of a LocalCluster "
                        "without --scheduler).")(run)


def _run_options(params_help: str, plot_help: str):
    """``--seed``, ``-j``, ``--json``, ``--param``, ``--plot`` and the backend options, in that
    order (the commands that take no ``--precision``: ``tournament``, ``luck``, ``balance``)."""

    def apply(func):
        func = _backend_options(func)
        func = click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
                            callback=_check_plot, help=plot_help)(func)
        func = click.option("--param", "params", multiple=True, metavar="KEY=VALUE", help=params_help)(func)
        func = click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")(func)
        func = click.option("-j", "--jobs", type=int, default=None, help="Threads.")(func)
        return click.option("--seed", type=int, default=None, help="Seed (drawn at random if omitted).")(func)

    return apply


def _common(func):
    """Options shared by the analysis commands."""
    func = _backend_options(func)
    func = click.option("--seed", type=int, default=None, help="Seed (drawn at random if omitted).")(func)
    func = click.option("-j", "--jobs", type=int, default=None, help="Threads.")(func)
    func = click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")(func)
    func = click.option(
        "--precision",
        type=float,
        default=None,
        help="Play until every requested 95 % interval has at most this half-width (e.g. 0.002); "
        "replaces -n.",
    )(func)
    func = click.option(
        "--param",
        "params",
        multiple=True,
        metavar="KEY=VALUE",
        help="Rule or model parameter for every run (repeatable; lists comma-separated).",
    )(func)
    func = click.option(
        "--plot",
        "plot_path",
        type=click.Path(dir_okay=False),
        default=None,
        callback=_check_plot,
        help="Also write the analysis figure to this PNG file.",
    )(func)
    return func


def _emit(result, as_json: bool, text: str, plot_path: str | None, figure=None) -> None:
    if plot_path is not None:
        from montecards.plots import save

        save(figure() if figure else result.plot(), plot_path)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        click.echo(text)


def _frame_text(frame) -> str:
    import pandas as pd

    with pd.option_context("display.max_rows", None, "display.width", 140, "display.max_columns", None):
        return frame.to_string(float_format=lambda x: f"{x:.4f}")


def seats_from_one(frame):
    """``frame`` with its ``seat`` index level counted from 1, as the sentences and plots count
    seats (the Python table and the JSON index them from 0)."""
    t = frame.reset_index()
    t["seat"] += 1
    return t.set_index(list(frame.index.names))


@click.command("seats")
@click.argument("game")
@click.option(
    "-p",
    "--players",
    "players",
    multiple=True,
    type=int,
    help="Player count (repeatable; default: every count the game allows).",
)
@click.option("-s", "--strategy", default=None, help="Strategy of every seat (default: the game's).")
@strategy_params_option()
@click.option("-n", "n", type=int, default=100_000, show_default=True, help="Games per player count.")
@click.option("--duplicate/--no-duplicate", default=None,
              help="Duplicate deals: n / players deals, each with its hands in every rotation among the "
              "seats (docs/luck.md; default: on for Wig Out!, where it pays, off elsewhere).")
@luck_option()
@_common
def seats_command(game, players, strategy, strategy_params, n, duplicate, luck, seed, jobs, as_json, precision,
                  params, plot_path) -> None:
    """Seat advantage: every seat's win share per player count, with 95 % intervals."""
    from montecards.analysis import seat_advantage

    sa = seat_advantage(
        game,
        players=list(players) or None,
        n=n,
        strategy=strategy,
        params=_params(params),
        seed=seed,
        jobs=jobs,
        precision=precision,
        strategy_params=parse_strategy_params(strategy_params),
        duplicate=duplicate,
        luck=luck,
    )
    lines = [f"{sa.title}: seat advantage, seed {next(iter(sa.results.values())).seed}"
             + (" (duplicate deals: every deal in every rotation of its hands)"
                if any("duplicate" in r.extra for r in sa.results.values()) else "")]
    for p, info in sa.adaptive.items():
        lines.append(f"{p} players: {info.sentence()}")
    lines += ["", _frame_text(seats_from_one(sa.table())), ""] + sa.findings()
    _emit(sa, as_json, "\n".join(lines), plot_path, lambda: sa.plot.win_share())


def _variant(text: str) -> dict[str, str]:
    pairs = tuple(text.split())
    if not pairs:
        raise InputError("--variant takes KEY=VALUE (several separated by spaces), got an empty value")
    return parse_params(pairs)


@click.command("compare")
@click.argument("game")
@click.option(
    "-s",
    "--strategy",
    "strategies",
    multiple=True,
    help="Matchups: a strategy to compare (repeat, 2 or more). With --variant: seat strategies.",
)
@strategy_params_option("strategy (matchups) or seat (--variant)", "-s order")
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="'KEY=VALUE ...'",
    help="A rule variant (repeat, 2 or more; the first is the baseline).",
)
@click.option("-p", "--players", type=int, default=None, help="Number of players.")
@click.option(
    "-n",
    "n",
    type=int,
    default=None,
    help="Deals per pair (matchups, default 20,000) or per variant (default 100,000).",
)
@click.option(
    "--n-for",
    "n_for",
    multiple=True,
    metavar="STRATEGY=N",
    help="Fewer deals for pairs involving a slow strategy, e.g. rollout=500.",
)
@luck_option()
@_common
def compare_command(
    game, strategies, strategy_params, variants, players, n, n_for, luck, seed, jobs, as_json, precision,
    params, plot_path
) -> None:
    """Strategy matchups over all seat rotations (-s A -s B ...), or rule variants on common
    random numbers (--variant 'k=v' --variant 'k=v2' ...)."""
    from montecards import games
    from montecards.analysis import compare_variants
    from montecards.analysis.matchups import matchups  # (the package's 'matchups' may be the module)

    spec = games.get(game)
    weights = parse_strategy_params(strategy_params)
    if variants:
        if len(variants) < 2:
            raise InputError("give at least 2 --variant (the first is the baseline)")
        named = {v.strip(): _variant(v) for v in variants}
        cmp = compare_variants(
            game,
            named,
            n=n or 100_000,
            players=players,
            strategies=list(strategies) or None,
            params=_params(params),
            seed=seed,
            jobs=jobs,
            precision=precision,
            strategy_params=weights,
            luck=luck,
        )
        head = (
            f"{cmp.title}: {len(cmp.labels)} variants, {cmp.n_games:,} common deals, "
            f"{cmp.players} players, seed {cmp.seed}, baseline {cmp.baseline}"
        )
        if cmp.adaptive:
            head += f"\n{cmp.adaptive.sentence()}"
        text = "\n".join(
            [
                head,
                "",
                "levels:",
                _frame_text(cmp.levels()),
                "",
                "paired differences (variant - baseline):",
                _frame_text(cmp.differences()),
                "",
            ]
            + cmp.findings()
        )
        _emit(cmp, as_json, text, plot_path)
        return
    if len(set(strategies)) < 2:
        raise InputError(
            "compare needs at least 2 different -s strategies (matchups) or 2 --variant "
            f"(allowed strategies for {spec.name}: {', '.join(spec.strategies)})"
        )
    slow: dict[str, int] = {}
    for item in n_for:
        name, sep, value = item.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            raise InputError(f"--n-for takes STRATEGY=N, got {item!r}")
        if name not in spec.strategies:
            raise InputError(f"unknown strategy {name!r} in --n-for (allowed: {', '.join(spec.strategies)})")
        slow[name] = int(value)
    res = matchups(
        game,
        list(strategies),
        players=players or 2,
        n=n or 20_000,
        params=_params(params),
        seed=seed,
        jobs=jobs,
        n_for=slow,
        precision=precision,
        strategy_params=weights,
        luck=luck,
    )
    head = (
        f"{res.title}: matchups at {res.players} players over all seat rotations, seed {res.seed} "
        f"(fair share {100 * res.fair_share:.1f} %)"
    )
    if res.adaptive:
        head += f"\n{res.adaptive.sentence()}"
    text = "\n".join(
        [
            head,
            "",
            "win share of row strategy:",
            _frame_text(res.matrix()),
            "",
        ]
        + (["luck-adjusted win share of row strategy:", _frame_text(res.matrix("win_share_adjusted")), "",
            "variance ratio (plain / adjusted, over deals):", _frame_text(res.matrix("variance_ratio")), ""]
           if res.takes_luck else [])
        + [
            _frame_text(res.ranking()),
            "",
        ]
        + res.findings()
    )
    _emit(res, as_json, text, plot_path)


@click.command("sweep")
@click.argument("game")
@click.argument("parameter")
@click.argument("values", nargs=-1)
@click.option("-p", "--players", type=int, default=None, help="Number of players.")
@click.option("-s", "--strategy", "strategies", multiple=True, help="Strategy (once, or once per seat).")
@strategy_params_option()
@click.option("-n", "n", type=int, default=100_000, show_default=True, help="Deals per value.")
@luck_option("Luck ledger: luck-adjusted win shares and the variance ratio (docs/luck.md; official "
             "rules only, so only values that keep them).")
@_common
def sweep_command(
    game, parameter, values, players, strategies, strategy_params, n, luck, seed, jobs, as_json, precision,
    params, plot_path
) -> None:
    """Play PARAMETER at each VALUE (lists comma-separated: speed 1,1,1,1 1.1,1,1,1) on the
    same deals; print each seat's win share and the paired difference from the first value."""
    from montecards.analysis import sweep

    if not values:
        raise InputError(f"sweep of {parameter} needs at least one value")
    res = sweep(
        game,
        parameter,
        list(values),
        n=n,
        players=players,
        strategies=list(strategies) or None,
        params=_params(params),
        seed=seed,
        jobs=jobs,
        precision=precision,
        strategy_params=parse_strategy_params(strategy_params),
        luck=luck,
    )
    c = res.comparison
    head = (
        f"{c.title}: {parameter} over {len(res.x)} values, {c.n_games:,} common deals each, "
        f"{c.players} players, seed {c.seed}"
    )
    if c.adaptive:
        head += f"\n{c.adaptive.sentence()}"
    parts = [head]
    for k in range(c.players):
        parts += ["", f"seat {k + 1} win share:", _frame_text(res.table(f"win_{k}").set_index("value"))]
        if c.takes_luck:
            parts += ["", f"seat {k + 1} luck-adjusted win share:",
                      _frame_text(res.table(f"adjusted_{k}").set_index("value"))]
    if c.takes_luck:
        parts += [""] + [line for line in c.findings() if "luck-adjusted" in line]
    _emit(res, as_json, "\n".join(parts), plot_path)


@click.command("report")
@click.argument("game", required=False)
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    callback=_check_out_dir,
    help="Folder for README.md and the figures (default: reports/GAME; with --html: site).",
)
@click.option("--quick", is_flag=True, help="Small runs (under a minute): for tests and previews.")
@click.option("--seed", type=int, default=None, help="Seed (default: the reports' fixed seed).")
@click.option("-j", "--jobs", type=int, default=None, help="Threads.")
@click.option("--html", is_flag=True,
              help="Build the web site (summary, every report, docs, API reference) from the existing "
                   "reports instead of running a report; needs montecards[docs].")
@click.option("--reports", "reports_dir", type=click.Path(file_okay=False), default=None,
              help="With --html: the folder of the reports (default: the checkout's reports/).")
@_backend_options
def report_command(game, out_dir, quick, seed, jobs, html, reports_dir) -> None:
    """Write README.md + PNG figures answering GAME's questions (rules page, last section), or
    with --html the site of every report."""
    from montecards.report import DEFAULT_SEED, build_report

    if html:
        from montecards.report.site import build_site

        if game is not None or quick or seed is not None:
            raise InputError("--html builds the site from the existing reports: give no GAME, --quick "
                             "or --seed")
        if reports_dir is not None and not Path(reports_dir).is_dir():
            raise InputError(f"--reports: no folder {reports_dir}")
        index = build_site(out_dir or "site", reports_dir)
        click.echo(f"wrote the site: {index}")
        return
    if game is None:
        raise InputError("missing GAME (or --html to build the site of the reports)")
    if reports_dir is not None:
        raise InputError("--reports goes with --html")
    if seed is not None and not 0 <= seed < 2**64:
        raise InputError(f"seed must be an integer from 0 to 2**64-1, got {seed}")
    import shlex
    import sys

    command = shlex.join(["montecards", *sys.argv[1:]])  # recorded as typed (report/provenance.py)
    path = build_report(game, out_dir, quick=quick, seed=DEFAULT_SEED if seed is None else seed, jobs=jobs,
                        command=command)
    click.echo(f"wrote {path} and {len(list(Path(path).parent.glob('*.png')))} figures")


def _float_list(text: str, what: str) -> list[float]:
    try:
        return [float(v) for v in text.strip().strip("[]").split(",") if v.strip()]
    except ValueError:
        raise InputError(f"{what} takes numbers separated by commas, got {text!r}") from None


def _bounds(text: str | None) -> list[tuple[float, float]] | None:
    """``--bounds 'LOW:HIGH,LOW:HIGH,...'`` (one pair per weight)."""
    if text is None:
        return None
    pairs = []
    for part in text.split(","):
        low, sep, high = part.partition(":")
        try:
            if not sep:
                raise ValueError
            pairs.append((float(low), float(high)))
        except ValueError:
            raise InputError(f"--bounds takes LOW:HIGH pairs separated by commas, got {part!r}") from None
    return pairs


@click.command("tune")
@click.argument("game")
@click.option("-s", "--strategy", default="weighted", show_default=True,
              help="What to tune: a weighted built-in (weighted, tuned) or a user strategy that reads "
              "params (file.py:name, module:name).")
@click.option("-p", "--players", type=int, default=None, help="Number of players.")
@click.option("--opponent", "opponents", multiple=True,
              help="Opponent strategy: once for every other seat, or once per other seat (default: the "
              "game's default strategy). Earlier winners as 'weighted[...]'.")
@click.option("--method", type=click.Choice(["cma", "race"]), default="cma", show_default=True,
              help="cma: CMA-ES over the weights' bounds; race: successive halving among --candidate.")
@click.option("--candidate", "candidates", multiple=True, metavar="LIST",
              help="race: a candidate's weights, comma-separated (repeat; the first is the baseline).")
@click.option("--budget", type=int, default=None, help="Games the search may play [default: 4,000,000].")
@click.option("--deals", type=int, default=None,
              help="Deals per candidate per generation (race: at least, per round) [default: 5,000].")
@click.option("--holdout", type=int, default=None, help="Held-out deals for the winner [default: 100,000].")
@click.option("--x0", default=None, metavar="LIST", help="Starting weights (default: the strategy's).")
@click.option("--bounds", default=None, metavar="LOW:HIGH,...", help="Bounds per weight (default: the strategy's).")
@click.option("--popsize", type=int, default=None, help="CMA-ES population (default: 4 + 3 ln(weights)).")
@click.option("--sigma", type=float, default=0.2, show_default=True,
              help="CMA-ES's first step, as a fraction of each bound's width.")
@click.option("--checkpoint", default=None, type=click.Path(dir_okay=False), metavar="FILE.npz",
              help="Save the search after every generation; run again with the same file to resume.")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: on a terminal).")
@click.option("--seed", type=int, default=None, help="Seed (drawn at random if omitted).")
@click.option("-j", "--jobs", type=int, default=None, help="Threads.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout (with the history).")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
              help="Rule or model parameter (repeatable; lists comma-separated).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None, callback=_check_plot,
              help="Also write the convergence figure to this PNG file.")
@luck_option("Judge every game by its luck-adjusted result (docs/luck.md): the search and the held-out "
             "deals; the held-out gain also plain, with its variance ratio.")
@_backend_options
def tune_command(game, strategy, players, opponents, method, candidates, budget, deals, holdout, x0,
                 bounds, popsize, sigma, checkpoint, progress, seed, jobs, as_json, params, plot_path,
                 luck) -> None:
    """Tune a strategy's weights by simulation against opponents, on common random numbers over
    every seat rotation, and re-measure the winner on held-out deals."""
    # (from its module: the package's 'tune' may be the module itself)
    from montecards.analysis.tune import DEFAULT_BUDGET, DEFAULT_DEALS, DEFAULT_HOLDOUT, tune

    res = tune(
        game, strategy=strategy, players=players, opponents=list(opponents) or None,
        budget=DEFAULT_BUDGET if budget is None else budget, seed=seed, method=method,
        candidates=[_float_list(c, "--candidate") for c in candidates] or None,
        deals=DEFAULT_DEALS if deals is None else deals,
        holdout=DEFAULT_HOLDOUT if holdout is None else holdout,
        x0=None if x0 is None else _float_list(x0, "--x0"), bounds=_bounds(bounds), popsize=popsize,
        sigma=sigma, params=_params(params), jobs=jobs, checkpoint=checkpoint, progress=progress, luck=luck,
    )
    _emit(res, as_json, res.text(), plot_path)


def _deals_for(items: tuple[str, ...]) -> dict[str, int]:
    slow: dict[str, int] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            raise InputError(f"--n-for takes STRATEGY=N, got {item!r}")
        slow[name.strip()] = int(value)
    return slow


@click.command("tournament")
@click.argument("game")
@click.option("-s", "--strategy", "entrants", multiple=True,
              help="An entrant (repeat, 2 or more): a built-in, weighted[...], file.py:name, a search "
              "player, or a skill level such as theta=0.5 (Anomia).")
@strategy_params_option("entrant", "-s order")
@click.option("-p", "--players", type=int, default=None, help="Players at every table.")
@click.option("--design", type=click.Choice(["round_robin", "field", "sample", "lineups"]), default=None,
              help="round_robin (default), field (each entrant against --opponent), sample (random "
              "lineups within --budget), lineups (the --lineup given).")
@click.option("--opponent", "opponents", multiple=True,
              help="The field: once for every other seat, or once per other seat (implies --design field).")
@click.option("--lineup", "lineups", multiple=True, metavar="A,B,...",
              help="A lineup, one entrant per seat (repeat; implies --design lineups).")
@click.option("--repeats", is_flag=True, help="Round robin and sample: an entrant may take several seats.")
@click.option("--budget", type=int, default=None, help="At most this many games in all.")
@click.option("-n", "n", type=int, default=20_000, show_default=True,
              help="Deals per lineup (each in every rotation).")
@click.option("--n-for", "n_for", multiple=True, metavar="STRATEGY=N",
              help="Fewer deals for lineups with a slow entrant, e.g. ismcts=500.")
@click.option("--model", type=click.Choice(["finish", "winner"]), default="finish", show_default=True,
              help="finish: Plackett-Luce on finishing orders; winner: who won only.")
@click.option("--bootstrap", type=int, default=200, show_default=True, help="Bootstrap draws over deals.")
@click.option("--baseline", default=None, help="The entrant rated 0 (default: random, if it plays).")
@click.option("--checkpoint", default=None, type=click.Path(file_okay=False), metavar="DIR",
              help="Record every finished chunk here; the same command again resumes.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: on a terminal).")
@_run_options("Rule or model parameter for every game (repeatable; lists comma-separated).",
              "Also write the ratings figure to this PNG file.")
def tournament_command(game, entrants, strategy_params, players, design, opponents, lineups, repeats, budget,
                       n, n_for, model, bootstrap, baseline, checkpoint, progress, seed, jobs, as_json,
                       params, plot_path) -> None:
    """Play entrants in every lineup and seat rotation on common deals and rate them on one Elo
    scale (Bradley-Terry at 2 players, Plackett-Luce at more), with skill depth and cycles."""
    from montecards.analysis.tournament import tournament

    if design is None:
        design = "field" if opponents else "lineups" if lineups else "round_robin"
    res = tournament(
        game, list(entrants), players=players, design=design, n=n, opponents=list(opponents) or None,
        lineups=[split_names(x) for x in lineups] or None, repeats=repeats, budget=budget,
        n_for=_deals_for(n_for), params=_params(params), seed=seed, jobs=jobs,
        strategy_params=parse_strategy_params(strategy_params), model=model, bootstrap=bootstrap,
        baseline=baseline, checkpoint=checkpoint, progress=progress,
    )
    _emit(res, as_json, res.text(), plot_path)


@click.command("luck")
@click.argument("game")
@click.option("-p", "--players", "players", type=int, default=None,
              help="Player count (default: the game's).")
@click.option("-s", "--strategy", "strategies", default=None,
              help="Strategy of every seat, or one per seat comma-separated (default: greedy).")
@strategy_params_option()
@click.option("-n", "--deals", "deals", type=int, default=4_000, show_default=True, help="Deals.")
@click.option("--replays", type=int, default=8, show_default=True,
              help="Plays of each deal, with independent later draws (at least 2).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: on a terminal).")
@click.option("--versus", default=None, metavar="A,B",
              help="Two strategies: how often the weaker wins (their matchup on -n deals in every seat "
              "rotation) and, where the luck ledger serves, the stronger's luck-adjusted margin.")
@click.option("--decisions", "decision_games", type=int, default=0, show_default=True, metavar="GAMES",
              help="Also rate every decision of this many games by the value on the seat's information "
              "set: each strategy's error per unforced decision (games with positions and a value).")
@_run_options("Rule or model parameter (repeatable; lists comma-separated).",
              "Also write the per-deal win rates' figure to this PNG file (with --versus: the "
              "weaker-wins figure).")
def luck_command(game, players, strategies, strategy_params, deals, replays, progress, versus, decision_games,
                 seed, jobs, as_json, params, plot_path) -> None:
    """How much the deal decides: each deal played --replays times with independent later draws;
    the deal's share of the outcome variance with its 95 % interval, and the spread of the
    per-deal win rates (docs/luck.md)."""
    from montecards.analysis import luck

    names = split_names(strategies) if strategies else None
    res = luck(
        game, players=players, strategies=names if names is None or len(names) > 1 else names[0],
        deals=deals, replays=replays, params=_params(params), seed=seed, jobs=jobs, progress=progress,
        strategy_params=parse_strategy_params(strategy_params),
        versus=None if versus is None else split_names(versus), decision_games=decision_games,
    )
    lines = [f"{res.title}: how much the deal decides, seed {res.seed}", ""] + res.findings()
    _emit(res, as_json, "\n".join(lines), plot_path,
          res.plot.weaker_wins if res.versus is not None else None)


def _vary(items: tuple[str, ...]) -> dict[str, list[str]]:
    """``--vary NAME=VALUES``: values separated by ``/`` (``start_points=0,0,0/1,0,0``) or, for a
    parameter that is one number, by commas (``opening_parade=4,5,6``); ``A..B``: every integer."""
    out: dict[str, list[str]] = {}
    for item in items:
        name, sep, values = item.partition("=")
        if not sep or not name.strip() or not values.strip():
            raise InputError(f"--vary needs NAME=VALUES (e.g. opening_parade=4,5,6), got {item!r}")
        parts = [v for v in values.split("/")] if "/" in values else [values]
        expanded: list[str] = []
        for part in parts:
            lo, dots, hi = part.partition("..")
            if dots and lo.strip().lstrip("-").isdigit() and hi.strip().lstrip("-").isdigit():
                expanded += [str(v) for v in range(int(lo), int(hi) + 1)]
            else:
                expanded.append(part)
        out.setdefault(name.strip(), []).extend(v.strip() for v in expanded if v.strip())
    return out


@click.command("balance")
@click.argument("game")
@click.option("--vary", "vary", multiple=True, metavar="NAME=VALUES",
              help="A rule parameter and its values: 4,5,6 (one number each), 2..8, or lists "
              "separated by / (start_points=0,0,0/1,0,0). Repeatable: the product is searched. "
              "A range A:B (opening_parade=3:9, start_points=0:12: every entry) is searched by CMA-ES.")
@click.option("--target", "targets", multiple=True, metavar="TARGET",
              help="fair (every seat equal), first_seat, balance>=X, length=A:B, ties<=Y. Repeatable "
              "(penalties add up); default: fair.")
@click.option("-p", "--players", "players", multiple=True, type=int,
              help="Player count (repeatable: every target is met at each; default: the game's).")
@click.option("-s", "--strategy", "strategies", multiple=True,
              help="Strength: the strategy of every seat (once), or once per seat (default: the game's).")
@strategy_params_option()
@click.option("-n", "n", type=int, default=4000, show_default=True,
              help="Games per variant and player count in the first round (doubled per round).")
@click.option("--budget", type=int, default=64_000, show_default=True,
              help="At most this many games per variant and player count in the search.")
@click.option("--keep", type=int, default=3, show_default=True, help="Variants confirmed on held-out deals.")
@click.option("--held-out", "held_out", type=int, default=40_000, show_default=True,
              help="Held-out games per finalist and player count.")
@click.option("--evaluations", type=int, default=48, show_default=True,
              help="Ranges (CMA-ES): candidates asked in all, each playing -n games per player count.")
@click.option("--popsize", type=int, default=None, help="Ranges (CMA-ES): candidates per generation.")
@click.option("--retune", type=int, default=0, show_default=True, metavar="GAMES",
              help="Also play the finalists by the strength re-tuned for each variant (tune's CMA-ES, "
              "this many games per finalist and player count): does re-tuning change the best?")
@click.option("--checkpoint", type=click.Path(file_okay=False), default=None,
              help="Folder recording every batch played: a stopped search resumes there.")
@_run_options("Rule or model parameter for every variant (repeatable).",
              "Also write the search figure (seat spread against length) to this PNG file.")
def balance_command(game, vary, targets, players, strategies, strategy_params, n, budget, keep, held_out,
                    evaluations, popsize, retune, checkpoint, seed, jobs, as_json, params, plot_path) -> None:
    """Search GAME's rule parameters (--vary) for the variant that best meets the --target(s):
    successive halving on common deals (CMA-ES for ranges A:B), the finalists and the official
    rules confirmed on held-out deals; prints every variant's metrics, the Pareto front and the
    findings."""
    from montecards.analysis import balance

    if not vary:
        raise InputError("balance needs at least one --vary NAME=VALUES")
    res = balance(
        game, _vary(vary), targets=list(targets) or ["fair"], players=list(players) or None,
        strategies=list(strategies) or None, params=_params(params), n=n, budget=budget, keep=keep,
        held_out=held_out, seed=seed, jobs=jobs, checkpoint=checkpoint,
        strategy_params=parse_strategy_params(strategy_params), evaluations=evaluations, popsize=popsize,
        retune=retune,
    )
    _emit(res, as_json, res.text(), plot_path)


@click.command("restrict")
@click.argument("game")
@click.argument("patterns", nargs=-1, required=True)
@click.option("-s", "--strategy", "strategy", default="greedy", show_default=True,
              help="The player restricted in seat 1 and playing every other seat (a built-in with an "
              "interface twin, or a user strategy).")
@click.option("-p", "--players", "players", type=int, default=None, help="Player count (default: the game's).")
@click.option("-n", "n", type=int, default=20_000, show_default=True, help="Games per pattern (the same deals).")
@click.option("--first", "first", is_flag=True, help="first=PATTERN (play such a card whenever it can) instead of "
              "never=PATTERN.")
@click.option("--sample", type=int, default=2_000, show_default=True, metavar="GAMES",
              help="Unrestricted games whose decision logs give the correlation columns (0: none).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed (the deals).")
@click.option("-j", "--jobs", type=int, default=None, help="Threads (default: every core).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None, callback=_check_plot,
              help="Also write the figure (the change per pattern, the correlation beside it) to this PNG file.")
def restrict_command(game, patterns, strategy, players, n, first, sample, seed, jobs, as_json, plot_path) -> None:
    """What a card is worth (restricted play, docs/metrics.md): for each PATTERN (a card, or a
    class such as a colour or value: the game's forms), seat 1 plays restrict(STRATEGY,
    never=PATTERN) against STRATEGY on the same deals as STRATEGY against itself; prints the
    change in seat 1's win share with its interval, and beside it the correlation a reader of
    game logs would compute."""
    from montecards.analysis.restricted import card_worth

    res = card_worth(game, list(patterns), strategy, players, n, seed, "first" if first else "never", jobs, sample)
    _emit(res, as_json, res.text(), plot_path)


COMMANDS = (seats_command, compare_command, sweep_command, tournament_command, report_command,
            tune_command, luck_command, balance_command, restrict_command)


def register(group: click.Group) -> None:
    """Add the analysis commands to the ``montecards`` click group."""
    for command in COMMANDS:
        if command.name not in group.commands:
            group.add_command(command)

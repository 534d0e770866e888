"""The ``montecards`` command: it only parses arguments and prints (docs/design.md, Public interface).

Bad input (unknown game, strategy or parameter, players out of range, n <= 0, a wrong number
of strategies, a bad option) exits with status 2 and one line on stderr saying what is allowed.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from montecards import games
from montecards.cli_analysis import register as _register_analysis
from montecards.cli_common import (  # noqa: F401  (parse_params: used by tests)
    fail,
    luck_option,
    parse_params,
    parse_strategy_params,
    strategy_params_option,
)
from montecards.cli_moves import register as _register_moves
from montecards.cli_value import register as _register_value
from montecards.errors import InputError

OUTPUT_FORMATS = (".csv", ".parquet", ".json")


def game_options(func):
    """The options shared by ``simulate`` and ``trace``."""
    func = click.option("-p", "--players", type=int, default=None, help="Number of players.")(func)
    func = click.option(
        "-s", "--strategy", "strategies", multiple=True,
        help="Strategy: once for every seat, or once per seat in seat order.",
    )(func)
    func = strategy_params_option()(func)
    func = click.option(
        "--param", "params", multiple=True, metavar="KEY=VALUE",
        help="Rule or model parameter (repeatable; lists comma-separated).",
    )(func)
    return func


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="montecards")
def cli() -> None:
    """Monte Carlo strategy analysis of Parade, Anomia, Wig Out!, Gift of Tulips and Joker Marbles."""


@cli.command("games")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def games_command(as_json: bool) -> None:
    """List the games: player ranges, strategies and parameters."""
    listing = []
    for name in games.names():
        spec = games.get(name)
        listing.append(
            {
                "game": spec.name,
                "title": spec.title,
                "players": [spec.min_players, spec.max_players],
                "default_players": spec.default_players,
                "strategies": list(spec.strategies),
                "default_strategy": spec.default_strategy,
                "params": {
                    p.name: {"default": _show(p.default_for(spec.default_players)), "help": p.help}
                    for p in spec.params
                },
            }
        )
    if as_json:
        click.echo(json.dumps(listing, indent=2))
        return
    for g in listing:
        click.echo(f"{g['game']:<8} {g['title']} ({g['players'][0]}-{g['players'][1]} players, "
                   f"default {g['default_players']})")
        strategies = ", ".join(
            s + (" (default)" if s == g["default_strategy"] else "") for s in g["strategies"]
        )
        click.echo(f"  strategies: {strategies}")
        for name, p in g["params"].items():
            click.echo(f"  --param {name}={p['default']}  {p['help']}")
        click.echo("")


def _show(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(_show(v) for v in value)
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


@cli.command()
@click.argument("game")
@click.option("-n", "n", type=int, default=100_000, show_default=True, help="Number of games.")
@game_options
@click.option("--seed", type=int, default=None, help="Seed (drawn at random and printed if omitted).")
@click.option("-j", "--jobs", type=int, default=None, help="Threads (local) or workers (dask).")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--scheduler", default=None, help="Dask scheduler address (tcp://host:port).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write per-game rows (.csv, .parquet) or the result with rows (.json).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: if a terminal).")
@click.option("--checkpoint", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Record finished chunks in DIR; rerun the same command to finish a killed run.")
@click.option("--chunk-size", type=int, default=None, metavar="GAMES",
              help="Games per chunk (unit of work, progress and checkpoints).")
@click.option("--designer", is_flag=True,
              help="Also measure the designer metrics (docs/metrics.md; JSON key designer).")
@click.option("--designer-sample", type=int, default=200, show_default=True, metavar="GAMES",
              help="With --designer: the run's first GAMES games give the decision and lead metrics.")
@luck_option()
def simulate(game, n, players, strategies, strategy_params, params, seed, jobs, backend, scheduler,
             as_json, output, progress, checkpoint, chunk_size, designer, designer_sample, luck) -> None:
    """Play N seeded games of GAME and summarise them."""
    from montecards.api import DEFAULT_CHUNK, STREAM_FORMATS, check_output_file
    from montecards.api import simulate as run_simulation
    from montecards.cli_format import designer_text, summary_table

    suffix = Path(output).suffix.lower() if output is not None else None
    if output is not None:
        check_output_file(output, OUTPUT_FORMATS, "--output")
    if scheduler is not None and backend != "dask":
        raise InputError("--scheduler needs --backend dask")
    stream = suffix in STREAM_FORMATS  # .csv/.parquet rows stream chunk by chunk; .json keeps them
    result = run_simulation(
        game, n=n, players=players, strategies=list(strategies) or None,
        params=parse_params(params), seed=seed, jobs=jobs,
        keep_games=output is not None and not stream, progress=progress, backend=backend,
        scheduler=scheduler, checkpoint=checkpoint, output=output if stream else None,
        chunk_size=DEFAULT_CHUNK if chunk_size is None else chunk_size,
        strategy_params=parse_strategy_params(strategy_params), designer=designer,
        designer_sample=designer_sample, luck=luck,
    )
    resumed = result.extra.get("checkpoint", {}).get("resumed_chunks", 0)
    if resumed:
        total = result.extra["checkpoint"]["chunks"]
        click.echo(f"resumed {resumed} of {total} chunks from checkpoint {checkpoint}", err=True)
    if output is not None and not stream:
        write_output(result, Path(output))
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        click.echo(summary_table(result))
        if designer:
            click.echo(designer_text(result.extra["designer"]))


def write_output(result, path: Path) -> None:
    """The result with its rows, written under a temporary name and renamed into place."""
    from montecards.api import write_failure

    suffix = path.suffix.lower()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if suffix == ".csv":
            result.games.to_csv(tmp, index_label="game")
        elif suffix == ".parquet":
            result.games.to_parquet(tmp)
        else:
            payload = result.to_dict()
            payload["games"] = result.games.to_dict(orient="list")
            tmp.write_text(json.dumps(payload))
        os.replace(tmp, path)
    except OSError as exc:
        raise write_failure(path, exc) from None
    finally:
        tmp.unlink(missing_ok=True)


@cli.command()
@click.argument("game")
@click.option("--seed", type=int, required=True, help="Seed of the run.")
@click.option("--index", type=int, required=True, help="Index of the game in the run (0-based).")
@game_options
@click.option("--json", "as_json", is_flag=True, help="Print the events as JSON.")
@click.option("--positions", is_flag=True,
              help="Print every decision as its seat's position instead (one line each; JSON with --json).")
@click.option("--record", is_flag=True, help="Print the game as a record for 'montecards review' (JSON).")
@click.option("--seat", "record_seat", type=int, default=None,
              help="With --record: only what this seat knew (from 0; Wig Out!, Gift of Tulips, Joker Marbles).")
def trace(game, seed, index, players, strategies, strategy_params, params, as_json, positions,
          record, record_seat) -> None:
    """Show every event of one game of a run (the very game the run played)."""
    from montecards.api import trace as trace_game

    events = trace_game(
        game, seed=seed, index=index, players=players, strategies=list(strategies) or None,
        params=parse_params(params), strategy_params=parse_strategy_params(strategy_params),
    )
    if record_seat is not None and not record:
        raise InputError("--seat goes with --record (a record of what that seat knew)")
    if record:
        click.echo(json.dumps(events.record(record_seat)))
        return
    if positions:
        found = events.positions()
        if as_json:
            click.echo(json.dumps([p.to_dict() for p in found]))
        else:
            click.echo("\n".join(p.to_string() for p in found))
        return
    outcome = events.attrs.get("outcome", {})
    if as_json:
        click.echo(json.dumps({"events": events.to_dict(orient="records"),
                               "outcome": {k: _plain(v) for k, v in outcome.items()}}))
        return
    import pandas as pd

    with pd.option_context("display.max_rows", None, "display.width", 120):
        click.echo(events.to_string(index=False))
    click.echo("")
    click.echo("outcome: " + ", ".join(f"{k}={_plain(v)}" for k, v in outcome.items()))
    # the event table is the data itself (as --json and Python have it), so it keeps their
    # numbering: say so, since every other table counts seats from 1
    click.echo("(seats here are numbered from 0, as in --json: seat 0 is the first seat)")


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


@cli.command()
@click.argument("game_names", metavar="[GAME]...", nargs=-1)
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Processes compiling games side by side (default: one per core, at most one per game).")
@click.option("--user", is_flag=True,
              help="Also compile the user-strategy paths of the run and trace kernels (for -s FILE.py:NAME).")
@click.option("--kernels", "kernel_names", default="run,trace,script,decisions", show_default=True, metavar="KINDS",
              help="Comma list of the kernel kinds to compile: run (every built-in strategy's), trace, "
                   "script (scripted games), decisions (decision logs).")
def warmup(game_names, jobs, user, kernel_names) -> None:
    """Compile (or load from numba's cache) the kernels of every game, or of the GAMEs named:
    every built-in strategy's and the trace kernel. Later runs then start at once."""
    import time

    from montecards.warmup import KERNELS, default_jobs, warm

    names = list(dict.fromkeys(game_names)) or games.names()
    for name in names:
        games.get(name)  # an unknown game: exit 2 before compiling anything
    kernels = [k.strip() for k in kernel_names.split(",") if k.strip()]
    unknown = [k for k in kernels if k not in KERNELS]
    if unknown or not kernels:
        raise InputError(f"--kernels: unknown kind {unknown[0]!r} (choose from {', '.join(KERNELS)})"
                         if unknown else f"--kernels: name at least one of {', '.join(KERNELS)}")
    start = time.perf_counter()
    processes = default_jobs(len(names)) if jobs is None else min(jobs, len(names))
    click.echo(f"compiling the kernels of {len(names)} game{'s' if len(names) > 1 else ''} "
               f"in {processes} process{'es' if processes > 1 else ''}...", err=True)

    def report(warmed, k, total):
        state = "ready" if not warmed.error else f"FAILED ({warmed.error})"
        click.echo(f"[{k}/{total}] {warmed.game}: {state} in {warmed.seconds:.1f} s "
                   f"({warmed.cpu_seconds:.1f} s CPU; {', '.join(warmed.kernels) or 'nothing'}) "
                   f"at {time.perf_counter() - start:.1f} s")

    results = warm(names, processes, user, report, kernels)
    failed = [w.game for w in results if w.error]
    click.echo(f"warmup: {len(results) - len(failed)} of {len(results)} games ready in "
               f"{time.perf_counter() - start:.1f} s")
    if failed:
        raise click.ClickException(f"warmup failed for {', '.join(failed)}")


def interrupted() -> None:
    """Ctrl-C: one line, no traceback, exit status 130 (a --checkpoint run resumes)."""
    click.echo("interrupted: stopped (with --checkpoint DIR, the same command resumes the run)", err=True)
    sys.exit(130)


def main() -> None:
    """Entry point: runs the click group, turning bad input into one line and exit status 2."""
    try:
        cli.main(standalone_mode=False)
    except InputError as exc:
        fail(str(exc))
    except click.exceptions.NoSuchOption as exc:
        fail(exc.format_message())
    except click.UsageError as exc:
        fail(exc.format_message())
    except (click.exceptions.Abort, KeyboardInterrupt):
        interrupted()
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        fail(exc.format_message())


_register_analysis(cli)  # seats, compare, sweep, report, tune
_register_moves(cli)  # analyse, review
_register_value(cli)  # value fit

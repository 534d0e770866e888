"""``montecards value``: a game's value (docs/luck.md). ``value fit GAME`` fits it for a lineup
on simulated games and writes the weights to the game's ``values/`` folder, with the
calibration report (binned predicted vs observed, Brier score) against the score-only
baseline."""

from __future__ import annotations

import json

import click

from montecards.errors import InputError


@click.group("value")
def value_group() -> None:
    """A game's value V(state, seat): the chance that the seat wins (docs/luck.md)."""


@value_group.command("fit")
@click.argument("game")
@click.option("-p", "--players", type=int, default=None, help="Number of players.")
@click.option("-s", "--strategy", "strategies", multiple=True,
              help="Strategy: once for every seat, or once per seat in seat order.")
@click.option("-n", "n", type=int, default=20_000, show_default=True, help="Games to fit on.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the fit's games.")
@click.option("--dry-run", is_flag=True, help="Report the fit without writing the weights.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")
def fit_command(game, players, strategies, n, seed, dry_run, as_json) -> None:
    """Fit GAME's value for a lineup and write its weights (games/<game>/values/)."""
    from montecards import games
    from montecards.analysis.ledger import fit_value

    if games.get(game).value is None:
        raise InputError(f"{game} has no value yet (games with one: "
                         f"{', '.join(g for g in games.names() if games.get(g).value is not None)})")
    out = fit_value(game, players, list(strategies) or None, n=n, seed=seed, write=not dry_run)
    if as_json:
        click.echo(json.dumps(out))
        return
    fit = out["fit"]
    click.echo(f"{out['game']}, {out['players']} players, {' / '.join(out['lineup'])}: fitted on "
               f"{fit['games']:,} games ({fit['states']:,} states; {fit['held_out_states']:,} held out)")
    click.echo(f"Brier score (held out): value {fit['value']['brier']:.4f}, score only "
               f"{fit['score_only']['brier']:.4f}, constant {fit['constant']['brier']:.4f}")
    click.echo("calibration (held out):  predicted  observed   states")
    for b in fit["value"]["bins"]:
        click.echo(f"  {b['low']:.1f}-{b['high']:.1f}              {b['predicted']:.3f}     "
                   f"{b['observed']:.3f}  {b['states']:>7,}")
    if "file" in out:
        click.echo(f"wrote {out['file']}")


def register(cli: click.Group) -> None:
    cli.add_command(value_group)

"""``montecards analyse`` and ``montecards review``: what should I play here? (issue #32)."""

from __future__ import annotations

import json

import click

from montecards.errors import InputError


def _play_options(func):
    func = click.option("--seed", type=int, default=0, show_default=True,
                        help="Seed of the determinizations (same seed, same analysis).")(func)
    func = click.option("--seconds", type=float, default=None,
                        help="Time limit per analysed position (default: none, the budget only).")(func)
    func = click.option("--budget", type=int, default=None,
                        help="Play-outs at most per position (determinizations x moves).")(func)
    func = click.option("--evaluator", default="rollout", show_default=True,
                        help="rollout (play-outs by the strategies below) or ismcts (its root).")(func)
    func = click.option("--playout", default=None,
                        help="Strategy of the analysed seat's later decisions (default: --opponents).")(func)
    func = click.option("--opponents", default="greedy", show_default=True,
                        help="Strategy of the other seats in the play-outs (a built-in).")(func)
    func = click.option("--json", "as_json", is_flag=True, help="Print JSON.")(func)
    return func


@click.command("analyse")
@click.argument("game")
@click.argument("position")
@_play_options
@click.option("--plot", "plot_path", default=None, help="Also write the bar figure to this PNG.")
@click.option("--no-value", "no_value", is_flag=True,
              help="Leave out the value column (V after each move; docs/positions.md).")
def analyse_command(game, position, as_json, opponents, playout, evaluator, budget, seconds, seed, plot_path,
                    no_value):
    """Rank every legal move of POSITION (a file, or the position itself: JSON or the one-line form)
    by the deciding seat's win share, with 95 % intervals and the gap to the best move, and the
    value estimate V after each move where the game has one (docs/positions.md)."""
    from montecards.analysis.moves import DEFAULT_BUDGET, analyse

    if seed < 0:
        raise InputError(f"--seed must be >= 0, got {seed}")
    result = analyse(game, position, opponents=opponents, playout=playout, evaluator=evaluator,
                     budget=DEFAULT_BUDGET if budget is None else budget, seconds=seconds, seed=seed,
                     value=not no_value)
    if plot_path:
        from montecards.plots.figures import save

        save(result.plot(), plot_path)
    click.echo(json.dumps(result.to_dict()) if as_json else result.table())


@click.command("review")
@click.argument("game")
@click.argument("record")
@click.option("--seat", "seats", type=int, multiple=True,
              help="Seat to review, from 0 (repeatable; default all).")
@_play_options
def review_command(game, record, seats, as_json, opponents, playout, evaluator, budget, seconds, seed):
    """Review every decision of a recorded game (RECORD: a file, or the record's JSON; make one with
    ``montecards trace GAME --seed S --index I --record``): the move played, the best move, the
    loss in win share and a mark; per seat an error rate and a rating, and its luck and
    luck-adjusted result where the game has a value and the record the whole deal
    (docs/positions.md)."""
    from montecards.analysis.moves import review

    result = review(game, record, seats=list(seats) or None, opponents=opponents, playout=playout,
                    budget=20_000 if budget is None else budget, seconds=seconds, seed=seed,
                    evaluator=evaluator)
    click.echo(json.dumps(result.to_dict()) if as_json else result.table())


COMMANDS = (analyse_command, review_command)


def register(group: click.Group) -> None:
    for command in COMMANDS:
        if command.name not in group.commands:
            group.add_command(command)

"""What every ``montecards`` command shares: the one-line failure, ``--param`` and
``--strategy-params`` parsing."""

from __future__ import annotations

import sys
from typing import Any

import click

from montecards.errors import InputError


def fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def parse_params(pairs: tuple[str, ...]) -> dict[str, str]:
    params: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--param takes KEY=VALUE, got {pair!r}")
        params[key.strip()] = value.strip()
    return params


STRATEGY_PARAMS_HELP = (
    "Weights of a user strategy or a weighted built-in (weighted, tuned), comma-separated: once "
    "for every such {seat}, or once per {seat} in {order} ('-' for one without). A strategy's "
    "weights may also go in its name: -s 'weighted[1,0.5]', -s 'file.py:choose[1,0.5]'."
)


def strategy_params_option(seat: str = "seat", order: str = "seat order"):
    """The ``--strategy-params LIST`` option (repeatable), as ``simulate`` has it."""
    return click.option("--strategy-params", "strategy_params", multiple=True, metavar="LIST",
                        help=STRATEGY_PARAMS_HELP.format(seat=seat, order=order))


def luck_option(help_text: str = "Luck ledger: luck-adjusted win shares and the variance ratio (docs/luck.md)."):
    """The ``--luck`` flag (``simulate``, ``seats``, ``compare``, ``sweep``, ``tune``): the games played
    with the luck ledger (docs/luck.md)."""
    return click.option("--luck", is_flag=True, help=help_text)


def parse_strategy_params(texts: tuple[str, ...]) -> Any:
    """``--strategy-params`` as ``strategy_params``: one list for every seat (or strategy) that
    takes weights, or one per seat; None when not given. The one parser of every command."""
    from montecards.api import parse_strategy_weights as parse_weights

    if not texts:
        return None
    if len(texts) == 1:
        return parse_weights(texts[0]) or None
    return [parse_weights(text) for text in texts]


def split_names(text: str) -> list[str]:
    """``"greedy,weighted[1,0.5],random"`` -> the three names (commas inside brackets and
    parentheses stay: ``restrict(greedy, never=10),greedy`` is two)."""
    out, depth, current = [], 0, ""
    for ch in text:
        depth += (ch in "[(") - (ch in "])")
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    out.append(current.strip())
    return [name for name in out if name]

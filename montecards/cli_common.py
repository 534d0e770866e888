"""What every ``montecards`` command shares: the one-line failure and ``--param`` parsing."""

from __future__ import annotations

import sys

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

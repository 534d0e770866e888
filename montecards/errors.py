"""The error every layer raises for bad user input (the CLI turns it into one line, exit 2)."""

from __future__ import annotations


class InputError(ValueError):
    """Bad user input: a game, strategy, player count or parameter that is not allowed."""


class StrategyError(InputError):
    """A user strategy that cannot be loaded, does not compile, or broke a game (one line)."""

"""The registry of games. Each game module registers one :class:`GameSpec`."""

from __future__ import annotations

from importlib import import_module

from montecards.engine.spec import GameSpec, InputError

GAME_MODULES = {
    "parade": "montecards.games.parade",
    "anomia": "montecards.games.anomia",
    "wigout": "montecards.games.wigout",
    "tulips": "montecards.games.tulips",
    "marbles": "montecards.games.marbles",
}


def names() -> list[str]:
    return list(GAME_MODULES)


def get(name: str) -> GameSpec:
    """The spec of game ``name``; raises InputError listing the known games."""
    if name not in GAME_MODULES:
        raise InputError(f"unknown game {name!r} (allowed: {', '.join(GAME_MODULES)})")
    return import_module(GAME_MODULES[name]).SPEC


POSITION_GAMES = ("marbles", "parade", "tulips", "wigout")
"""The games with a position format, ``mc.state``, ``analyse`` and ``review`` (issue #32):
``montecards.games.<game>.position``."""


def positions(name: str):
    """The position module of game ``name`` (``games/<game>/position.py``); InputError for a
    game without one."""
    get(name)
    if name not in POSITION_GAMES:
        raise InputError(f"{name} has no position format yet (games with one: {', '.join(POSITION_GAMES)})")
    return import_module(f"{GAME_MODULES[name]}.position")

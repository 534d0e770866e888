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

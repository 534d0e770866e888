"""montecards: Monte Carlo strategy analysis of five tabletop games.

>>> import montecards as mc
>>> res = mc.simulate("parade", n=10_000, players=3, seed=7)
>>> res.summary()
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from montecards import _cache  # noqa: F401  (first: every later jitted function uses its cache locator)
from montecards.engine import specialise  # noqa: F401  (no integer-literal copies of jitted functions)

__version__ = "0.1.0"

__all__ = [
    "simulate", "trace", "tune", "tournament", "luck", "strategy", "load_strategy", "UserStrategy",
    "StrategyError", "InputError", "get_game", "game_names", "analyse", "review", "state", "card_worth", "__version__",
]

_LAZY = {
    "simulate": ("montecards.api", "simulate"),
    "trace": ("montecards.api", "trace"),
    "tune": ("montecards.analysis.tune", "tune"),
    "tournament": ("montecards.analysis.tournament", "tournament"),
    "luck": ("montecards.analysis.luck", "luck"),
    "InputError": ("montecards.engine.spec", "InputError"),
    "strategy": ("montecards.engine.user_strategies", "strategy"),
    "load_strategy": ("montecards.engine.user_strategies", "load"),
    "UserStrategy": ("montecards.engine.user_strategies", "UserStrategy"),
    "StrategyError": ("montecards.errors", "StrategyError"),
    "get_game": ("montecards.games", "get"),
    "game_names": ("montecards.games", "names"),
    "analyse": ("montecards.analysis.moves", "analyse"),
    "review": ("montecards.analysis.moves", "review"),
    "state": ("montecards.analysis.moves", "state"),
    "card_worth": ("montecards.analysis.restricted", "card_worth"),
}
"""Loaded on first use, so that processes which only play chunks (Dask workers) do not pay
for pandas and the analysis layer (about 65 MB each)."""

if TYPE_CHECKING:
    from montecards.analysis.luck import luck
    from montecards.analysis.moves import analyse, review, state
    from montecards.analysis.restricted import card_worth
    from montecards.analysis.tournament import tournament
    from montecards.analysis.tune import tune
    from montecards.api import simulate, trace
    from montecards.engine.spec import InputError
    from montecards.engine.user_strategies import UserStrategy, strategy
    from montecards.engine.user_strategies import load as load_strategy
    from montecards.errors import StrategyError
    from montecards.games import get as get_game
    from montecards.games import names as game_names


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attribute = _LAZY[name]
        value = getattr(import_module(module), attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'montecards' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

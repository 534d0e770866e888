"""montecards: Monte Carlo strategy analysis of five tabletop games.

>>> import montecards as mc
>>> res = mc.simulate("parade", n=10_000, players=3, seed=7)
>>> res.summary()
"""

from montecards.api import simulate, trace
from montecards.engine.spec import InputError
from montecards.games import get as get_game
from montecards.games import names as game_names

__version__ = "0.1.0"

__all__ = ["simulate", "trace", "InputError", "get_game", "game_names", "__version__"]

"""The analysis layer: results, intervals and comparisons. It knows no kernel.

* :func:`seat_advantage` — every seat's win share per player count;
* :func:`matchups` — strategies head to head over all seat rotations (win-rate matrix,
  ranking honest about non-transitive results);
* :func:`compare_variants` — rule variants on common random numbers (paired differences);
* :func:`sweep` — one parameter over a list of values, on common random numbers;
* :func:`simulate_adaptive` — a run that stops when every win-share interval is narrow enough.
"""

from montecards.analysis.intervals import mean_interval, normal_mean, share_interval, wilson
from montecards.analysis.matchups import MatchupResult, matchups
from montecards.analysis.results import SimulationResult
from montecards.analysis.runs import Adaptive, per_game, setup
from montecards.analysis.seats import SeatAdvantage, seat_advantage, simulate_adaptive
from montecards.analysis.variants import SweepResult, VariantComparison, compare_variants, sweep

__all__ = [
    "Adaptive",
    "MatchupResult",
    "SeatAdvantage",
    "SimulationResult",
    "SweepResult",
    "VariantComparison",
    "compare_variants",
    "matchups",
    "mean_interval",
    "normal_mean",
    "per_game",
    "seat_advantage",
    "setup",
    "share_interval",
    "simulate_adaptive",
    "sweep",
    "wilson",
]

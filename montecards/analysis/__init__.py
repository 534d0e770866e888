"""The analysis layer: results, intervals and comparisons. It knows no kernel."""

from montecards.analysis.intervals import normal_mean, wilson
from montecards.analysis.results import SimulationResult

__all__ = ["SimulationResult", "normal_mean", "wilson"]

"""The analysis layer: results, intervals and comparisons. It knows no kernel.

* :func:`seat_advantage` — every seat's win share per player count;
* :func:`matchups` — strategies head to head over all seat rotations (win-rate matrix,
  ranking honest about non-transitive results);
* :func:`compare_variants` — rule variants on common random numbers (paired differences);
* :func:`sweep` — one parameter over a list of values, on common random numbers;
* :func:`tune` — a strategy's weights tuned by simulation (CMA-ES or racing), held-out checked;
* :func:`tournament` — entrants in many lineups and rotations, rated on one Elo scale
  (Bradley–Terry / Plackett–Luce, bootstrap intervals, skill depth, cycles);
* :func:`luck` — how much the deal decides: each deal replayed with independent later draws;
* :func:`decision_errors` — each strategy's error per decision, by the value on the seat's
  information set;
* :func:`balance` — a search of rule parameters for the fairest variant (successive halving
  on common random numbers, winners checked on held-out deals);
* :func:`simulate_adaptive` — a run that stops when every win-share interval is narrow enough.
"""

from __future__ import annotations

import sys
import types
from importlib import import_module
from typing import TYPE_CHECKING, Any

_MODULE_OF = {
    "mean_interval": "intervals",
    "normal_mean": "intervals",
    "share_interval": "intervals",
    "wilson": "intervals",
    "LuckResult": "luck",
    "decision_errors": "quality",
    "luck": "luck",
    "MatchupResult": "matchups",
    "matchups": "matchups",
    "SimulationResult": "results",
    "Adaptive": "runs",
    "per_game": "runs",
    "setup": "runs",
    "backend_session": "runs",
    "SeatAdvantage": "seats",
    "seat_advantage": "seats",
    "simulate_adaptive": "seats",
    "SweepResult": "variants",
    "VariantComparison": "variants",
    "compare_variants": "variants",
    "sweep": "variants",
    "BalanceResult": "balance",
    "balance": "balance",
    "TuneResult": "tune",
    "tune": "tune",
    "Ratings": "ratings",
    "TournamentResult": "tournament",
    "tournament": "tournament",
}
"""Loaded on first use: ``montecards simulate`` needs only ``results``, and the comparisons
would otherwise bring in pandas before a single game is played."""

if TYPE_CHECKING:
    from montecards.analysis.balance import BalanceResult, balance
    from montecards.analysis.intervals import mean_interval, normal_mean, share_interval, wilson
    from montecards.analysis.luck import LuckResult, luck
    from montecards.analysis.matchups import MatchupResult, matchups
    from montecards.analysis.ratings import Ratings
    from montecards.analysis.results import SimulationResult
    from montecards.analysis.runs import Adaptive, backend_session, per_game, setup
    from montecards.analysis.seats import SeatAdvantage, seat_advantage, simulate_adaptive
    from montecards.analysis.tournament import TournamentResult, tournament
    from montecards.analysis.tune import TuneResult, tune
    from montecards.analysis.variants import SweepResult, VariantComparison, compare_variants, sweep


def __getattr__(name: str) -> Any:
    if name in _MODULE_OF:
        value = getattr(import_module(f"montecards.analysis.{_MODULE_OF[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'montecards.analysis' has no attribute {name!r}")


__all__ = [
    "Adaptive",
    "BalanceResult",
    "backend_session",
    "balance",
    "LuckResult",
    "MatchupResult",
    "SeatAdvantage",
    "SimulationResult",
    "Ratings",
    "SweepResult",
    "TournamentResult",
    "TuneResult",
    "VariantComparison",
    "balance",
    "compare_variants",
    "luck",
    "matchups",
    "mean_interval",
    "normal_mean",
    "per_game",
    "seat_advantage",
    "setup",
    "share_interval",
    "simulate_adaptive",
    "sweep",
    "tournament",
    "tune",
    "wilson",
]


class _Package(types.ModuleType):
    """This package's module type: the functions named as their modules (``matchups``,
    ``luck``, ``balance``, ``tune``, ``tournament``) stay the functions. Importing a submodule
    sets the package's attribute of that name to the submodule once it has run; without this,
    ``from montecards.analysis import matchups`` gave the module or the function depending on
    what had been imported before (``from montecards.analysis.matchups import ...`` anywhere
    earlier gave the module). The submodules stay in ``sys.modules`` under their own names."""

    def __setattr__(self, name: str, value: Any) -> None:
        if (isinstance(value, types.ModuleType) and _MODULE_OF.get(name) == name
                and value.__name__ == f"{__name__}.{name}"):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

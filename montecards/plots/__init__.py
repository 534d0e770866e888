"""matplotlib figures of results and analyses, in one consistent style.

Every function returns a :class:`matplotlib.figure.Figure` built without pyplot (no global
state, no GUI: the Agg canvas renders it), which Jupyter displays inline and
:func:`save` writes as PNG. Result objects expose them as accessors:
``res.plot.win_share()``, ``seats.plot.win_share()``, ``matchup.plot.heatmap()``,
``comparison.plot.differences()``, ``sweep_result.plot.curve()``, ``luck_result.plot.deal_rates()``.
"""

from montecards.plots.figures import (
    deal_shares,
    deal_win_rates,
    balance_figure,
    game_length,
    matchup_heatmap,
    metric_by_players,
    save,
    score_distribution,
    sweep_curve,
    tournament_figure,
    variant_differences,
    weaker_wins,
    win_share_by_seat,
)
from montecards.plots.style import STYLE, new_figure


class ResultPlots:
    """``res.plot``: figures of one :class:`SimulationResult`."""

    def __init__(self, result):
        self._r = result

    def win_share(self):
        return win_share_by_seat(self._r)

    def scores(self):
        return score_distribution(self._r)

    def length(self):
        return game_length(self._r)

    def metrics(self, names, labels=None, ylabel=None):
        return metric_by_players(self._r, names, labels, ylabel)


class SeatPlots(ResultPlots):
    """``seats.plot``: the same figures, one panel or line per player count."""


class LuckPlots:
    """``luck_result.plot``: the per-deal win rates and the deal's share
    (:func:`deal_shares` draws several games' shares side by side)."""

    def __init__(self, result):
        self._r = result

    def deal_rates(self):
        return deal_win_rates(self._r)

    def weaker_wins(self):
        """With ``versus``: how often the weaker of the two strategies wins, and the stronger's
        luck-adjusted share where the ledger serves."""
        if self._r.versus is None:
            raise ValueError("weaker_wins needs a luck result with versus (two strategies)")
        return weaker_wins(self._r)

    __call__ = deal_rates


class MatchupPlots:
    def __init__(self, result):
        self._r = result

    def heatmap(self):
        return matchup_heatmap(self._r)

    __call__ = heatmap


class TournamentPlots:
    """``tournament_result.plot``: ratings with intervals, observed vs predicted shares."""

    def __init__(self, result):
        self._r = result

    def ratings(self):
        return tournament_figure(self._r)

    __call__ = ratings


class VariantPlots:
    def __init__(self, result):
        self._r = result

    def differences(self, quantities=None):
        return variant_differences(self._r, quantities)

    __call__ = differences


class BalancePlots:
    def __init__(self, result):
        self._r = result

    def search(self):
        return balance_figure(self._r)

    __call__ = search


class SweepPlots:
    def __init__(self, result):
        self._r = result

    def curve(self, quantities=None):
        return sweep_curve(self._r, quantities)

    __call__ = curve


__all__ = [
    "STYLE",
    "LuckPlots",
    "BalancePlots",
    "MatchupPlots",
    "ResultPlots",
    "SeatPlots",
    "SweepPlots",
    "TournamentPlots",
    "VariantPlots",
    "deal_shares",
    "deal_win_rates",
    "balance_figure",
    "game_length",
    "matchup_heatmap",
    "metric_by_players",
    "new_figure",
    "save",
    "score_distribution",
    "sweep_curve",
    "tournament_figure",
    "variant_differences",
    "win_share_by_seat",
]

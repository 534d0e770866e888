"""``mc.trace``'s frame: the events of one game, and its decisions as positions (issue #32)."""

from __future__ import annotations

import pandas as pd


class Trace(pd.DataFrame):
    """A trace's events (a DataFrame); ``positions()``: every decision as its seat's position
    (games with a position format: ``montecards.games.POSITION_GAMES``)."""

    @property
    def _constructor(self):
        return Trace

    def positions(self) -> list:
        from montecards.analysis.moves import positions_of_trace

        return positions_of_trace(self)

    def record(self, seat: int | None = None) -> dict:
        """The game as a review record (``mc.review``, ``montecards review``; docs/positions.md);
        ``seat``: only what that seat knew (games that have such records: Wig Out!)."""
        from montecards.analysis.moves import record_of_trace

        return record_of_trace(self, seat)

"""Anomia's decision interface: there is none, because no seat ever decides (docs/rules/anomia.md).

Every game package has a ``view.py`` with the same constants; in the other games they describe
the seat's observation (``OBS_SIZE`` int64 entries), the legal moves (at most ``MAX_LEGAL``
move ids) and the kinds of decision (``DECISION_*``). Anomia has no card choices: the turn order
is fixed, the drawn card is the top of the draw pile, and a face-off is won by whoever names an
example first, which the simulator does not play out but draws from a skill model
(``strategies.py``: Bradley-Terry over the per-seat ``theta``, with the optional tie
probability ``tie_prob``). So there is no decision kind, no observation and no legal move,
and there is no ``observe`` or ``legal_moves``: a user strategy has nothing to choose. A seat's
"skill" in this game is a parameter of the run, not a function (``docs/strategies/anomia.md``).
"""

from __future__ import annotations

DECISION_NAMES: tuple[str, ...] = ()
"""The names of the decision kinds (none; a game with decisions numbers them ``DECISION_*``)."""

OBS_SIZE = 0
"""Entries of a seat's observation: no decision, nothing to observe."""

MAX_LEGAL = 0
"""The most legal moves at any decision: there is no decision."""

__all__ = ["DECISION_NAMES", "MAX_LEGAL", "OBS_SIZE"]

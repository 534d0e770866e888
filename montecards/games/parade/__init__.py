"""Parade (2-6 players): rules kernel, strategies, decision interface, scripted play and trace."""

from montecards.games.parade.game import (
    SPEC,
    decisions,
    play_scripted,
    removal,
    score,
    script_from_trace,
    trace,
)

__all__ = ["SPEC", "decisions", "play_scripted", "removal", "score", "script_from_trace", "trace"]

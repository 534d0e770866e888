"""Joker Marbles (Pegs and Jokers, 2-6 players): rules kernel, strategies, scripted play, trace,
and the decision interface (``view``; ``decisions`` logs a game through it)."""

from montecards.games.marbles.game import (
    SPEC,
    apply_move,
    decisions,
    legal_moves,
    play_scripted,
    script_from_trace,
    trace,
)

__all__ = [
    "SPEC", "apply_move", "decisions", "legal_moves", "play_scripted", "script_from_trace", "trace",
]

"""Anomia (3-6 players): rules, skill model, kernel, scripted play and trace (docs/rules/anomia.md)."""

from montecards.games.anomia.game import (
    SPEC,
    TwoMatchesError,
    decisions,
    deck_in_play,
    play_scripted,
    replay_inputs,
    script_from_trace,
    trace,
)

__all__ = [
    "SPEC",
    "TwoMatchesError",
    "decisions",
    "deck_in_play",
    "play_scripted",
    "replay_inputs",
    "script_from_trace",
    "trace",
]

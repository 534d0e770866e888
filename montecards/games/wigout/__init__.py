"""Wig Out! (2-6 players): rules, strategies, decisions, scripted play, trace (docs/rules/wigout.md)."""

from montecards.games.wigout.game import (
    SPEC,
    decisions,
    play_scripted,
    script_from_trace,
    scripted_inputs,
    trace,
)

__all__ = ["SPEC", "decisions", "play_scripted", "script_from_trace", "scripted_inputs", "trace"]

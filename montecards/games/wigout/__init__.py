"""Wig Out! (2-6 players): rules kernel, strategies, scripted play and trace (docs/rules/wigout.md)."""

from montecards.games.wigout.game import SPEC, play_scripted, scripted_inputs, trace

__all__ = ["SPEC", "play_scripted", "scripted_inputs", "trace"]

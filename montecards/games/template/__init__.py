"""High card (2-6 players), the template game: rules kernel, strategies, decision interface,
scripted play and trace. Copy this package to add a game (``montecards/engine/CONTRACT.md``)."""

from montecards.games.template.game import SPEC, decisions, play_scripted, script_from_trace, trace

__all__ = ["SPEC", "decisions", "play_scripted", "script_from_trace", "trace"]

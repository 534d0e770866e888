"""Parade (2-6 players): rules kernel, strategies, scripted play and trace."""

from montecards.games.parade.game import SPEC, play_scripted, removal, score, trace

__all__ = ["SPEC", "play_scripted", "removal", "score", "trace"]

"""Gift of Tulips (2-6 players): rules kernel, strategies, scripted play and trace.

The default card and festival-board model of docs/rules/tulips.md, every number a parameter
(``values``, ``base_per_value``, ``marked_per_value``, ``removed``, ``give_bonus``,
``keep_bonus``, ``majority_points``, ``secret_reveal``).

The package: ``cards`` (components), ``rules`` (the state ``g`` and the rule functions; the
readings of the rules page's open points are written once, in its docstring), ``strategies``
(the built-in strategies), ``view`` (the decision interface: observation, move ids, legal
moves), ``kernel`` (one game, a block, the chunk, the trace, the scripted game ``play_script``)
and ``game`` (spec, parameters, trace frame, the Python scripted API ``play_scripted``,
``script_from_trace`` and ``decisions``).
"""

from montecards.games.tulips.game import (
    SPEC,
    decisions,
    kernel_trace,
    pack_params,
    play_scripted,
    script_from_trace,
    trace,
)

__all__ = ["SPEC", "decisions", "kernel_trace", "pack_params", "play_scripted", "script_from_trace", "trace"]

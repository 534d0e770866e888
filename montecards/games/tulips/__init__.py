"""Gift of Tulips (2-6 players): rules kernel, strategies, scripted play and trace.

The default card and festival-board model of docs/rules/tulips.md, every number a parameter
(``values``, ``base_per_value``, ``marked_per_value``, ``removed``, ``give_bonus``,
``keep_bonus``, ``majority_points``, ``secret_reveal``).

Readings of the rules chosen here:

* Deck layout (explicit decks, top first): removed cards, the 2 festival cards, 2 per seat
  (the first is hand index 0), the draw pile. A run shuffles lazily in drawing order, so the
  removed cards are the cards never drawn (the trace lists them at the end).
* The opening ranking: a random permutation of the colours from the table stream, stably
  sorted by festival total (ties, including the two colours at 0, in permutation order).
* Setup: every seat chooses its bouquet card before any is placed (simultaneous).
* Re-ranking: the raised colour moves just above the highest-placed colour whose total is
  <= its new total (ties favour the colour just raised), after every open card and every
  revealed secret card. Places are read at the moment of each action.
* A turn's two actions must be of different kinds: keep, give, festival (open and secret
  are both "festival").
* End: the pile empties -> the game ends (mid-turn if need be; such a turn still counts in
  ``turns``). ``min(secret size, secret_reveal)`` secret cards are revealed, chosen at
  random and in random order (the order is random even when all are revealed).
* Majorities for the colours in places 1st-3rd: holders of >= 1 card grouped by
  (count, total value), best first; group k gets majority k (dense: tied players share a
  majority's points, the next group gets the following majority); 1 majority with 2
  players, 2 with 3-4, 3 with 5-6. ``majority_points[place][k]``.
* Most points wins; tie: most tulips in bouquet; still tied: shared (1/k each).
* Outputs: ``score`` = points; seat outputs ``keep_points``, ``give_points``,
  ``majority_points``, ``tulips``; metrics ``keep_points``, ``give_points``,
  ``majority_points`` are stored per game as integer sums over seats (the rules' per-game
  mean over seats is the sum / players); ``turns`` = player turns, all seats.
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

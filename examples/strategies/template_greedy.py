"""High card's built-in ``greedy``, written as a user strategy over the decision interface.

It reads only the observation and the legal moves, through ``montecards.games.template.view``
(docs/rules/template.md), and makes exactly the choices of the built-in ``greedy``
(``tests/test_template.py`` checks it): the lowest hand card that would take the trick if it
ended now (higher than every card on it so far; leading, that is the lowest card); when no
card can, the lowest card.

``choose(obs, legal, params, memory, rng) -> int`` returns an index into ``legal``; ``params``,
``memory`` and ``rng`` are not used. Plain loops: numba compiles it as it stands, and it runs
in Python too.
"""

from __future__ import annotations

from montecards.games.template import view


def choose(obs, legal, params, memory, rng):
    best_on_trick = view.obs_highest_on_trick(obs)
    lowest = 0
    cheapest_winner = -1
    for i in range(legal.shape[0]):
        card = view.move_card(legal[i])
        if card < view.move_card(legal[lowest]):
            lowest = i
        if card > best_on_trick and (cheapest_winner < 0 or card < view.move_card(legal[cheapest_winner])):
            cheapest_winner = i
    return cheapest_winner if cheapest_winner >= 0 else lowest

"""A Parade strategy of my own: greedy's score, plus a price on every card taken.

``greedy`` plays the card that leaves it the lowest score *as if the game ended now*. Early in
the game that is short-sighted: a card taken now is a card in the collection for good, and
majorities (which turn a colour into 1 point per card) shift until the end. This strategy
scores each play as

    params[0] * (score after the play) + params[1] * (cards the play takes)

and plays the lowest (ties as greedy: the highest value, then the lowest card id). With
``params = [1, 0]`` it is greedy's play; the default weights ``[1.0, 0.5]`` (used when a seat
gives none) also price the cards themselves. The final discard is greedy's.

    montecards simulate parade -n 200000 -s examples/strategies/parade_weighted.py:choose -s greedy
    montecards simulate parade -s examples/strategies/parade_weighted.py:choose -s greedy \\
        --strategy-params 1,2 --strategy-params -

The weights are run-time data: trying other weights never recompiles anything.
"""

from __future__ import annotations

from pathlib import Path

from numba import njit

from montecards.engine.strategies import load_module
from montecards.games.parade import view

greedy = load_module(Path(__file__).with_name("parade_greedy.py"))

DEFAULT_SCORE_WEIGHT = 1.0
DEFAULT_CARD_WEIGHT = 0.5


@njit(cache=True)
def cards_taken(obs, card):
    """How many parade cards playing ``card`` takes (docs/rules/parade.md: the cards before the
    last ``value`` ones are in removal mode; those of its colour or of a value up to its own go)."""
    value = view.value_of(card)
    taken = 0
    for i in range(max(view.obs_parade_size(obs) - value, 0)):
        other = view.obs_parade_card(obs, i)
        if view.colour_of(other) == view.colour_of(card) or view.value_of(other) <= value:
            taken += 1
    return taken


@njit(cache=True)
def choose(obs, legal, params, memory, rng):
    """The play with the lowest weighted cost; greedy's discard."""
    if view.obs_kind(obs) == view.DECISION_DISCARD:
        return greedy.choose_discard(obs, legal)
    score_weight = params[0] if params.shape[0] > 0 else DEFAULT_SCORE_WEIGHT
    card_weight = params[1] if params.shape[0] > 1 else DEFAULT_CARD_WEIGHT
    best = 0
    best_cost = 0.0
    best_card = 0
    for i in range(legal.shape[0]):
        card = view.move_card(legal[i])
        cost = score_weight * greedy.score_after_play(obs, card, memory) + card_weight * cards_taken(obs, card)
        better = i == 0 or cost < best_cost
        if cost == best_cost and i > 0:
            value, best_value = view.value_of(card), view.value_of(best_card)
            better = value > best_value or (value == best_value and card < best_card)
        if better:
            best, best_cost, best_card = i, cost, card
    return best

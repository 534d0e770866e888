"""High card's built-in strategies, as integer codes dispatched inside the kernel.

Each strategy sees only what its seat sees at the table (rules: What a seat sees). A
built-in reads the state directly (the fast path); ``examples/strategies/template_greedy.py``
is ``greedy`` written over the decision interface (``view``) alone, and the tests show that
the two make the same choices.

* ``random``: a uniform choice among the hand cards, from the seat's choice stream;
* ``greedy``: the lowest hand card that would take the trick if it ended now (higher than
  every card on it so far; leading, that is the lowest card); when no card can, the lowest.
"""

from __future__ import annotations

from montecards.engine.jit import hot
from montecards.games.template.rules import hand_card, hand_count, highest_on_trick

RANDOM = 0
GREEDY = 1
NAMES = ("random", "greedy")
SCRIPTED = -1  # decisions read from a script (play_scripted and the oracle tests)


@hot
def greedy_play(g, seat):
    """Hand index of ``greedy``'s card: the lowest that beats the trick so far, else the lowest."""
    best = highest_on_trick(g)
    lowest = 0
    cheapest_winner = -1
    for k in range(hand_count(g, seat)):
        card = hand_card(g, seat, k)
        if card < hand_card(g, seat, lowest):
            lowest = k
        if card > best and (cheapest_winner < 0 or card < hand_card(g, seat, cheapest_winner)):
            cheapest_winner = k
    return cheapest_winner if cheapest_winner >= 0 else lowest

"""Wig Out!'s ``greedy`` written as a user strategy: only the observation and the legal moves.

Shed the most cards per action: start a pile with all copies of the character held most
often (at least twice; ties: the lowest character, even if that character already has a
pile); with no pile to start, add one card of the lowest character that has a pile.

The built-in ``greedy`` (``montecards/games/wigout/strategies.py``) makes exactly these
choices; ``tests/test_view_wigout.py`` checks it on thousands of logged decisions. Use it as
a template: ``choose`` must stay numba-compilable (plain loops over the int64 arrays). Once
user strategies can run in the kernel (the "Your own strategy" issue), it is meant to run as

    montecards simulate wigout -s montecards/strategies/wigout_greedy.py:choose -s greedy
"""

from montecards.games.wigout import view


def choose(obs, legal, params, memory, rng):
    """The index into ``legal`` of the play to make (``legal`` lists characters ascending,
    for each one the start before the add)."""
    best = -1
    best_cards = 1
    for i in range(legal.shape[0]):
        move = legal[i]
        if view.is_start(move):
            cards = view.obs_held(obs, view.move_character(move))
            if cards > best_cards:  # strictly more: the lowest character wins ties
                best = i
                best_cards = cards
    if best >= 0:
        return best
    for i in range(legal.shape[0]):  # no start: the first add is the lowest character's
        if view.is_add(legal[i]):
            return i
    return 0

"""Wig Out!: ``spoiler``, a strategy idea — play your own cards without opening piles for others.

A pile on the table never leaves during a round, so a card of a character that shows can always
be added later, and a character held twice or more can always be started: the number of actions
a seat needs to empty its hand barely depends on the order of its plays. What the order does
change is what the *opponents* can do: starting a pile of a character that is not on the table
yet hands a play to every opponent holding a copy of it (a seat without a play must draw, at
``draw_time_factor`` times the time, and takes a card).

So ``spoiler`` first plays the moves that help nobody — adds, and starts of a character that
already shows or whose every copy it can see (``obs_unseen == 0``) — shedding the most cards
first, as ``greedy`` does. Only when every legal move opens a new pile does it open one, the
character with the fewest unseen copies (the least help to the others), most cards shed among
equals. It reads nothing but ``obs`` and ``legal``; ``params``, ``memory`` and ``rng`` are unused.

    montecards simulate wigout -n 100000 -s examples/strategies/wigout_spoiler.py:choose \\
        -s greedy -s greedy -s greedy
"""

from montecards.games.wigout import view


def choose(obs, legal, params, memory, rng):
    """The index into ``legal`` of the play to make."""
    best = 0
    best_key = -(1 << 30)
    for i in range(legal.shape[0]):
        move = legal[i]
        c = view.move_character(move)
        cards = view.move_cards(obs, move)
        opens = view.is_start(move) and not view.obs_showing(obs, c)
        help_given = view.obs_unseen(obs, c) if opens else 0
        # help nobody first (most cards shed first); else the least help, then the most cards
        key = cards if help_given == 0 else -(1 << 16) - 64 * help_given + cards
        if key > best_key:  # strictly more: the lowest legal index wins ties (as greedy)
            best = i
            best_key = key
    return best

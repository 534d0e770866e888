"""Gift of Tulips' ``random`` strategy written as a user strategy, over the decision interface.

``choose(obs, legal, params, memory, rng) -> int`` makes ``random``'s choices the way the
built-in draws them (docs/rules/tulips.md, Strategies):

* set-up: a hand index uniformly (the legal order is the hand);
* an action: the action kind uniformly among the allowed ones (in the order keep, give,
  festival), then the receiver uniformly (the k-th gift of ``legal`` is the gift to seat
  + 1 + k) or open / secret uniformly.

Fed the game's choice stream it draws exactly the built-in's moves (tests/test_view_tulips.py
checks it on logged decisions). Played as a user strategy it draws from its seat's own
stream (``rng``), not from the game's shared choice stream: the same kind of player, but not
the same games as the built-in ``random`` for a seed. ``params`` and ``memory`` are not used.
"""

from numba import njit

from montecards.games.tulips import view
from montecards.rng import bounded


@njit(cache=True)
def choose(obs, legal, params, memory, rng):
    if view.obs_kind(obs) == view.DECISION_SETUP:
        return bounded(rng, 2)
    first_class = view.obs_first_class(obs)
    kind = bounded(rng, 3 if first_class < 0 else 2)
    if first_class >= 0 and kind >= first_class:
        kind += 1  # skip the kind already used this turn
    if kind == view.GIVE:
        gift = bounded(rng, view.obs_players(obs) - 1)
        for i in range(legal.shape[0]):
            if view.move_kind(legal[i]) == view.GIVE:
                return i + gift
    if kind >= view.OPEN:
        kind = view.OPEN if bounded(rng, 2) == 0 else view.SECRET
    for i in range(legal.shape[0]):
        if view.move_kind(legal[i]) == kind:
            return i
    # the drawn action is not legal: only under restrict(random, never=...), which removed it
    # (the game's own legal moves always hold every action but the turn's first kind)
    return bounded(rng, legal.shape[0])

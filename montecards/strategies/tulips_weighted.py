"""Gift of Tulips' ``weighted`` built-in written as a user strategy: a template for a tunable one.

``choose(obs, legal, params, memory, rng) -> int`` scores every legal move by

    sum_k params[k] * feature_k(move)

with the 14 features of the built-in ``weighted`` (``montecards.games.tulips.strategies.FEATURES``,
docs/strategies/tulips.md: immediate points, majority points now, the best rival's standing,
the other seats' majorities, the receiver's lead, the card's colour edge, what an open or a
secret card does for the colours the seat leads, the margin at the festival projected with the
seat's own secret cards revealed, a late-game margin, and three biases), and plays the
highest. Ties: greedy's order (the legal order — gifts, keep, open, secret — except that
between gifts the receiver with fewer points so far wins; at set-up greedy's set-up rule).
It makes the very choices of the built-in for the same weights (tests/test_weighted_tulips.py).

A seat given no weights (``params`` empty) plays ``weighted``'s defaults, which are greedy's
choices. Weights are run-time data: trying others never recompiles anything::

    montecards simulate tulips -s montecards/strategies/tulips_weighted.py:choose -s majority \\
        --strategy-params 1,1,-1,0,0,0,0,0,0,0,0,0,0,0 --strategy-params -

To make it your own, add a feature to ``move_features`` below's tuple (or replace it with your
own function over the observation, ``view.obs_*``) and give it a weight.
"""

from numba import njit

from montecards.games.tulips import view
from montecards.games.tulips.strategies import DEFAULT_WEIGHTS, N_FEATURES, move_features, rival_seat


@njit(cache=True)
def weight(params, k):
    """Weight ``k``: the seat's own (``params``), or the default when it gave none."""
    return params[k] if params.shape[0] == N_FEATURES else DEFAULT_WEIGHTS[k]


@njit(cache=True)
def score(obs, move, rival, params):
    f = move_features(obs, move, rival)
    total = 0.0
    for k in range(N_FEATURES):
        total += weight(params, k) * f[k]
    return total


@njit(cache=True)
def choose(obs, legal, params, memory, rng):
    rival = rival_seat(obs, view.obs_seat(obs))
    if view.obs_kind(obs) == view.DECISION_SETUP:
        sa = score(obs, legal[0], rival, params)
        sb = score(obs, legal[1], rival, params)
        if sa != sb:
            return 0 if sa > sb else 1
        place_a = view.obs_place(obs, view.obs_hand_colour(obs, 0))
        place_b = view.obs_place(obs, view.obs_hand_colour(obs, 1))
        if place_a != place_b:
            return 0 if place_a < place_b else 1
        return 1 if view.obs_hand_value(obs, 1) > view.obs_hand_value(obs, 0) else 0
    best, best_score = 0, 0.0
    for i in range(legal.shape[0]):
        s = score(obs, legal[i], rival, params)
        if i == 0 or s > best_score:
            best, best_score = i, s
        elif (s == best_score and view.move_kind(legal[i]) == view.GIVE
              and view.move_kind(legal[best]) == view.GIVE
              and view.obs_points(obs, view.move_receiver(legal[i]))
              < view.obs_points(obs, view.move_receiver(legal[best]))):
            best = i
    return best

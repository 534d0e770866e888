"""Wig Out!'s ``weighted`` written as a user strategy: a template for a tunable strategy.

Every legal play gets a score, the weighted sum of ten features read from the observation
(docs/strategies/wigout.md, "weighted and tuned: the features"), and the highest score is
played; ties go to the first play in ``legal``'s order (characters ascending, the start before
the add). The weights are ``params`` (a seat's ``strategy_params``), one per feature in the
order of ``FEATURES``; missing ones take ``DEFAULTS``, the built-in ``weighted``'s defaults
(greedy's cards shed, less 3 for opening a new pile; ``1,0,0,0,0,0,0,0,0,0`` makes exactly
``greedy``'s plays). The built-in ``weighted``
(``montecards/games/wigout/strategies.py``) makes exactly these choices for the same weights;
``tests/test_weighted_wigout.py`` checks it (same rows for the same seed).

    montecards simulate wigout -s montecards/strategies/wigout_weighted.py:choose -s greedy \\
        -s greedy -s greedy --strategy-params 1,0,0,0,-2,-1,0,0,0,0 --strategy-params - \\
        --strategy-params - --strategy-params -

The weights are run-time data: trying other weights never recompiles anything. To try a
feature of your own, add it to ``features`` and give it a weight.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.games.wigout import view

FEATURES = (
    "cards", "wig_out", "split", "add", "opens", "help", "help_pile", "help_near", "cards_near",
    "help_stuck",
)
DEFAULTS = (1.0, 0.0, 0.0, 0.0, -3.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@njit(cache=True)
def weight(params, k):
    """Weight ``k``: ``params[k]``, or its default when ``params`` is shorter."""
    return params[k] if k < params.shape[0] else DEFAULTS[k]


@njit(cache=True)
def score(obs, move, params):
    """The weighted sum of the features of ``move`` (in ``FEATURES``'s order)."""
    seat = view.obs_seat(obs)
    others = 0
    fewest = np.int64(1) << 62
    for s in range(view.obs_players(obs)):
        if s != seat:
            h = view.obs_hand_size(obs, s)
            others += h
            fewest = min(fewest, h)
    pile = view.obs_draw_pile(obs)
    unseen_cards = max(others + pile, 1)
    in_hands = others / unseen_cards  # the opponents' share of the cards the seat cannot see
    in_pile = pile / unseen_cards
    inv_near = 1.0 / max(fewest, 1)  # 1 / the fewest cards an opponent holds

    c = view.move_character(move)
    n = view.obs_held(obs, c)
    start = view.is_start(move)
    cards = n if start else 1
    opens = start and not view.obs_showing(obs, c)
    unseen = (view.obs_copies(obs) - n) if opens else 0  # none of it shows: all unseen
    help_ = unseen * in_hands
    total = weight(params, 0) * cards
    total += weight(params, 1) * (1.0 if cards == view.obs_own_hand_size(obs) else 0.0)
    total += weight(params, 2) * (1.0 if (not start and n >= 2) else 0.0)
    total += weight(params, 3) * (0.0 if start else 1.0)
    total += weight(params, 4) * (1.0 if opens else 0.0)
    total += weight(params, 5) * help_
    total += weight(params, 6) * (unseen * in_pile)
    total += weight(params, 7) * (help_ * inv_near)
    total += weight(params, 8) * (cards * inv_near)
    total += weight(params, 9) * (unseen if pile == 0 else 0.0)
    return total


def choose(obs, legal, params, memory, rng):
    """The index into ``legal`` of the play with the highest score (the first among equals)."""
    best = 0
    best_score = 0.0
    for i in range(legal.shape[0]):
        s = score(obs, legal[i], params)
        if i == 0 or s > best_score:
            best = i
            best_score = s
    return best

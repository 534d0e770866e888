"""Parade's built-in ``weighted`` (and ``tuned``), written as a user strategy: a template for a
strategy whose play is tuned by weights.

It reads only the observation and the legal moves, through ``montecards.games.parade.view``
(docs/strategies/parade.md), and with the same weights makes exactly the choices of the
built-in ``weighted`` (``tests/test_weighted_parade.py`` checks it game for game). Each legal
move gets a feature vector; the move with the highest weighted sum ``sum(w[k] * f[k])`` is
played. Lower Parade scores win, so a weight on a score change is negative to avoid points.

* a play (features 0-12, docs/strategies/parade.md "weighted and tuned: the features"):
  ``score_change`` (the seat's score after the play and its removal minus before, as if the
  game ended now, majorities included), ``cards_taken``, ``points_taken`` (their printed
  values), ``colours_started`` (colours the seat had none of and now takes),
  ``majorities_gained``, ``rival_majorities_broken`` (colours another seat holds in majority
  and no longer would), ``rival_score_change`` (change of the lowest other score),
  ``played_value``, ``six_colours_lead`` (when the play completes the seat's six colours and
  so starts the last round: the lowest other score minus the seat's, else 0),
  ``early_cards_taken`` and ``early_score_change`` (``cards_taken`` and ``score_change`` times
  the fraction of the draw pile left), ``next_play_change`` (before the last round: the lowest
  score change of the seat's next play, one of its other hand cards on the parade this play
  leaves) and ``last_keep_change`` (in the last round: the lowest score change of keeping two
  of the four cards this play leaves in hand); ties: the highest value, then the lowest id;
* the final discard (features 13-14): ``keep_score_change`` and ``keep_rival_score_change``
  of the two cards kept; ties: keep the pair with the lowest ids.

``choose(obs, legal, params, memory, rng) -> int`` returns an index into ``legal``. ``params``
holds the weights in that order; missing ones (a shorter ``params``, none at all) take the
defaults ``DEFAULT_WEIGHTS``, greedy's weighting (``-1`` on both score changes, ``0`` on the
rest), so without params this plays greedy; ``params = [-1, -c]`` is greedy's score plus a
price ``c`` per card taken (what this example computed before it became ``weighted``'s twin). ``memory`` (at least ``MEMORY_NEEDED`` floats; the
default 128) is working space, ``rng`` is not used.

    montecards simulate parade -s montecards/strategies/parade_weighted.py:choose -s greedy \\
        --strategy-params=-1,-0.3 --strategy-params -

Plain loops over numpy arrays: numba compiles it as it stands, and it runs in Python too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.games.parade import view

N_FEATURES = 15
PLAY_FEATURES = 13
DEFAULT_WEIGHTS = np.array([-1.0] + [0.0] * 12 + [-1.0, 0.0])
N_COLOURS = view.N_COLOURS
OPENING_PARADE = 6  # cards of the parade at set-up (docs/rules/parade.md)

# memory layout: the parade a candidate play leaves, then blocks of 12 floats, each a set of
# cards added to the seat's collection: [colour] cards, [6 + colour] their printed values
PARADE_AT = 0
TAKEN_AT = 70  # what the candidate play takes
NEXT_AT = 82  # what the next play (or the kept pair) adds
BOTH_AT = 94  # the two together
NONE_AT = 106  # nothing (zeros)
MEMORY_NEEDED = NONE_AT + 2 * N_COLOURS


@njit(cache=True)
def weight(params, k):
    """Weight ``k``: ``params[k]``, or its default when ``params`` is shorter."""
    return params[k] if params is not None and k < params.shape[0] else DEFAULT_WEIGHTS[k]


@njit(cache=True)
def in_majority(count, best_other, margin):
    """Does a seat with ``count`` cards of a colour hold its majority (rules: Scoring)?"""
    return count >= 1 and count - best_other >= margin


@njit(cache=True)
def seat_count(obs, seat, colour, added):
    """``seat``'s cards of ``colour``, plus those ``added`` when it is the deciding seat."""
    count = view.obs_collection_count(obs, seat, colour)
    return count + int(added[colour]) if seat == view.obs_seat(obs) else count


@njit(cache=True)
def own_score(obs, added):
    """The deciding seat's score with the cards ``added`` (a block of 12), the others as they stand."""
    seat = view.obs_seat(obs)
    total = 0
    for colour in range(N_COLOURS):
        count = view.obs_collection_count(obs, seat, colour) + int(added[colour])
        points = view.obs_collection_sum(obs, seat, colour) + int(added[N_COLOURS + colour])
        best_other = view.obs_best_other_count(obs, colour)
        total += count if in_majority(count, best_other, view.obs_margin(obs)) else points
    return total


@njit(cache=True)
def best_against(obs, other, colour, added):
    """The most cards of ``colour`` among the seats other than ``other`` (the deciding seat's
    with the cards ``added``)."""
    best = 0
    for seat in range(view.obs_players(obs)):
        if seat != other:
            best = max(best, seat_count(obs, seat, colour, added))
    return best


@njit(cache=True)
def rival_score(obs, added):
    """The lowest score among the other seats if the deciding seat had the cards ``added``."""
    me = view.obs_seat(obs)
    lowest = -1
    for other in range(view.obs_players(obs)):
        if other != me:
            total = 0
            for colour in range(N_COLOURS):
                count = view.obs_collection_count(obs, other, colour)
                against = best_against(obs, other, colour, added)
                majority = in_majority(count, against, view.obs_margin(obs))
                total += count if majority else view.obs_collection_sum(obs, other, colour)
            lowest = total if lowest < 0 else min(lowest, total)
    return lowest


@njit(cache=True)
def rival_holds(obs, colour, added):
    """Does another seat hold ``colour``'s majority if the deciding seat had the cards ``added``?"""
    me = view.obs_seat(obs)
    for other in range(view.obs_players(obs)):
        if other != me:
            count = view.obs_collection_count(obs, other, colour)
            if in_majority(count, best_against(obs, other, colour, added), view.obs_margin(obs)):
                return True
    return False


@njit(cache=True)
def take(parade, n, card, out):
    """Into ``out`` (a block of 12): the cards playing ``card`` takes from ``parade[:n]`` (front
    first). The cards before the last ``value`` ones are in removal mode; of those, the ones of
    its colour or of a value up to its own are taken (docs/rules/parade.md)."""
    for k in range(2 * N_COLOURS):
        out[k] = 0.0
    value = view.value_of(card)
    for i in range(max(n - value, 0)):
        other = int(parade[i])
        if view.colour_of(other) == view.colour_of(card) or view.value_of(other) <= value:
            out[view.colour_of(other)] += 1.0
            out[N_COLOURS + view.colour_of(other)] += view.value_of(other)


@njit(cache=True)
def parade_left(parade, n, card, out):
    """Write into ``out`` the parade that playing ``card`` on ``parade[:n]`` leaves; return its length."""
    value = view.value_of(card)
    kept = 0
    for i in range(n):
        other = int(parade[i])
        taken = i < n - value and (
            view.colour_of(other) == view.colour_of(card) or view.value_of(other) <= value
        )
        if not taken:
            out[kept] = other
            kept += 1
    out[kept] = card
    return kept + 1


@njit(cache=True)
def play_features(obs, card, memory, features):
    """The 13 play features of playing ``card`` into ``features[:13]``."""
    seat = view.obs_seat(obs)
    n = view.obs_parade_size(obs)
    parade = obs[view.OBS_PARADE : view.OBS_PARADE + n]
    taken = memory[TAKEN_AT : TAKEN_AT + 2 * N_COLOURS]
    extra = memory[NEXT_AT : NEXT_AT + 2 * N_COLOURS]
    both = memory[BOTH_AT : BOTH_AT + 2 * N_COLOURS]
    none = memory[NONE_AT : NONE_AT + 2 * N_COLOURS]
    none[:] = 0.0
    take(parade, n, card, taken)
    now = own_score(obs, none)
    after = own_score(obs, taken)
    cards = 0
    points = 0
    started = 0
    gained = 0
    broken = 0
    margin = view.obs_margin(obs)
    for colour in range(N_COLOURS):
        have = view.obs_collection_count(obs, seat, colour)
        got = int(taken[colour])
        cards += got
        points += int(taken[N_COLOURS + colour])
        started += int(have == 0 and got > 0)
        best_other = view.obs_best_other_count(obs, colour)
        gained += int(in_majority(have + got, best_other, margin) and not in_majority(have, best_other, margin))
        broken += int(rival_holds(obs, colour, none) and not rival_holds(obs, colour, taken))
    early = view.obs_draw_pile(obs) / (view.N_CARDS - view.HAND_SIZE * view.obs_players(obs) - OPENING_PARADE)
    features[0] = after - now
    features[1] = cards
    features[2] = points
    features[3] = started
    features[4] = gained
    features[5] = broken
    features[6] = rival_score(obs, taken) - rival_score(obs, none)
    features[7] = view.value_of(card)
    six = view.obs_turns_left(obs) < 0
    for colour in range(N_COLOURS):
        six = six and view.obs_collection_count(obs, seat, colour) + int(taken[colour]) >= 1
    features[8] = rival_score(obs, taken) - after if six else 0
    features[9] = cards * early
    features[10] = (after - now) * early
    features[11] = 0.0
    features[12] = 0.0
    hand = obs[view.OBS_HAND : view.OBS_HAND + view.obs_hand_size(obs)]
    lowest = -1
    if view.obs_turns_left(obs) < 0:  # before the last round: the next play, on the parade left
        left = parade_left(parade, n, card, memory[PARADE_AT:])
        for other in hand:
            if other != card:
                take(memory[PARADE_AT:], left, other, extra)
                for k in range(2 * N_COLOURS):
                    both[k] = taken[k] + extra[k]
                score = own_score(obs, both)
                lowest = score if lowest < 0 else min(lowest, score)
        features[11] = 0.0 if lowest < 0 else lowest - after
    else:  # the seat's last play: the best two of the cards it leaves in hand to keep
        for a in range(hand.shape[0]):
            for b in range(a + 1, hand.shape[0]):
                if hand[a] != card and hand[b] != card:
                    for k in range(2 * N_COLOURS):
                        both[k] = taken[k]
                    for kept in (hand[a], hand[b]):
                        both[view.colour_of(kept)] += 1.0
                        both[N_COLOURS + view.colour_of(kept)] += view.value_of(kept)
                    score = own_score(obs, both)
                    lowest = score if lowest < 0 else min(lowest, score)
        features[12] = 0.0 if lowest < 0 else lowest - after


@njit(cache=True)
def choose_play(obs, legal, params, memory):
    features = np.zeros(PLAY_FEATURES)
    best = 0
    best_total = 0.0
    best_card = 0
    for i in range(legal.shape[0]):
        card = view.move_card(legal[i])
        play_features(obs, card, memory, features)
        total = weight(params, 0) * features[0]
        for k in range(1, PLAY_FEATURES):
            total += weight(params, k) * features[k]
        better = i == 0 or total > best_total
        if i > 0 and total == best_total:  # greedy's tie-break: the highest value, then the lowest id
            value, best_value = view.value_of(card), view.value_of(best_card)
            better = value > best_value or (value == best_value and card < best_card)
        if better:
            best, best_total, best_card = i, total, card
    return best


@njit(cache=True)
def kept_cards(obs, move):
    """The two hand cards a discard move keeps, lower id first."""
    low = -1
    high = -1
    for k in range(view.obs_hand_size(obs)):
        card = view.obs_hand_card(obs, k)
        if card != view.discard_low(move) and card != view.discard_high(move):
            if low < 0:
                low = card
            else:
                high = card
    return min(low, high), max(low, high)


@njit(cache=True)
def choose_discard(obs, legal, params, memory):
    kept = memory[NEXT_AT : NEXT_AT + 2 * N_COLOURS]
    none = memory[NONE_AT : NONE_AT + 2 * N_COLOURS]
    none[:] = 0.0
    now = own_score(obs, none)
    rival_now = rival_score(obs, none)
    best = 0
    best_key = (0.0, 0, 0)
    for i in range(legal.shape[0]):
        low, high = kept_cards(obs, legal[i])
        kept[:] = 0.0
        for card in (low, high):
            kept[view.colour_of(card)] += 1.0
            kept[N_COLOURS + view.colour_of(card)] += view.value_of(card)
        total = weight(params, 13) * (own_score(obs, kept) - now)
        total += weight(params, 14) * (rival_score(obs, kept) - rival_now)
        key = (-total, low, high)  # the highest sum; ties: keep the lowest ids
        if i == 0 or key < best_key:
            best, best_key = i, key
    return best


@njit(cache=True)
def choose(obs, legal, params, memory, rng):
    """``weighted``'s choice with the weights ``params``: an index into ``legal``."""
    if view.obs_kind(obs) == view.DECISION_DISCARD:
        return choose_discard(obs, legal, params, memory)
    return choose_play(obs, legal, params, memory)

"""Parade's built-in ``greedy``, written as a user strategy over the decision interface.

It reads only the observation and the legal moves, through ``montecards.games.parade.view``
(docs/strategies/parade.md), and makes exactly the choices of the built-in ``greedy``
(``tests/test_view_parade.py`` checks it on thousands of logged decisions):

* play: the card that minimises the seat's score as if the game ended right after the play
  and its removal (majorities included, against the other collections as they stand); ties:
  the highest value, then the lowest card id;
* final discard: keep the two cards that minimise that score; ties: keep the pair with the
  lowest ids (the lower kept card first, then the higher).

``choose(obs, legal, params, memory, rng) -> int`` returns an index into ``legal``; ``params``
and ``rng`` are not used (greedy needs no weights and no randomness), ``memory`` only as
working space.
Plain loops over numpy arrays: numba compiles it as it stands, and it runs in Python too.
"""

from __future__ import annotations

from numba import njit

from montecards.games.parade import view


@njit(cache=True, inline="always")
def colour_points(count, points, best_other, margin):
    """Points of one colour: 1 per card if the seat has its majority, else the printed values."""
    in_majority = count >= 1 and count - best_other >= margin
    return count if in_majority else points


@njit(cache=True, inline="always")
def score_after_play(obs, card, scratch):
    """The seat's score if the game ended right after it played ``card`` and took its cards.

    ``scratch``: at least 2 * N_COLOURS floats of working space (the strategy's ``memory``).
    """
    seat = view.obs_seat(obs)
    played_colour = view.colour_of(card)
    played_value = view.value_of(card)
    points_at = view.N_COLOURS  # scratch[colour]: cards taken, scratch[points_at + colour]: their points
    for colour in range(2 * view.N_COLOURS):
        scratch[colour] = 0.0
    # the cards before the last `played_value` ones are in removal mode; of those, the ones of
    # the played colour or of a value up to the played one are taken (one pass over them)
    for i in range(max(view.obs_parade_size(obs) - played_value, 0)):
        other = view.obs_parade_card(obs, i)
        colour = view.colour_of(other)
        value = view.value_of(other)
        if colour == played_colour or value <= played_value:
            scratch[colour] += 1
            scratch[points_at + colour] += value
    total = 0
    for colour in range(view.N_COLOURS):
        count = view.obs_collection_count(obs, seat, colour) + int(scratch[colour])
        points = view.obs_collection_sum(obs, seat, colour) + int(scratch[points_at + colour])
        best_other = view.obs_best_other_count(obs, colour)
        total += colour_points(count, points, best_other, view.obs_margin(obs))
    return total


@njit(cache=True, inline="always")
def score_keeping(obs, a, b):
    """The seat's score if it kept cards ``a`` and ``b`` and the game ended now."""
    seat = view.obs_seat(obs)
    total = 0
    for colour in range(view.N_COLOURS):
        count = view.obs_collection_count(obs, seat, colour)
        points = view.obs_collection_sum(obs, seat, colour)
        for card in (a, b):
            if view.colour_of(card) == colour:
                count += 1
                points += view.value_of(card)
        best_other = view.obs_best_other_count(obs, colour)
        total += colour_points(count, points, best_other, view.obs_margin(obs))
    return total


@njit(cache=True, inline="always")
def choose_play(obs, legal, scratch):
    best = 0
    best_score = 0
    best_card = 0
    for i in range(legal.shape[0]):
        card = view.move_card(legal[i])
        score = score_after_play(obs, card, scratch)
        better = i == 0 or score < best_score
        if score == best_score and i > 0:
            value, best_value = view.value_of(card), view.value_of(best_card)
            better = value > best_value or (value == best_value and card < best_card)
        if better:
            best, best_score, best_card = i, score, card
    return best


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def choose_discard(obs, legal):
    best = 0
    best_key = (0, 0, 0)
    for i in range(legal.shape[0]):
        low, high = kept_cards(obs, legal[i])
        key = (score_keeping(obs, low, high), low, high)
        if i == 0 or key < best_key:
            best, best_key = i, key
    return best


@njit(cache=True, inline="always")
def choose(obs, legal, params, memory, rng):
    """Greedy's choice: an index into ``legal``."""
    if view.obs_kind(obs) == view.DECISION_DISCARD:
        return choose_discard(obs, legal)
    return choose_play(obs, legal, memory)

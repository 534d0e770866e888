"""Gift of Tulips: ``majority`` that counts on the secret festival's reveal (a strategy idea).

The built-in ``majority`` (its twin: ``tulips_majority.py``, beside this file) judges each
move by the seat's **standing** as if the game ended right after it, so to it a card put in
the secret festival changes nothing. But the secret festival is not lost: at the end up to
``obs_secret_reveal`` of its cards, drawn at random, are added to the open festival. A secret
card of colour ``c`` therefore still lifts ``c`` later, with probability about

    p = min(1, secret_reveal / (cards in the secret festival once this one is in))

(an estimate: more secret cards may follow). This strategy values the secret move as the
expected standing ``(1 - p) * standing now + p * standing with c raised by the card's value``
(the open move's standing) and otherwise plays as ``majority``: a quiet way to push a colour
it leads up the ranking, or to keep a card out of an opponent's bouquet without raising a
colour now. Moves are compared by expected margin, then expected own points, ties in legal
order.

``params`` (optional, one weight): the weight of majority points at the game's first action,
rising linearly to 1 at its last (default 1: majorities count fully all game, as in
``majority``). Lower starts play for immediate points early, when the ranking and the bouquets
will still change a lot. ``memory`` and ``rng`` are not used.

Measured (``-n 4000`` per seating, both seatings): against ``greedy`` it holds 0.65 of the
wins with 2 players, 0.57 with 3, 0.50 with 4 and 0.48 with 6 (``majority``: 0.64, 0.57,
0.50, 0.48); against ``majority`` 0.52 with 2 players and 0.50 with 4. With ``params=[0]``:
0.69 / 0.54 / 0.44 / 0.42 against greedy, but 0.66 (2p) and 0.58 (4p) against majority.
"""

from pathlib import Path

from numba import njit

from montecards.engine.user_strategies import load_module
from montecards.games.tulips import view

majority = load_module(Path(__file__).with_name("tulips_majority.py"))
NOBODY = majority.NOBODY


@njit(cache=True)
def standing(obs, weight, extra, raised, old_place, new_place, holder, card_colour, card_value):
    """``(margin, own)`` as ``majority.standing``, with the majority points times ``weight``."""
    seat = view.obs_seat(obs)
    own = view.obs_points(obs, seat) + extra + weight * majority.majority_points(
        obs, seat, raised, old_place, new_place, holder, card_colour, card_value
    )
    best_other = -1e300
    for other in range(view.obs_players(obs)):
        if other != seat:
            v = view.obs_points(obs, other) + weight * majority.majority_points(
                obs, other, raised, old_place, new_place, holder, card_colour, card_value
            )
            if v > best_other:
                best_other = v
    return own - best_other, own


@njit(cache=True)
def progress(obs):
    """The share of the game's actions already made (0 at the first action, near 1 at the last)."""
    done = 2 * (view.obs_turn(obs) - 1) + view.obs_step(obs)
    return done / (done + view.obs_pile_left(obs) + 1.0)


@njit(cache=True)
def raised_place(obs, colour, value, place):
    """The place ``colour`` moves to when ``value`` is added to its open-festival total."""
    total = view.obs_total(obs, colour) + value
    new_place = 0
    while new_place < place and view.obs_total(obs, view.obs_colour_at(obs, new_place)) > total:
        new_place += 1
    return new_place


@njit(cache=True)
def choose(obs, legal, params, memory, rng):
    if view.obs_kind(obs) == view.DECISION_SETUP:
        return majority.choose_setup(obs)
    seat = view.obs_seat(obs)
    colour = view.obs_hand_colour(obs, 0)
    value = view.obs_hand_value(obs, 0)
    place = view.obs_place(obs, colour)
    start = params[0] if params.shape[0] > 0 else 1.0
    w = start + (1.0 - start) * progress(obs)
    still_m, still_o = standing(obs, w, 0, NOBODY, -1, -1, NOBODY, colour, value)
    new_place = raised_place(obs, colour, value, place)
    raised_m, raised_o = still_m, still_o
    if new_place != place:
        raised_m, raised_o = standing(obs, w, 0, colour, place, new_place, NOBODY, colour, value)
    p = min(1.0, view.obs_secret_reveal(obs) / (view.obs_secret_size(obs) + 1.0))
    best = -1
    best_m = -1e300
    best_o = -1e300
    for i in range(legal.shape[0]):
        kind = view.move_kind(legal[i])
        if kind == view.GIVE:
            points = value + view.obs_give_bonus(obs, place)
            m, o = standing(obs, w, points, NOBODY, -1, -1, view.move_receiver(legal[i]), colour, value)
        elif kind == view.KEEP:
            m, o = standing(obs, w, view.obs_keep_bonus(obs, place), NOBODY, -1, -1, seat, colour, value)
        elif kind == view.OPEN:
            m, o = raised_m, raised_o
        else:  # secret: raised at the end with probability p
            m = (1.0 - p) * still_m + p * raised_m
            o = (1.0 - p) * still_o + p * raised_o
        if m > best_m or (m == best_m and o > best_o):
            best = i
            best_m = m
            best_o = o
    return best

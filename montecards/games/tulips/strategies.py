"""Gift of Tulips strategies, as integer codes dispatched inside the kernel.

Each strategy sees only what its seat sees at the table (rules: What a strategy may see):
the card it has just drawn (and, at setup, its two cards), every bouquet, the open festival
totals and ranking, the points so far of every seat and the size of the draw pile. None
looks at the faces of the secret festival.

An action decision is returned as one integer ``action * 8 + receiver`` (receiver 0 unless
the action is a gift; the move id of ``view``); see :func:`decode`. ``majority`` keeps its
scratch after the rules' state, in the same array (``WORK_SIZE`` in all); its look-ahead
changes the rules' state and restores it (``rules.trial_bouquet``, ``undo_raise``).
"""

from __future__ import annotations

from numba import njit

from montecards.games.tulips.cards import MAX_PLAYERS, N_PLACES
from montecards.games.tulips.rules import (
    GIVE,
    KEEP,
    N_COLOURS,
    OPEN,
    SECRET_ACTION,
    STATE_SIZE,
    colour_majorities,
    colour_of,
    give_points,
    keep_points,
    majorities,
    place_of,
    player_count,
    raise_colour,
    save_ranking,
    so_far,
    trial_bouquet,
    undo_raise,
    value_of,
)
from montecards.rng import bounded

RANDOM = 0
GREEDY = 1
MAJORITY = 2
NAMES = ("random", "greedy", "majority")
SCRIPTED = -1  # decisions read from a script (play_scripted and the oracle tests)

NEG = -(1 << 60)

# --- majority's scratch: not fields of the rules' state, but the same array, right after it ------
# (its own array cost one more argument through the whole turn loop: +5 % time per greedy game)
MAJ_NOW = STATE_SIZE  # majority points per seat at the current ranking (then: all but the card's)
MAJ_TRY = MAJ_NOW + MAX_PLAYERS  # majority points per seat after a trial move
SAVED_RANKING = MAJ_TRY + MAX_PLAYERS  # ranking and places saved around a trial open
WORK_SIZE = SAVED_RANKING + N_PLACES + N_COLOURS
"""Size of the kernel's state array: the rules' state (``rules.STATE_SIZE``), then this scratch."""


@njit(cache=True, inline="always")
def encode(action, receiver):
    return action * 8 + receiver


@njit(cache=True, inline="always")
def decode(code):
    """``(action, receiver)`` of a decision code."""
    return code >> 3, code & 7


# --- random -------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def random_setup(rng):
    """Which of the two dealt cards goes to the bouquet: uniform."""
    return bounded(rng, 2)


@njit(cache=True, inline="always")
def random_action(g, seat, first_class, rng):
    """The action class uniformly among the allowed ones (in the order keep, give, festival),
    then the receiver uniformly among the other seats (a gift) or open/secret uniformly (a
    festival card)."""
    players = player_count(g)
    n = 3 if first_class < 0 else 2
    cls = bounded(rng, n)
    if first_class >= 0 and cls >= first_class:
        cls += 1  # skip the class already used this turn
    if cls == KEEP:
        return encode(KEEP, 0)
    if cls == GIVE:
        return encode(GIVE, (seat + 1 + bounded(rng, players - 1)) % players)
    return encode(OPEN if bounded(rng, 2) == 0 else SECRET_ACTION, 0)


# --- greedy -------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def greedy_setup(g, a, b):
    """Hand index (0/1) going to the bouquet: the card of the better-placed colour; ties (same
    colour): the higher value; still tied: the first card."""
    pa = place_of(g, colour_of(g, a))
    pb = place_of(g, colour_of(g, b))
    if pa != pb:
        return 0 if pa < pb else 1
    return 1 if value_of(g, b) > value_of(g, a) else 0


@njit(cache=True, inline="always")
def lowest_scorer(g, seat):
    """The other seat with the fewest points so far (keep + give); ties: the first one met
    going clockwise from ``seat``."""
    players = player_count(g)
    best = -1
    best_pts = 0
    for step in range(1, players):
        other = seat + step
        if other >= players:
            other -= players
        pts = so_far(g, other)
        if best < 0 or pts < best_pts:
            best = other
            best_pts = pts
    return best


@njit(cache=True, inline="always")
def greedy_action(g, seat, card, first_class):
    """The allowed action with the most immediate points for the seat: keep = keep bonus of
    the colour's current place, give = value + give bonus of that place, open or secret
    festival = 0. Ties in the order give, keep, open, secret. A gift goes to
    :func:`lowest_scorer`. Myopic: each card is judged alone when drawn."""
    best = -1
    best_pts = 0
    if first_class != GIVE:
        best = GIVE
        best_pts = give_points(g, card)
    if first_class != KEEP:
        pts = keep_points(g, card)
        if best < 0 or pts > best_pts:
            best = KEEP
            best_pts = pts
    if first_class != OPEN and best_pts < 0:
        best = OPEN
    if best == GIVE:
        return encode(GIVE, lowest_scorer(g, seat))
    return encode(best, 0)


# --- majority -----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def standing(g, seat, majority, own_extra):
    """``(margin, own)`` with the majority points per seat at ``g[majority:]``: the seat's
    points if the game ended now (points so far + ``own_extra`` + majorities) and that minus
    the best other seat's."""
    own = so_far(g, seat) + own_extra + g[majority + seat]
    best_other = NEG
    for other in range(player_count(g)):
        if other != seat:
            v = so_far(g, other) + g[majority + other]
            if v > best_other:
                best_other = v
    return own - best_other, own


@njit(cache=True, inline="always")
def trial_majorities(g, holder, card, place, notrace):
    """``MAJ_TRY`` = majority points per seat if ``holder`` (-1: nobody) had ``card`` too;
    ``MAJ_NOW`` must hold the points of every colour but the card's (which is in ``place``)."""
    for s in range(player_count(g)):
        g[MAJ_TRY + s] = g[MAJ_NOW + s]
    if place < 3:
        if holder >= 0:
            trial_bouquet(g, holder, card, 1)
        colour_majorities(g, colour_of(g, card), place, MAJ_TRY, 1, notrace)
        if holder >= 0:
            trial_bouquet(g, holder, card, -1)


@njit(cache=True)
def majority_setup(g, seat, a, b, notrace):
    """Hand index going to the bouquet: the card giving the better standing (margin, then own
    points; see :func:`majority_action`) against the bouquets as they are before anybody
    places a card (the choice is simultaneous); ties: :func:`greedy_setup`."""
    trial_bouquet(g, seat, a, 1)
    majorities(g, MAJ_TRY, notrace)
    ma, oa = standing(g, seat, MAJ_TRY, 0)
    trial_bouquet(g, seat, a, -1)
    trial_bouquet(g, seat, b, 1)
    majorities(g, MAJ_TRY, notrace)
    mb, ob = standing(g, seat, MAJ_TRY, 0)
    trial_bouquet(g, seat, b, -1)
    if ma != mb:
        return 0 if ma > mb else 1
    if oa != ob:
        return 0 if oa > ob else 1
    return greedy_setup(g, a, b)


@njit(cache=True)
def majority_action(g, seat, card, first_class, notrace):
    """The allowed action giving the best standing as if the game ended right after it.

    Standing = (the seat's points so far + the action's immediate points + its majority
    points at the current ranking) minus the same for the best other seat; so it keeps
    colours it leads or can take in the top places, opens a colour to lift one it leads
    (or sink one an opponent leads), and gives to the player who gains least from the
    card relative to the seat (one that cannot overtake it). Tie-breaks: the higher own
    points, then the order give, keep, open, secret; among receivers the first met going
    clockwise from the seat.
    """
    players = player_count(g)
    colour = colour_of(g, card)
    value = value_of(g, card)
    place = place_of(g, colour)
    majorities(g, MAJ_NOW, notrace)
    # secret (and open when the order stays): nothing changes before the end
    still_m, still_o = standing(g, seat, MAJ_NOW, 0)
    if place < 3:  # MAJ_NOW: every colour but the card's
        colour_majorities(g, colour, place, MAJ_NOW, -1, notrace)
    best = -1
    best_m = NEG
    best_o = NEG
    if first_class != GIVE:
        pts = give_points(g, card)
        for step in range(1, players):
            other = seat + step
            if other >= players:
                other -= players
            trial_majorities(g, other, card, place, notrace)
            m, o = standing(g, seat, MAJ_TRY, pts)
            if m > best_m or (m == best_m and o > best_o):
                best = encode(GIVE, other)
                best_m = m
                best_o = o
    if first_class != KEEP:
        trial_majorities(g, seat, card, place, notrace)
        m, o = standing(g, seat, MAJ_TRY, keep_points(g, card))
        if m > best_m or (m == best_m and o > best_o):
            best = encode(KEEP, 0)
            best_m = m
            best_o = o
    if first_class != OPEN:
        save_ranking(g, SAVED_RANKING)
        m, o = still_m, still_o
        changed = raise_colour(g, colour, value)
        if changed:
            majorities(g, MAJ_TRY, notrace)
            m, o = standing(g, seat, MAJ_TRY, 0)
        undo_raise(g, colour, value, changed, SAVED_RANKING)
        if m > best_m or (m == best_m and o > best_o):
            best = encode(OPEN, 0)
            best_m = m
            best_o = o
        if still_m > best_m or (still_m == best_m and still_o > best_o):
            best = encode(SECRET_ACTION, 0)
    return best

"""Gift of Tulips' ``majority`` strategy written as a user strategy, over the decision interface.

``choose(obs, legal, params, memory, rng) -> int`` reads only the observation (``view.obs_*``)
and the legal moves (``view`` decoders) and makes the very choices of the built-in
``majority`` (tests/test_view_tulips.py checks it on many games):

* an action: the legal move giving the best **standing** as if the game ended right after
  it — standing = (the seat's points so far + the move's immediate points + its majority
  points at the ranking after the move) minus the same for the best other seat. Ties: the
  higher own points, then the legal order (gifts clockwise from the next seat, keep, open,
  secret). A secret card changes nothing before the end; an open card matters only when it
  moves its colour up the ranking;
* set-up: the card giving the better standing (margin, then own points) if it were in the
  bouquet, against the bouquets as they are before anybody places a card (the choice is
  simultaneous); ties: greedy's set-up rule (better-placed colour, higher value, first card).

Majority points (docs/rules/tulips.md, End of the game): for each colour in places 1st-3rd,
the holders of at least one card are ranked by (count, total value); a seat behind ``k``
distinct better (count, value) pairs gets majority ``k`` of that place, if that majority is
paid (``obs_majorities_paid``). ``params``, ``memory`` and ``rng`` are not used.
"""

from numba import njit

from montecards.games.tulips import view

NEG = -(1 << 60)
KEY_SHIFT = 1 << 20  # (count, value) as one number: count * KEY_SHIFT + value (values < 2**20)
NOBODY = -1


@njit(cache=True)
def bouquet_key(obs, seat, colour, holder, card_colour, card_value):
    """(count, value) of ``seat``'s ``colour`` as one number, if ``holder`` had the card too."""
    count = view.obs_bouquet_count(obs, seat, colour)
    value = view.obs_bouquet_value(obs, seat, colour)
    if seat == holder and colour == card_colour:
        count += 1
        value += card_value
    return count * KEY_SHIFT + value if count > 0 else 0


@njit(cache=True)
def colour_points(obs, seat, colour, place, holder, card_colour, card_value):
    """``seat``'s majority points from ``colour`` standing in ``place``."""
    if place >= 3:
        return 0
    key = bouquet_key(obs, seat, colour, holder, card_colour, card_value)
    if key == 0:
        return 0
    players = view.obs_players(obs)
    better = 0  # distinct (count, value) pairs above the seat's
    for s in range(players):
        k = bouquet_key(obs, s, colour, holder, card_colour, card_value)
        if k > key:
            seen = False
            for t in range(s):
                if bouquet_key(obs, t, colour, holder, card_colour, card_value) == k:
                    seen = True
            if not seen:
                better += 1
    if better < view.obs_majorities_paid(obs):
        return view.obs_majority_points(obs, place, better)
    return 0


@njit(cache=True)
def colour_in(obs, place, raised, old_place, new_place):
    """The colour in ``place`` once ``raised`` moved from ``old_place`` up to ``new_place``."""
    if place == new_place:
        return raised
    if new_place < place <= old_place:
        return view.obs_colour_at(obs, place - 1)
    return view.obs_colour_at(obs, place)


@njit(cache=True)
def majority_points(obs, seat, raised, old_place, new_place, holder, card_colour, card_value):
    total = 0
    for place in range(3):
        colour = colour_in(obs, place, raised, old_place, new_place)
        total += colour_points(obs, seat, colour, place, holder, card_colour, card_value)
    return total


@njit(cache=True)
def standing(obs, extra, raised, old_place, new_place, holder, card_colour, card_value):
    """``(margin, own)``: the deciding seat's points if the game ended now (+ ``extra``) and
    that minus the best other seat's."""
    seat = view.obs_seat(obs)
    own = view.obs_points(obs, seat) + extra + majority_points(
        obs, seat, raised, old_place, new_place, holder, card_colour, card_value
    )
    best_other = NEG
    for other in range(view.obs_players(obs)):
        if other != seat:
            v = view.obs_points(obs, other) + majority_points(
                obs, other, raised, old_place, new_place, holder, card_colour, card_value
            )
            if v > best_other:
                best_other = v
    return own - best_other, own


@njit(cache=True)
def choose_setup(obs):
    """Hand index (0, 1) of the card that goes to the bouquet (the legal order is the hand)."""
    seat = view.obs_seat(obs)
    ma, oa = standing(obs, 0, NOBODY, -1, -1, seat, view.obs_hand_colour(obs, 0), view.obs_hand_value(obs, 0))
    mb, ob = standing(obs, 0, NOBODY, -1, -1, seat, view.obs_hand_colour(obs, 1), view.obs_hand_value(obs, 1))
    if ma != mb:
        return 0 if ma > mb else 1
    if oa != ob:
        return 0 if oa > ob else 1
    place_a = view.obs_place(obs, view.obs_hand_colour(obs, 0))
    place_b = view.obs_place(obs, view.obs_hand_colour(obs, 1))
    if place_a != place_b:
        return 0 if place_a < place_b else 1
    return 1 if view.obs_hand_value(obs, 1) > view.obs_hand_value(obs, 0) else 0


@njit(cache=True)
def choose(obs, legal, params, memory, rng):
    if view.obs_kind(obs) == view.DECISION_SETUP:
        return choose_setup(obs)
    seat = view.obs_seat(obs)
    colour = view.obs_hand_colour(obs, 0)
    value = view.obs_hand_value(obs, 0)
    place = view.obs_place(obs, colour)
    still_m, still_o = standing(obs, 0, NOBODY, -1, -1, NOBODY, colour, value)
    best = -1
    best_m = NEG
    best_o = NEG
    for i in range(legal.shape[0]):
        kind = view.move_kind(legal[i])
        if kind == view.GIVE:
            points = value + view.obs_give_bonus(obs, place)
            m, o = standing(obs, points, NOBODY, -1, -1, view.move_receiver(legal[i]), colour, value)
        elif kind == view.KEEP:
            m, o = standing(obs, view.obs_keep_bonus(obs, place), NOBODY, -1, -1, seat, colour, value)
        elif kind == view.OPEN:  # the colour moves just above the highest-placed colour <= its total
            total = view.obs_total(obs, colour) + value
            new_place = 0
            while new_place < place and view.obs_total(obs, view.obs_colour_at(obs, new_place)) > total:
                new_place += 1
            m, o = still_m, still_o
            if new_place != place:
                m, o = standing(obs, 0, colour, place, new_place, NOBODY, colour, value)
        else:  # secret: nothing changes before the end
            m, o = still_m, still_o
        if m > best_m or (m == best_m and o > best_o):
            best = i
            best_m = m
            best_o = o
    return best

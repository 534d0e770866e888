"""Gift of Tulips' ``greedy`` strategy written as a user strategy, over the decision interface.

``choose(obs, legal, params, memory, rng) -> int`` returns an index into ``legal``; it reads
only the observation (through the ``view.obs_*`` accessors) and the legal moves (through the
``view`` decoders), so it sees exactly what its seat sees at the table. It makes the very
choices of the built-in ``greedy`` (tests/test_view_tulips.py checks it on many games):

* set-up: the card of the better-placed colour goes to the bouquet (ties: the higher value,
  then the first card);
* an action: the move with the most immediate points for the seat — keep: the keep bonus of
  the card's colour's place; give: the card's value + the give bonus of that place; open or
  secret festival: 0 — ties in the legal order (give, keep, open, secret). A gift goes to
  the other seat with the fewest points so far (ties: the first one clockwise, which is the
  legal order of the gifts).

``params``, ``memory`` and ``rng`` are not used: greedy needs no parameters, remembers
nothing and draws nothing.
"""

from numba import njit

from montecards.games.tulips import view


@njit(cache=True)
def choose_setup(obs):
    """Hand index (0, 1) of the card that goes to the bouquet (the legal order is the hand)."""
    place_a = view.obs_place(obs, view.obs_hand_colour(obs, 0))
    place_b = view.obs_place(obs, view.obs_hand_colour(obs, 1))
    if place_a != place_b:
        return 0 if place_a < place_b else 1
    return 1 if view.obs_hand_value(obs, 1) > view.obs_hand_value(obs, 0) else 0


@njit(cache=True)
def choose(obs, legal, params, memory, rng):
    if view.obs_kind(obs) == view.DECISION_SETUP:
        return choose_setup(obs)
    place = view.obs_place(obs, view.obs_hand_colour(obs, 0))
    value = view.obs_hand_value(obs, 0)
    # the gift to the lowest scorer: gifts come clockwise from the next seat, so the first
    # strictly lowest is the clockwise tie-break
    gift = -1
    lowest = 0
    for i in range(legal.shape[0]):
        if view.move_kind(legal[i]) == view.GIVE:
            points = view.obs_points(obs, view.move_receiver(legal[i]))
            if gift < 0 or points < lowest:
                gift = i
                lowest = points
    best = -1
    best_points = 0
    for i in range(legal.shape[0]):
        kind = view.move_kind(legal[i])
        if kind == view.GIVE:
            if i != gift:
                continue
            points = value + view.obs_give_bonus(obs, place)
        elif kind == view.KEEP:
            points = view.obs_keep_bonus(obs, place)
        else:  # open or secret festival: no points now
            points = 0
        if best < 0 or points > best_points:
            best = i
            best_points = points
    return best

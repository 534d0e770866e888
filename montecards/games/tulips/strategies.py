"""Gift of Tulips strategies, as integer codes dispatched inside the kernel.

Each strategy sees only what its seat sees at the table (rules: What a strategy may see):
the card it has just drawn (and, at setup, its two cards), every bouquet, the open festival
totals and ranking, the points so far of every seat and the size of the draw pile. None
looks at the faces of the secret festival.

An action decision is returned as one integer ``action * 8 + receiver`` (receiver 0 unless
the action is a gift; the move id of ``view``); see :func:`decode`. ``majority`` keeps its
scratch after the rules' state, in the same array (``WORK_SIZE`` in all); its look-ahead
changes the rules' state and restores it (``rules.trial_bouquet``, ``undo_raise``).

``weighted`` and ``tuned`` (codes 3, 4) score every legal move by a weighted sum of the
features ``FEATURES`` computed from the seat's observation (``view``: the kernel observes
for them as for a user strategy) with weights read at run time from the table at the end of
the parameter vector (``engine.weights``); :func:`weighted_choice`. Their defaults make
greedy's choices.
"""

from __future__ import annotations

from numba import njit

from montecards.games.tulips.cards import MAX_PLAYERS, N_PLACES
from montecards.games.tulips.rules import (
    GIVE,
    KEEP,
    KEY_SHIFT,
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
from montecards.games.tulips.view import (
    DECISION_SETUP,
    KIND_SETUP,
    move_card,
    move_kind,
    move_receiver,
    obs_bouquet_count,
    obs_bouquet_value,
    obs_colour_at,
    obs_give_bonus,
    obs_hand_card,
    obs_hand_colour,
    obs_hand_value,
    obs_keep_bonus,
    obs_kind,
    obs_majorities_paid,
    obs_majority_points,
    obs_own_secret_value,
    obs_pile_left,
    obs_place,
    obs_players,
    obs_points,
    obs_seat,
    obs_secret_reveal,
    obs_secret_size,
    obs_step,
    obs_total,
    obs_turn,
)
from montecards.rng import bounded

RANDOM = 0
GREEDY = 1
MAJORITY = 2
WEIGHTED = 3
TUNED = 4
ISMCTS = 5  # information-set MCTS, and its twin that sees the true state (``search.py``)
OMNISCIENT = 6
NAMES = ("random", "greedy", "majority", "weighted", "tuned", "ismcts", "omniscient")
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
def trial_majorities(g, holder, card, place):
    """``MAJ_TRY`` = majority points per seat if ``holder`` (-1: nobody) had ``card`` too;
    ``MAJ_NOW`` must hold the points of every colour but the card's (which is in ``place``)."""
    for s in range(player_count(g)):
        g[MAJ_TRY + s] = g[MAJ_NOW + s]
    if place < 3:
        if holder >= 0:
            trial_bouquet(g, holder, card, 1)
        colour_majorities(g, colour_of(g, card), place, MAJ_TRY, 1, None)
        if holder >= 0:
            trial_bouquet(g, holder, card, -1)


@njit(cache=True)
def majority_setup(g, seat, a, b):
    """Hand index going to the bouquet: the card giving the better standing (margin, then own
    points; see :func:`majority_action`) against the bouquets as they are before anybody
    places a card (the choice is simultaneous); ties: :func:`greedy_setup`."""
    trial_bouquet(g, seat, a, 1)
    majorities(g, MAJ_TRY, None)
    ma, oa = standing(g, seat, MAJ_TRY, 0)
    trial_bouquet(g, seat, a, -1)
    trial_bouquet(g, seat, b, 1)
    majorities(g, MAJ_TRY, None)
    mb, ob = standing(g, seat, MAJ_TRY, 0)
    trial_bouquet(g, seat, b, -1)
    if ma != mb:
        return 0 if ma > mb else 1
    if oa != ob:
        return 0 if oa > ob else 1
    return greedy_setup(g, a, b)


@njit(cache=True)
def majority_action(g, seat, card, first_class):
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
    majorities(g, MAJ_NOW, None)
    # secret (and open when the order stays): nothing changes before the end
    still_m, still_o = standing(g, seat, MAJ_NOW, 0)
    if place < 3:  # MAJ_NOW: every colour but the card's
        colour_majorities(g, colour, place, MAJ_NOW, -1, None)
    best = -1
    best_m = NEG
    best_o = NEG
    if first_class != GIVE:
        pts = give_points(g, card)
        for step in range(1, players):
            other = seat + step
            if other >= players:
                other -= players
            trial_majorities(g, other, card, place)
            m, o = standing(g, seat, MAJ_TRY, pts)
            if m > best_m or (m == best_m and o > best_o):
                best = encode(GIVE, other)
                best_m = m
                best_o = o
    if first_class != KEEP:
        trial_majorities(g, seat, card, place)
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
            majorities(g, MAJ_TRY, None)
            m, o = standing(g, seat, MAJ_TRY, 0)
        undo_raise(g, colour, value, changed, SAVED_RANKING)
        if m > best_m or (m == best_m and o > best_o):
            best = encode(OPEN, 0)
            best_m = m
            best_o = o
        if still_m > best_m or (still_m == best_m and still_o > best_o):
            best = encode(SECRET_ACTION, 0)
    return best


# --- weighted and tuned ---------------------------------------------------------------------------
#
# Both read their weights at run time (engine/weights.py): every legal move of a decision is
# scored by sum_k w[k] * feature_k(move), computed from the seat's observation (``view``) alone,
# and the highest score is played. Ties (equal scores, exactly) go by greedy's order: the legal
# order (gifts, keep, open, secret) except that among gifts the receiver with the fewest points
# so far wins (then the first clockwise); at set-up ties go to greedy's set-up rule. So the
# default weights (1 on ``points``, 0 elsewhere) make exactly greedy's choices.

FEATURES = (
    "points",
    "majority",
    "rival",
    "others_majority",
    "receiver_lead",
    "colour_edge",
    "raise_stake",
    "secret_stake",
    "projected_margin",
    "late_margin",
    "own_tulip",
    "gift_to_rival",
    "open_bias",
    "secret_bias",
)
"""The features of ``weighted`` and ``tuned``, in weight order (docs/strategies/tulips.md)."""
N_FEATURES = len(FEATURES)
DEFAULT_WEIGHTS = (1.0,) + (0.0,) * (N_FEATURES - 1)
"""``weighted``'s defaults: greedy's choices (the immediate points, greedy's tie-breaks)."""
TUNED_WEIGHTS = (
    2.3132958093336127,
    -1.0,
    0.9900017671117167,
    1.0,
    -3.0,
    1.7696461634803695,
    0.17821690664121403,
    3.0,
    0.9216190443908547,
    0.8252050724642885,
    4.952564301140928,
    -0.8145974644259351,
    -10.0,
    -1.6232472709424552,
)
"""``tuned``'s weights: the winner of ``python scripts/tune_builtins.py --game tulips`` (record:
``docs/tuning/tulips.json``), against majority at 4 players: held out on 20,000 deals x 4
seatings it wins 54.09 % [53.75, 54.43], +19.33 points over ``weighted``'s defaults (paired)."""
WEIGHT_BOUNDS = (
    (0.0, 3.0),  # points
    (-1.0, 3.0),  # majority
    (-3.0, 1.0),  # rival
    (-3.0, 1.0),  # others_majority
    (-3.0, 3.0),  # receiver_lead
    (-3.0, 3.0),  # colour_edge
    (-3.0, 3.0),  # raise_stake
    (-3.0, 3.0),  # secret_stake
    (-1.0, 3.0),  # projected_margin
    (-1.0, 3.0),  # late_margin
    (-5.0, 5.0),  # own_tulip
    (-5.0, 5.0),  # gift_to_rival
    (-10.0, 10.0),  # open_bias
    (-10.0, 10.0),  # secret_bias
)
NOBODY = -1


@njit(cache=True, inline="always")
def code_colour(rank, place):
    """The colour in ``place`` of the ranking ``rank`` (a rank code: colour of place p at bits 2p)."""
    return (rank >> (2 * place)) & 3


@njit(cache=True, inline="always")
def code_place(rank, colour):
    """The place of ``colour`` in the rank code ``rank``."""
    for p in range(N_PLACES):
        if (rank >> (2 * p)) & 3 == colour:
            return p
    return N_PLACES - 1


@njit(cache=True)
def obs_rank_code(obs):
    """The observed ranking as a rank code (``rules.rank_code``)."""
    code = 0
    for p in range(N_PLACES):
        code |= obs_colour_at(obs, p) << (2 * p)
    return code


@njit(cache=True)
def raised_code(obs, colour, value):
    """The rank code after opening ``value`` of ``colour`` (the rules' re-ranking: the colour
    moves just above the highest-placed colour whose total is <= its new total)."""
    t = obs_total(obs, colour) + value
    p = obs_place(obs, colour)
    q = 0
    while q < p and obs_total(obs, obs_colour_at(obs, q)) > t:
        q += 1
    code = 0
    for place in range(N_PLACES):
        if place < q or place > p:
            c = obs_colour_at(obs, place)
        elif place == q:
            c = colour
        else:
            c = obs_colour_at(obs, place - 1)
        code |= c << (2 * place)
    return code


@njit(cache=True, inline="always")
def held(obs, seat, colour, holder, card_colour, card_value):
    """``(count, value)`` of ``seat``'s ``colour`` if ``holder`` also had the card."""
    count = obs_bouquet_count(obs, seat, colour)
    value = obs_bouquet_value(obs, seat, colour)
    if seat == holder and colour == card_colour:
        count += 1
        value += card_value
    return count, value


@njit(cache=True, inline="always")
def key_of(obs, seat, colour, holder, card_colour, card_value):
    """``seat``'s (count, value) of ``colour`` as one number (0: it holds none), with the card
    at ``holder``."""
    n, v = held(obs, seat, colour, holder, card_colour, card_value)
    return n * KEY_SHIFT + v if n > 0 else 0


@njit(cache=True)
def top_keys(obs, colour, holder, card_colour, card_value):
    """The best three distinct (count, value) keys of ``colour``'s holders, those beyond the
    majorities paid as -1 (``rules.colour_majorities``' dense rule)."""
    k1 = 0
    k2 = 0
    k3 = 0
    for s in range(obs_players(obs)):
        key = key_of(obs, s, colour, holder, card_colour, card_value)
        if key > k1:
            k3 = k2
            k2 = k1
            k1 = key
        elif key < k1:
            if key > k2:
                k3 = k2
                k2 = key
            elif key < k2 and key > k3:
                k3 = key
    paid = obs_majorities_paid(obs)
    if paid < 3:
        k3 = -1
        if paid < 2:
            k2 = -1
    return k1, k2, k3


@njit(cache=True, inline="always")
def key_points(obs, place, key, keys):
    """Majority points of a holder with ``key`` of the colour in ``place`` (``keys``: its
    :func:`top_keys`)."""
    if key == 0:
        return 0
    if key == keys[0]:
        return obs_majority_points(obs, place, 0)
    if key == keys[1]:
        return obs_majority_points(obs, place, 1)
    if key == keys[2]:
        return obs_majority_points(obs, place, 2)
    return 0


@njit(cache=True)
def stake(obs, seat, colour, holder, card_colour, card_value):
    """+1 if the seat holds more cards of ``colour`` than every other seat, -1 if another seat
    holds more than it, 0 otherwise (with the card at ``holder``)."""
    own, _ = held(obs, seat, colour, holder, card_colour, card_value)
    best = 0
    for s in range(obs_players(obs)):
        if s != seat:
            n, _ = held(obs, s, colour, holder, card_colour, card_value)
            best = max(best, n)
    return 1 if own > best else (-1 if own < best else 0)


@njit(cache=True)
def projected_total(obs, colour, open_colour, open_value, secret_colour, secret_value, reveal_p):
    """The colour's festival total after the move plus the expected reveal of the seat's own
    secret-festival cards (each revealed with probability ``reveal_p``)."""
    t = obs_total(obs, colour) + reveal_p * obs_own_secret_value(obs, colour)
    if colour == open_colour:
        t += open_value
    if colour == secret_colour:
        t += reveal_p * secret_value
    return t


@njit(cache=True)
def projected_code(obs, rank, open_colour, open_value, secret_colour, secret_value, reveal_p):
    """The ranking by :func:`projected_total`, ties in the order of ``rank``."""
    code = 0
    for c in range(N_COLOURS):
        tc = projected_total(obs, c, open_colour, open_value, secret_colour, secret_value, reveal_p)
        pc = code_place(rank, c)
        place = 0
        for d in range(N_COLOURS):
            if d != c:
                td = projected_total(obs, d, open_colour, open_value, secret_colour, secret_value, reveal_p)
                if td > tc or (td == tc and code_place(rank, d) < pc):
                    place += 1
        code |= c << (2 * place)
    return code


@njit(cache=True)
def margin_at(obs, seat, rank, holder, card_colour, card_value):
    """``(own majority, best other majority, mean other majority, best other points +
    majority)`` at ``rank`` with the card at ``holder`` (one pass per colour for the keys)."""
    c0 = code_colour(rank, 0)
    c1 = code_colour(rank, 1)
    c2 = code_colour(rank, 2)
    keys0 = top_keys(obs, c0, holder, card_colour, card_value)
    keys1 = top_keys(obs, c1, holder, card_colour, card_value)
    keys2 = top_keys(obs, c2, holder, card_colour, card_value)
    own = 0
    best_maj = NEG
    best_total = NEG
    mean = 0.0
    players = obs_players(obs)
    for s in range(players):
        m = (
            key_points(obs, 0, key_of(obs, s, c0, holder, card_colour, card_value), keys0)
            + key_points(obs, 1, key_of(obs, s, c1, holder, card_colour, card_value), keys1)
            + key_points(obs, 2, key_of(obs, s, c2, holder, card_colour, card_value), keys2)
        )
        if s == seat:
            own = m
        else:
            mean += m
            best_maj = max(best_maj, m)
            best_total = max(best_total, obs_points(obs, s) + m)
    return own, best_maj, mean / (players - 1), best_total


@njit(cache=True)
def rival_seat(obs, seat):
    """The other seat with the most points so far + majority points at the current ranking
    (ties: the first clockwise from the seat)."""
    players = obs_players(obs)
    rank = obs_rank_code(obs)
    c0 = code_colour(rank, 0)
    c1 = code_colour(rank, 1)
    c2 = code_colour(rank, 2)
    keys0 = top_keys(obs, c0, NOBODY, 0, 0)
    keys1 = top_keys(obs, c1, NOBODY, 0, 0)
    keys2 = top_keys(obs, c2, NOBODY, 0, 0)
    best = -1
    best_v = NEG
    for step in range(1, players):
        other = (seat + step) % players
        v = obs_points(obs, other) + (
            key_points(obs, 0, key_of(obs, other, c0, NOBODY, 0, 0), keys0)
            + key_points(obs, 1, key_of(obs, other, c1, NOBODY, 0, 0), keys1)
            + key_points(obs, 2, key_of(obs, other, c2, NOBODY, 0, 0), keys2)
        )
        if v > best_v:
            best = other
            best_v = v
    return best


@njit(cache=True)
def move_features(obs, move, rival):
    """The 14 features (``FEATURES``) of ``move`` for the deciding seat, as a tuple of floats.

    ``rival``: :func:`rival_seat` of the observation (the same for every move of a decision).
    A set-up move puts the card in the bouquet and the other dealt card in the secret festival.
    """
    seat = obs_seat(obs)
    players = obs_players(obs)
    kind = move_kind(move)
    rank0 = obs_rank_code(obs)
    secret_colour = -1
    secret_value = 0
    open_colour = -1
    open_value = 0
    n_secret = obs_secret_size(obs)
    points = 0.0
    receiver = NOBODY
    if kind == KIND_SETUP:
        k = 0 if move_card(move) == obs_hand_card(obs, 0) else 1
        colour = obs_hand_colour(obs, k)
        value = obs_hand_value(obs, k)
        secret_colour = obs_hand_colour(obs, 1 - k)
        secret_value = obs_hand_value(obs, 1 - k)
        holder = seat
        rank = rank0
        n_secret = players  # every seat puts one card there at set-up
        drawn = 0
    else:
        colour = obs_hand_colour(obs, 0)
        value = obs_hand_value(obs, 0)
        place = obs_place(obs, colour)
        holder = NOBODY
        rank = rank0
        if kind == KEEP:
            holder = seat
            points = obs_keep_bonus(obs, place)
        elif kind == GIVE:
            receiver = move_receiver(move)
            holder = receiver
            points = value + obs_give_bonus(obs, place)
        elif kind == OPEN:
            rank = raised_code(obs, colour, value)
            open_colour = colour
            open_value = value
        else:
            secret_colour = colour
            secret_value = value
            n_secret += 1
        drawn = 2 * (obs_turn(obs) - 1) + obs_step(obs) + 1
    own_maj, best_maj, mean_maj, rival_total = margin_at(obs, seat, rank, holder, colour, value)
    # colour_edge: own cards of the card's colour minus the most another seat holds
    own_n, _ = held(obs, seat, colour, holder, colour, value)
    most = 0
    for s in range(players):
        if s != seat:
            n, _ = held(obs, s, colour, holder, colour, value)
            most = max(most, n)
    reveal_p = 0.0
    if n_secret > 0:
        reveal_p = min(1.0, obs_secret_reveal(obs) / n_secret)
    raise_stake = 0.0
    secret_stake = 0.0
    if kind == OPEN:
        raise_stake = value * stake(obs, seat, colour, holder, colour, value)
    elif kind == SECRET_ACTION or kind == KIND_SETUP:
        secret_stake = reveal_p * secret_value * stake(obs, seat, secret_colour, holder, colour, value)
    projected = projected_code(obs, rank, open_colour, open_value, secret_colour, secret_value, reveal_p)
    p_own, p_best, _, _ = margin_at(obs, seat, projected, holder, colour, value)
    pile = obs_pile_left(obs)
    phase = drawn / (drawn + pile) if drawn + pile > 0 else 1.0
    return (
        points,
        float(own_maj),
        float(rival_total),
        mean_maj,
        (obs_points(obs, receiver) - obs_points(obs, seat)) / 10.0 if receiver >= 0 else 0.0,
        float(own_n - most),
        raise_stake,
        secret_stake,
        float(p_own - p_best),
        phase * (own_maj - best_maj),
        1.0 if holder == seat else 0.0,
        1.0 if receiver >= 0 and receiver == rival else 0.0,
        1.0 if kind == OPEN else 0.0,
        1.0 if kind == SECRET_ACTION else 0.0,
    )


@njit(cache=True)
def move_score(obs, move, rival, weights, base):
    """``sum_k weights[base + k] * feature_k(move)``."""
    f = move_features(obs, move, rival)
    total_score = 0.0
    for k in range(N_FEATURES):
        total_score += weights[base + k] * f[k]
    return total_score


@njit(cache=True)
def weighted_choice(obs, legal, weights, base):
    """Index into ``legal`` of the move with the highest :func:`move_score` (weights
    ``weights[base : base + N_FEATURES]``). Ties: at set-up greedy's set-up rule (the better-
    placed colour, the higher value, the first card); otherwise the legal order (gifts, keep,
    open, secret), except that between gifts the receiver with fewer points so far wins (then
    the first clockwise, the legal order): greedy's tie-breaks."""
    seat = obs_seat(obs)
    rival = rival_seat(obs, seat)
    if obs_kind(obs) == DECISION_SETUP:
        sa = move_score(obs, legal[0], rival, weights, base)
        sb = move_score(obs, legal[1], rival, weights, base)
        if sa != sb:
            return 0 if sa > sb else 1
        pa = obs_place(obs, obs_hand_colour(obs, 0))
        pb = obs_place(obs, obs_hand_colour(obs, 1))
        if pa != pb:
            return 0 if pa < pb else 1
        return 1 if obs_hand_value(obs, 1) > obs_hand_value(obs, 0) else 0
    best = 0
    best_score = 0.0
    for i in range(legal.shape[0]):
        sc = move_score(obs, legal[i], rival, weights, base)
        if i == 0 or sc > best_score:
            best = i
            best_score = sc
        elif (
            sc == best_score
            and move_kind(legal[i]) == GIVE
            and move_kind(legal[best]) == GIVE
            and obs_points(obs, move_receiver(legal[i])) < obs_points(obs, move_receiver(legal[best]))
        ):
            best = i
    return best

"""Gift of Tulips' decision interface: what a seat sees when it decides, and its legal moves.

A seat decides (docs/rules/tulips.md, Setup and A turn):

* ``DECISION_SETUP`` — once per seat at set-up, before any seat's cards are placed (the
  choice is simultaneous): which of its two dealt cards goes face up to its bouquet (the
  other goes face down to the secret festival);
* ``DECISION_ACTION`` — twice per turn, once for each card drawn: the action with that card
  and its target (the receiver of a gift; open or secret for a festival card). The second
  action of a turn must be of a different kind than the first (open and secret are both
  "festival").

**Move ids** (int64, meaningful alone)::

    keep                          0               keep_move()
    give to seat r                8 + r           give_move(r)      (r absolute, != the seat)
    open festival                 16              open_move()
    secret festival               24              secret_move()
    set-up: card c to the bouquet 32 + c          setup_move(c)     (c the card id)

so an action move is ``action * 8 + receiver`` with the actions ``KEEP, GIVE, OPEN, SECRET``
= 0..3 of ``rules`` (the kernel's own decision code), and ``move_kind(m)`` is 0..3 for the
actions and ``KIND_SETUP`` = 4 for a set-up move. Decoders: ``move_kind``, ``move_action``,
``move_receiver``, ``move_card``.

**Legal order.** Set-up: the two dealt cards in deal order (hand 0, hand 1; choice index =
the hand index). Action: the gifts to every other seat going clockwise from the next seat
(seat + 1, seat + 2, ...), then keep, then open, then secret — leaving out the kind used by
the turn's first action. Between 2 and ``MAX_LEGAL`` = 8 moves (5 gifts + keep, open,
secret with 6 players at a turn's first action).

**Observation** (``OBS_SIZE`` int64; seats are absolute seat numbers, ``OBS_SEAT`` is the
deciding seat): the decision kind and seat, the turn, the hand (the drawn card, or the two
dealt cards at set-up) with colours and values, the open festival (totals, ranking and
places), the board's rule parameters (bonuses, majority table, majorities paid, reveal
size), the draw-pile and secret-festival sizes, the deciding seat's OWN secret-festival
cards (count and value per colour) and, per seat, its points so far (keep and give) and its
bouquet (tulips, and count and value sum per colour: all that majorities depend on). Never
another seat's secret cards, the removed cards or the deck order. The offsets are the
``OBS_*`` constants below; read them through the ``obs_*`` accessors.
"""

from __future__ import annotations

from numba import njit

from montecards.engine.decisions import choice_index, log_slot
from montecards.games.tulips.cards import MAX_CARDS, MAX_PLAYERS, N_COLOURS, N_MAJORITY_COLS, N_PLACES
from montecards.games.tulips.rules import (
    GIVE,
    KEEP,
    OPEN,
    SECRET_ACTION,
    bouquet_count,
    bouquet_value,
    colour_at,
    colour_of,
    dealt_card,
    drawn_card,
    give_bonus,
    give_total,
    keep_bonus,
    keep_total,
    majorities_paid,
    majority_award,
    pile_left,
    place_of,
    player_count,
    reveal_size,
    secret_card,
    secret_owner,
    secret_size,
    so_far,
    total,
    tulips,
    turns_begun,
    value_of,
)

# --- decision kinds -------------------------------------------------------------------------------
DECISION_SETUP = 0
DECISION_ACTION = 1
DECISION_NAMES = ("setup", "action")

# --- move ids -----------------------------------------------------------------------------------
SECRET = SECRET_ACTION  # the secret-festival action (``rules.SECRET`` is a state offset)
KIND_SETUP = 4
MOVE_KEEP = KEEP * 8
MOVE_GIVE = GIVE * 8
MOVE_OPEN = OPEN * 8
MOVE_SECRET = SECRET * 8
MOVE_SETUP = KIND_SETUP * 8
MAX_LEGAL = (MAX_PLAYERS - 1) + 3
NO_CLASS = -1  # OBS_FIRST_CLASS before a turn's first action (and at set-up)


@njit(cache=True, inline="always")
def keep_move():
    return MOVE_KEEP


@njit(cache=True, inline="always")
def give_move(receiver):
    return MOVE_GIVE + receiver


@njit(cache=True, inline="always")
def open_move():
    return MOVE_OPEN


@njit(cache=True, inline="always")
def secret_move():
    return MOVE_SECRET


@njit(cache=True, inline="always")
def setup_move(card):
    """The set-up move putting ``card`` (a card id of the seat's hand) in the bouquet."""
    return MOVE_SETUP + card


@njit(cache=True, inline="always")
def move_kind(m):
    """``KEEP``, ``GIVE``, ``OPEN``, ``SECRET`` (0..3) or ``KIND_SETUP`` (4)."""
    return min(m >> 3, KIND_SETUP)


@njit(cache=True, inline="always")
def move_action(m):
    """The action (``KEEP``, ``GIVE``, ``OPEN``, ``SECRET``) of an action move."""
    return m >> 3


@njit(cache=True, inline="always")
def move_receiver(m):
    """The receiving seat of a gift (``give_move(r)``)."""
    return m & 7


@njit(cache=True, inline="always")
def move_card(m):
    """The card going to the bouquet in a set-up move (``setup_move(c)``)."""
    return m - MOVE_SETUP


@njit(cache=True, inline="always")
def action_class(action):
    """The kind of an action for the "different action" rule: keep 0, give 1, festival 2."""
    return OPEN if action >= OPEN else action


# --- observation layout --------------------------------------------------------------------------
OBS_KIND = 0  # DECISION_SETUP or DECISION_ACTION
OBS_SEAT = 1  # the deciding seat
OBS_PLAYERS = 2
OBS_TURN = 3  # turns begun, all seats together (0 at set-up; the current turn's number)
OBS_STEP = 4  # action of the turn: 0 first, 1 second (-1 at set-up)
OBS_FIRST_CLASS = 5  # kind of the turn's first action: keep 0, give 1, festival 2; -1 none
OBS_PILE = 6  # cards left in the draw pile (after the card just drawn)
OBS_SECRET_N = 7  # cards in the secret festival, every seat's
OBS_N_MAJ = 8  # majorities paid per colour (1 with 2 players, 2 with 3-4, 3 with 5-6)
OBS_REVEAL = 9  # secret_reveal: at most this many secret cards are revealed at the end
OBS_HAND = 10  # 2 slots x (card id, colour, value); action: slot 0 the drawn card, slot 1 -1s
HAND_FIELDS = 3
OBS_TOTALS = OBS_HAND + 2 * HAND_FIELDS  # festival total per colour
OBS_RANK = OBS_TOTALS + N_COLOURS  # colour in each place, 1st first
OBS_PLACE = OBS_RANK + N_PLACES  # place (0 = 1st) of each colour
OBS_GIVE_BONUS = OBS_PLACE + N_COLOURS  # by place
OBS_KEEP_BONUS = OBS_GIVE_BONUS + N_PLACES  # by place
OBS_MAJ_TABLE = OBS_KEEP_BONUS + N_PLACES  # [place * 3 + k]: points of majority k (0-based)
OBS_OWN_SECRET_COUNT = OBS_MAJ_TABLE + N_PLACES * N_MAJORITY_COLS  # per colour
OBS_OWN_SECRET_VALUE = OBS_OWN_SECRET_COUNT + N_COLOURS  # per colour
OBS_SEATS = OBS_OWN_SECRET_VALUE + N_COLOURS  # MAX_PLAYERS blocks of SEAT_FIELDS (seats >= players: 0)
S_KEEP = 0  # keep points so far
S_GIVE = 1  # give points so far
S_POINTS = 2  # keep + give points so far (majorities only come at the end)
S_TULIPS = 3  # cards in the bouquet
S_COUNT = 4  # cards per colour in the bouquet
S_VALUE = S_COUNT + N_COLOURS  # value sum per colour in the bouquet
SEAT_FIELDS = S_VALUE + N_COLOURS
OBS_SIZE = OBS_SEATS + MAX_PLAYERS * SEAT_FIELDS


# --- accessors ------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def obs_kind(obs):
    return obs[OBS_KIND]


@njit(cache=True, inline="always")
def obs_seat(obs):
    return obs[OBS_SEAT]


@njit(cache=True, inline="always")
def obs_players(obs):
    return obs[OBS_PLAYERS]


@njit(cache=True, inline="always")
def obs_turn(obs):
    return obs[OBS_TURN]


@njit(cache=True, inline="always")
def obs_step(obs):
    return obs[OBS_STEP]


@njit(cache=True, inline="always")
def obs_first_class(obs):
    return obs[OBS_FIRST_CLASS]


@njit(cache=True, inline="always")
def obs_pile_left(obs):
    return obs[OBS_PILE]


@njit(cache=True, inline="always")
def obs_secret_size(obs):
    return obs[OBS_SECRET_N]


@njit(cache=True, inline="always")
def obs_majorities_paid(obs):
    return obs[OBS_N_MAJ]


@njit(cache=True, inline="always")
def obs_secret_reveal(obs):
    return obs[OBS_REVEAL]


@njit(cache=True, inline="always")
def obs_hand_card(obs, k):
    """Card id of hand slot ``k`` (action: slot 0 is the card just drawn; set-up: slots 0, 1)."""
    return obs[OBS_HAND + HAND_FIELDS * k]


@njit(cache=True, inline="always")
def obs_hand_colour(obs, k):
    return obs[OBS_HAND + HAND_FIELDS * k + 1]


@njit(cache=True, inline="always")
def obs_hand_value(obs, k):
    return obs[OBS_HAND + HAND_FIELDS * k + 2]


@njit(cache=True, inline="always")
def obs_total(obs, colour):
    """The colour's open-festival total."""
    return obs[OBS_TOTALS + colour]


@njit(cache=True, inline="always")
def obs_colour_at(obs, place):
    """The colour in ``place`` (0 = 1st)."""
    return obs[OBS_RANK + place]


@njit(cache=True, inline="always")
def obs_place(obs, colour):
    """The place (0 = 1st) of ``colour``."""
    return obs[OBS_PLACE + colour]


@njit(cache=True, inline="always")
def obs_give_bonus(obs, place):
    return obs[OBS_GIVE_BONUS + place]


@njit(cache=True, inline="always")
def obs_keep_bonus(obs, place):
    return obs[OBS_KEEP_BONUS + place]


@njit(cache=True, inline="always")
def obs_majority_points(obs, place, k):
    """Points of majority ``k`` (0 = the 1st majority) of the colour in ``place``."""
    return obs[OBS_MAJ_TABLE + place * N_MAJORITY_COLS + k]


@njit(cache=True, inline="always")
def obs_own_secret_count(obs, colour):
    """Cards of ``colour`` the deciding seat has put in the secret festival."""
    return obs[OBS_OWN_SECRET_COUNT + colour]


@njit(cache=True, inline="always")
def obs_own_secret_value(obs, colour):
    return obs[OBS_OWN_SECRET_VALUE + colour]


@njit(cache=True, inline="always")
def obs_keep_points(obs, seat):
    return obs[OBS_SEATS + seat * SEAT_FIELDS + S_KEEP]


@njit(cache=True, inline="always")
def obs_give_points(obs, seat):
    return obs[OBS_SEATS + seat * SEAT_FIELDS + S_GIVE]


@njit(cache=True, inline="always")
def obs_points(obs, seat):
    """The seat's points so far (keep + give; majorities are paid at the end)."""
    return obs[OBS_SEATS + seat * SEAT_FIELDS + S_POINTS]


@njit(cache=True, inline="always")
def obs_tulips(obs, seat):
    return obs[OBS_SEATS + seat * SEAT_FIELDS + S_TULIPS]


@njit(cache=True, inline="always")
def obs_bouquet_count(obs, seat, colour):
    return obs[OBS_SEATS + seat * SEAT_FIELDS + S_COUNT + colour]


@njit(cache=True, inline="always")
def obs_bouquet_value(obs, seat, colour):
    return obs[OBS_SEATS + seat * SEAT_FIELDS + S_VALUE + colour]


# --- building the observation and the legal moves (from the rules' state g) ------------------


@njit(cache=True)
def observe(g, seat, kind, first_class, obs):
    """Fill all ``OBS_SIZE`` entries of ``obs`` with what ``seat`` sees at this decision.

    ``first_class``: the kind of the turn's first action (``NO_CLASS`` before it; ignored at
    set-up). :func:`observe_constants` then :func:`observe_decision`.
    """
    observe_constants(g, obs)
    observe_decision(g, seat, kind, first_class, obs)


@njit(cache=True)
def observe_constants(g, obs):
    """The entries of ``obs`` that stay the same for a whole block of games (same players, same
    rules): players, majorities paid, reveal size, bonuses, majority table, and the seats that
    are not at the table (0). The kernel's user path writes them once per block."""
    players = player_count(g)
    obs[OBS_PLAYERS] = players
    obs[OBS_N_MAJ] = majorities_paid(g)
    obs[OBS_REVEAL] = reveal_size(g)
    for p in range(N_PLACES):
        obs[OBS_GIVE_BONUS + p] = give_bonus(g, p)
        obs[OBS_KEEP_BONUS + p] = keep_bonus(g, p)
        for k in range(N_MAJORITY_COLS):
            obs[OBS_MAJ_TABLE + p * N_MAJORITY_COLS + k] = majority_award(g, p, k)
    for i in range(OBS_SEATS + players * SEAT_FIELDS, OBS_SIZE):
        obs[i] = 0


@njit(cache=True)
def observe_decision(g, seat, kind, first_class, obs):
    """Every other entry of ``obs`` (those of :func:`observe_constants` are left as they are)."""
    players = player_count(g)
    obs[OBS_KIND] = kind
    obs[OBS_SEAT] = seat
    obs[OBS_TURN] = turns_begun(g)
    obs[OBS_PILE] = pile_left(g)
    obs[OBS_SECRET_N] = secret_size(g)
    if kind == DECISION_SETUP:
        obs[OBS_STEP] = -1
        obs[OBS_FIRST_CLASS] = NO_CLASS
        for k in range(2):
            card = dealt_card(g, seat, k)
            obs[OBS_HAND + HAND_FIELDS * k] = card
            obs[OBS_HAND + HAND_FIELDS * k + 1] = colour_of(g, card)
            obs[OBS_HAND + HAND_FIELDS * k + 2] = value_of(g, card)
    else:
        obs[OBS_STEP] = 0 if first_class == NO_CLASS else 1
        obs[OBS_FIRST_CLASS] = first_class
        card = drawn_card(g)
        obs[OBS_HAND] = card
        obs[OBS_HAND + 1] = colour_of(g, card)
        obs[OBS_HAND + 2] = value_of(g, card)
        for f in range(HAND_FIELDS):
            obs[OBS_HAND + HAND_FIELDS + f] = -1
    for c in range(N_COLOURS):
        obs[OBS_TOTALS + c] = total(g, c)
        obs[OBS_PLACE + c] = place_of(g, c)
        obs[OBS_OWN_SECRET_COUNT + c] = 0
        obs[OBS_OWN_SECRET_VALUE + c] = 0
    for p in range(N_PLACES):
        obs[OBS_RANK + p] = colour_at(g, p)
    for i in range(secret_size(g)):
        if secret_owner(g, i) == seat:
            card = secret_card(g, i)
            colour = colour_of(g, card)
            obs[OBS_OWN_SECRET_COUNT + colour] += 1
            obs[OBS_OWN_SECRET_VALUE + colour] += value_of(g, card)
    for s in range(players):
        base = OBS_SEATS + s * SEAT_FIELDS
        obs[base + S_KEEP] = keep_total(g, s)
        obs[base + S_GIVE] = give_total(g, s)
        obs[base + S_POINTS] = so_far(g, s)
        obs[base + S_TULIPS] = tulips(g, s)
        for c in range(N_COLOURS):
            obs[base + S_COUNT + c] = bouquet_count(g, s, c)
            obs[base + S_VALUE + c] = bouquet_value(g, s, c)


@njit(cache=True)
def legal_moves(g, seat, kind, first_class, legal):
    """Fill ``legal[:n]`` with the seat's legal moves in the documented order; return ``n``."""
    if kind == DECISION_SETUP:
        legal[0] = setup_move(dealt_card(g, seat, 0))
        legal[1] = setup_move(dealt_card(g, seat, 1))
        return 2
    players = player_count(g)
    n = 0
    if first_class != GIVE:
        for step in range(1, players):
            other = seat + step
            if other >= players:
                other -= players
            legal[n] = give_move(other)
            n += 1
    if first_class != KEEP:
        legal[n] = keep_move()
        n += 1
    if first_class != OPEN:
        legal[n] = open_move()
        legal[n + 1] = secret_move()
        n += 2
    return n


@njit(cache=True)
def log_decision(log, g, seat, kind, first_class, move):
    """One row of the decision log (``engine.decisions``): seat, observation, legal moves and
    the index of ``move`` (the move the seat made) among them."""
    k = log_slot(log)
    if k < 0:
        return
    log[1][k] = seat
    observe(g, seat, kind, first_class, log[2][k])
    n = legal_moves(g, seat, kind, first_class, log[3][k])
    log[4][k] = n
    log[5][k] = choice_index(log[3][k], n, move)


LOG_CAPACITY = MAX_PLAYERS + MAX_CARDS
"""Decisions of one game at most: one set-up choice per seat, one action per card drawn."""

"""Wig Out!'s decision interface: the seat's observation and the legal plays (docs/strategies/wigout.md).

**The decision.** Wig Out! has one kind of decision, ``DECISION_PLAY``: when a seat acts (the
event simulation picked it, rules page: Timing model) and it has at least one legal play, it
chooses which play to make. A seat with no play draws; that draw is forced, not a decision, and
is never logged. A seat with a single legal play still decides (its only choice is 0), exactly
as the kernel calls its strategy (and ``random`` draws its uniform) then.

**Move ids** (int64, meaningful on their own): ``2 * character + kind``, with kind ``MOVE_START``
(0: start a pile with *every* copy of ``character`` the seat holds, legal when it holds at
least 2) or ``MOVE_ADD`` (1: add one card of ``character`` to a pile showing it, legal when it
holds one and a pile of it is on the table). Build them with ``start_move(c)`` / ``add_move(c)``;
read them with ``move_character(m)``, ``move_kind(m)``, ``is_start(m)``, ``is_add(m)`` and
``move_cards(obs, m)`` (the cards the play sheds). These are the kernel's own play codes.

**Legal order**: by character ascending and, for one character, the start before the add — the
order of the rules page's ``random`` strategy, so ``random``'s draw ``floor(u * n)`` is a
uniform draw over ``legal``. ``MAX_LEGAL = 2 * MAX_CHARS`` (every character both ways).

**Observation** (``OBS_SIZE`` int64; seats are absolute seat numbers, ``OBS_SEAT`` the deciding
seat; entries of seats ``>= players`` and characters ``>= characters`` are 0). Only what the seat
sees at the table: its own hand, the cards on the table, the draw pile's size, the other hands'
sizes, the round and the totals; never another seat's cards nor the deck order.

====================  =========================================  ============================
offset                meaning                                    accessor
====================  =========================================  ============================
``OBS_KIND``          decision kind (``DECISION_PLAY``)          ``obs_kind(obs)``
``OBS_SEAT``          the deciding seat                          ``obs_seat(obs)``
``OBS_PLAYERS``       players                                    ``obs_players(obs)``
``OBS_CHARACTERS``    characters in the deck (parameter)         ``obs_characters(obs)``
``OBS_COPIES``        copies of each character (parameter)       ``obs_copies(obs)``
``OBS_HAND_DEALT``    cards dealt to each seat (``hand_size``)   ``obs_hand_dealt(obs)``
``OBS_ROUNDS``        counted rounds in the game (``rounds``)    ``obs_rounds(obs)``
``OBS_ROUND``         counted rounds finished before this one    ``obs_round(obs)``
``OBS_DEAL``          deals played before this one               ``obs_deal(obs)``
``OBS_DEALER``        this deal's dealer (``deal mod players``)  ``obs_dealer(obs)``
``OBS_DEADLOCKS``     deadlocked deals so far                    ``obs_deadlocks(obs)``
``OBS_DEADLOCK_COUNTS``  1 if a deadlock counts as a round       ``obs_deadlock_counts(obs)``
``OBS_DRAW_PILE``     cards left in the draw pile                ``obs_draw_pile(obs)``
``OBS_TABLE_CARDS``   cards on the table (all piles)             ``obs_table_cards(obs)``
``OBS_HAND_SIZES+s``  cards in seat ``s``'s hand                 ``obs_hand_size(obs, s)``
``OBS_POINTS+s``      seat ``s``'s points so far (lower wins)    ``obs_points(obs, s)``
``OBS_ROUNDS_WON+s``  rounds seat ``s`` has won so far           ``obs_rounds_won(obs, s)``
``OBS_HELD+c``        copies of character ``c`` in OWN hand      ``obs_held(obs, c)``
``OBS_ON_TABLE+c``    cards of character ``c`` on the table      ``obs_on_table(obs, c)``
====================  =========================================  ============================

Derived: ``obs_own_hand_size(obs)``, ``obs_showing(obs, c)`` (a pile of ``c`` is on the table),
``obs_unseen(obs, c)`` (copies of ``c`` in other hands or the draw pile, which the seat cannot
tell apart). The seats' speeds and ``draw_time_factor`` are parameters, not in ``obs``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.decisions import choice_index, log_slot
from montecards.games.wigout.cards import MAX_CHARS, MAX_PLAYERS
from montecards.games.wigout.rules import (
    ADD,
    CHARS,
    COPIES,
    DEADLOCK_COUNTS,
    DEADLOCKS,
    DEAL,
    DECK,
    DECK_N,
    DRAWN,
    HAND_DEALT,
    PLAYERS,
    ROUND,
    ROUNDS,
    START,
    TABLE_CARDS,
    addable,
    draw_pile_size,
    hand_size,
    held,
    held_twice,
    points,
    rounds_won,
)

DECISION_PLAY = 0
"""A seat with at least one legal play acts: which play."""
DECISION_NAMES = ("play",)

MOVE_START = START
MOVE_ADD = ADD
MAX_LEGAL = 2 * MAX_CHARS

OBS_KIND = 0
OBS_SEAT = 1
OBS_PLAYERS = 2
OBS_CHARACTERS = 3
OBS_COPIES = 4
OBS_HAND_DEALT = 5
OBS_ROUNDS = 6
OBS_ROUND = 7
OBS_DEAL = 8
OBS_DEALER = 9
OBS_DEADLOCKS = 10
OBS_DEADLOCK_COUNTS = 11
OBS_DRAW_PILE = 12
OBS_TABLE_CARDS = 13
OBS_HAND_SIZES = 14  # + seat
OBS_POINTS = OBS_HAND_SIZES + MAX_PLAYERS  # + seat
OBS_ROUNDS_WON = OBS_POINTS + MAX_PLAYERS  # + seat
OBS_HELD = OBS_ROUNDS_WON + MAX_PLAYERS  # + character
OBS_ON_TABLE = OBS_HELD + MAX_CHARS  # + character
OBS_SIZE = OBS_ON_TABLE + MAX_CHARS


# --- move ids ----------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def start_move(character):
    """Start a pile with every copy of ``character`` the seat holds (it holds >= 2)."""
    return np.int64(2 * character + MOVE_START)


@njit(cache=True, inline="always")
def add_move(character):
    """Add one card of ``character`` to a pile showing it."""
    return np.int64(2 * character + MOVE_ADD)


@njit(cache=True, inline="always")
def move_character(move):
    return np.int64(move >> 1)


@njit(cache=True, inline="always")
def move_kind(move):
    """``MOVE_START`` or ``MOVE_ADD``."""
    return np.int64(move & 1)


@njit(cache=True, inline="always")
def is_start(move):
    return (move & 1) == MOVE_START


@njit(cache=True, inline="always")
def is_add(move):
    return (move & 1) == MOVE_ADD


# --- observation accessors ---------------------------------------------------------------------

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
def obs_characters(obs):
    return obs[OBS_CHARACTERS]


@njit(cache=True, inline="always")
def obs_copies(obs):
    return obs[OBS_COPIES]


@njit(cache=True, inline="always")
def obs_hand_dealt(obs):
    return obs[OBS_HAND_DEALT]


@njit(cache=True, inline="always")
def obs_rounds(obs):
    return obs[OBS_ROUNDS]


@njit(cache=True, inline="always")
def obs_round(obs):
    return obs[OBS_ROUND]


@njit(cache=True, inline="always")
def obs_deal(obs):
    return obs[OBS_DEAL]


@njit(cache=True, inline="always")
def obs_dealer(obs):
    return obs[OBS_DEALER]


@njit(cache=True, inline="always")
def obs_deadlocks(obs):
    return obs[OBS_DEADLOCKS]


@njit(cache=True, inline="always")
def obs_deadlock_counts(obs):
    return obs[OBS_DEADLOCK_COUNTS] != 0


@njit(cache=True, inline="always")
def obs_draw_pile(obs):
    return obs[OBS_DRAW_PILE]


@njit(cache=True, inline="always")
def obs_table_cards(obs):
    return obs[OBS_TABLE_CARDS]


@njit(cache=True, inline="always")
def obs_hand_size(obs, seat):
    return obs[np.uint64(OBS_HAND_SIZES + seat)]


@njit(cache=True, inline="always")
def obs_own_hand_size(obs):
    return obs[np.uint64(OBS_HAND_SIZES + obs[OBS_SEAT])]


@njit(cache=True, inline="always")
def obs_points(obs, seat):
    return obs[np.uint64(OBS_POINTS + seat)]


@njit(cache=True, inline="always")
def obs_rounds_won(obs, seat):
    return obs[np.uint64(OBS_ROUNDS_WON + seat)]


@njit(cache=True, inline="always")
def obs_held(obs, character):
    """Copies of ``character`` in the deciding seat's own hand."""
    return obs[np.uint64(OBS_HELD + character)]


@njit(cache=True, inline="always")
def obs_on_table(obs, character):
    """Cards of ``character`` on the table (in all its piles)."""
    return obs[np.uint64(OBS_ON_TABLE + character)]


@njit(cache=True, inline="always")
def obs_showing(obs, character):
    """A pile of ``character`` is on the table (one can be added to)."""
    return obs[np.uint64(OBS_ON_TABLE + character)] > 0


@njit(cache=True, inline="always")
def obs_unseen(obs, character):
    """Copies of ``character`` the seat cannot see: in other hands or the draw pile."""
    return obs[OBS_COPIES] - obs_held(obs, character) - obs_on_table(obs, character)


@njit(cache=True, inline="always")
def move_cards(obs, move):
    """The cards ``move`` sheds from the deciding seat's hand (all copies for a start)."""
    return obs_held(obs, move_character(move)) if is_start(move) else np.int64(1)


# --- building the observation and the legal moves from the state -------------------------------

@njit(cache=True)
def observe(g, seat, kind, obs):
    """Fill all ``OBS_SIZE`` entries of ``obs``: what ``seat`` sees of state ``g`` now.

    The table's cards per character are every copy not in a hand nor in the draw pile (cards
    never leave the table within a round): computed from the hidden parts, but public.
    """
    for k in range(OBS_SIZE):
        obs[k] = 0
    players = g[PLAYERS]
    chars = g[CHARS]
    copies = g[COPIES]
    obs[OBS_KIND] = kind
    obs[OBS_SEAT] = seat
    obs[OBS_PLAYERS] = players
    obs[OBS_CHARACTERS] = chars
    obs[OBS_COPIES] = copies
    obs[OBS_HAND_DEALT] = g[HAND_DEALT]
    obs[OBS_ROUNDS] = g[ROUNDS]
    obs[OBS_ROUND] = g[ROUND]
    obs[OBS_DEAL] = g[DEAL]
    obs[OBS_DEALER] = g[DEAL] % players
    obs[OBS_DEADLOCKS] = g[DEADLOCKS]
    obs[OBS_DEADLOCK_COUNTS] = g[DEADLOCK_COUNTS]
    obs[OBS_DRAW_PILE] = draw_pile_size(g)
    obs[OBS_TABLE_CARDS] = g[TABLE_CARDS]
    for s in range(players):
        obs[OBS_HAND_SIZES + s] = hand_size(g, s)
        obs[OBS_POINTS + s] = points(g, s)
        obs[OBS_ROUNDS_WON + s] = rounds_won(g, s)
    for c in range(chars):
        obs[OBS_HELD + c] = held(g, seat, c)
        obs[OBS_ON_TABLE + c] = copies
    for s in range(players):
        for c in range(chars):
            obs[OBS_ON_TABLE + c] -= held(g, s, c)
    for k in range(g[DRAWN], g[DECK_N]):  # the draw pile
        obs[OBS_ON_TABLE + g[DECK + k]] -= 1


@njit(cache=True)
def legal_moves(g, seat, kind, legal):
    """Fill ``legal[:n]`` with the seat's legal plays in the documented order; return ``n``."""
    m2 = held_twice(g, seat)
    can_add = addable(g, seat)
    n = 0
    for c in range(g[CHARS]):
        bit = np.int64(1) << c
        if m2 & bit:
            legal[n] = start_move(c)
            n += 1
        if can_add & bit:
            legal[n] = add_move(c)
            n += 1
    return n


@njit(cache=True)
def log_decision(g, seat, kind, move, log):
    """One row of the decision log (``engine.decisions``): the seat, what it saw, what it could
    do, and the index of ``move`` (the play its strategy made) among the legal moves."""
    k = log_slot(log)
    if k < 0:
        return
    seats = log[1]
    obs = log[2]
    legal = log[3]
    seats[k] = seat
    observe(g, seat, kind, obs[k])
    n = legal_moves(g, seat, kind, legal[k])
    log[4][k] = n
    log[5][k] = choice_index(legal[k], n, move)

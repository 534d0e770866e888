"""High card's decision interface: what a seat sees at a decision, and the moves it may make.

A seat decides one thing (docs/rules/template.md, A trick): ``DECISION_PLAY``, at each of its
turns, which hand card to play to the trick.

**Move ids** (int64): a play is the card id played, ``play_move(card) = card``
(``0 .. deck_size - 1``); ``move_card(m)`` decodes it.

**Legal order**: the hand cards in hand order, ``legal[k] = play_move(obs_hand_card(obs, k))``.
Hand order is the order the seat holds its cards: dealt cards in deal order, and a played
card's place is taken by the last card in hand (``rules``). The built-in ``random`` draws a
uniform index over exactly this list.

**Observation** (``OBS_SIZE`` int64 entries; seats are absolute seat numbers; unused card
entries are -1):

==================== ============================ ===========================================
offset               accessor                     content
==================== ============================ ===========================================
``OBS_KIND``         ``obs_kind``                 ``DECISION_PLAY``
``OBS_SEAT``         ``obs_seat``                 the deciding seat (0 leads the first trick)
``OBS_PLAYERS``      ``obs_players``              number of players
``OBS_DECK_SIZE``    ``obs_deck_size``            cards in the deck (``deck_size``)
``OBS_TRICKS``       ``obs_tricks``               tricks in the game (``hand_size``)
``OBS_TRICK_NO``     ``obs_trick_number``         tricks played so far (0: the first trick)
``OBS_LEADER``       ``obs_leader``               the seat that led the current trick
``OBS_HAND_N``       ``obs_hand_size``            cards in the seat's hand
``OBS_HAND + k``     ``obs_hand_card(obs, k)``    the hand, in hand order (``MAX_HAND`` slots)
``OBS_TRICK_N``      ``obs_trick_size``           cards played to the current trick so far
``OBS_TRICK + i``    ``obs_trick_card(obs, i)``   those cards in play order (``MAX_PLAYERS``)
``OBS_POINTS + s``   ``obs_points(obs, s)``       seat ``s``'s points (``MAX_PLAYERS`` slots)
``OBS_UNSEEN_N``     ``obs_unseen_count``         cards the seat cannot see (the other hands
                                                  and the cards set aside)
``OBS_PLAYED + c``   ``obs_played(obs, c)``       1 if card ``c`` has been played face up
                                                  (``MAX_DECK`` slots)
==================== ============================ ===========================================

Nothing in the observation depends on the other hands or on the deck order.
``obs_highest_on_trick`` adds up entries.
"""

from __future__ import annotations

from numba import njit

from montecards.engine.jit import hot
from montecards.games.template.cards import MAX_DECK, MAX_HAND, MAX_PLAYERS
from montecards.games.template.rules import (
    DECK_SIZE,
    HAND_SIZE,
    PLAYERS,
    hand_card,
    hand_count,
    is_played,
    leader,
    points,
    trick_card,
    trick_size,
    tricks_played,
    turns,
)

DECISION_PLAY = 0
DECISION_NAMES = ("play",)

MAX_LEGAL = MAX_HAND
"""The most legal moves at any decision: the cards of a full hand."""

OBS_KIND = 0
OBS_SEAT = 1
OBS_PLAYERS = 2
OBS_DECK_SIZE = 3
OBS_TRICKS = 4
OBS_TRICK_NO = 5
OBS_LEADER = 6
OBS_HAND_N = 7
OBS_HAND = 8
OBS_TRICK_N = OBS_HAND + MAX_HAND
OBS_TRICK = OBS_TRICK_N + 1
OBS_POINTS = OBS_TRICK + MAX_PLAYERS
OBS_UNSEEN_N = OBS_POINTS + MAX_PLAYERS
OBS_PLAYED = OBS_UNSEEN_N + 1
OBS_SIZE = OBS_PLAYED + MAX_DECK

NO_CARD = -1


# --- move ids --------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def play_move(card):
    """The move id of playing ``card``: the card id itself."""
    return card


@njit(cache=True, inline="always")
def move_card(move):
    """The card a play move plays."""
    return move


# --- observation accessors -------------------------------------------------------------------


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
def obs_deck_size(obs):
    return obs[OBS_DECK_SIZE]


@njit(cache=True, inline="always")
def obs_tricks(obs):
    """Tricks in the whole game (``hand_size``)."""
    return obs[OBS_TRICKS]


@njit(cache=True, inline="always")
def obs_trick_number(obs):
    """Tricks played before the current one."""
    return obs[OBS_TRICK_NO]


@njit(cache=True, inline="always")
def obs_leader(obs):
    return obs[OBS_LEADER]


@njit(cache=True, inline="always")
def obs_hand_size(obs):
    return obs[OBS_HAND_N]


@njit(cache=True, inline="always")
def obs_hand_card(obs, k):
    """The seat's ``k``-th hand card (hand order), ``k < obs_hand_size(obs)``."""
    return obs[OBS_HAND + k]


@njit(cache=True, inline="always")
def obs_trick_size(obs):
    return obs[OBS_TRICK_N]


@njit(cache=True, inline="always")
def obs_trick_card(obs, i):
    """The ``i``-th card played to the current trick (0: the leader's), ``i < obs_trick_size``."""
    return obs[OBS_TRICK + i]


@njit(cache=True, inline="always")
def obs_highest_on_trick(obs):
    """The highest card of the current trick so far (-1 when the seat leads)."""
    best = NO_CARD
    for i in range(obs[OBS_TRICK_N]):
        best = max(best, obs[OBS_TRICK + i])
    return best


@njit(cache=True, inline="always")
def obs_points(obs, seat):
    """Tricks ``seat`` has taken so far."""
    return obs[OBS_POINTS + seat]


@njit(cache=True, inline="always")
def obs_unseen_count(obs):
    return obs[OBS_UNSEEN_N]


@njit(cache=True, inline="always")
def obs_played(obs, card):
    """1 if ``card`` has been played face up (in this trick or an earlier one), else 0."""
    return obs[OBS_PLAYED + card]


# --- building them from the game state -------------------------------------------------------


@hot
def observe(g, seat, kind, obs):
    """Fill all ``OBS_SIZE`` entries of ``obs`` with what ``seat`` sees at a ``kind`` decision."""
    players = g[PLAYERS]
    obs[OBS_KIND] = kind
    obs[OBS_SEAT] = seat
    obs[OBS_PLAYERS] = players
    obs[OBS_DECK_SIZE] = g[DECK_SIZE]
    obs[OBS_TRICKS] = g[HAND_SIZE]
    obs[OBS_TRICK_NO] = tricks_played(g)
    obs[OBS_LEADER] = leader(g)
    hand_n = hand_count(g, seat)
    obs[OBS_HAND_N] = hand_n
    for k in range(MAX_HAND):
        obs[OBS_HAND + k] = hand_card(g, seat, k) if k < hand_n else NO_CARD
    trick_n = trick_size(g)
    obs[OBS_TRICK_N] = trick_n
    for i in range(MAX_PLAYERS):
        obs[OBS_TRICK + i] = trick_card(g, i) if i < trick_n else NO_CARD
    for s in range(MAX_PLAYERS):
        obs[OBS_POINTS + s] = points(g, s) if s < players else 0
    obs[OBS_UNSEEN_N] = g[DECK_SIZE] - hand_n - turns(g)
    for card in range(MAX_DECK):
        obs[OBS_PLAYED + card] = is_played(g, card)


@hot
def legal_moves(g, seat, kind, legal):
    """Fill ``legal[:n]`` with the seat's legal move ids at a ``kind`` decision; return ``n``.

    (High card has one kind of decision; a game with more branches on ``kind`` here.)
    """
    n = hand_count(g, seat)
    for k in range(n):
        legal[k] = play_move(hand_card(g, seat, k))
    return n

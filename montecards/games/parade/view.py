"""Parade's decision interface: what a seat sees at a decision, and the moves it may make.

A Parade seat decides twice over (docs/rules/parade.md):

* ``DECISION_PLAY``: at each of its turns, which hand card to play to the end of the parade;
* ``DECISION_DISCARD``: once, after the last round, which two of its four hand cards to
  discard (the other two join its collection). The final discards are simultaneous: every
  seat chooses before any choice is applied, so the observation shows the collections as
  they stand before the final discard and nothing of the other seats' final hands.

**Move ids** (int64, meaningful on their own):

* a play is the card id played, ``play_move(card) = card`` (``0 .. 65``, ``id = 11 * colour
  + value``); ``move_card(m)`` decodes it;
* a discard names the two cards discarded, lower id first:
  ``discard_move(a, b) = DECISION_DISCARD << 16 | min(a, b) << 8 | max(a, b)``;
  ``discard_low(m)`` and ``discard_high(m)`` decode it.

``move_kind(m)`` is the decision kind a move belongs to (``m >> 16``).

**Legal order**:

* plays: the hand cards in hand order, ``legal[k] = play_move(obs_hand_card(obs, k))``.
  Hand order is the order the seat holds its cards: dealt and drawn cards are appended, and
  a played card's place is taken by the last card in hand;
* discards: the six pairs of the four hand cards by hand position, in the order
  ``(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)`` (``rules.PAIRS``).

The built-in ``random`` draws a uniform index over exactly these lists, so a draw over
``legal`` with the seat's choice stream makes the same choice.

**Observation** (``OBS_SIZE`` int64 entries; seats are absolute seat numbers, the deciding
seat is ``obs_seat(obs)``; unused entries are -1 for cards, 0 for counts):

==================== =========================== ==============================================
offset               accessor                    content
==================== =========================== ==============================================
``OBS_KIND``         ``obs_kind``                ``DECISION_PLAY`` or ``DECISION_DISCARD``
``OBS_SEAT``         ``obs_seat``                the deciding seat (0 = start player)
``OBS_PLAYERS``      ``obs_players``             number of players
``OBS_MARGIN``       ``obs_margin``              majority margin in force (``two_player_margin``
                                                 with 2 players, else 0)
``OBS_TURNS``        ``obs_turns``               turns played so far, all seats together
``OBS_DRAW_PILE``    ``obs_draw_pile``           cards left in the draw pile
``OBS_LAST_ROUND``   ``obs_turns_left``          turns left in the last round (-1 before it)
``OBS_TRIGGER``      ``obs_trigger``             end trigger so far (``rules.NO_TRIGGER``,
                                                 ``SIX_COLOURS``, ``DECK_EMPTY``)
``OBS_HAND_N``       ``obs_hand_size``           cards in the seat's hand
``OBS_HAND + k``     ``obs_hand_card(obs, k)``   the hand, in hand order (``HAND_SIZE`` slots)
``OBS_PARADE_N``     ``obs_parade_size``         cards in the parade
``OBS_PARADE + i``   ``obs_parade_card(obs, i)`` the parade, front (0) to end (``N_CARDS`` slots)
``OBS_COUNTS + ..``  ``obs_collection_count``    cards of each colour in each seat's collection
                     ``(obs, seat, colour)``     (``MAX_PLAYERS x N_COLOURS``, seat-major)
``OBS_SUMS + ..``    ``obs_collection_sum``      sum of their printed values, same layout
                     ``(obs, seat, colour)``
``OBS_UNSEEN_N``     ``obs_unseen_count``        cards the seat cannot see (draw pile and the
                                                 other hands together)
``OBS_UNSEEN + c``   ``obs_unseen(obs, card)``   1 if card ``c`` is one of them, else 0
==================== =========================== ==============================================

Collections are given as what scoring needs (per colour, the number of cards and the sum of
their values); which cards they are is public too, and the unseen set is what a player
works out from it. Nothing in the observation depends on the other hands or on the order of
the draw pile. ``obs_collection_size`` and ``obs_best_other_count`` add up entries;
``colour_of`` and ``value_of`` decode a card id.
"""

from __future__ import annotations

from numba import njit

from montecards.engine.jit import hot
from montecards.games.parade.cards import (
    COLOUR_OF,
    FINAL_HAND,
    HAND_SIZE,
    MAX_PLAYERS,
    N_CARDS,
    N_COLOURS,
    VALUE_OF,
)
from montecards.games.parade.rules import (
    CHOICES,
    DISCARDS,
    discard_set,
    official_discard,
    PAIRS,
    count_of,
    sum_of,
    deck_card,
    hand_card,
    hand_len,
    last_round_left,
    margin_in_force,
    n_drawn,
    parade_card,
    parade_len,
    player_count,
    trigger_of,
    turn_count,
)

DECISION_PLAY = 0
DECISION_DISCARD = 1
DECISION_NAMES = ("play", "discard")

MOVE_KIND_SHIFT = 16
CARD_BITS = 8
CARD_MASK = (1 << CARD_BITS) - 1

MAX_LEGAL = max(HAND_SIZE, PAIRS.shape[0])
"""The most legal moves at any decision: 5 hand cards to play, or 6 pairs to discard."""

OBS_KIND = 0
OBS_SEAT = 1
OBS_PLAYERS = 2
OBS_MARGIN = 3
OBS_TURNS = 4
OBS_DRAW_PILE = 5
OBS_LAST_ROUND = 6
OBS_TRIGGER = 7
OBS_HAND_N = 8
OBS_HAND = 9
OBS_PARADE_N = OBS_HAND + HAND_SIZE
OBS_PARADE = OBS_PARADE_N + 1
OBS_COUNTS = OBS_PARADE + N_CARDS
OBS_SUMS = OBS_COUNTS + MAX_PLAYERS * N_COLOURS
OBS_UNSEEN_N = OBS_SUMS + MAX_PLAYERS * N_COLOURS
OBS_UNSEEN = OBS_UNSEEN_N + 1
OBS_SIZE = OBS_UNSEEN + N_CARDS

NO_CARD = -1


# --- move ids --------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def play_move(card):
    """The move id of playing ``card``: the card id itself."""
    return card


@njit(cache=True, inline="always")
def discard_move(a, b):
    """The move id of discarding cards ``a`` and ``b`` (in either order)."""
    return (DECISION_DISCARD << MOVE_KIND_SHIFT) | (min(a, b) << CARD_BITS) | max(a, b)


@njit(cache=True, inline="always")
def move_kind(move):
    """The decision kind a move id belongs to: ``DECISION_PLAY`` or ``DECISION_DISCARD``."""
    return move >> MOVE_KIND_SHIFT


@njit(cache=True, inline="always")
def move_card(move):
    """The card a play move plays."""
    return move & CARD_MASK


@njit(cache=True, inline="always")
def discard_low(move):
    """The lower card id of the two a discard move discards."""
    return (move >> CARD_BITS) & CARD_MASK


@njit(cache=True, inline="always")
def discard_high(move):
    """The higher card id of the two a discard move discards."""
    return move & CARD_MASK


# --- cards -----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def colour_of(card):
    """A card's colour index (0 red, 1 blue, 2 purple, 3 green, 4 grey, 5 orange)."""
    return COLOUR_OF[card]


@njit(cache=True, inline="always")
def value_of(card):
    """A card's printed value (0 .. 10)."""
    return VALUE_OF[card]


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
def obs_margin(obs):
    """The majority margin in force: a colour is in a seat's majority iff its count is >= 1
    and >= the best other count + margin (0 with 3-6 players: ties share the majority)."""
    return obs[OBS_MARGIN]


@njit(cache=True, inline="always")
def obs_turns(obs):
    return obs[OBS_TURNS]


@njit(cache=True, inline="always")
def obs_draw_pile(obs):
    return obs[OBS_DRAW_PILE]


@njit(cache=True, inline="always")
def obs_turns_left(obs):
    """Turns left in the last round (all seats), or -1 before the last round begins."""
    return obs[OBS_LAST_ROUND]


@njit(cache=True, inline="always")
def obs_trigger(obs):
    return obs[OBS_TRIGGER]


@njit(cache=True, inline="always")
def obs_hand_size(obs):
    return obs[OBS_HAND_N]


@njit(cache=True, inline="always")
def obs_hand_card(obs, k):
    """The seat's ``k``-th hand card (hand order), ``k < obs_hand_size(obs)``."""
    return obs[OBS_HAND + k]


@njit(cache=True, inline="always")
def obs_parade_size(obs):
    return obs[OBS_PARADE_N]


@njit(cache=True, inline="always")
def obs_parade_card(obs, i):
    """The parade card at position ``i``: 0 is the front, ``obs_parade_size(obs) - 1`` the end."""
    return obs[OBS_PARADE + i]


@njit(cache=True, inline="always")
def obs_collection_count(obs, seat, colour):
    """How many cards of ``colour`` ``seat``'s collection holds."""
    return obs[OBS_COUNTS + seat * N_COLOURS + colour]


@njit(cache=True, inline="always")
def obs_collection_sum(obs, seat, colour):
    """The sum of the printed values of ``seat``'s collected cards of ``colour``."""
    return obs[OBS_SUMS + seat * N_COLOURS + colour]


@njit(cache=True, inline="always")
def obs_collection_size(obs, seat):
    """How many cards ``seat``'s collection holds (the first tie-break: fewer is better)."""
    total = 0
    for colour in range(N_COLOURS):
        total += obs[OBS_COUNTS + seat * N_COLOURS + colour]
    return total


@njit(cache=True, inline="always")
def obs_best_other_count(obs, colour):
    """The most cards of ``colour`` in any other seat's collection."""
    seat = obs[OBS_SEAT]
    best = 0
    for other in range(obs[OBS_PLAYERS]):
        if other != seat:
            best = max(best, obs[OBS_COUNTS + other * N_COLOURS + colour])
    return best


@njit(cache=True, inline="always")
def obs_unseen_count(obs):
    return obs[OBS_UNSEEN_N]


@njit(cache=True, inline="always")
def obs_unseen(obs, card):
    """1 if the seat cannot see ``card`` (it is in the draw pile or another hand), else 0."""
    return obs[OBS_UNSEEN + card]


# --- building them from the game state -------------------------------------------------------


@hot
def observe(g, seat, kind, obs):
    """Fill all ``OBS_SIZE`` entries of ``obs`` with what ``seat`` sees at a ``kind`` decision."""
    players = player_count(g)
    obs[OBS_KIND] = kind
    obs[OBS_SEAT] = seat
    obs[OBS_PLAYERS] = players
    obs[OBS_MARGIN] = margin_in_force(g)
    obs[OBS_TURNS] = turn_count(g)
    obs[OBS_DRAW_PILE] = N_CARDS - n_drawn(g)
    obs[OBS_LAST_ROUND] = last_round_left(g)
    obs[OBS_TRIGGER] = trigger_of(g)
    hand_n = hand_len(g, seat)
    obs[OBS_HAND_N] = hand_n
    for k in range(HAND_SIZE):
        obs[OBS_HAND + k] = hand_card(g, seat, k) if k < hand_n else NO_CARD
    parade_n = parade_len(g)
    obs[OBS_PARADE_N] = parade_n
    for i in range(N_CARDS):
        obs[OBS_PARADE + i] = parade_card(g, i) if i < parade_n else NO_CARD
    for s in range(MAX_PLAYERS):
        for c in range(N_COLOURS):
            seen = s < players
            obs[OBS_COUNTS + s * N_COLOURS + c] = count_of(g, s, c) if seen else 0
            obs[OBS_SUMS + s * N_COLOURS + c] = sum_of(g, s, c) if seen else 0
    for card in range(N_CARDS):
        obs[OBS_UNSEEN + card] = 0
    unseen = 0
    for k in range(n_drawn(g), N_CARDS):
        obs[OBS_UNSEEN + deck_card(g, k)] = 1
        unseen += 1
    for other in range(players):
        if other != seat:
            for k in range(hand_len(g, other)):
                obs[OBS_UNSEEN + hand_card(g, other, k)] = 1
                unseen += 1
    obs[OBS_UNSEEN_N] = unseen


@hot
def legal_moves(g, seat, kind, legal):
    """Fill ``legal[:n]`` with the seat's legal move ids at a ``kind`` decision; return ``n``."""
    if kind == DECISION_PLAY:
        n = hand_len(g, seat)
        for k in range(n):
            legal[k] = play_move(hand_card(g, seat, k))
        return n
    if not official_discard(g):
        return other_discards(g, seat, legal)
    for p in range(PAIRS.shape[0]):
        legal[p] = discard_move(hand_card(g, seat, PAIRS[p, 0]), hand_card(g, seat, PAIRS[p, 1]))
    return PAIRS.shape[0]


@hot
def other_discards(g, seat, legal):
    """The final discard's legal moves with parameters ``hand_size`` / ``discards`` other than
    the official 2 of 4 (``rules.discard_set``, in its order): a discard of 2 cards is
    ``discard_move(a, b)``, of 1 card ``discard_move(a, a)``. Discards of 0, 3 or 4 cards
    have no move id: there are no legal moves then (0), so a user strategy asked there fails its
    run with one line (its index is outside the legal moves) instead of discarding something
    else, and a decision log shows no moves."""
    if g[DISCARDS] != 1 and g[DISCARDS] != 2:
        return 0
    for p in range(g[CHOICES]):
        gone = discard_set(g, p)
        first = -1
        second = -1
        for k in range(hand_len(g, seat)):
            if (gone >> k) & 1:
                if first < 0:
                    first = hand_card(g, seat, k)
                elif second < 0:
                    second = hand_card(g, seat, k)
        first = max(first, 0)
        legal[p] = discard_move(first, second if second >= 0 else first)
    return g[CHOICES]


assert FINAL_HAND == 4 and PAIRS.shape[0] == 6  # the discard list is the pairs of 4 cards

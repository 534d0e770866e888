"""High card's rules as jitted functions over one flat int64 game state (docs/rules/template.md).

The whole state of a game lives in one int64 array ``g`` (offsets below), read and written
through the small accessors of this module (``hand_card(g, seat, k)``, ``points(g, seat)``),
never by raw offsets elsewhere:

* ``DECK``: the deck order, ``deck_size`` card ids; the first ``g[DEALT]`` have been dealt;
* ``HANDS + seat * MAX_HAND + k`` for ``k < g[HAND_N + seat]``: each seat's hand;
* ``TRICK + i`` for ``i < g[TRICK_N]``: the current trick, in play order (the leader's first);
* ``POINTS + seat``, ``LED + seat``: tricks taken and tricks led by each seat;
* ``PLAYED + card``: 1 once the card has been played face up (public), else 0;
* single entries: the leader, tricks and cards played so far, tricks taken by their leader,
  and the game's parameters.

``STATE_SIZE`` is the rules' state alone: High card's strategies need no scratch. A game whose
strategies (or move generator) do names it in that module, after ``STATE_SIZE`` in the same
array, and its kernel allocates the total (``engine/CONTRACT.md``, 0).

Readings of the rules page, made once here:

* hand order: a played card's place in hand is taken by the last hand card (``play_card``);
  the order matters only to strategies that pick by position (``random``; the legal order of
  ``view``);
* a run deals lazily (``deal_card``: a Fisher-Yates draw when a card leaves the deck,
  ``rng.draw_lazy``), which gives the same deals as shuffling first; a scripted game reads an
  explicit deck order; the cards set aside are never drawn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot, hot_inline
from montecards.engine.trace import trace_slot
from montecards.games.template.cards import MAX_DECK, MAX_HAND, MAX_PLAYERS
from montecards.rng import draw_lazy

DECK = 0
HANDS = DECK + MAX_DECK
HAND_N = HANDS + MAX_PLAYERS * MAX_HAND
TRICK = HAND_N + MAX_PLAYERS
POINTS = TRICK + MAX_PLAYERS
LED = POINTS + MAX_PLAYERS
PLAYED = LED + MAX_PLAYERS
TRICK_N = PLAYED + MAX_DECK
LEADER = TRICK_N + 1
TRICKS = TRICK_N + 2  # tricks played so far
TURNS = TRICK_N + 3  # cards played so far, all seats together
DEALT = TRICK_N + 4
PLAYERS = TRICK_N + 5
DECK_SIZE = TRICK_N + 6
HAND_SIZE = TRICK_N + 7  # cards dealt to each seat, and the number of tricks
LEADER_TRICKS = TRICK_N + 8  # tricks taken by the seat that led them
STATE_SIZE = TRICK_N + 9

NO_CARD = -1

# trace events: (kind, seat, card, aux); ``engine.trace`` holds the buffer's rules
EV_DEAL = 0  # aux: the card's place in the seat's hand
EV_PLAY = 1  # aux: the trick
EV_TAKE = 2  # card: the trick's highest card; aux: the trick
TRACE_FIELDS = 4


def max_events(players: int, hand_size: int) -> int:
    """The events of one game: every card dealt and played, and one take per trick."""
    return 2 * players * hand_size + hand_size


# --- accessors -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def hand_at(seat, k):
    """State offset of the seat's ``k``-th hand card (unsigned: no negative-index fix-up)."""
    return np.uint64(HANDS + seat * MAX_HAND + k)


@njit(cache=True, inline="always")
def hand_card(g, seat, k):
    return g[hand_at(seat, k)]


@njit(cache=True, inline="always")
def hand_count(g, seat):
    """How many cards the seat holds."""
    return g[HAND_N + seat]


@njit(cache=True, inline="always")
def trick_card(g, i):
    """The ``i``-th card played to the current trick (0: the leader's)."""
    return g[TRICK + i]


@njit(cache=True, inline="always")
def trick_size(g):
    return g[TRICK_N]


@njit(cache=True, inline="always")
def points(g, seat):
    """Tricks the seat has taken: its score."""
    return g[POINTS + seat]


@njit(cache=True, inline="always")
def tricks_led(g, seat):
    return g[LED + seat]


@njit(cache=True, inline="always")
def is_played(g, card):
    """1 if ``card`` has been played face up, else 0."""
    return g[PLAYED + card]


@njit(cache=True, inline="always")
def leader(g):
    return g[LEADER]


@njit(cache=True, inline="always")
def tricks_played(g):
    return g[TRICKS]


@njit(cache=True, inline="always")
def turns(g):
    return g[TURNS]


@njit(cache=True, inline="always")
def leader_tricks(g):
    """Tricks taken by the seat that led them."""
    return g[LEADER_TRICKS]


@njit(cache=True, inline="always")
def game_over(g):
    """True once every trick has been played (every hand is empty)."""
    return g[TRICKS] == g[HAND_SIZE]


@hot
def record(trace, kind, seat, card, aux):
    """Append an event to the trace buffer (``engine.trace``'s rule; a ``(0, k)`` buffer
    records nothing). ``trace`` None, tracing off, records nothing and compiles to nothing:
    runs pass None (numba prunes the test of an argument, as here, where ``record`` is compiled
    as a function and not inlined: an inlined copy's test would be of a local)."""
    if trace is not None:
        k = trace_slot(trace)
        if k >= 0:
            trace[k, 0] = kind
            trace[k, 1] = seat
            trace[k, 2] = card
            trace[k, 3] = aux


# --- the rules -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def next_seat(seat, players):
    """The seat to the left: seat ``s`` is followed by ``s + 1``, the last seat by seat 0."""
    following = seat + 1
    return 0 if following == players else following


@hot
def deal_card(g, rng, lazy):
    """The next card of the deck: drawn by lazy shuffle from ``rng``, or the next in order."""
    dealt = g[DEALT]
    if lazy:
        card = draw_lazy(g[DECK : DECK + g[DECK_SIZE]], dealt, rng)
    else:
        card = g[DECK + dealt]
    g[DEALT] = dealt + 1
    return card


@hot_inline
def set_up(g, players, deck_size, hand_size, rng, lazy, trace):
    """Deal ``hand_size`` cards to each seat in blocks; seat 0 leads (rules: Setup).

    With ``lazy`` the deck is shuffled from ``rng`` as cards are dealt; otherwise
    ``g[DECK:DECK + deck_size]`` already holds the explicit deck order.
    """
    g[HANDS:] = 0
    g[PLAYERS] = players
    g[DECK_SIZE] = deck_size
    g[HAND_SIZE] = hand_size
    if lazy:
        for card in range(deck_size):
            g[DECK + card] = card
    for seat in range(players):
        for k in range(hand_size):
            card = deal_card(g, rng, lazy)
            g[hand_at(seat, k)] = card
            record(trace, EV_DEAL, seat, card, k)
        g[HAND_N + seat] = hand_size
    g[LEADER] = 0  # seat 0 leads the first trick
    g[LED + 0] = 1


@njit(cache=True)
def rotate_hands(g, players, r):
    """Duplicate deals: the hand dealt to seat s goes to seat (s + r) % players (right after
    ``set_up``, every hand ``HAND_SIZE`` cards; the trace's deal events keep the dealt seats)."""
    for _ in range(r):
        for k in range(g[HAND_SIZE]):
            last = g[hand_at(players - 1, k)]
            for seat in range(players - 1, 0, -1):
                g[hand_at(seat, k)] = g[hand_at(seat - 1, k)]
            g[hand_at(0, k)] = last


@hot_inline
def play_card(g, seat, k, trace):
    """The seat plays its ``k``-th hand card face up to the trick (rules: A trick, 1)."""
    card = hand_card(g, seat, k)
    n = hand_count(g, seat) - 1
    g[hand_at(seat, k)] = hand_card(g, seat, n)
    g[HAND_N + seat] = n
    g[TRICK + g[TRICK_N]] = card
    g[TRICK_N] += 1
    g[PLAYED + card] = 1
    g[TURNS] += 1
    record(trace, EV_PLAY, seat, card, g[TRICKS])


@njit(cache=True, inline="always")
def highest_on_trick(g):
    """The highest card of the current trick so far (``NO_CARD`` before its first card)."""
    best = NO_CARD
    for i in range(trick_size(g)):
        best = max(best, trick_card(g, i))
    return best


@hot_inline
def take_trick(g, trace):
    """The highest card takes the trick: 1 point to its seat, which leads the next trick
    (rules: A trick, 2). Returns the taking seat."""
    best = highest_on_trick(g)
    taker = g[LEADER]
    for i in range(trick_size(g)):
        if trick_card(g, i) == best:
            taker = (g[LEADER] + i) % g[PLAYERS]
    record(trace, EV_TAKE, taker, best, g[TRICKS])
    g[LEADER_TRICKS] += taker == g[LEADER]
    g[POINTS + taker] += 1
    g[TRICKS] += 1
    g[TRICK_N] = 0
    g[LEADER] = taker
    if not game_over(g):
        g[LED + taker] += 1
    return taker


def new_state() -> np.ndarray:
    return np.zeros(STATE_SIZE, dtype=np.int64)

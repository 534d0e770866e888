"""Wig Out!'s rules as jitted functions over one flat int64 game state (docs/rules/wigout.md).

The whole game lives in ONE int64 array ``g`` with the named offsets below (no tuples of
arrays, no slicing in the event loop), plus a small float64 array ``fw`` for the timing model
(the rates, speeds and the clock). A hand is kept as per-character counts plus two bit masks
per seat (characters held at least once / at least twice) and one mask for the characters
showing on the table: a seat has a legal play iff ``held_twice != 0 or held_once & table != 0``,
so the rates cost a few instructions a seat.

* fixed scalars (``PLAYERS`` .. ``SCRIPTED``), set once per block by ``new_state``;
* per-game scalars (``DRAWN`` .. ``ERR_EVENT``), cleared by ``clear_game``;
* ``HAND_N + seat`` (cards in hand), ``HELD_ONCE + seat`` / ``HELD_TWICE + seat`` (masks),
  ``POINTS + seat``, ``ROUNDS_WON + seat``;
* ``HANDS + seat * MAX_CHARS + character``: copies of that character the seat holds;
* ``DECK + position``: this deal's deck, top first; the first ``g[DRAWN]`` cards are dealt,
  turned or drawn, the rest is the draw pile.

A play is ``2 * character + START`` (start a pile with every copy held) or ``2 * character +
ADD`` (add one card to a pile showing it): the move ids of ``view.py``.

Readings of the rules page this implementation chose (the kernel and tests follow them):

* **Dealing** is in blocks from the top of each deal's deck: the first ``hand_size`` cards to
  seat 0, the next to seat 1, ..., then the two starter cards (one pile of two when they show
  the same character), the rest is the draw pile, top first. The dealer (seat ``r mod P``) is
  shown in the trace only: with simultaneous play it changes nothing under this model.
* **Piles**: only which characters show on the table matters for every rule, so the state
  keeps a mask of them (and the number of cards on the table). Adding a card "to any pile
  showing the same character" is one action whatever pile takes it; a second pile of a
  character already on the table is allowed, and a pile is always started with every copy
  of that character held.
* **Rates** after every event: ``speed_i`` with a legal play, ``speed_i / draw_time_factor``
  with none while the draw pile is not empty, ``0`` otherwise (the seat waits). The waiting
  time is exponential with the total rate; the actor is the first seat whose cumulative rate
  exceeds ``uniform * total``; it acts on the table as it is then. A seat with a play never
  draws: the draw is forced.
* **Deadlock** (every rate 0) is checked right after the deal and after every event; the round
  ends at once without drawing a waiting time: no points, nobody wins it. With
  ``deadlock_counts_as_round`` (default) it is one of the ``rounds``; otherwise the round is
  replayed with a fresh deck (one deck per *deal*). Its actions and draws count in ``turns`` and
  ``draws`` either way, and ``deadlocks`` counts every deadlocked deal.
* **Endless games**: with ``deadlock_counts_as_round`` false a game could deal forever (e.g.
  ``copies=1`` always deadlocks), so it stops after ``rounds * 100`` deals and is marked
  ``unfinished`` (nobody wins it; its points so far stay in ``score``). With the default rules
  this never happens.
* **Wig Out!**: a play that empties the actor's hand ends the round at once (a draw never
  empties a hand); the actor scores 0, every other seat 1 point per card in hand. After
  ``rounds`` counted rounds the lowest total wins; ties share the win equally.
* **random** draws one uniform ``u`` per action where its seat has a play (even a single one)
  and plays ``plays[floor(u * len(plays))]``; a forced draw draws nothing.
* The simulated clock is the sum of all waiting times over the whole game (it runs on across
  rounds); it is shown in the trace only (no output depends on it).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from montecards.engine.bits import popcount
from montecards.engine.trace import trace_slot
from montecards.games.wigout.cards import MAX_CHARS, MAX_PLAYERS
from montecards.rng import bounded

MAX_DEALS_PER_ROUND = 100
"""With ``deadlock_counts_as_round`` false a game stops, unfinished, after ``rounds * 100`` deals."""

# plays: 2 * character + START / ADD
START = 0
ADD = 1

# packed parameters (float64 vector of game.pack_params)
P_CHARACTERS = 0
P_COPIES = 1
P_HAND_SIZE = 2
P_ROUNDS = 3
P_DEADLOCK_COUNTS = 4
P_DRAW_TIME_FACTOR = 5
P_SPEED = 6  # + seat

# fixed scalars of the state
PLAYERS = 0
CHARS = 1
COPIES = 2
DECK_N = 3  # cards in the deck
HAND_DEALT = 4  # cards dealt to each seat
ROUNDS = 5
DEADLOCK_COUNTS = 6  # 1: a deadlock counts as a round
MAX_DEALS = 7
SCRIPTED = 8  # 1: decks, events and choices come from a script
# per-game scalars
DRAWN = 9  # cards of this deal's deck dealt, turned or drawn
TABLE = 10  # bit mask: characters showing on the table
TABLE_CARDS = 11
ACTIONS = 12
DRAWS = 13
DEADLOCKS = 14
DEAL = 15  # deals played (including uncounted deadlocks)
ROUND = 16  # counted rounds finished
UNFINISHED = 17
EVENT = 18  # scripted: next event
CHOICE = 19  # scripted: next random choice
DECK_ROW = 20  # scripted: decks used
ERR_EVENT = 21  # scripted: the event at which an error was found
# per seat
HAND_N = 32  # + seat: cards in hand
HELD_ONCE = HAND_N + MAX_PLAYERS  # + seat: characters held >= 1 (bit mask)
HELD_TWICE = HELD_ONCE + MAX_PLAYERS  # + seat: characters held >= 2
POINTS = HELD_TWICE + MAX_PLAYERS  # + seat
ROUNDS_WON = POINTS + MAX_PLAYERS  # + seat
HANDS = ROUNDS_WON + MAX_PLAYERS  # + seat * MAX_CHARS + character: copies held
DECK = HANDS + MAX_PLAYERS * MAX_CHARS  # + position: this deal's deck, top first

# the timing model's float state
F_TIME = 0
F_RATE = 1  # + seat
F_SPEED = F_RATE + MAX_PLAYERS  # + seat: rate with a play
F_DRAW_SPEED = F_SPEED + MAX_PLAYERS  # + seat: rate when it must draw
N_FLOATS = F_DRAW_SPEED + MAX_PLAYERS

# trace rows (float64): row 0 holds the event count in column 0
EV_DEAL = 0
EV_CARD = 1
EV_START = 2
EV_ADD = EV_START + ADD  # so a play's event is EV_START + its low bit
EV_DRAW = 4
EV_WIGOUT = 5
EV_DEADLOCK = 6
T_KIND = 0
T_DEAL = 1
T_ROUND = 2
T_SEAT = 3
T_CHAR = 4
T_CARDS = 5
T_WAIT = 6
T_TIME = 7
T_CHOICE = 8
T_HAND_AFTER = 9
T_TABLE_AFTER = 10
T_PILE_AFTER = 11
T_AUX = 12
TRACE_WIDTH = 13


def state_size(characters: int, copies: int) -> int:
    return DECK + characters * copies


# --- accessors ---------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def at(offset, i):
    """State offset ``offset + i`` as an unsigned integer (no negative-index fix-up)."""
    return np.uint64(offset + i)


@njit(cache=True, inline="always")
def held_at(seat, character):
    """The offset of how many copies of ``character`` the seat holds."""
    return np.uint64(HANDS + seat * MAX_CHARS + character)


@njit(cache=True, inline="always")
def held(g, seat, character):
    return g[held_at(seat, character)]


@njit(cache=True, inline="always")
def hand_size(g, seat):
    return g[at(HAND_N, seat)]


@njit(cache=True, inline="always")
def points(g, seat):
    """The seat's points so far (lower wins)."""
    return g[at(POINTS, seat)]


@njit(cache=True, inline="always")
def rounds_won(g, seat):
    return g[at(ROUNDS_WON, seat)]


@njit(cache=True, inline="always")
def held_once(g, seat):
    """The characters the seat holds at least once (bit mask)."""
    return g[at(HELD_ONCE, seat)]


@njit(cache=True, inline="always")
def held_twice(g, seat):
    """The characters the seat holds at least twice: the piles it can start."""
    return g[at(HELD_TWICE, seat)]


@njit(cache=True, inline="always")
def addable(g, seat):
    """The characters the seat can add a card of: held, and showing on the table."""
    return g[at(HELD_ONCE, seat)] & g[TABLE]


@njit(cache=True, inline="always")
def has_play(g, seat):
    return g[at(HELD_TWICE, seat)] != 0 or (g[at(HELD_ONCE, seat)] & g[TABLE]) != 0


@njit(cache=True, inline="always")
def draw_pile_size(g):
    return g[DECK_N] - g[DRAWN]


@njit(cache=True, inline="always")
def lowest_bit(mask):
    """Index of the lowest set bit of a non-zero mask."""
    return np.int64(trailing_zeros(mask))


@njit(cache=True, inline="always")
def count_bits(mask):
    return popcount(mask)


# --- set-up ------------------------------------------------------------------------------------

@njit(cache=True)
def new_state(players, params):
    """The flat game state, sized for these parameters, with the fixed scalars filled in."""
    chars = np.int64(params[P_CHARACTERS])
    copies = np.int64(params[P_COPIES])
    g = np.zeros(DECK + chars * copies, np.int64)
    g[PLAYERS] = players
    g[CHARS] = chars
    g[COPIES] = copies
    g[DECK_N] = chars * copies
    g[HAND_DEALT] = np.int64(params[P_HAND_SIZE])
    g[ROUNDS] = np.int64(params[P_ROUNDS])
    g[DEADLOCK_COUNTS] = 1 if params[P_DEADLOCK_COUNTS] != 0.0 else 0
    g[MAX_DEALS] = g[ROUNDS] * MAX_DEALS_PER_ROUND
    return g


@njit(cache=True)
def new_floats(players, params):
    """The timing model's state: each seat's rate with a play and when it must draw."""
    fw = np.zeros(N_FLOATS, np.float64)
    for s in range(players):
        fw[F_SPEED + s] = params[P_SPEED + s]
        fw[F_DRAW_SPEED + s] = params[P_SPEED + s] / params[P_DRAW_TIME_FACTOR]
    return fw


@njit(cache=True, inline="always")
def clear_game(g, fw):
    """A new game: every per-game and per-seat entry cleared (``deal`` clears the hands)."""
    for k in range(DRAWN, HANDS):
        g[k] = 0
    fw[F_TIME] = 0.0


@njit(cache=True, inline="always")
def record(trace, kind, g, seat, char, cards, wait, time, choice, aux):
    """Append an event by ``engine/trace.py``'s rule: a no-op when tracing is off (``trace``
    None, compiled out: runs; or a decision log's empty buffer); row 0 counts every event, also
    those beyond the buffer (dropped), so reading it with ``events_of`` raises and
    ``game.trace`` can play the game again with a larger one."""
    if trace is None:
        return
    k = trace_slot(trace)
    if k >= 0:
        trace[k, T_KIND] = kind
        trace[k, T_DEAL] = g[DEAL]
        trace[k, T_ROUND] = g[ROUND]
        trace[k, T_SEAT] = seat
        trace[k, T_CHAR] = char
        trace[k, T_CARDS] = cards
        trace[k, T_WAIT] = wait
        trace[k, T_TIME] = time
        trace[k, T_CHOICE] = choice
        trace[k, T_HAND_AFTER] = hand_size(g, seat) if seat >= 0 else -1
        trace[k, T_TABLE_AFTER] = g[TABLE_CARDS]
        trace[k, T_PILE_AFTER] = g[DECK_N] - g[DRAWN]
        trace[k, T_AUX] = aux


@njit(cache=True, inline="always")
def set_held(g, seat, char, n):
    """Seat holds ``n`` copies of ``char``: the count and both masks."""
    g[held_at(seat, char)] = n
    bit = np.int64(1) << char
    m1 = g[at(HELD_ONCE, seat)] | bit
    m2 = g[at(HELD_TWICE, seat)] | bit
    if n < 2:
        m2 ^= bit
        if n < 1:
            m1 ^= bit
    g[at(HELD_ONCE, seat)] = m1
    g[at(HELD_TWICE, seat)] = m2


@njit(cache=True, inline="always")
def sorted_deck(g):
    """The deck in character order (``copies`` of each), before a lazy shuffle."""
    k = 0
    for c in range(g[CHARS]):
        for _ in range(g[COPIES]):
            g[DECK + k] = c
            k += 1


@njit(cache=True, inline="always")
def next_card(g, deck_rng, scripted):
    """The top card of this deal's deck: the next in order (scripted) or a lazy Fisher-Yates
    draw among the undrawn cards (the same draws as ``rng.draw_lazy``)."""
    d = g[DRAWN]
    if scripted:
        card = g[DECK + d]
    else:
        j = DECK + d + bounded(deck_rng, g[DECK_N] - d)
        card = g[j]
        g[j] = g[DECK + d]
        g[DECK + d] = card
    g[DRAWN] = d + 1
    return card


@njit(cache=True)
def deal(g, deck_rng, scripted, trace):
    """Deal a round from the deck in ``g`` (rules: Round setup): ``hand_size`` cards to each
    seat in blocks (seat 0 first), then two starter cards (one pile of two when equal); the
    rest is the draw pile."""
    players = g[PLAYERS]
    chars = g[CHARS]
    g[DRAWN] = 0
    hand = g[HAND_DEALT]
    for s in range(players):
        for c in range(chars):
            g[held_at(s, c)] = 0
        for _ in range(hand):
            c = next_card(g, deck_rng, scripted)
            g[held_at(s, c)] += 1
        m1 = np.int64(0)
        m2 = np.int64(0)
        for c in range(chars):
            n = held(g, s, c)
            if n >= 1:
                m1 |= np.int64(1) << c
                if n >= 2:
                    m2 |= np.int64(1) << c
        g[at(HELD_ONCE, s)] = m1
        g[at(HELD_TWICE, s)] = m2
        g[at(HAND_N, s)] = hand
    a = next_card(g, deck_rng, scripted)
    b = next_card(g, deck_rng, scripted)
    g[TABLE] = (np.int64(1) << a) | (np.int64(1) << b)
    g[TABLE_CARDS] = 2
    record(trace, EV_DEAL, g, g[DEAL] % players, a, 2, 0.0, 0.0, -1.0, b)


@njit(cache=True)
def rotate_hands(g, r):
    """Duplicate deals: the hand dealt to seat s goes to seat (s + r) % players (right after
    ``deal``; the starters stay on the table)."""
    players = g[PLAYERS]
    for _ in range(r):
        for c in range(g[CHARS]):
            last = g[held_at(players - 1, c)]
            for s in range(players - 1, 0, -1):
                g[held_at(s, c)] = g[held_at(s - 1, c)]
            g[held_at(0, c)] = last
        for block in (HELD_ONCE, HELD_TWICE, HAND_N):
            last = g[at(block, players - 1)]
            for s in range(players - 1, 0, -1):
                g[at(block, s)] = g[at(block, s - 1)]
            g[at(block, 0)] = last


# --- the timing model --------------------------------------------------------------------------
# The rates (rules: Timing model) and the choice of the actor are written out in the event loop,
# ``kernel.play_round``: as inlined functions here they cost ~10 % more time per game at the same
# instruction count (measured on a 4-player greedy block, interleaved runs).

@njit(cache=True, inline="always")
def rate(fw, seat):
    return fw[F_RATE + seat]


# --- actions -----------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def play_move(g, seat, play):
    """Start a pile with every copy of the character held, or add one card to a pile showing
    it (rules: Actions); returns the cards moved to the table."""
    c = play >> 1
    n = held(g, seat, c)
    if play & ADD:
        moved = 1
    else:
        moved = n
        g[TABLE] |= np.int64(1) << c
    set_held(g, seat, c, n - moved)
    g[at(HAND_N, seat)] -= moved
    g[TABLE_CARDS] += moved
    return moved


@njit(cache=True, inline="always")
def draw_card(g, seat, deck_rng, scripted):
    """The forced draw of a seat without a play (the draw pile is not empty); returns the card."""
    c = next_card(g, deck_rng, scripted)
    set_held(g, seat, c, held(g, seat, c) + 1)
    g[at(HAND_N, seat)] += 1
    g[DRAWS] += 1
    return c


@njit(cache=True, inline="always")
def end_round(g, winner, time, trace):
    """Score a round (rules: End of a round): the seat that wigged out scores 0, every other
    seat 1 point per card in hand; a deadlock (``winner`` -1) scores nothing and counts as a
    round only with ``deadlock_counts_as_round``."""
    if winner >= 0:
        for s in range(g[PLAYERS]):
            if s != winner:
                g[at(POINTS, s)] += hand_size(g, s)
        g[at(ROUNDS_WON, winner)] += 1
        record(trace, EV_WIGOUT, g, winner, -1, 0, 0.0, time, -1.0, 0)
        g[ROUND] += 1
    else:
        g[DEADLOCKS] += 1
        record(trace, EV_DEADLOCK, g, -1, -1, 0, 0.0, time, -1.0, g[DEADLOCK_COUNTS])
        if g[DEADLOCK_COUNTS]:
            g[ROUND] += 1
    g[DEAL] += 1

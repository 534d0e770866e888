"""Gift of Tulips' rules as jitted functions over ONE flat int64 game state (docs/rules/tulips.md).

The state ``g`` holds every number of a game at the named offsets below (no tuples of
arrays, no slices in the hot loop):

* run constants (set once per block by :func:`init_tables` from the packed parameters):
  player count, deck size, the deck's card ids in canonical order, each card's colour and
  value, the festival board (give/keep bonus per place, majority points per place and
  majority), the number of majorities paid and the secret-festival reveal size;
* the deck ``DECK``, in **drawing order**: the 2 festival cards, 2 cards per seat, the draw
  pile, then (last) the cards removed face down at setup. A run shuffles lazily, so the
  removed cards are simply the cards never drawn; the rules' layout (removed first) is
  restored by the scripted entry point and the trace;
* the festival: ``TOTALS[colour]``, ``RANK[place]`` (colour in each place, 1st first) and
  ``PLACE[colour]``; the secret festival ``SECRET[:N_SECRET]`` and who placed each card
  (``SECRET_SEAT``: a seat sees its own secret cards, see ``view``);
* the bouquets as cards and value per (seat, colour) — all that majorities need — and the
  points so far per seat.

Readings of the rules page (the game's readings of its open points, written once, here):

* Deck layout (explicit decks, top first): removed cards, the 2 festival cards, 2 per seat
  (the first is hand index 0), the draw pile. A run shuffles lazily in drawing order, so the
  removed cards are the cards never drawn (the trace lists them at the end).
* The opening ranking: a random permutation of the colours from the table stream, stably
  sorted by festival total (ties, including the two colours at 0, in permutation order).
* Setup: every seat chooses its bouquet card before any is placed (simultaneous).
* Re-ranking: the raised colour moves just above the highest-placed colour whose total is
  <= its new total (ties favour the colour just raised), after every open card and every
  revealed secret card; values are >= 0, so a colour only ever moves up. Places are read at
  the moment of each action.
* A turn's two actions must be of different kinds: keep, give, festival (open and secret
  are both "festival").
* End: the pile empties -> the game ends, mid-turn if need be (a turn whose second draw finds
  the pile empty ends there; it still counts: ``turns`` counts turns begun, all seats
  together). ``min(secret size, secret_reveal)`` secret cards are revealed, chosen at random
  and in random order (the order is random even when all are revealed).
* Majorities (dense tie rule), for the colours in places 1st-3rd only: holders of >= 1 card
  of the colour are grouped by ``(count, total value)``, best first; group ``k`` is paid
  majority ``k`` of that colour's place (``majority_points[place][k]``) when ``k`` < the
  number of majorities (1 with 2 players, 2 with 3-4, 3 with 5-6): tied players share a
  majority's points, the next group gets the following majority.
* Most points wins; tie: most tulips in bouquet; still tied: shared (1/k each).
* Outputs: ``score`` = points; seat outputs ``keep_points``, ``give_points``,
  ``majority_points``, ``tulips``; metrics ``keep_points``, ``give_points``,
  ``majority_points`` are stored per game as integer sums over seats (the rules' per-game
  mean over seats is the sum / players); ``turns`` = player turns, all seats.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.rows import share_win
from montecards.engine.trace import trace_slot
from montecards.games.tulips.cards import (
    MAX_CARDS,
    MAX_PLAYERS,
    MAX_VALUES,
    N_COLOURS,
    N_MAJORITY_COLS,
    N_PLACES,
)
from montecards.rng import bounded

# --- the packed parameter vector (float64, see game.pack_params) ------------------------------
P_NVALUES = 0
P_VALUES = 1
P_BASE = P_VALUES + MAX_VALUES
P_MARKED = P_BASE + 1
P_REMOVED = P_MARKED + 1  # 5 entries: 2..6 players
P_GIVE = P_REMOVED + 5
P_KEEP = P_GIVE + N_PLACES
P_MAJ = P_KEEP + N_PLACES  # place-major, 4 x 3
P_REVEAL = P_MAJ + N_PLACES * N_MAJORITY_COLS
P_START = P_REVEAL + 1  # start_points, per seat (MAX_PLAYERS entries)
N_PARAMS = P_START + MAX_PLAYERS

# --- offsets in the flat state ----------------------------------------------------------------
# scalars
PLAYERS = 0
N_DECK = 1  # cards in the deck with this player count
PILE_END = 2  # DECK[:PILE_END] is festival + deal + draw pile; the rest is removed
DRAWN = 3
TURNS = 4
ACTIONS = 5
N_SECRET = 6
N_MAJ = 7  # majorities paid per colour
REVEAL = 8  # secret_reveal
ERR_AT = 9  # scripted play: the action (or seat) at which the script went wrong
N_SCALARS = 16
# run tables
CANON = N_SCALARS  # the deck's ids in canonical order
COLOUR_OF = CANON + MAX_CARDS  # by card id
VALUE_OF = COLOUR_OF + MAX_CARDS
GIVE_BONUS = VALUE_OF + MAX_CARDS  # by place (0 = 1st)
KEEP_BONUS = GIVE_BONUS + N_PLACES
MAJ_TABLE = KEEP_BONUS + N_PLACES  # [place * 3 + k]
START_PTS = MAJ_TABLE + N_PLACES * N_MAJORITY_COLS  # start_points per seat (a seat compensation)
# the game
DECK = START_PTS + MAX_PLAYERS
TOTALS = DECK + MAX_CARDS
RANK = TOTALS + N_COLOURS
PLACE = RANK + N_PLACES
COUNT = PLACE + N_COLOURS  # [seat * 4 + colour]
VSUM = COUNT + MAX_PLAYERS * N_COLOURS
TULIPS = VSUM + MAX_PLAYERS * N_COLOURS
KEEP_PTS = TULIPS + MAX_PLAYERS
GIVE_PTS = KEEP_PTS + MAX_PLAYERS
MAJ_PTS = GIVE_PTS + MAX_PLAYERS
SO_FAR = MAJ_PTS + MAX_PLAYERS  # start + keep + give points so far
SCORE = SO_FAR + MAX_PLAYERS
SHARE = SCORE + MAX_PLAYERS
SECRET = SHARE + MAX_PLAYERS
SECRET_SEAT = SECRET + MAX_CARDS  # who placed each secret-festival card (the view's own secrets)
SETUP_CHOICE = SECRET_SEAT + MAX_CARDS
STATE_SIZE = SETUP_CHOICE + MAX_PLAYERS

# --- actions ------------------------------------------------------------------------------------
KEEP = 0
GIVE = 1
OPEN = 2  # festival, open
SECRET_ACTION = 3  # festival, secret
ACTION_NAMES = ("keep", "give", "open", "secret")
NO_CLASS = -1  # before a turn's first action
# classes for the "different action" rule: keep 0, give 1, festival 2 (open and secret)

KEY_SHIFT = 1 << 20  # majority key: count * KEY_SHIFT + total value (values <= 1000, <= 256 cards)

# --- trace events: (kind, seat, card, a, b, c); row 0 holds the count -----------------------------
EV_FESTIVAL = 0  # card opened at setup; a = its colour's total
EV_RANKING = 1  # a = ranking code (rank_code), b = 1 if the order changed, card = cause (-1 at setup)
EV_DEAL = 2  # seat, card, a = hand index
EV_SETUP = 3  # seat, card = to the bouquet, a = to the secret festival, b = hand index kept
EV_TURN = 4  # seat, a = turn number (1-based)
EV_DRAW = 5  # seat, card, a = action of the turn (0, 1)
EV_KEEP = 6  # seat, card, a = points
EV_GIVE = 7  # seat, card, a = points, b = receiver
EV_OPEN = 8  # seat, card, a = new total
EV_SECRET = 9  # seat, card
EV_REVEAL = 10  # card, a = new total
EV_DISCARD = 11  # card: a secret-festival card not revealed
EV_REMOVED = 12  # card: removed face down at setup (recorded at the end: the undrawn cards)
EV_MAJORITY = 13  # seat, a = points, b = colour, c = place * 8 + k (0-based)
EV_END = 14  # a = the seat's score, b = tulips, c = win share (sixtieths)
TRACE_COLS = 6
MAX_EVENTS = 8 * MAX_CARDS + 64


def new_state() -> np.ndarray:
    return np.zeros(STATE_SIZE, dtype=np.int64)


@njit(cache=True)
def record(trace, kind, seat, card, a, b, c):
    """Append one event to ``trace`` by ``engine/trace.py``'s rule: a no-op when tracing is off
    (a (0, k) buffer), counted but dropped when the buffer is full (reading it with
    ``events_of`` then raises). ``trace`` None records nothing and compiles to nothing: runs
    and the strategies' look-ahead pass None (numba prunes the test of an argument; a
    (0, k) buffer would leave every event's test and its code in the kernel).

    Not inlined by numba: inlined, its IR was copied into each of its 17 call sites before the
    test of None could be pruned (~0.5 s of a cold compile); called, it compiles once per
    trace type (integer literals are made plain, ``engine.specialise``) and LLVM inlines the
    empty body of the None copy."""
    if trace is not None:
        n = trace_slot(trace)
        if n >= 0:
            trace[n, 0] = kind
            trace[n, 1] = seat
            trace[n, 2] = card
            trace[n, 3] = a
            trace[n, 4] = b
            trace[n, 5] = c


@njit(cache=True)
def init_tables(g, players, params):
    """Run constants from the packed parameters (once per block: they never change in a run)."""
    n_values = np.int64(params[P_NVALUES])
    base = np.int64(params[P_BASE])
    marked = np.int64(params[P_MARKED])
    cpc = n_values * (base + marked)
    n_base = n_values * base
    g[PLAYERS] = players
    g[N_MAJ] = 1 if players == 2 else (2 if players <= 4 else 3)
    g[REVEAL] = np.int64(params[P_REVEAL])
    n = 0
    for colour in range(N_COLOURS):
        for index in range(cpc):
            card = colour * cpc + index
            if index < n_base:
                value = params[P_VALUES + index // base]
            else:
                value = params[P_VALUES + (index - n_base) // marked]
            g[COLOUR_OF + card] = colour
            g[VALUE_OF + card] = np.int64(value)
            if players >= 5 or index < n_base:
                g[CANON + n] = card
                n += 1
    g[N_DECK] = n
    g[PILE_END] = n - np.int64(params[P_REMOVED + players - 2])
    for p in range(N_PLACES):
        g[GIVE_BONUS + p] = np.int64(params[P_GIVE + p])
        g[KEEP_BONUS + p] = np.int64(params[P_KEEP + p])
        for k in range(N_MAJORITY_COLS):
            g[MAJ_TABLE + p * N_MAJORITY_COLS + k] = np.int64(params[P_MAJ + p * N_MAJORITY_COLS + k])
    for s in range(MAX_PLAYERS):
        g[START_PTS + s] = np.int64(params[P_START + s])


@njit(cache=True, inline="always")
def reset_game(g, lazy):
    """Clear one game's state (the run tables stay); a run reloads the canonical deck."""
    g[DRAWN] = 0
    g[TURNS] = 0
    g[ACTIONS] = 0
    g[N_SECRET] = 0
    g[ERR_AT] = -1
    for c in range(N_COLOURS):
        g[TOTALS + c] = 0
    for i in range(MAX_PLAYERS * N_COLOURS):
        g[COUNT + i] = 0
        g[VSUM + i] = 0
    for s in range(MAX_PLAYERS):
        g[TULIPS + s] = 0
        g[KEEP_PTS + s] = 0
        g[GIVE_PTS + s] = 0
        g[MAJ_PTS + s] = 0
        g[SO_FAR + s] = g[START_PTS + s]  # the start points count from the start (0 officially)
    if lazy:
        for k in range(g[N_DECK]):
            g[DECK + k] = g[CANON + k]


@njit(cache=True, inline="always")
def next_card(g, rng, lazy):
    """The next card in drawing order: a lazy Fisher-Yates draw (run) or the scripted order."""
    drawn = g[DRAWN]
    if lazy:
        j = drawn + bounded(rng, g[N_DECK] - drawn)
        card = g[DECK + j]
        g[DECK + j] = g[DECK + drawn]
        g[DECK + drawn] = card
    else:
        card = g[DECK + drawn]
    g[DRAWN] = drawn + 1
    return card


# --- reading the state (named accessors: the rules below read as the rules page) ----------------


@njit(cache=True, inline="always")
def player_count(g):
    return g[PLAYERS]


@njit(cache=True, inline="always")
def colour_of(g, card):
    return g[COLOUR_OF + card]


@njit(cache=True, inline="always")
def value_of(g, card):
    return g[VALUE_OF + card]


@njit(cache=True, inline="always")
def total(g, colour):
    """The colour's open-festival total."""
    return g[TOTALS + colour]


@njit(cache=True, inline="always")
def colour_at(g, place):
    """The colour in ``place`` of the ranking (0 = 1st)."""
    return g[RANK + place]


@njit(cache=True, inline="always")
def place_of(g, colour):
    return g[PLACE + colour]


@njit(cache=True, inline="always")
def give_bonus(g, place):
    return g[GIVE_BONUS + place]


@njit(cache=True, inline="always")
def keep_bonus(g, place):
    return g[KEEP_BONUS + place]


@njit(cache=True, inline="always")
def majority_award(g, place, k):
    """Points of majority ``k`` (0 = the 1st) of the colour in ``place``."""
    return g[MAJ_TABLE + place * N_MAJORITY_COLS + k]


@njit(cache=True, inline="always")
def majorities_paid(g):
    """Majorities paid per colour: 1 with 2 players, 2 with 3-4, 3 with 5-6."""
    return g[N_MAJ]


@njit(cache=True, inline="always")
def bouquet_count(g, seat, colour):
    return g[COUNT + seat * N_COLOURS + colour]


@njit(cache=True, inline="always")
def bouquet_value(g, seat, colour):
    return g[VSUM + seat * N_COLOURS + colour]


@njit(cache=True, inline="always")
def tulips(g, seat):
    """Cards in the seat's bouquet."""
    return g[TULIPS + seat]


@njit(cache=True, inline="always")
def so_far(g, seat):
    """Points so far (start points + keep + give; majorities only come at the end)."""
    return g[SO_FAR + seat]


@njit(cache=True, inline="always")
def score(g, seat):
    """Final points (set by :func:`final_scores`)."""
    return g[SCORE + seat]


@njit(cache=True, inline="always")
def secret_size(g):
    return g[N_SECRET]


@njit(cache=True, inline="always")
def secret_card(g, i):
    return g[SECRET + i]


@njit(cache=True, inline="always")
def secret_owner(g, i):
    """The seat that put secret-festival card ``i`` there (until the reveal reorders them)."""
    return g[SECRET_SEAT + i]


@njit(cache=True, inline="always")
def reveal_size(g):
    """``secret_reveal``: at most this many secret cards are revealed at the end."""
    return g[REVEAL]


@njit(cache=True, inline="always")
def keep_total(g, seat):
    """The seat's keep points so far."""
    return g[KEEP_PTS + seat]


@njit(cache=True, inline="always")
def give_total(g, seat):
    """The seat's give points so far."""
    return g[GIVE_PTS + seat]


@njit(cache=True, inline="always")
def turns_begun(g):
    return g[TURNS]


@njit(cache=True, inline="always")
def pile_left(g):
    """Cards left in the draw pile."""
    return g[PILE_END] - g[DRAWN]


@njit(cache=True, inline="always")
def majority_total(g, seat):
    """The seat's majority points (set by :func:`final_scores`)."""
    return g[MAJ_PTS + seat]


@njit(cache=True, inline="always")
def win_share(g, seat):
    """The seat's share of the win in ``WIN_UNIT``s (set by :func:`final_scores`)."""
    return g[SHARE + seat]


@njit(cache=True, inline="always")
def actions_done(g):
    """Actions played so far, all seats together (two per turn)."""
    return g[ACTIONS]


@njit(cache=True, inline="always")
def dealt_card(g, seat, k):
    """Card ``k`` (0, 1) dealt to ``seat`` (the deck is in drawing order: festival, deal, ...)."""
    return g[DECK + 2 + 2 * seat + k]


@njit(cache=True)
def rotate_dealt(g, players, r):
    """Duplicate deals: the two cards dealt to seat s go to seat (s + r) % players (after the
    deal, before the bouquet/secret choice; the festival and the opening ranking stay)."""
    for _ in range(r):
        for k in range(2):
            last = g[DECK + 2 + 2 * (players - 1) + k]
            for seat in range(players - 1, 0, -1):
                g[DECK + 2 + 2 * seat + k] = g[DECK + 2 + 2 * (seat - 1) + k]
            g[DECK + 2 + k] = last


@njit(cache=True, inline="always")
def drawn_card(g):
    """The card drawn last."""
    return g[DECK + g[DRAWN] - 1]


@njit(cache=True, inline="always")
def rank_code(g):
    """The ranking as one number: colour in place p at bits 2p (1st place lowest)."""
    return colour_at(g, 0) + 4 * colour_at(g, 1) + 16 * colour_at(g, 2) + 64 * colour_at(g, 3)


# --- the rules -------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def draw_festival(g, rng, lazy):
    """The two opening festival cards; a run redraws until their colours differ (rejection).

    Returns False for a scripted deck whose two festival cards share a colour.
    """
    while True:
        g[DRAWN] = 0
        a = next_card(g, rng, lazy)
        b = next_card(g, rng, lazy)
        if colour_of(g, a) != colour_of(g, b):
            return True
        if not lazy:
            return False


@njit(cache=True, inline="always")
def open_festival_setup(g, trace):
    """Add the two festival cards to their colours' totals."""
    for k in range(2):
        card = g[DECK + k]
        colour = colour_of(g, card)
        g[TOTALS + colour] += value_of(g, card)
        record(trace, EV_FESTIVAL, -1, card, total(g, colour), 0, 0)


@njit(cache=True, inline="always")
def random_opening(g, rng):
    """A random permutation of the colours, then a stable sort by total (highest first)."""
    for c in range(N_COLOURS):
        g[RANK + c] = c
    for k in range(N_COLOURS - 1):
        j = k + bounded(rng, N_COLOURS - k)
        t = g[RANK + j]
        g[RANK + j] = g[RANK + k]
        g[RANK + k] = t
    sort_ranking(g)


@njit(cache=True, inline="always")
def sort_ranking(g):
    """Stable insertion sort of ``RANK`` by total, highest first; then ``PLACE``."""
    for i in range(1, N_PLACES):
        c = colour_at(g, i)
        t = total(g, c)
        j = i - 1
        while j >= 0 and total(g, colour_at(g, j)) < t:
            g[RANK + j + 1] = colour_at(g, j)
            j -= 1
        g[RANK + j + 1] = c
    for p in range(N_PLACES):
        g[PLACE + colour_at(g, p)] = p


@njit(cache=True)
def set_ranking(g, order):
    """A given opening ranking (scripted); False unless it is a permutation sorted by total."""
    seen = 0
    for p in range(N_PLACES):
        c = order[p]
        if c < 0 or c >= N_COLOURS or (seen >> c) & 1:
            return False
        seen |= 1 << c
        if p > 0 and total(g, order[p - 1]) < total(g, c):
            return False
    for p in range(N_PLACES):
        g[RANK + p] = order[p]
        g[PLACE + order[p]] = p
    return True


@njit(cache=True, inline="always")
def raise_colour(g, colour, value):
    """Add ``value`` to ``colour``'s total and re-rank; return True if the order changed.

    The colour moves just above the highest-placed colour whose total is <= its new total
    (ties favour the colour just raised; the others keep their order). The ranking is sorted
    and ``value >= 0``, so only the colours above it need looking at.
    """
    g[TOTALS + colour] += value
    t = total(g, colour)
    p = place_of(g, colour)
    q = 0
    while q < p and total(g, colour_at(g, q)) > t:
        q += 1
    if q == p:
        return False
    for i in range(p, q, -1):
        other = colour_at(g, i - 1)
        g[RANK + i] = other
        g[PLACE + other] = i
    g[RANK + q] = colour
    g[PLACE + colour] = q
    return True


@njit(cache=True, inline="always")
def to_bouquet(g, seat, card):
    colour = colour_of(g, card)
    g[COUNT + seat * N_COLOURS + colour] += 1
    g[VSUM + seat * N_COLOURS + colour] += value_of(g, card)
    g[TULIPS + seat] += 1


@njit(cache=True, inline="always")
def trial_bouquet(g, seat, card, sign):
    """Put ``card`` in the seat's bouquet (``sign`` 1) or take it out again (-1): a
    strategy's look-ahead (the card's id is not recorded, only what majorities need)."""
    colour = colour_of(g, card)
    g[COUNT + seat * N_COLOURS + colour] += sign
    g[VSUM + seat * N_COLOURS + colour] += sign * value_of(g, card)
    g[TULIPS + seat] += sign


@njit(cache=True, inline="always")
def save_ranking(g, at):
    """Copy the ranking and the places into ``g[at : at + 8]`` (a strategy's scratch)."""
    for p in range(N_PLACES):
        g[at + p] = g[RANK + p]
        g[at + N_PLACES + p] = g[PLACE + p]


@njit(cache=True, inline="always")
def undo_raise(g, colour, value, changed, at):
    """Undo :func:`raise_colour` (which returned ``changed``): restore the ranking and places
    saved by :func:`save_ranking` if the raise changed them, and lower the total again."""
    if changed:
        for p in range(N_PLACES):
            g[RANK + p] = g[at + p]
            g[PLACE + p] = g[at + N_PLACES + p]
    g[TOTALS + colour] -= value


@njit(cache=True, inline="always")
def to_secret(g, seat, card):
    g[SECRET + g[N_SECRET]] = card
    g[SECRET_SEAT + g[N_SECRET]] = seat
    g[N_SECRET] += 1


@njit(cache=True, inline="always")
def keep_points(g, card):
    return keep_bonus(g, place_of(g, colour_of(g, card)))


@njit(cache=True, inline="always")
def give_points(g, card):
    return value_of(g, card) + give_bonus(g, place_of(g, colour_of(g, card)))


@njit(cache=True, inline="always")
def apply_action(g, seat, card, action, receiver, trace):
    """Do one action with the drawn ``card`` (places read now, before the action)."""
    if action == KEEP:
        pts = keep_points(g, card)
        g[KEEP_PTS + seat] += pts
        g[SO_FAR + seat] += pts
        to_bouquet(g, seat, card)
        record(trace, EV_KEEP, seat, card, pts, 0, 0)
    elif action == GIVE:
        pts = give_points(g, card)
        g[GIVE_PTS + seat] += pts
        g[SO_FAR + seat] += pts
        to_bouquet(g, receiver, card)
        record(trace, EV_GIVE, seat, card, pts, receiver, 0)
    elif action == OPEN:
        colour = colour_of(g, card)
        changed = raise_colour(g, colour, value_of(g, card))
        record(trace, EV_OPEN, seat, card, total(g, colour), 0, 0)
        record(trace, EV_RANKING, seat, card, rank_code(g), 1 if changed else 0, 0)
    else:
        to_secret(g, seat, card)
        record(trace, EV_SECRET, seat, card, 0, 0, 0)
    g[ACTIONS] += 1


@njit(cache=True, inline="always")
def action_class(action):
    return OPEN if action >= OPEN else action


@njit(cache=True, inline="always")
def colour_majorities(g, colour, place, out, sign, trace):
    """Add ``sign`` x the majority points of ``colour`` (standing in ``place``) to each seat's
    ``g[out + seat]`` (the final points, or a strategy's scratch after the state):
    holders (>= 1 card) grouped by (count, total value), best first; group ``k`` gets
    majority ``k`` of the place (dense rule: tied holders share a majority's points, the next
    group gets the following majority); ``N_MAJ`` majorities are paid.

    One pass finds the best three distinct keys ``count * KEY_SHIFT + total``, a second pays.
    """
    players = player_count(g)
    k1 = 0
    k2 = 0
    k3 = 0
    for s in range(players):
        n = bouquet_count(g, s, colour)
        if n > 0:
            key = n * KEY_SHIFT + bouquet_value(g, s, colour)
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
    if k1 == 0:
        return
    n_maj = majorities_paid(g)
    if n_maj < 3:
        k3 = -1
        if n_maj < 2:
            k2 = -1
    for s in range(players):
        n = bouquet_count(g, s, colour)
        if n > 0:
            key = n * KEY_SHIFT + bouquet_value(g, s, colour)
            k = 0 if key == k1 else (1 if key == k2 else (2 if key == k3 else -1))
            if k >= 0:
                pts = majority_award(g, place, k)
                g[out + s] += sign * pts
                record(trace, EV_MAJORITY, s, -1, pts, colour, place * 8 + k)


@njit(cache=True)
def majorities(g, out, trace):
    """Majority points per seat at the current ranking into ``g[out : out + players]``:
    the colours in places 1st-3rd pay (see :func:`colour_majorities`)."""
    for s in range(player_count(g)):
        g[out + s] = 0
    for place in range(3):
        colour_majorities(g, colour_at(g, place), place, out, 1, trace)


@njit(cache=True)
def reveal_secret(g, rng, order, trace):
    """End: ``min(N_SECRET, REVEAL)`` secret cards, chosen at random in random order (``order``
    None, a run: partial Fisher-Yates on the secret festival; numba compiles the scripted path
    out) or ``order`` (scripted), are opened one at a time with a re-ranking after each; the
    rest are discarded. False on a bad scripted order.
    """
    n = secret_size(g)
    k = min(n, reveal_size(g))
    if order is None:
        for i in range(k):
            j = i + bounded(rng, n - i)
            t = g[SECRET + j]
            g[SECRET + j] = g[SECRET + i]
            g[SECRET + i] = t
    else:
        if order.shape[0] != k:
            return False
        for i in range(k):  # move order[i] to position i (each must be an unrevealed card)
            found = -1
            for j in range(i, n):
                if secret_card(g, j) == order[i]:
                    found = j
                    break
            if found < 0:
                return False
            t = g[SECRET + found]
            g[SECRET + found] = g[SECRET + i]
            g[SECRET + i] = t
    for i in range(k):
        card = secret_card(g, i)
        colour = colour_of(g, card)
        changed = raise_colour(g, colour, value_of(g, card))
        record(trace, EV_REVEAL, -1, card, total(g, colour), 0, 0)
        record(trace, EV_RANKING, -1, card, rank_code(g), 1 if changed else 0, 0)
    for i in range(k, n):
        record(trace, EV_DISCARD, -1, secret_card(g, i), 0, 0, 0)
    return True


@njit(cache=True)
def final_scores(g, trace):
    """Majorities, scores and win shares: most points; tie: most tulips; still tied: shared.

    The shares are ``engine.rows.share_win``'s, in place in ``g[SHARE:]``: a seat's result key
    (lowest best) is minus ``points * (MAX_CARDS + 1) + tulips``, which orders the seats by
    points, then tulips (a bouquet holds at most ``MAX_CARDS`` tulips)."""
    players = player_count(g)
    if trace is not None and trace.shape[0] > 0:
        for k in range(g[PILE_END], g[N_DECK]):
            record(trace, EV_REMOVED, -1, g[DECK + k], 0, 0, 0)
    majorities(g, MAJ_PTS, trace)
    for s in range(players):
        g[SCORE + s] = g[START_PTS + s] + g[KEEP_PTS + s] + g[GIVE_PTS + s] + g[MAJ_PTS + s]
        g[SHARE + s] = -(score(g, s) * (MAX_CARDS + 1) + tulips(g, s))
    shares = g[SHARE : SHARE + players]
    share_win(shares, players, True, shares)
    for s in range(players):
        record(trace, EV_END, s, -1, score(g, s), tulips(g, s), g[SHARE + s])
